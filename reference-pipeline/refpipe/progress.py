"""The per-batch progress lines of one embedding stage in one process (ESM-2: VirNucPro's `Batch i:` line), counted
over every extraction the process makes for the stage: one on the v2.0 path, one per split file on v1.0, whose batch
numbers and counts then run on across its files instead of starting again at each."""

import time

from refpipe.logs import format_hms, get_logger


class Progress:
    """Counts the work done and logs a line per batch, then the stage's `complete` line."""

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
