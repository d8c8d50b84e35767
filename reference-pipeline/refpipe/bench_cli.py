"""`encoder-bench` (the bare encoder rate, to compare the ESM-2 stage with on the same machine) and `make-fixture`
(gene-dense FASTA, so that the GPU stages get realistic work)."""

import argparse
import json
import statistics
import time

import numpy as np
import torch

from refpipe.arg_types import non_negative_int, positive_int
from refpipe.devices import plan_devices
from refpipe.extract import build_encoder
from refpipe.fasta import write_fasta
from refpipe.frames import reverse_complement
from refpipe.logs import get_logger

logger = get_logger("bench")
_DEFAULT_SHAPE = {"esm": (128, 170), "dnabert": (64, 512)}


def add_parsers(commands) -> None:
    b = commands.add_parser("encoder-bench", help="time the bare encoder on fixed-size batches")
    b.add_argument("--model", choices=("esm", "dnabert"), default="esm")
    b.add_argument("--scale", choices=("tiny", "small", "full"))
    b.add_argument("--precision", choices=("fp32", "fp16", "bf16"))
    b.add_argument("-d", "--device", default="auto")
    b.add_argument("--batch-rows", type=positive_int, help="rows per batch (esm 128, dnabert 64)")
    b.add_argument("--seq-tokens", type=positive_int, help="tokens per row (esm 170, dnabert 512)")
    b.add_argument("--iterations", type=positive_int, default=20)
    b.add_argument("--warmup", type=non_negative_int, default=3)
    b.add_argument("--seed", type=non_negative_int, default=0)
    b.set_defaults(run=run_encoder_bench)
    f = commands.add_parser("make-fixture", help="write a gene-dense nucleotide FASTA")
    f.add_argument("output")
    f.add_argument("--records", type=positive_int, default=1000)
    f.add_argument("--min-length", type=positive_int, default=3000)
    f.add_argument("--max-length", type=positive_int, default=10000)
    f.add_argument("--seed", type=non_negative_int, default=0)
    f.set_defaults(run=run_make_fixture)


def run_encoder_bench(args: argparse.Namespace) -> int:
    plan = plan_devices(args.device, None, False, 1, args.precision, args.scale)
    device = plan.devices[0]
    if device.startswith("cuda"):
        torch.cuda.set_device(int(device.split(":")[1]))
    rows, width = args.batch_rows or _DEFAULT_SHAPE[args.model][0], args.seq_tokens or _DEFAULT_SHAPE[args.model][1]
    started = time.monotonic()
    encoder = build_encoder(args.model, plan.scale, device, plan.precision, args.seed)
    logger.info(f"Encoder {args.model} ({plan.scale}, {plan.precision}) built on {device} in "
                f"{time.monotonic() - started:.1f}s: {encoder.parameter_bytes() / 2**30:.2f} GiB of weights")  # fmt: skip
    generator = torch.Generator(device="cpu").manual_seed(args.seed)
    ids = torch.randint(4, 24, (rows, width), generator=generator).to(device)
    lengths = torch.full((rows,), width, dtype=torch.int64, device=device)
    times_s = _time_batches(encoder, ids, lengths, args.warmup, args.iterations)
    median_s = statistics.median(times_s)
    result = {"model": args.model, "scale": plan.scale, "precision": plan.precision, "device": device,
              "rows": rows, "tokensPerRow": width, "iterations": len(times_s), "medianBatchS": median_s,
              "tokensPerS": rows * width / median_s, "sequencesPerS": rows / median_s}  # fmt: skip
    logger.info(f"Encoder bench: {rows} x {width} tokens per batch, median {median_s * 1000:.1f} ms: "
                f"{result['tokensPerS']:,.0f} tok/s, {result['sequencesPerS']:.1f} seq/s")  # fmt: skip
    logger.info(f"Encoder bench result: {json.dumps(result)}")
    return 0


def _time_batches(encoder, ids, lengths, warmup: int, iterations: int):
    on_cuda = ids.device.type == "cuda"
    times_s = []
    with torch.inference_mode():
        for i in range(warmup + iterations):
            started = time.perf_counter()
            pooled = encoder(ids, lengths, False)
            if on_cuda:
                torch.cuda.synchronize()
            if not torch.isfinite(pooled).all():
                raise RuntimeError("encoder produced non-finite embeddings")
            if i >= warmup:
                times_s.append(time.perf_counter() - started)
    return times_s


_SENSE_CODONS = [a + b + c for a in "TCAG" for b in "TCAG" for c in "TCAG" if a + b + c not in ("TAA", "TAG", "TGA")]


def run_make_fixture(args: argparse.Namespace) -> int:
    """Records of sense codons only (a long open reading frame), half of them on the reverse strand: every chunk then
    has at least one stop-free frame, as in gene-dense viral data."""
    if args.min_length > args.max_length:
        raise argparse.ArgumentTypeError(f"--min-length {args.min_length} exceeds --max-length {args.max_length}")
    rng = np.random.RandomState(args.seed)
    records = []
    for index in range(args.records):
        length = int(rng.randint(args.min_length, args.max_length + 1))
        codons = rng.randint(0, len(_SENSE_CODONS), size=-(-length // 3))
        sequence = "".join(_SENSE_CODONS[c] for c in codons)[:length]
        records.append((f"seq{index + 1}", reverse_complement(sequence) if index % 2 else sequence))
    count = write_fasta(args.output, records)
    logger.info(f"Wrote {count:,} gene-dense records ({sum(len(s) for _, s in records):,} bases) to {args.output}")
    return 0
