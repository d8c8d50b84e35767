"""Chunk and six-frame contract: chunk placement, reverse complement, translation, stop-free selection."""

import random
import unittest

from refpipe.frames import chunk_sequence, chunk_starts, reverse_complement, six_frames


class ChunkStartsTest(unittest.TestCase):
    def test_one_chunk_when_the_sequence_fits(self):
        self.assertEqual(chunk_starts(499, 500), [0])
        self.assertEqual(chunk_starts(500, 500), [0])

    def test_no_chunk_for_an_empty_sequence(self):
        self.assertEqual(chunk_starts(0, 500), [])

    def test_rounds_half_up_not_to_even(self):
        # n=1001, L=500: k=3, starts 0, floor(250.5 + 0.5) = 251, 501.
        self.assertEqual(chunk_starts(1001, 500), [0, 251, 501])

    def test_property_first_at_zero_last_ends_at_n_all_within(self):
        rng = random.Random(1)
        for _ in range(2000):
            n, length = rng.randint(1, 20000), rng.choice([300, 500, rng.randint(1, 700)])
            starts = chunk_starts(n, length)
            self.assertEqual(len(starts), -(-n // length))
            if len(starts) > 1:
                self.assertEqual(starts[0], 0)
                self.assertEqual(starts[-1] + length, n)
                self.assertTrue(all(a <= b for a, b in zip(starts, starts[1:])))

    def test_chunk_ids_are_one_based(self):
        chunks = chunk_sequence("s", "A" * 1200, 500)
        self.assertEqual([c[0] for c in chunks], ["s_chunk_1", "s_chunk_2", "s_chunk_3"])
        self.assertTrue(all(len(c[1]) == 500 for c in chunks))


class SixFramesTest(unittest.TestCase):
    def test_reverse_complement_maps_other_letters_to_n(self):
        self.assertEqual(reverse_complement("ACGTRYN"), "NNNACGT")

    def test_keeps_only_stop_free_frames_in_order(self):
        # F1 reads ATG AAA TAA: a stop, so F1 is dropped; the other frames have none.
        frames = six_frames("c", "ATGAAATAA")
        ids = [f.frame_id for f in frames]
        self.assertNotIn("cF1", ids)
        self.assertEqual(ids, sorted(ids, key=lambda i: ["F1", "F2", "F3", "R1", "R2", "R3"].index(i[-2:])))
        self.assertTrue(all("*" not in f.protein for f in frames))

    def test_translates_with_table_1_and_x_for_ambiguous_codons(self):
        frames = {f.frame_id: f for f in six_frames("c", "ATGGCNTGGTTT")}
        self.assertEqual(frames["cF1"].protein, "MXWF")
        self.assertEqual(frames["cF1"].nucleotides, "ATGGCNTGGTTT")

    def test_frame_uses_whole_codons_only(self):
        frames = {f.frame_id: f for f in six_frames("c", "GCTGCTGCTGC")}
        self.assertEqual(frames["cF2"].nucleotides, "CTGCTGCTG")
        self.assertEqual(frames["cF3"].nucleotides, "TGCTGCTGC")

    def test_property_every_kept_protein_translates_its_nucleotides(self):
        rng = random.Random(2)
        for _ in range(300):
            bases = "".join(rng.choice("ACGT") for _ in range(rng.randint(3, 120)))
            for frame in six_frames("c", bases):
                self.assertEqual(len(frame.nucleotides), 3 * len(frame.protein))
                self.assertNotIn("*", frame.protein)


if __name__ == "__main__":
    unittest.main()
