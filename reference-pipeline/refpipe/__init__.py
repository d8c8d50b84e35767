"""refpipe: a reference pipeline that speaks the VirNucPro command-line contract (docs/UPSTREAM.md).

It does real work of the same shape (chunking, six-frame translation, a DNABERT-S-shaped and an ESM-2-shaped
transformer encoder with random weights, feature merging, an MLP classifier, consensus) so that the benchmark suite
and its detectors can run and be proven without the real models.
"""

__version__ = "0.1.0"
