"""One worker process per device: each gets its job (a shard of sequences, or on the v1.0 path a set of split files),
builds its own encoder(s), tokenizes in its own DataLoader workers, logs `Worker r` lines to stderr, and hands its
results back through a file.

Each worker reads its job from a file rather than from its spawn arguments: a spawned child unpickles its arguments
only after importing torch (seconds), and the parent's write of a large argument blocks until then, so passing shards
as arguments started the workers one after another (measured on 2 x H200: worker 1 started 2 s after worker 0)."""

import ctypes
import multiprocessing
import os
import pickle
import signal
import sys
import time
from typing import Callable, List, Sequence

import torch

from refpipe.batching import length_order, token_lengths
from refpipe.errors import DeviceOutOfMemory, WorkerFailed
from refpipe.extract import ExtractConfig, build_encoder, extract, log_model_ready
from refpipe.logs import get_logger, setup_worker_logging
from refpipe.scales import SHAPES

EXIT_OOM = 4
logger = get_logger("pipeline.parallel")
# What a worker runs on its job: (rank, device, job, config) -> a dict with `sequences`, `tokens` and `seconds` (and
# whatever else its caller reads back). A module-level function, so a spawned worker can unpickle it.
WorkerBody = Callable[[int, str, object, ExtractConfig], dict]


def shard_by_stride(kind: str, sequences: List[str], workers: int) -> List[List[int]]:
    """Indices per worker: worker r takes positions r, r + n, r + 2n, ... of the sequences sorted longest first, so
    every worker gets the same mix of lengths; each shard is kept in input order (its worker sorts it for batching)."""
    order = length_order(token_lengths(kind, sequences))
    return [sorted(order[rank::workers]) for rank in range(workers)]


def run_parallel(sequences: List[str], devices: List[str], config: ExtractConfig, scratch_dir: str) -> torch.Tensor:
    """Embeds `sequences` with one spawned worker per device, each building its encoder once; returns (N, hidden)
    float32 in input order.

    @throws DeviceOutOfMemory when a worker ran out of device memory; WorkerFailed for any other worker failure.
    """
    shards = shard_by_stride(config.kind, sequences, len(devices))
    jobs = [[sequences[i] for i in shard] for shard in shards]
    results = run_workers(jobs, devices, config, scratch_dir, embed_shard)
    output = torch.zeros((len(sequences), SHAPES[config.scale][config.kind].hidden), dtype=torch.float32)
    for shard, result in zip(shards, results):
        if shard:
            output[torch.tensor(shard, dtype=torch.int64)] = result["embeddings"]
    return output


def run_workers(jobs: Sequence, devices: List[str], config: ExtractConfig, scratch_dir: str,
                body: WorkerBody) -> List[dict]:  # fmt: skip
    """Runs `body` on jobs[r] in a spawned worker on devices[r], all at once; returns their results in rank order.

    @throws DeviceOutOfMemory when a worker ran out of device memory; WorkerFailed for any other worker failure.
    """
    context = multiprocessing.get_context("spawn")
    processes = []
    for rank, (device, job) in enumerate(zip(devices, jobs)):
        path = os.path.join(scratch_dir, f"worker_{rank}_{config.kind}.pt")
        job_path = os.path.join(scratch_dir, f"worker_{rank}_{config.kind}.job")
        with open(job_path, "wb") as handle:
            pickle.dump(job, handle, protocol=pickle.HIGHEST_PROTOCOL)
        worker_config = ExtractConfig(**{**config.__dict__, "rank": rank})
        args = (rank, device, job_path, worker_config, path, len(devices), body)
        process = context.Process(target=worker_main, args=args, name=f"refpipe-worker-{rank}")
        process.start()
        logger.info(f"Worker {rank} started on {device} (pid {process.pid}): {_describe(job)}")
        processes.append((rank, process, path))
    return _collect(processes)


def _describe(job) -> str:
    if job and hasattr(job[0], "sequences"):  # v1.0 split files (refpipe.per_file.FileJob)
        return f"{len(job)} files, {sum(len(j.sequences) for j in job):,} sequences"
    return f"{len(job):,} sequences"


def _collect(processes) -> List[dict]:
    failures, results = [], []
    for rank, process, path in processes:
        process.join()
        if process.exitcode != 0:
            failures.append((rank, process.exitcode))
            continue
        result = torch.load(path)
        os.remove(path)
        results.append(result)
        if not result["sequences"]:
            continue
        seconds = max(result["seconds"], 1e-9)
        logger.info(f"Worker {rank} finished: {result['sequences']:,} sequences, {result['tokens']:,} tokens in "
                    f"{result['seconds']:.1f}s ({result['tokens'] / seconds:,.0f} tok/s, "
                    f"{result['sequences'] / seconds:.1f} seq/s)")  # fmt: skip
    if any(code == EXIT_OOM for _, code in failures):
        rank = next(r for r, code in failures if code == EXIT_OOM)
        raise DeviceOutOfMemory(f"CUDA out of memory in worker {rank} (see its stderr lines)")
    if failures:
        raise WorkerFailed(", ".join(f"worker {r} exited with status {c}" for r, c in failures))
    return results


def worker_main(rank: int, device: str, job_path: str, config: ExtractConfig, path: str, workers: int,
                body: WorkerBody) -> None:  # fmt: skip
    """Entry point of a spawned worker: exit 0 with its results in `path`, 4 on device OOM, 1 on any other error."""
    _die_with_parent()
    setup_worker_logging(rank)
    log = get_logger("worker")
    try:
        with open(job_path, "rb") as handle:
            job = pickle.load(handle)
        os.remove(job_path)
        if device.startswith("cuda"):
            torch.cuda.set_device(int(device.split(":")[1]))
        else:
            torch.set_num_threads(max(1, (os.cpu_count() or 1) // workers))
        torch.save(body(rank, device, job, config), path)
    except torch.cuda.OutOfMemoryError as error:
        log.error(f"CUDA out of memory on {device}: {str(error).splitlines()[0]}")
        sys.exit(EXIT_OOM)
    except Exception as error:  # noqa: BLE001 - the parent only sees the exit status; the message goes to the log.
        if "out of memory" in str(error):
            log.error(f"Out of memory on {device}: {str(error).splitlines()[0]}")
            sys.exit(EXIT_OOM)
        log.error(f"Worker {rank} failed: {type(error).__name__}: {error}")
        sys.exit(1)


def embed_shard(rank: int, device: str, sequences: List[str], config: ExtractConfig) -> dict:
    """A worker's shard, with the encoder built once (the v2.0 path, and DNABERT-S on several devices)."""
    get_logger("worker").info(f"Worker {rank} on {device}: {len(sequences):,} {config.kind} sequences")
    started = time.monotonic()
    encoder = build_encoder(config.kind, config.scale, device, config.precision, config.seed)
    log_model_ready(config.kind, encoder, device, time.monotonic() - started)
    if not sequences:
        return {"embeddings": torch.zeros((0, 1)), "sequences": 0, "tokens": 0, "seconds": 0.0}
    result = extract(encoder, sequences, config)
    return {"embeddings": result.embeddings, "sequences": len(sequences), "tokens": result.tokens,
            "seconds": result.seconds}  # fmt: skip


def _die_with_parent() -> None:
    """Asks Linux to SIGTERM this worker when its parent dies, so a killed run leaves no GPU process behind."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass
