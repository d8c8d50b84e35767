"""Stages 5 and 6: DNABERT-S over the kept frames' bases, ESM-2 over their proteins; per split file, the embeddings go
to output_{i}_DNABERT_S.pt / output_{i}_ESM.pt. Which way each stage runs follows VirNucPro (refpipe.architecture):

- ESM-2 on v2.0: one worker process per device, each building its model once (refpipe.workers), batches packed unless
  VIRNUCPRO_DISABLE_PACKING=true (read here, on this path only, as only VirNucPro's v2.0 inference reads it);
- ESM-2 on v1.0, and DNABERT-S on one device whatever the architecture: file by file with a model built for each
  (refpipe.per_file), in this process on one device, or with --v1-fallback on several in one worker per device;
- DNABERT-S on several devices: one worker per device, its model built once (VirNucPro's multi-GPU DNABERT-S workers
  load it once too).
"""

import os
from typing import List, Tuple

import torch

from refpipe import faults
from refpipe.batching import token_lengths
from refpipe.devices import misplaced_devices
from refpipe.extract import LABEL, ExtractConfig
from refpipe.file_jobs import assign_files, file_jobs
from refpipe.logs import get_logger
from refpipe.per_file import extract_files, files_in_worker
from refpipe.run_state import RunState
from refpipe.scales import SHAPES
from refpipe.workers import run_parallel, run_workers

logger = get_logger("pipeline.prediction")
_SUFFIX = {"dnabert": "_DNABERT_S.pt", "esm": "_ESM.pt"}
PACKING_ENV = "VIRNUCPRO_DISABLE_PACKING"


def encode(run: RunState, kind: str) -> dict:
    """Embeds the frames of every split file that has not failed; returns the stage's extras."""
    files = _files_to_encode(run, kind)
    rows = [m for _, members in files for m in members]
    sequences = [run.frames[m].nucleotides if kind == "dnabert" else run.frames[m].protein for m in rows]
    devices = run.plan.devices
    if kind == "esm" and run.options.injections.misplace:
        devices = misplaced_devices(devices)
    shape = SHAPES[run.plan.scale][kind]
    logger.info(f"{LABEL[kind]}: {len(sequences):,} sequences on {', '.join(devices)} "
                f"({run.plan.scale}: {shape.layers} layers x {shape.hidden}, {shape.heads} heads; {run.plan.precision})")  # fmt: skip
    if kind == "esm":
        faults.prework(run.options.injections.prework_ms_per_seq, len(sequences))
    config = _config(run, kind)
    if kind == "esm" and run.architecture.v2:
        config.packing = packing_enabled()
    if not files:
        run.feature_files[kind] = {}
    elif _builds_per_worker(run, kind, devices):
        _write_feature_files(run, kind, files, run_parallel(sequences, devices, config, _directory(run, kind)))
    else:
        _per_file(run, kind, files, devices, config)
    noun = "frames" if kind == "dnabert" else "proteins"
    extras = {noun: len(sequences), "tokens": sum(token_lengths(kind, sequences)), "workers": len(devices)}
    if kind == "esm" and run.failed_files:
        extras["failed files"] = len(run.failed_files)
    if kind == "esm":
        extras["architecture"] = run.architecture.version
    return extras


def packing_enabled() -> bool:
    """False when VIRNUCPRO_DISABLE_PACKING is `true` (any case), as VirNucPro's async inference reads it."""
    disabled = os.environ.get(PACKING_ENV, "false").lower() == "true"
    if disabled:
        logger.info(f"ESM-2: sequence packing disabled ({PACKING_ENV}=true): batches in input order, each padded to "
                    "its longest sequence")  # fmt: skip
    return not disabled


def _builds_per_worker(run: RunState, kind: str, devices: List[str]) -> bool:
    if kind == "esm":
        return run.architecture.v2
    return len(devices) > 1


def _per_file(run: RunState, kind: str, files, devices: List[str], config: ExtractConfig) -> None:
    jobs = file_jobs(run, kind, files, _directory(run, kind), _SUFFIX[kind])
    if len(devices) == 1:
        if devices[0].startswith("cuda"):
            torch.cuda.set_device(int(devices[0].split(":")[1]))
        extract_files(jobs, devices[0], config)
    else:
        run_workers(assign_files(jobs, len(devices)), devices, config, _directory(run, kind), files_in_worker)
    run.feature_files[kind] = {index: job.feature_path for (index, _), job in zip(files, jobs)}


def _files_to_encode(run: RunState, kind: str) -> List[Tuple[int, List[int]]]:
    if kind != "esm" or not run.options.injections.partial or not run.files:
        return run.files
    failed_index, members = run.files[-1]
    run.failed_files.append(failed_index)
    faults.log_once("partial", f"Injected fault: partial: ESM-2 file output_{failed_index}.fa fails ({len(members):,} "
                               "proteins get no prediction); the run ends with exit 2")  # fmt: skip
    logger.error(f"Failed to process output_{failed_index}.fa: injected partial failure")
    return run.files[:-1]


def _config(run: RunState, kind: str) -> ExtractConfig:
    budget = run.options.dnabert_batch_tokens if kind == "dnabert" else run.options.esm_batch_tokens
    return ExtractConfig(kind, run.plan.scale, run.plan.precision, run.options.seed, budget,
                         run.options.loader_workers, run.options.injections, 0)  # fmt: skip


def _directory(run: RunState, kind: str) -> str:
    directory = run.paths.nucleotide_dir if kind == "dnabert" else run.paths.protein_dir
    os.makedirs(directory, exist_ok=True)
    return directory


def _write_feature_files(run: RunState, kind: str, files, embeddings: torch.Tensor) -> None:
    """The per-file features of an extraction made over all files at once (workers building their model once)."""
    directory = _directory(run, kind)
    written = {}
    start = 0
    for index, members in files:
        path = os.path.join(directory, f"output_{index}{_SUFFIX[kind]}")
        ids = [run.frames[m].frame_id for m in members]
        torch.save({"ids": ids, "embeddings": embeddings[start : start + len(members)].clone()}, path)
        written[index] = path
        start += len(members)
    run.feature_files[kind] = written
