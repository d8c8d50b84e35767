"""Which architecture a run takes and the lines that say so, as VirNucPro's predict command decides
(virnucpro/cli/predict.py: `use_v2 = parallel and not v1_fallback`):

- v2.0 hybrid (--parallel, which a --gpus list, several GPUs found or --cpu-workers N > 1 turn on): ESM-2 in one worker
  process per device, each building its model once, batches length-sorted ("packed") unless VIRNUCPRO_DISABLE_PACKING
  is true; DNABERT-S stays v1.0;
- v1.0: every embedding stage works through the split files one by one and builds its model again for each, in this
  process on one device, or in one worker process per device with --v1-fallback on several.
"""

import logging
from dataclasses import dataclass

from refpipe.logs import ROOT

V1, V2 = "v1.0", "v2.0"
# The main logger of the run, `refpipe`, as VirNucPro logs these lines on its `virnucpro` logger.
logger = logging.getLogger(ROOT)


@dataclass(frozen=True)
class Architecture:
    version: str
    v1_fallback: bool

    @property
    def v2(self) -> bool:
        return self.version == V2


def choose_architecture(parallel: bool, v1_fallback: bool) -> Architecture:
    return Architecture(V2 if parallel and not v1_fallback else V1, v1_fallback)


def architecture_lines(architecture: Architecture) -> list:
    """VirNucPro's own lines for the architecture, word for word."""
    if architecture.v2:
        return ["Architecture: v2.0 hybrid", "  ESM-2 embedding: v2.0 (async DataLoader + sequence packing)",
                "  DNABERT-S embedding: v1.0 (fast enough, v2.0 planned for v2.1)"]  # fmt: skip
    if architecture.v1_fallback:
        return ["Architecture: v1.0 (--v1-fallback, all stages use legacy multi-worker)"]
    return ["Architecture: v1.0 (single-GPU or non-parallel mode)"]


def persistent_models_line(persistent_models: bool, parallel: bool) -> str:
    """What --persistent-models does here: nothing, said so. VirNucPro hands it to the worker pools of its multi-GPU
    v1.0 stages only (pipeline/prediction.py), and even there its persistent ESM-2 workers call the per-file extraction
    without their pre-loaded model (parallel_esm.py process_esm_files_persistent), which so builds ESM-2 again for every
    file; keeping refpipe's models across files or stages would model a saving VirNucPro does not make."""
    if not persistent_models:
        return "  Persistent models: disabled (standard model loading)"
    if not parallel:
        return "  Persistent models: enabled (ignored: it acts only with --parallel)"
    return "  Persistent models: enabled (no effect here: every model is built as without it)"


def log_architecture(architecture: Architecture, persistent_models: bool, parallel: bool) -> None:
    logger.info(persistent_models_line(persistent_models, parallel))
    for line in architecture_lines(architecture):
        logger.info(line)
