"""Logging in VirNucPro's format: `YYYY-mm-dd HH:MM:SS - <logger> - LEVEL - msg`.

The main process logs to stdout (the harness reads it live; StreamHandler flushes after every record); worker processes
log to stderr with `Worker {r} - ` before the logger name, as VirNucPro's v2 workers do.
"""

import logging
import sys
from typing import Optional

DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
ROOT = "refpipe"


def setup_main_logging(verbose: bool = False, log_file: Optional[str] = None) -> logging.Logger:
    """Configures the `refpipe` logger tree for the main process and returns its root."""
    return _configure(sys.stdout, "%(asctime)s - %(name)s - %(levelname)s - %(message)s", verbose, log_file)


def setup_worker_logging(rank: int, verbose: bool = False) -> logging.Logger:
    """Configures logging in a worker process: stderr, tagged `Worker {rank}`."""
    line = f"%(asctime)s - Worker {rank} - %(name)s - %(levelname)s - %(message)s"
    return _configure(sys.stderr, line, verbose, None)


def _configure(stream, line_format: str, verbose: bool, log_file: Optional[str]) -> logging.Logger:
    formatter = logging.Formatter(line_format, datefmt=DATE_FORMAT)
    root = logging.getLogger(ROOT)
    root.handlers = []
    root.propagate = False
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    root.addHandler(handler)
    if log_file:
        file_handler = logging.FileHandler(log_file)
        file_handler.setFormatter(formatter)
        root.addHandler(file_handler)
    return root


def get_logger(name: str) -> logging.Logger:
    """A child of the `refpipe` logger, e.g. get_logger('pipeline.prediction')."""
    return logging.getLogger(f"{ROOT}.{name}")


def format_hms(seconds: float) -> str:
    """Seconds as HH:MM:SS (whole seconds, truncated)."""
    whole = int(max(seconds, 0.0))
    return f"{whole // 3600:02d}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


def format_extras(extras: dict) -> str:
    """` [key: value, ...]` for a stage-end line: ints with thousands separators, floats to 0.1; '' when empty."""
    parts = []
    for key, value in extras.items():
        if isinstance(value, bool):
            parts.append(f"{key}: {value}")
        elif isinstance(value, int):
            parts.append(f"{key}: {value:,}")
        elif isinstance(value, float):
            parts.append(f"{key}: {value:.1f}")
        else:
            parts.append(f"{key}: {value}")
    return f" [{', '.join(parts)}]" if parts else ""
