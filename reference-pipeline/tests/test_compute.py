"""Batching, the encoder, consensus and the summary block."""

import unittest

import torch

from refpipe.batching import extra_batches, length_order, pack_efficiency, plan_batches
from refpipe.classify import consensus, format_consensus
from refpipe.encoder import Encoder
from refpipe.scales import SHAPES, parameter_count
from refpipe.telemetry import STAGES, summary_lines


class BatchingTest(unittest.TestCase):
    def test_batches_stay_within_the_token_budget(self):
        lengths = [170, 12, 90, 170, 400, 33, 170, 5]
        batches = plan_batches(length_order(lengths), lengths, 400)
        self.assertEqual(sorted(i for b in batches for i in b), list(range(len(lengths))))
        for batch in batches:
            self.assertLessEqual(len(batch) * max(lengths[i] for i in batch), 400)

    def test_a_sequence_over_budget_gets_its_own_batch(self):
        self.assertEqual(plan_batches([0, 1], [900, 10], 100), [[0], [1]])

    def test_pack_efficiency_is_real_over_padded_tokens(self):
        self.assertAlmostEqual(pack_efficiency([100, 50]), 150 / 200)
        self.assertEqual(pack_efficiency([7, 7, 7]), 1.0)

    def test_extra_batches_cycle_past_one(self):
        self.assertEqual(extra_batches(4, 0.5), [0, 1])
        self.assertEqual(extra_batches(2, 1.5), [0, 1, 0])


class EncoderTest(unittest.TestCase):
    def test_same_seed_same_embeddings_and_padding_does_not_leak(self):
        shape = SHAPES["tiny"]["esm"]
        a = Encoder(shape, 29, 64, "cpu", torch.float32, 5)
        b = Encoder(shape, 29, 64, "cpu", torch.float32, 5)
        ids = torch.tensor([[1, 5, 6, 7, 2], [1, 8, 2, 0, 0]])
        lengths = torch.tensor([5, 3])
        out = a(ids, lengths, True)
        self.assertTrue(torch.equal(out, b(ids, lengths, True)))
        alone = a(ids[1:, :3], lengths[1:], False)
        self.assertTrue(torch.allclose(out[1:], alone, atol=1e-5))

    def test_full_esm_shape_has_about_2_8_billion_parameters(self):
        self.assertAlmostEqual(parameter_count(SHAPES["full"]["esm"], 33, 1024) / 1e9, 2.84, delta=0.05)


class ConsensusAndSummaryTest(unittest.TestCase):
    def test_consensus_takes_max_scores_per_chunk(self):
        result = consensus([("s_chunk_1F1", "others", 0.7, 0.3), ("s_chunk_1R2", "virus", 0.4, 0.6)])
        self.assertEqual(result, {"s_chunk_1": (False, 0.7, 0.6)})
        self.assertEqual(format_consensus(result).splitlines()[1], "s_chunk_1\tFalse\t0.7\t0.6")

    def test_summary_block_layout(self):
        lines = summary_lines(10.0, [(name, 1.0) for name in STAGES], {STAGES[0]: {"sequences": 1234}})
        self.assertEqual(lines[1:4], ["=" * 80, "PIPELINE SUMMARY", "=" * 80])
        self.assertEqual(lines[4], "Total wall time: 00:00:10 (10.0s)")
        self.assertEqual(lines[7], "  1. Sequence Chunking ...............     1.0s ( 10.0%)")
        self.assertIn("  Sequences processed: 1,234", lines)
        self.assertEqual(lines[-1], "=" * 80)


if __name__ == "__main__":
    unittest.main()
