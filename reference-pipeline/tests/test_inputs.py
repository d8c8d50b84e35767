"""FASTA validation and fault-injection parsing: errors name the file, line, option and value."""

import os
import tempfile
import unittest

from refpipe.errors import InputError, UsageError
from refpipe.fasta import read_fasta
from refpipe.inject import parse_injections


def _write(test: unittest.TestCase, text: str) -> str:
    """A temp FASTA file removed when `test` ends, passed or not."""
    handle = tempfile.NamedTemporaryFile("w", suffix=".fa", delete=False)
    handle.write(text)
    handle.close()
    test.addCleanup(os.remove, handle.name)
    return handle.name


class ReadFastaTest(unittest.TestCase):
    def test_reads_multiline_records_uppercased(self):
        path = _write(self, ">a desc\nacg\nTTN\n>b\nA\n")
        self.assertEqual(read_fasta(path), [("a", "ACGTTN"), ("b", "A")])

    def test_rejects(self):
        cases = {
            "ACGT\n": "line 1: sequence before the first '>' header",
            ">a\nAC-GT\n": "line 2: '-' is not an IUPAC nucleotide letter",
            ">a\nAC\n>a\nGT\n": "line 3: duplicate record ID 'a'",
            ">a\n>b\nAC\n": "line 1: record 'a' has no sequence",
            "": "no records (empty file)",
            ">\nAC\n": "line 1: header without an ID",
        }
        for text, message in cases.items():
            path = _write(self, text)
            with self.subTest(text=text), self.assertRaises(InputError) as caught:
                read_fasta(path)
            self.assertIn(message, str(caught.exception))
            self.assertIn(path, str(caught.exception))


class ParseInjectionsTest(unittest.TestCase):
    def test_parses_every_fault(self):
        faults = parse_injections(
            ["cpu-stall-ms=200", "prework-ms-per-seq=1.5", "leak-mb=5", "oom", "imbalance=0.5", "misplace", "slow-stage=Feature Merging:2",
             "crash-at=esm-2 feature extraction", "partial=1"],
            {"REFPIPE_INJECT": "hang-at=CONSENSUS SCORING"},
        )  # fmt: skip
        self.assertEqual((faults.cpu_stall_ms, faults.leak_mb, faults.imbalance), (200.0, 5.0, 0.5))
        self.assertEqual(faults.prework_ms_per_seq, 1.5)
        self.assertTrue(faults.oom and faults.misplace and faults.partial)
        self.assertEqual(faults.slow_stage_s, {"Feature Merging": 2.0})
        self.assertEqual((faults.crash_at, faults.hang_at), ("ESM-2 Feature Extraction", "Consensus Scoring"))

    def test_rejects_bad_items_naming_them(self):
        for item, message in {
            "cpu-stall-ms=abc": "'abc' is not a number",
            "leak-mb=-1": "must be a finite number >= 0",
            "crash-at=Stage Ten": "unknown stage 'Stage Ten'",
            "slow-stage=Feature Merging": "expected slow-stage=STAGE:SECONDS",
            "oom=maybe": "oom takes no value",
            "boom": "unknown fault 'boom'",
        }.items():
            with self.subTest(item=item), self.assertRaises(UsageError) as caught:
                parse_injections([item], {})
            self.assertIn(f"--inject '{item}'", str(caught.exception))
            self.assertIn(message, str(caught.exception))


if __name__ == "__main__":
    unittest.main()
