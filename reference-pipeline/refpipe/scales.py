"""Model shapes per --model-scale: `full` matches DNABERT-S (BERT-base) and ESM-2 3B; `small` an ESM-2 150M shape;
`tiny` a few small layers so the whole pipeline runs on a CPU in seconds."""

from typing import NamedTuple


class EncoderShape(NamedTuple):
    layers: int
    hidden: int
    heads: int
    ffn: int


DNABERT_MAX_TOKENS = 512
ESM_MAX_TOKENS = 1024

SHAPES = {
    "tiny": {"dnabert": EncoderShape(1, 32, 2, 64), "esm": EncoderShape(2, 64, 4, 128)},
    "small": {"dnabert": EncoderShape(6, 384, 6, 1536), "esm": EncoderShape(30, 640, 20, 2560)},
    "full": {"dnabert": EncoderShape(12, 768, 12, 3072), "esm": EncoderShape(36, 2560, 40, 10240)},
}

CLASSIFIER_HIDDEN = {"tiny": 32, "small": 256, "full": 512}


def parameter_count(shape: EncoderShape, vocab: int, positions: int) -> int:
    """Parameters of one encoder built by refpipe.encoder (weights and biases)."""
    d, f = shape.hidden, shape.ffn
    per_layer = 4 * d + (3 * d * d + 3 * d) + (d * d + d) + (f * d + f) + (d * f + d)
    return vocab * d + positions * d + shape.layers * per_layer + 2 * d
