"""Fault injection: `--inject NAME=VALUE` (repeatable) and REFPIPE_INJECT (comma- or semicolon-separated).

Every injection logs one line starting `Injected fault:` where it takes effect, so a test can tell the fault it planted
from the verdict the suite reached.
"""

import os
import re
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from refpipe.errors import InjectedCrash, UsageError
from refpipe.logs import get_logger
from refpipe.telemetry import STAGES

ENV_VAR = "REFPIPE_INJECT"
NAMES = ("cpu-stall-ms", "prework-ms-per-seq", "leak-mb", "oom", "imbalance", "misplace", "slow-stage", "crash-at",
         "hang-at", "partial")
_FLAGS = ("oom", "misplace", "partial")

logger = get_logger("inject")


@dataclass
class Injections:
    """The faults armed for one run (all off by default)."""

    cpu_stall_ms: float = 0.0
    prework_ms_per_seq: float = 0.0
    leak_mb: float = 0.0
    oom: bool = False
    imbalance: float = 0.0
    misplace: bool = False
    slow_stage_s: Dict[str, float] = field(default_factory=dict)
    crash_at: Optional[str] = None
    hang_at: Optional[str] = None
    partial: bool = False

    def describe(self) -> List[str]:
        """NAME=VALUE for each armed fault (for the start-up log line)."""
        out = []
        numeric = (("cpu-stall-ms", self.cpu_stall_ms), ("prework-ms-per-seq", self.prework_ms_per_seq),
                   ("leak-mb", self.leak_mb), ("imbalance", self.imbalance))  # fmt: skip
        for name, value in numeric:
            if value:
                out.append(f"{name}={value:g}")
        out += [name for name in _FLAGS if getattr(self, name)]
        out += [f"slow-stage={s}:{v:g}" for s, v in self.slow_stage_s.items()]
        out += [f"{n}={v}" for n, v in (("crash-at", self.crash_at), ("hang-at", self.hang_at)) if v]
        return out


def parse_injections(cli_values: List[str], environ: Optional[Dict[str, str]] = None) -> Injections:
    """Parses --inject values and REFPIPE_INJECT into Injections.

    @throws UsageError naming the item, the source and what is wrong with it.
    """
    env = os.environ if environ is None else environ
    items = [(v, "--inject") for v in cli_values]
    items += [(v, ENV_VAR) for v in re.split(r"[,;]", env.get(ENV_VAR, "")) if v.strip()]
    injections = Injections()
    for raw, source in items:
        _apply(injections, raw.strip(), source)
    return injections


def match_stage(text: str, source: str) -> str:
    """The canonical stage name for `text` (case-insensitive). @throws UsageError for an unknown stage."""
    wanted = text.strip().lower()
    for name in STAGES:
        if name.lower() == wanted:
            return name
    raise UsageError(f"{source}: unknown stage '{text}'; stages are: {', '.join(STAGES)}")


def _apply(injections: Injections, raw: str, source: str) -> None:
    name, has_value, value = raw.partition("=")
    name = name.strip().lower()
    where = f"{source} '{raw}'"
    if name not in NAMES:
        raise UsageError(f"{where}: unknown fault '{name}'; known: {', '.join(NAMES)}")
    if name in _FLAGS:
        if has_value and value.strip().lower() not in ("1", "true", "yes", "on"):
            raise UsageError(f"{where}: {name} takes no value (or 1/true)")
        setattr(injections, name, True)
    elif name in ("crash-at", "hang-at"):
        setattr(injections, name.replace("-", "_"), match_stage(value, where))
    elif name == "slow-stage":
        stage, colon, seconds = value.rpartition(":")
        if not colon:
            raise UsageError(f"{where}: expected slow-stage=STAGE:SECONDS")
        injections.slow_stage_s[match_stage(stage, where)] = _number(seconds, where, upper=None)
    else:
        upper = 10.0 if name == "imbalance" else None
        setattr(injections, name.replace("-", "_"), _number(value, where, upper))


def _number(text: str, where: str, upper: Optional[float]) -> float:
    try:
        number = float(text)
    except ValueError as error:
        raise UsageError(f"{where}: '{text}' is not a number") from error
    if not number >= 0 or number == float("inf") or (upper is not None and number > upper):
        limit = f" and at most {upper:g}" if upper is not None else ""
        raise UsageError(f"{where}: {text} must be a finite number >= 0{limit}")
    return number


def at_stage_start(injections: Injections, stage: str) -> None:
    """Applies crash-at and hang-at for `stage` (called right after its start line).

    @throws InjectedCrash when crash-at names this stage.
    """
    if injections.crash_at == stage:
        logger.error(f"Injected fault: crash-at={stage}: failing the run here (exit 1)")
        raise InjectedCrash(f"injected crash at stage '{stage}'")
    if injections.hang_at == stage:
        logger.warning(f"Injected fault: hang-at={stage}: sleeping until killed")
        while True:
            time.sleep(3600)


def before_stage_end(injections: Injections, stage: str) -> None:
    """Applies slow-stage for `stage`: the stage takes that many seconds longer (CPU sleep inside the stage)."""
    seconds = injections.slow_stage_s.get(stage)
    if seconds:
        logger.warning(f"Injected fault: slow-stage={stage}:{seconds:g}: stage held {seconds:g}s longer on the CPU")
        time.sleep(seconds)
