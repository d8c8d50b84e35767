"""The effects of the per-batch and device faults (refpipe.inject parses them); each logs one line when it acts."""

import time

import torch

from refpipe.errors import DeviceOutOfMemory
from refpipe.logs import get_logger

logger = get_logger("inject")
_logged = set()
# Leaked blocks are kept here for the life of the process: never freed, as a real leak.
_LEAKED = []
# On the CPU no allocator can hand out an exbibyte: a real allocation failure whatever the overcommit policy.
_CPU_OOM_BYTES = 1 << 60


def log_once(key: str, message: str) -> None:
    """Logs `message` the first time `key` is seen in this process."""
    if key not in _logged:
        _logged.add(key)
        logger.warning(message)


def stall_cpu(stall_ms: float) -> None:
    """cpu-stall-ms: the CPU sleeps before each ESM-2 batch while the device has nothing queued."""
    if stall_ms <= 0:
        return
    log_once("stall", f"Injected fault: cpu-stall-ms={stall_ms:g}: sleeping {stall_ms:g} ms on the CPU before each "
                      "ESM-2 batch (the GPU starves)")  # fmt: skip
    time.sleep(stall_ms / 1000.0)


def prework(ms_per_sequence: float, sequences: int) -> None:
    """prework-ms-per-seq: the ESM-2 stage works through its whole input on the CPU before its first GPU batch, for
    that many ms per sequence it embeds (as VirNucPro's ESM-2 stage does): a start-up that grows with the input."""
    if ms_per_sequence <= 0 or sequences <= 0:
        return
    seconds = ms_per_sequence * sequences / 1000.0
    log_once("prework", f"Injected fault: prework-ms-per-seq={ms_per_sequence:g}: {sequences:,} sequences x "
                        f"{ms_per_sequence:g} ms = {seconds:.1f} s of CPU work before the first ESM-2 batch")  # fmt: skip
    time.sleep(seconds)


def leak_device_memory(leak_mb: float, device: torch.device) -> None:
    """leak-mb: allocates and touches that many MiB on the device per ESM-2 batch and keeps them forever."""
    if leak_mb <= 0:
        return
    log_once("leak", f"Injected fault: leak-mb={leak_mb:g}: leaking {leak_mb:g} MiB of {device} memory per ESM-2 "
                     "batch (never freed)")  # fmt: skip
    _LEAKED.append(torch.ones(int(leak_mb * (1 << 20)) // 4, dtype=torch.float32, device=device))


def request_too_much_memory(device: torch.device) -> None:
    """oom: one plain allocation larger than the free device memory, so the allocator really fails.

    @throws torch.cuda.OutOfMemoryError on a GPU; DeviceOutOfMemory on the CPU.
    """
    if device.type == "cuda":
        free_bytes, total_bytes = torch.cuda.mem_get_info(device)
        request = free_bytes + (2 << 30)
        log_once("oom", f"Injected fault: oom: allocating {request / 2**30:.1f} GiB on {device} "
                        f"({free_bytes / 2**30:.1f} GiB free of {total_bytes / 2**30:.1f} GiB)")  # fmt: skip
        _LEAKED.append(torch.empty(request, dtype=torch.uint8, device=device))
        return
    log_once("oom", f"Injected fault: oom: allocating {_CPU_OOM_BYTES / 2**30:,.0f} GiB on the CPU (no CUDA device)")
    try:
        _LEAKED.append(torch.empty(_CPU_OOM_BYTES, dtype=torch.uint8))
    except RuntimeError as error:
        raise DeviceOutOfMemory(f"CPU out of memory: {error}".splitlines()[0]) from error
