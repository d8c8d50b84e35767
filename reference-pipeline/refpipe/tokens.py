"""Tokenizers without vocabulary files: one token per base (DNABERT-S-shaped) or per residue (ESM-2-shaped),
with CLS/BOS and SEP/EOS around them, truncated to the model's maximum length."""

import numpy as np

from refpipe.scales import DNABERT_MAX_TOKENS, ESM_MAX_TOKENS

PAD, BOS, EOS, UNK = 0, 1, 2, 3

_DNA_LETTERS = "ACGTN"
_PROTEIN_LETTERS = "LAGVSERTIDPKQNFYMHWCXBUZO"

DNA_VOCAB = 4 + len(_DNA_LETTERS)
PROTEIN_VOCAB = 4 + len(_PROTEIN_LETTERS)


def _table(letters: str) -> np.ndarray:
    table = np.full(256, UNK, dtype=np.int64)
    for index, letter in enumerate(letters):
        table[ord(letter)] = 4 + index
    return table


_TABLES = {"dnabert": _table(_DNA_LETTERS), "esm": _table(_PROTEIN_LETTERS)}
MAX_TOKENS = {"dnabert": DNABERT_MAX_TOKENS, "esm": ESM_MAX_TOKENS}
VOCAB = {"dnabert": DNA_VOCAB, "esm": PROTEIN_VOCAB}


def token_count(kind: str, sequence_length: int) -> int:
    """Tokens one sequence becomes (specials included, after truncation)."""
    return min(sequence_length, MAX_TOKENS[kind] - 2) + 2


def encode(kind: str, sequence: str) -> np.ndarray:
    """Token ids of one sequence, BOS ... EOS, truncated to the model maximum."""
    body = sequence[: MAX_TOKENS[kind] - 2].encode("ascii")
    ids = np.empty(len(body) + 2, dtype=np.int64)
    ids[0], ids[-1] = BOS, EOS
    ids[1:-1] = _TABLES[kind][np.frombuffer(body, dtype=np.uint8)]
    return ids
