"""One process per device (VirNucPro v2): length-sorted sequences are sharded by stride, each worker builds its own
encoder, tokenizes in its own DataLoader workers, logs `Worker r` lines to stderr, and hands its embeddings back through
a file; the parent merges them in input order.

Each worker reads its shard from a file rather than from its spawn arguments: a spawned child unpickles its arguments
only after importing torch (seconds), and the parent's write of a large argument blocks until then, so passing shards
as arguments started the workers one after another (measured on 2 x H200: worker 1 started 2 s after worker 0)."""

import ctypes
import multiprocessing
import os
import pickle
import signal
import sys
import time
from typing import List

import torch

from refpipe.batching import length_order, token_lengths
from refpipe.errors import DeviceOutOfMemory, WorkerFailed
from refpipe.extract import ExtractConfig, build_encoder, extract
from refpipe.logs import get_logger, setup_worker_logging
from refpipe.scales import SHAPES

EXIT_OOM = 4
logger = get_logger("pipeline.parallel")


def shard_by_stride(kind: str, sequences: List[str], workers: int) -> List[List[int]]:
    """Indices per worker: sorted longest first, then worker r takes positions r, r + n, r + 2n, ..."""
    order = length_order(token_lengths(kind, sequences))
    return [order[rank::workers] for rank in range(workers)]


def run_parallel(sequences: List[str], devices: List[str], config: ExtractConfig, scratch_dir: str) -> torch.Tensor:
    """Embeds `sequences` with one spawned worker per device; returns (N, hidden) float32 in input order.

    @throws DeviceOutOfMemory when a worker ran out of device memory; WorkerFailed for any other worker failure.
    """
    shards = shard_by_stride(config.kind, sequences, len(devices))
    context = multiprocessing.get_context("spawn")
    processes = []
    for rank, (device, shard) in enumerate(zip(devices, shards)):
        path = os.path.join(scratch_dir, f"worker_{rank}_{config.kind}.pt")
        shard_path = os.path.join(scratch_dir, f"worker_{rank}_{config.kind}.shard")
        with open(shard_path, "wb") as handle:
            pickle.dump([sequences[i] for i in shard], handle, protocol=pickle.HIGHEST_PROTOCOL)
        worker_config = ExtractConfig(**{**config.__dict__, "rank": rank})
        args = (rank, device, shard_path, worker_config, path, len(devices))
        process = context.Process(target=worker_main, args=args, name=f"refpipe-worker-{rank}")
        process.start()
        logger.info(f"Worker {rank} started on {device} (pid {process.pid}): {len(shard):,} sequences")
        processes.append((rank, process, path, shard))
    hidden = SHAPES[config.scale][config.kind].hidden
    return _collect(processes, torch.zeros((len(sequences), hidden), dtype=torch.float32))


def _collect(processes, output: torch.Tensor) -> torch.Tensor:
    failures = []
    for rank, process, path, shard in processes:
        process.join()
        if process.exitcode != 0:
            failures.append((rank, process.exitcode))
            continue
        result = torch.load(path)
        os.remove(path)
        if not shard:
            continue
        output[torch.tensor(shard, dtype=torch.int64)] = result["embeddings"]
        rate = result["tokens"] / result["seconds"] if result["seconds"] > 0 else 0.0
        logger.info(f"Worker {rank} finished: {len(shard):,} sequences, {result['tokens']:,} tokens in "
                    f"{result['seconds']:.1f}s ({rate:,.0f} tok/s, {len(shard) / result['seconds']:.1f} seq/s)")  # fmt: skip
    if any(code == EXIT_OOM for _, code in failures):
        rank = next(r for r, code in failures if code == EXIT_OOM)
        raise DeviceOutOfMemory(f"CUDA out of memory in worker {rank} (see its stderr lines)")
    if failures:
        raise WorkerFailed(", ".join(f"worker {r} exited with status {c}" for r, c in failures))
    return output


def worker_main(rank: int, device: str, shard_path: str, config: ExtractConfig, path: str, workers: int) -> None:
    """Entry point of a spawned worker: exit 0 with its results in `path`, 4 on device OOM, 1 on any other error."""
    _die_with_parent()
    setup_worker_logging(rank)
    log = get_logger("worker")
    try:
        with open(shard_path, "rb") as handle:
            sequences: List[str] = pickle.load(handle)
        os.remove(shard_path)
        if device.startswith("cuda"):
            torch.cuda.set_device(int(device.split(":")[1]))
        else:
            torch.set_num_threads(max(1, (os.cpu_count() or 1) // workers))
        log.info(f"Worker {rank} on {device}: {len(sequences):,} {config.kind} sequences")
        started = time.monotonic()
        encoder = build_encoder(config.kind, config.scale, device, config.precision, config.seed)
        log.info(f"Worker {rank} model ready in {time.monotonic() - started:.1f}s "
                 f"({encoder.parameter_bytes() / 2**30:.2f} GiB of weights)")  # fmt: skip
        result = extract(encoder, sequences, config) if sequences else None
        torch.save(_payload(result), path)
    except torch.cuda.OutOfMemoryError as error:
        log.error(f"CUDA out of memory on {device}: {str(error).splitlines()[0]}")
        sys.exit(EXIT_OOM)
    except Exception as error:  # noqa: BLE001 - the parent only sees the exit status; the message goes to the log.
        if "out of memory" in str(error):
            log.error(f"Out of memory on {device}: {str(error).splitlines()[0]}")
            sys.exit(EXIT_OOM)
        log.error(f"Worker {rank} failed: {type(error).__name__}: {error}")
        sys.exit(1)


def _payload(result) -> dict:
    if result is None:
        return {"embeddings": torch.zeros((0, 1)), "tokens": 0, "seconds": 0.0}
    return {"embeddings": result.embeddings, "tokens": result.tokens, "seconds": result.seconds}


def _die_with_parent() -> None:
    """Asks Linux to SIGTERM this worker when its parent dies, so a killed run leaves no GPU process behind."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass
