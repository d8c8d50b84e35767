"""VirNucPro's two architectures: which one a run takes and says it takes, where VIRNUCPRO_DISABLE_PACKING is read,
the v1.0 path's model built once per split file, and how the files are split and shared among workers."""

import os
import tempfile
import unittest
from unittest import mock

import torch

from refpipe import encode_stage, stages
from refpipe.architecture import architecture_lines, choose_architecture, persistent_models_line
from refpipe.batching import plan_batches
from refpipe.devices import DevicePlan, plan_devices
from refpipe.extract import ExtractConfig
from refpipe.file_jobs import assign_files
from refpipe.frames import Frame
from refpipe.per_file import FileJob, extract_files
from refpipe.run_state import Options, Paths, RunState
from refpipe.scales import SHAPES
from refpipe.workers import shard_by_stride


class ArchitectureTest(unittest.TestCase):
    def test_v2_only_with_parallel_and_without_v1_fallback(self):
        # (parallel, v1_fallback) -> the version, as VirNucPro's `use_v2 = parallel and not v1_fallback`.
        table = {(True, False): "v2.0", (True, True): "v1.0", (False, False): "v1.0", (False, True): "v1.0"}
        for (parallel, fallback), version in table.items():
            with self.subTest(parallel=parallel, v1_fallback=fallback):
                self.assertEqual(choose_architecture(parallel, fallback).version, version)

    def test_the_lines_are_virnucpros_word_for_word(self):
        self.assertEqual(architecture_lines(choose_architecture(True, False)), [
            "Architecture: v2.0 hybrid",
            "  ESM-2 embedding: v2.0 (async DataLoader + sequence packing)",
            "  DNABERT-S embedding: v1.0 (fast enough, v2.0 planned for v2.1)",
        ])  # fmt: skip
        fallback = ["Architecture: v1.0 (--v1-fallback, all stages use legacy multi-worker)"]
        # VirNucPro names --v1-fallback whenever it is given, with --parallel or not.
        self.assertEqual(architecture_lines(choose_architecture(True, True)), fallback)
        self.assertEqual(architecture_lines(choose_architecture(False, True)), fallback)
        self.assertEqual(architecture_lines(choose_architecture(False, False)),
                         ["Architecture: v1.0 (single-GPU or non-parallel mode)"])  # fmt: skip

    def test_persistent_models_is_said_to_change_nothing(self):
        self.assertEqual(persistent_models_line(False, True), "  Persistent models: disabled (standard model loading)")
        self.assertIn("ignored: it acts only with --parallel", persistent_models_line(True, False))
        self.assertIn("no effect here", persistent_models_line(True, True))

    def test_parallel_on_one_device_and_several_cpu_workers(self):
        one = plan_devices("cpu", None, True, 1, None, None)
        self.assertEqual((one.devices, one.parallel), (["cpu"], True))
        self.assertTrue(plan_devices("cpu", None, False, 2, None, None).parallel)
        self.assertFalse(plan_devices("cpu", None, False, 1, None, None).parallel)


class BatchingInInputOrderTest(unittest.TestCase):
    def test_unsorted_batches_stay_within_the_budget_of_their_longest_row(self):
        lengths = [12, 170, 5, 90, 400, 33, 170, 7]
        batches = plan_batches(list(range(len(lengths))), lengths, 400)
        self.assertEqual([i for b in batches for i in b], list(range(len(lengths))))
        for batch in batches:
            self.assertLessEqual(len(batch) * max(lengths[i] for i in batch), 400)
        # A short row first does not let a long one join on the short one's width.
        self.assertEqual(plan_batches([0, 1], [10, 300], 400), [[0], [1]])


