"""Stage timing: the `=== Stage n: name ===` / `  name completed in s [extras]` lines and the PIPELINE SUMMARY block."""

import time
from typing import Dict, List, Optional

from refpipe.logs import format_extras, format_hms, get_logger

STAGES = (
    "Sequence Chunking",
    "Six-Frame Translation",
    "Nucleotide File Splitting",
    "Protein File Splitting",
    "DNABERT-S Feature Extraction",
    "ESM-2 Feature Extraction",
    "Feature Merging",
    "Model Prediction",
    "Consensus Scoring",
)

logger = get_logger("pipeline.telemetry")


class StageClock:
    """Times the stages of one run, in order, on the monotonic clock."""

    def __init__(self) -> None:
        self.started_s: Optional[float] = None
        self.durations_s: Dict[str, float] = {}
        self.extras: Dict[str, dict] = {}
        self.order: List[str] = []
        self._current: Optional[str] = None
        self._current_start_s = 0.0

    def start(self, name: str) -> None:
        """Logs the stage start line; the stage number is its position in STAGES."""
        now = time.monotonic()
        if self.started_s is None:
            self.started_s = now
        self._current, self._current_start_s = name, now
        self.order.append(name)
        logger.info(f"=== Stage {STAGES.index(name) + 1}: {name} ===")

    def end(self, name: str, extras: Optional[dict] = None) -> float:
        """Logs the stage end line and returns the stage's duration in seconds."""
        duration_s = time.monotonic() - self._current_start_s
        self.durations_s[name] = duration_s
        self.extras[name] = dict(extras or {})
        self._current = None
        logger.info(f"  {name} completed in {duration_s:.1f}s{format_extras(self.extras[name])}")
        return duration_s

    def log_summary(self) -> None:
        """Logs the PIPELINE SUMMARY block (one record per line)."""
        total_s = time.monotonic() - (self.started_s or time.monotonic())
        for line in summary_lines(total_s, [(n, self.durations_s.get(n, 0.0)) for n in self.order], self.extras):
            logger.info(line)


def summary_lines(total_s: float, timings: List[tuple], extras: Dict[str, dict]) -> List[str]:
    """The summary block as lines: wall time, per-stage times and shares, the top-3 stages, key metrics."""
    lines = ["", "=" * 80, "PIPELINE SUMMARY", "=" * 80, f"Total wall time: {format_hms(total_s)} ({total_s:.1f}s)", ""]
    lines.append("Stages:")
    width = max((len(name) for name, _ in timings), default=20)
    shares = []
    for name, duration_s in timings:
        pct = duration_s / total_s * 100 if total_s > 0 else 0.0
        shares.append((name, duration_s, pct))
        dots = "." * (width - len(name) + 4)
        lines.append(f"  {STAGES.index(name) + 1}. {name} {dots}  {duration_s:6.1f}s ({pct:5.1f}%)")
    lines.append("")
    top = sorted(shares, key=lambda s: s[1], reverse=True)[:3]
    parts = [f"{name} ({pct:.0f}%)" for name, _, pct in top if pct > 0]
    if parts:
        lines.append(f"Bottlenecks: {', '.join(parts)}")
    lines.append("")
    lines.append("Key metrics:")
    sequences = sum(int(e.get("sequences", 0)) for e in extras.values())
    if sequences > 0:
        lines.append(f"  Sequences processed: {sequences:,}")
    lines.append("=" * 80)
    return lines
