"""Which devices the encoders run on, and whether --parallel is in effect (asked for, or turned on by several devices,
as VirNucPro turns it on for a list of GPUs); refpipe.architecture decides from it how each stage uses them."""

from dataclasses import dataclass
from typing import List, Optional

import torch

from refpipe.errors import UsageError
from refpipe.logs import get_logger

logger = get_logger("pipeline.devices")


@dataclass
class DevicePlan:
    """devices[r] is worker r's device ('cuda:N' by physical index, or 'cpu'); parallel: --parallel in effect."""

    devices: List[str]
    parallel: bool
    precision: str
    scale: str

    @property
    def on_cuda(self) -> bool:
        return self.devices[0].startswith("cuda")


def parse_gpus(text: str) -> List[int]:
    """'0,1' -> [0, 1]. @throws UsageError for an empty list, a non-integer or a duplicate."""
    try:
        gpus = [int(part) for part in text.split(",") if part.strip() != ""]
    except ValueError as error:
        raise UsageError(f"--gpus '{text}': expected comma-separated GPU indices such as 0,1") from error
    if not gpus or any(g < 0 for g in gpus) or len(set(gpus)) != len(gpus):
        raise UsageError(f"--gpus '{text}': expected distinct non-negative GPU indices such as 0,1")
    return gpus


def plan_devices(device: str, gpus: Optional[str], parallel: bool, cpu_workers: int,
                 precision: Optional[str], scale: Optional[str]) -> DevicePlan:  # fmt: skip
    """Resolves -d/--device, --gpus, --parallel and --cpu-workers into a DevicePlan.

    @throws UsageError naming the option when a GPU is asked for that this machine does not have, or a precision
    the device cannot run.
    """
    count = torch.cuda.device_count() if torch.cuda.is_available() else 0
    if gpus is not None:
        asked = parse_gpus(gpus)
        missing = [g for g in asked if g >= count]
        if missing:
            raise UsageError(f"--gpus {gpus}: GPU {missing[0]} does not exist ({count} CUDA device(s) visible)")
        devices = [f"cuda:{g}" for g in asked]
    elif device == "cpu" or (device == "auto" and count == 0):
        devices = ["cpu"] * cpu_workers
    elif device in ("auto", "cuda"):
        if count == 0:
            raise UsageError(f"-d/--device {device}: no CUDA device visible")
        devices = [f"cuda:{g}" for g in range(count)] if (parallel or device == "auto") else ["cuda:0"]
    else:
        devices = [_single_cuda(device, count)]
    return _finish_plan(devices, parallel or len(devices) > 1, precision, scale)


def _single_cuda(device: str, count: int) -> str:
    prefix, _, index = device.partition(":")
    if prefix != "cuda" or not index.isdigit():
        raise UsageError(f"-d/--device '{device}': expected auto, cpu, cuda or cuda:N")
    if int(index) >= count:
        raise UsageError(f"-d/--device {device}: GPU {index} does not exist ({count} CUDA device(s) visible)")
    return device


def _finish_plan(devices: List[str], parallel: bool, precision: Optional[str], scale: Optional[str]) -> DevicePlan:
    on_cuda = devices[0].startswith("cuda")
    chosen = precision or ("fp16" if on_cuda else "fp32")
    if not on_cuda and chosen != "fp32":
        raise UsageError(f"--precision {chosen}: the CPU path runs fp32 only (use a GPU for fp16/bf16)")
    return DevicePlan(devices, parallel, chosen, scale or ("full" if on_cuda else "tiny"))


def misplaced_devices(devices: List[str]) -> List[str]:
    """The misplace fault: GPUs outside the asked set (as VirNucPro's CUDA_VISIBLE_DEVICES=rank can), or the asked
    ones when there are none (the log says so)."""
    if not devices[0].startswith("cuda"):
        logger.warning("Injected fault: misplace: no CUDA device here; the work stays on the CPU (nothing to misplace)")
        return devices
    asked = [int(d.split(":")[1]) for d in devices]
    others = [g for g in range(torch.cuda.device_count()) if g not in asked]
    if not others:
        logger.warning(f"Injected fault: misplace: every GPU was asked for ({asked}); none left to misplace onto")
        return devices
    moved = [f"cuda:{others[r % len(others)]}" for r in range(len(devices))]
    logger.warning(f"Injected fault: misplace: ESM-2 runs on {moved} instead of the asked {devices}")
    return moved