class SplitAndShareTest(unittest.TestCase):
    def test_files_go_to_the_worker_with_the_fewest_sequences_largest_first(self):
        jobs = [FileJob(f"f{i}.fa", f"f{i}.pt", [], ["A"] * n) for i, n in enumerate([5, 9, 5, 2, 9])]
        with self.assertLogs("refpipe.pipeline.prediction") as logs:
            shares = assign_files(jobs, 2)
        self.assertEqual([[j.fasta_path for j in share] for share in shares], [["f1.fa", "f0.fa", "f3.fa"],
                                                                               ["f4.fa", "f2.fa"]])  # fmt: skip
        self.assertIn("INFO:refpipe.pipeline.prediction:  Worker 0: 3 files, 16 sequences", logs.output)

    def test_stride_shards_cover_every_sequence_once_each_in_input_order(self):
        sequences = ["A" * n for n in (3, 9, 1, 7, 5, 8)]
        shards = shard_by_stride("esm", sequences, 2)
        self.assertEqual(sorted(i for s in shards for i in s), list(range(6)))
        # Longest first: 1, 5, 3, 4, 0, 2; worker 0 takes 1, 3, 0 and worker 1 takes 5, 4, 2, each in input order.
        self.assertEqual(shards, [[0, 1, 3], [2, 4, 5]])

    def test_split_size_and_the_adjustment_for_several_workers(self):
        run = _run(frames=250, devices=["cpu"] * 2, parallel=True, per_file=10000)
        with self.assertLogs("refpipe.pipeline.prediction") as logs:
            stages.nucleotide_file_splitting(run)
        # 250 frames on 2 workers: 4 files wanted, but none under 100 records.
        self.assertEqual((run.sequences_per_file, [len(m) for _, m in run.files]), (100, [100, 100, 50]))
        self.assertIn("Adjusted sequences_per_file to 100 for multi-GPU load balancing (250 sequences / 4 files)",
                      [line.split(":", 2)[2] for line in logs.output])  # fmt: skip
        self.assertTrue(any(" into files of 100 sequences" in line for line in logs.output))
        small = _run(frames=9, devices=["cpu"], parallel=False, per_file=4)
        stages.nucleotide_file_splitting(small)
        self.assertEqual([len(m) for _, m in small.files], [4, 4, 1])


class PackingSwitchTest(unittest.TestCase):
    """VIRNUCPRO_DISABLE_PACKING is read on the v2.0 ESM-2 path only, as only VirNucPro's v2.0 inference reads it."""

    def _config_seen(self, parallel: bool) -> ExtractConfig:
        run = _run(frames=3, devices=["cpu"], parallel=parallel, per_file=10000)
        stages.nucleotide_file_splitting(run)
        seen = {}

        def v2(sequences, devices, config, scratch):
            seen["config"] = config
            return torch.zeros((len(sequences), SHAPES["tiny"]["esm"].hidden))

        def v1(jobs, device, config):
            seen["config"] = config

        with mock.patch.dict(os.environ, {"VIRNUCPRO_DISABLE_PACKING": "True"}):
            with mock.patch.object(encode_stage, "run_parallel", v2):
                with mock.patch.object(encode_stage, "extract_files", v1):
                    encode_stage.encode(run, "esm")
        return seen["config"]

    def test_v2_turns_packing_off(self):
        self.assertFalse(self._config_seen(parallel=True).packing)

    def test_v1_does_not_read_it(self):
        self.assertTrue(self._config_seen(parallel=False).packing)


class PerFileTest(unittest.TestCase):
    def test_one_model_built_per_file_and_the_batches_counted_across_files(self):
        directory = tempfile.mkdtemp()
        self.addCleanup(_remove_tree, directory)
        path = f"{directory}/output_{{}}{{}}"
        jobs = [FileJob(path.format(i, ".fa"), path.format(i, "_ESM.pt"), [f"s{i}a", f"s{i}b"], ["MKV", "MA"])
                for i in range(3)]  # fmt: skip
        config = ExtractConfig("esm", "tiny", "fp32", 0, 32768, 0)
        with self.assertLogs("refpipe", level="INFO") as logs:
            totals = extract_files(jobs, "cpu", config)
        messages = [line.split(":", 2)[2] for line in logs.output]
        starts = [i for i, m in enumerate(messages) if m.startswith("Extracting ESM-2 features from ")]
        ready = [i for i, m in enumerate(messages) if m.startswith("ESM-2 ready: ")]
        saved = [i for i, m in enumerate(messages) if m.startswith("Saved ESM-2 features to ")]
        self.assertEqual((len(starts), len(ready), len(saved)), (3, 3, 3))
        for s, r, d in zip(starts, ready, saved):
            self.assertTrue(s < r < d)
        self.assertEqual(messages[saved[0]], f"Saved ESM-2 features to {directory}/output_0_ESM.pt (2 sequences)")
        batches = [m.split(":")[0] for m in messages if m.startswith("Batch ")]
        self.assertEqual(batches, ["Batch 1", "Batch 2", "Batch 3"])
        self.assertIn("Batch 3: 6/6 (100.0%)", "\n".join(messages))
        self.assertEqual(totals["sequences"], 6)
        self.assertEqual(torch.load(jobs[2].feature_path)["ids"], ["s2a", "s2b"])


def _run(frames: int, devices, parallel: bool, per_file: int) -> RunState:
    directory = tempfile.mkdtemp()
    unittest.addModuleCleanup(_remove_tree, directory)
    options = Options(input_path="x.fa", sequences_per_file=per_file)
    plan = DevicePlan(devices, parallel, "fp32", "tiny")
    run = RunState(options, plan, Paths(directory, "x"), choose_architecture(parallel, False))
    run.frames = [Frame(f"f{i}F1", "ATGAAA", "MK") for i in range(frames)]
    return run


def _remove_tree(directory: str) -> None:
    import shutil

    shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
