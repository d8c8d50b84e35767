"""Feature extraction: a DataLoader tokenizes token-budget batches in worker processes while the device encodes the
previous one; the copy back of batch i is awaited only after batch i+1 is queued, so the GPU is not left waiting."""

import multiprocessing
import time
from dataclasses import dataclass, field
from typing import List

import torch
from torch.utils.data import DataLoader

from refpipe import faults
from refpipe.batching import TokenBatches, extra_batches, length_order, pack_efficiency, plan_batches, token_lengths
from refpipe.encoder import Encoder
from refpipe.inject import Injections
from refpipe.logs import format_hms, get_logger
from refpipe.scales import SHAPES
from refpipe.tokens import MAX_TOKENS, VOCAB

DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
_SEEDS = {"dnabert": 1, "esm": 2}


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


def extract(encoder: Encoder, sequences: List[str], config: ExtractConfig) -> ExtractResult:
    """Embeds every sequence; returns (N, hidden) float32 on the CPU in input order."""
    lengths = token_lengths(config.kind, sequences)
    batches = plan_batches(length_order(lengths), lengths, config.budget_tokens)
    repeats = _repeats(config, len(batches))
    dataset = TokenBatches(config.kind, sequences, batches + [batches[i] for i in repeats])
    loader = _loader(dataset, encoder.device, config.loader_workers)
    _warm_up(encoder)
    progress = _Progress(config.kind, len(sequences))
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
    progress.log_complete()
    return ExtractResult(output, progress.tokens, progress.elapsed_s(), len(batches))


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


def _finish(pending, output: torch.Tensor, progress: "_Progress") -> None:
    batch, (host, event), is_repeat = pending
    if event is not None:
        event.synchronize()
    if is_repeat:
        return
    output[batch["rows"]] = host
    lengths = batch["lengths"].tolist()
    progress.add(len(lengths), sum(lengths), pack_efficiency(lengths))


class _Progress:
    """Counts work done and logs the per-batch lines (ESM-2: VirNucPro's `Batch i:` line)."""

    def __init__(self, kind: str, total: int) -> None:
        self.kind, self.total = kind, total
        self.logger = get_logger("pipeline.async_inference" if kind == "esm" else "pipeline.dnabert")
        self.start_s = time.monotonic()
        self.done = self.tokens = self.batches = 0

    def elapsed_s(self) -> float:
        return max(time.monotonic() - self.start_s, 1e-9)

    def add(self, rows: int, tokens: int, efficiency: float) -> None:
        self.batches += 1
        self.done += rows
        self.tokens += tokens
        elapsed = self.elapsed_s()
        tok_s, seq_s = self.tokens / elapsed, self.done / elapsed
        pct = 100.0 * self.done / self.total if self.total else 100.0
        if self.kind == "esm":
            eta = format_hms((self.total - self.done) / seq_s if seq_s > 0 else 0.0)
            self.logger.info(
                f"Batch {self.batches}: {self.done}/{self.total} ({pct:.1f}%) | {efficiency:.1%} pack eff, "
                f"{tok_s:,.0f} tok/s, {seq_s:.1f} seq/s, ETA: {eta}"
            )
        else:
            self.logger.info(f"DNABERT-S progress: {self.done}/{self.total} ({pct:.1f}%) | {efficiency:.1%} pack eff, "
                             f"{tok_s:,.0f} tok/s, {seq_s:.1f} seq/s")  # fmt: skip

    def log_complete(self) -> None:
        elapsed = self.elapsed_s()
        label = "Async inference complete" if self.kind == "esm" else "DNABERT-S extraction complete"
        self.logger.info(f"{label}: {self.done} sequences, {self.done / elapsed:.1f} seq/s, "
                         f"{self.tokens / elapsed:.0f} tokens/s")  # fmt: skip
