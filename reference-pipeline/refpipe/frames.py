"""Chunking and six-frame translation, per the chunk/six-frame contract shared with src/fixtures/six-frame.ts.

- k = ceil(n / L) chunks; one chunk is the whole sequence; otherwise every chunk is L bases and chunk i starts at
  floor(i * (n - L) / (k - 1) + 0.5), so the first starts at 0 and the last ends at n. IDs: {record}_chunk_{i+1}.
- Frames F1..F3 read the chunk from offset 0..2, R1..R3 its reverse complement (A<->T, C<->G, others -> N); each uses
  floor((len - offset) / 3) whole codons. NCBI table 1; stops -> '*'; a codon with a non-ACGT base -> 'X'.
- A frame is kept iff its translation has no '*'. Its ID is {chunk_id}{frame}.
"""

from typing import List, NamedTuple, Tuple

import numpy as np

# NCBI table 1 in TCAG order: index = 16 * b1 + 4 * b2 + b3 with T=0, C=1, A=2, G=3.
_TABLE1 = "FFLLSSSSYY**CC*WLLLLPPPPHHQQRRRRIIIMTTTTNNKKSSRRVVVVAAAADDEEGGGG"
_AMINO = np.frombuffer((_TABLE1 + "X").encode("ascii"), dtype=np.uint8)
_X_INDEX = 64

_BASE_CODE = np.full(256, 4, dtype=np.int64)
for _letter, _code in (("T", 0), ("C", 1), ("A", 2), ("G", 3)):
    _BASE_CODE[ord(_letter)] = _code

_COMPLEMENT = bytes.maketrans(b"ACGT", b"TGCA")
_NOT_ACGT = bytes(c for c in range(256) if c not in b"ACGT")

FRAME_NAMES = ("F1", "F2", "F3", "R1", "R2", "R3")


class Frame(NamedTuple):
    """One kept (stop-free) frame: its ID, its in-frame bases on the strand used, and its protein."""

    frame_id: str
    nucleotides: str
    protein: str


def chunk_starts(length: int, chunk_length: int) -> List[int]:
    """0-based start of each chunk of a sequence of `length` bases; empty for an empty sequence."""
    if chunk_length <= 0:
        raise ValueError(f"chunk length must be positive, got {chunk_length}")
    count = -(-length // chunk_length)
    if count <= 1:
        return [0] if length > 0 else []
    span = length - chunk_length
    # floor(i * span / (k - 1) + 0.5) in exact integer arithmetic.
    return [(2 * i * span + (count - 1)) // (2 * (count - 1)) for i in range(count)]


def chunk_sequence(record_id: str, sequence: str, chunk_length: int) -> List[Tuple[str, str]]:
    """(chunk_id, bases) for each chunk of one record."""
    starts = chunk_starts(len(sequence), chunk_length)
    if len(starts) == 1:
        return [(f"{record_id}_chunk_1", sequence)]
    return [(f"{record_id}_chunk_{i + 1}", sequence[s : s + chunk_length]) for i, s in enumerate(starts)]


def reverse_complement(sequence: str) -> str:
    """Reverse complement with A<->T, C<->G and every other letter -> N."""
    raw = sequence.encode("ascii").translate(_COMPLEMENT)
    raw = raw.translate(bytes.maketrans(_NOT_ACGT, b"N" * len(_NOT_ACGT)))
    return raw[::-1].decode("ascii")


def _translate(codes: np.ndarray, offset: int) -> Tuple[int, str]:
    """(codon count, protein) for one strand (as base codes) read from `offset`."""
    codons = (len(codes) - offset) // 3
    if codons <= 0:
        return 0, ""
    triplets = codes[offset : offset + 3 * codons].reshape(codons, 3)
    index = 16 * triplets[:, 0] + 4 * triplets[:, 1] + triplets[:, 2]
    index[(triplets == 4).any(axis=1)] = _X_INDEX
    return codons, _AMINO[index].tobytes().decode("ascii")


def six_frames(chunk_id: str, bases: str) -> List[Frame]:
    """The stop-free frames of one chunk, in the order F1, F2, F3, R1, R2, R3.

    A frame too short to hold one codon has an empty translation, which holds no '*': the contract keeps it (the
    encoders then see only the special tokens).
    """
    kept: List[Frame] = []
    reverse = reverse_complement(bases)
    for strand_index, strand in enumerate((bases, reverse)):
        codes = _BASE_CODE[np.frombuffer(strand.encode("ascii"), dtype=np.uint8)]
        for offset in range(3):
            codons, protein = _translate(codes, offset)
            if "*" in protein:
                continue
            name = FRAME_NAMES[3 * strand_index + offset]
            kept.append(Frame(f"{chunk_id}{name}", strand[offset : offset + 3 * codons], protein))
    return kept
