"""Where one feature-extraction stage spends its time on a device.

Runs refpipe's own extract() (the real code path, not a copy) with timers wrapped around its parts: device start-up,
model build, DataLoader start (iterator creation to first batch), warm-up, then per batch the host's wait for input,
the time to enqueue the forward pass and its device time (CUDA events), the waits on copy-backs, and the loader's
shutdown. Prints one JSON object. Made to explain a low-utilization stage (PERF-02) before changing the pipeline.

    PYTHONPATH=reference-pipeline python3 reference-pipeline/tools/profile_extract.py INPUT.fa --kind dnabert -d cuda:0
"""

import argparse
import json
import sys
import time

import torch

from refpipe import extract as ex
from refpipe.fasta import read_fasta
from refpipe.frames import chunk_sequence, six_frames
from refpipe.inject import Injections


def frames_of(path: str, chunk_length: int):
    frames = []
    for record_id, sequence in read_fasta(path):
        for chunk_id, bases in chunk_sequence(record_id, sequence, chunk_length):
            frames.extend(six_frames(chunk_id, bases))
    return frames


class Clock:
    """Accumulates wall-clock seconds per phase and keeps per-batch device intervals."""

    def __init__(self, device: torch.device) -> None:
        self.device, self.phases, self.events, self.t0 = device, {}, [], time.monotonic()
        self.first_batch_s = None

    def add(self, name: str, seconds: float) -> None:
        self.phases[name] = self.phases.get(name, 0.0) + seconds

    def sync(self) -> None:
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)


def instrument(clock: Clock) -> None:
    """Wraps extract's loader, warm-up, encoder call and batch finish with timers."""
    real_loader, real_warm_up, real_finish = ex._loader, ex._warm_up, ex._finish

    class TimedLoader:
        def __init__(self, loader) -> None:
            self.loader = loader

        def __iter__(self):
            started = time.monotonic()
            iterator = iter(self.loader)
            clock.add("loader iterator created", time.monotonic() - started)
            while True:
                waited = time.monotonic()
                try:
                    batch = next(iterator)
                except StopIteration:
                    break
                now = time.monotonic()
                clock.add("waiting for input (next batch)", now - waited)
                if clock.first_batch_s is None:
                    clock.first_batch_s = now - started
                yield batch
            started = time.monotonic()
            del iterator
            clock.add("loader shutdown", time.monotonic() - started)

    def loader(dataset, device, workers):
        return TimedLoader(real_loader(dataset, device, workers))

    def warm_up(encoder):
        started = time.monotonic()
        real_warm_up(encoder)
        clock.add("warm-up forward", time.monotonic() - started)

    def finish(pending, output, progress):
        started = time.monotonic()
        real_finish(pending, output, progress)
        clock.add("finishing batches (copy-back wait, bookkeeping)", time.monotonic() - started)

    ex._loader, ex._warm_up, ex._finish = loader, warm_up, finish


class TimedEncoder:
    """The encoder with CUDA events around each forward pass and the host time to enqueue it."""

    def __init__(self, encoder, clock: Clock) -> None:
        self.encoder, self.clock = encoder, clock
        self.device, self.shape = encoder.device, encoder.shape

    def __call__(self, ids, lengths, padded):
        started = time.monotonic()
        cuda = self.device.type == "cuda"
        if cuda:
            begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            begin.record()
        pooled = self.encoder(ids, lengths, padded)
        if cuda:
            end.record()
            self.clock.events.append((begin, end))
        self.clock.add("enqueueing forward passes", time.monotonic() - started)
        return pooled


def device_summary(clock: Clock) -> dict:
    """Device busy time of the forward passes and the idle gaps between them (ms)."""
    if not clock.events:
        return {}
    busy = [b.elapsed_time(e) for b, e in clock.events]
    gaps = [clock.events[i][1].elapsed_time(clock.events[i + 1][0]) for i in range(len(clock.events) - 1)]
    span = clock.events[0][0].elapsed_time(clock.events[-1][1])
    return {
        "batches": len(busy),
        "forward busy ms": round(sum(busy), 1),
        "first to last forward span ms": round(span, 1),
        "busy share of span": round(sum(busy) / span, 3) if span > 0 else None,
        "largest gap between forwards ms": round(max(gaps), 1) if gaps else 0.0,
        "gaps over 10 ms": sum(1 for g in gaps if g > 10),
    }


def main(argv) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input")
    parser.add_argument("--kind", choices=["dnabert", "esm"], default="dnabert")
    parser.add_argument("-d", "--device", default="cuda:0")
    parser.add_argument("--scale", default="full")
    parser.add_argument("--precision", default="fp16")
    parser.add_argument("--budget-tokens", type=int, default=32768)
    parser.add_argument("-w", "--workers", type=int, default=4)
    parser.add_argument("--chunk-length", type=int, default=500)
    args = parser.parse_args(argv)

    frames = frames_of(args.input, args.chunk_length)
    sequences = [f.nucleotides if args.kind == "dnabert" else f.protein for f in frames]
    device = torch.device(args.device)
    clock = Clock(device)
    instrument(clock)
    config = ex.ExtractConfig(args.kind, args.scale, args.precision, 1, args.budget_tokens, args.workers, Injections())

    started = time.monotonic()
    if device.type == "cuda":
        torch.cuda.set_device(device)
        torch.zeros(1, device=device)
    clock.sync()
    clock.add("device start-up (context)", time.monotonic() - started)
    started = time.monotonic()
    encoder = ex.build_encoder(args.kind, args.scale, device, args.precision, 1)
    clock.sync()
    clock.add("model build", time.monotonic() - started)
    started = time.monotonic()
    result = ex.extract(TimedEncoder(encoder, clock), sequences, config)
    clock.sync()
    extract_s = time.monotonic() - started
    report = {
        "kind": args.kind,
        "sequences": len(sequences),
        "tokens": result.tokens,
        "loader workers": args.workers,
        "extract() wall s": round(extract_s, 3),
        "extract() own timer s (excludes loader start and warm-up)": round(result.seconds, 3),
        "first batch after iterator creation s": round(clock.first_batch_s or 0.0, 3),
        "phases s": {k: round(v, 3) for k, v in clock.phases.items()},
        "device": device_summary(clock),
        "total wall s": round(time.monotonic() - clock.t0, 3),
    }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
