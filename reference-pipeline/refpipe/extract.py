"""Feature extraction: a DataLoader tokenizes token-budget batches in worker processes while the device encodes the
previous one; the copy back of batch i is awaited only after batch i+1 is queued, so the GPU is not left waiting."""

import multiprocessing
from dataclasses import dataclass, field
from typing import List, Optional

import torch
from torch.utils.data import DataLoader

from refpipe import faults
from refpipe.batching import TokenBatches, extra_batches, length_order, pack_efficiency, plan_batches, token_lengths
from refpipe.encoder import Encoder
from refpipe.inject import Injections
from refpipe.logs import get_logger
from refpipe.progress import Progress
from refpipe.scales import SHAPES
from refpipe.tokens import MAX_TOKENS, VOCAB

DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
LABEL = {"dnabert": "DNABERT-S", "esm": "ESM-2"}
_SEEDS = {"dnabert": 1, "esm": 2}
logger = get_logger("features")


@dataclass
class ExtractConfig:
    """What one extraction needs besides the sequences (picklable: it crosses into GPU worker processes)."""

    kind: str
    scale: str
    precision: str
    seed: int
    budget_tokens: int
    loader_workers: int
    injections: Injections = field(default_factory=Injections)
    rank: int = 0
    # Batches of length-sorted sequences (the stand-in for v2.0's sequence packing, and what v1.0's length-sorted
    # batches do too); False (VIRNUCPRO_DISABLE_PACKING on the v2.0 path): batches in input order, each padded to its
    # longest sequence.
    packing: bool = True


@dataclass
class ExtractResult:
    embeddings: torch.Tensor
    tokens: int
    seconds: float
    batches: int


def build_encoder(kind: str, scale: str, device, precision: str, seed: int) -> Encoder:
    """The DNABERT-S- or ESM-2-shaped encoder for `scale`, on `device` in `precision`, weights from `seed`."""
    shape = SHAPES[scale][kind]
    return Encoder(shape, VOCAB[kind], MAX_TOKENS[kind], device, DTYPES[precision], seed * 1000 + _SEEDS[kind])


def log_model_ready(kind: str, encoder: Encoder, device: str, seconds: float) -> None:
    """The line after a model build: ESM-2's in VirNucPro's words (`ESM-2 ready: ...`, which the suite reads as the end
    of a build); DNABERT-S, which VirNucPro builds without such a line, in refpipe's own."""
    size = f"{encoder.parameter_bytes() / 2**30:.2f} GiB of weights"
    if kind != "esm":
        logger.info(f"DNABERT-S model ready on {device} in {seconds:.1f}s ({size})")
        return
    shape, dtype = encoder.shape, str(encoder.dtype).replace("torch.", "")
    logger.info(f"ESM-2 ready: Encoder(layers={shape.layers}, hidden={shape.hidden}, heads={shape.heads}, "
                f"device={device}, dtype={dtype}) built in {seconds:.1f}s, {size}")  # fmt: skip


def extract(encoder: Encoder, sequences: List[str], config: ExtractConfig,
            progress: Optional[Progress] = None) -> ExtractResult:  # fmt: skip
    """Embeds every sequence; returns (N, hidden) float32 on the CPU in input order.

    `progress`: the stage's counter in this process when it makes several extractions (one per file on v1.0), which
    then logs the `complete` line itself; by default this call counts and logs its own.
    """
    lengths = token_lengths(config.kind, sequences)
    order = length_order(lengths) if config.packing else list(range(len(sequences)))
    batches = plan_batches(order, lengths, config.budget_tokens)
    repeats = _repeats(config, len(batches))
    dataset = TokenBatches(config.kind, sequences, batches + [batches[i] for i in repeats])
    loader = _loader(dataset, encoder.device, config.loader_workers)
    _warm_up(encoder)
    own = progress is None
    progress = Progress(config.kind, len(sequences)) if own else progress
    tokens_before, started_s = progress.tokens, progress.elapsed_s()
    output = torch.zeros((len(sequences), encoder.shape.hidden), dtype=torch.float32)
    pending = None
    with torch.inference_mode():
        for batch in loader:
            _before_batch(config, encoder.device, batch["item"])
            pooled = encoder(batch["ids"].to(encoder.device, non_blocking=True),
                             batch["lengths"].to(encoder.device, non_blocking=True), batch["padded"])  # fmt: skip
            if pending is not None:
                _finish(pending, output, progress)
            pending = (batch, _copy_back(pooled), batch["item"] >= len(batches))
        if pending is not None:
            _finish(pending, output, progress)
    if own:
        progress.log_complete()
    return ExtractResult(output, progress.tokens - tokens_before, progress.elapsed_s() - started_s, len(batches))


def _warm_up(encoder: Encoder) -> None:
    """One small forward pass on a GPU first, so library start-up (cuBLAS handles, kernel selection) is part of model
    loading rather than of the first timed batch."""
    if encoder.device.type != "cuda":
        return
    ids = torch.full((2, 16), 4, dtype=torch.int64, device=encoder.device)
    with torch.inference_mode():
        encoder(ids, torch.full((2,), 16, dtype=torch.int64, device=encoder.device), False)
    torch.cuda.synchronize(encoder.device)


def _repeats(config: ExtractConfig, batch_count: int) -> List[int]:
    share = config.injections.imbalance
    if config.kind != "esm" or config.rank != 0 or share <= 0:
        return []
    repeats = extra_batches(batch_count, share)
    faults.log_once(
        "imbalance",
        f"Injected fault: imbalance={share:g}: worker 0 repeats {len(repeats)} of its {batch_count} ESM-2 batches "
        "(extra work, outputs discarded)",
    )
    return repeats


def _loader(dataset: TokenBatches, device: torch.device, workers: int) -> DataLoader:
    extra = {"prefetch_factor": 4, "multiprocessing_context": _loader_context()} if workers > 0 else {}
    return DataLoader(dataset, batch_size=None, shuffle=False, num_workers=workers,
                      pin_memory=device.type == "cuda", **extra)  # fmt: skip


def _loader_context():
    """Fork where the platform has it, in every process. A process started by `spawn` (a GPU worker) inherits spawn as
    its default, so its DataLoader workers each re-imported torch and refpipe before the first batch (seconds, measured
    on 2 x H200); the single-process path already forked them. The loader workers only tokenize: no CUDA in them."""
    return multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None


def _before_batch(config: ExtractConfig, device: torch.device, item: int) -> None:
    if config.kind != "esm":
        return
    if item == 0 and config.injections.oom:
        faults.request_too_much_memory(device)
    faults.stall_cpu(config.injections.cpu_stall_ms)
    faults.leak_device_memory(config.injections.leak_mb, device)


def _copy_back(pooled: torch.Tensor):
    """Starts the device-to-host copy; returns (host tensor, event to wait on or None)."""
    if pooled.device.type != "cuda":
        return pooled, None
    host = torch.empty(pooled.shape, dtype=pooled.dtype, pin_memory=True)
    host.copy_(pooled, non_blocking=True)
    event = torch.cuda.Event()
    event.record()
    return host, event


def _finish(pending, output: torch.Tensor, progress: Progress) -> None:
    batch, (host, event), is_repeat = pending
    if event is not None:
        event.synchronize()
    if is_repeat:
        return
    output[batch["rows"]] = host
    lengths = batch["lengths"].tolist()
    progress.add(len(lengths), sum(lengths), pack_efficiency(lengths))
