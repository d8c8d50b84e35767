"""The `predict` subcommand: VirNucPro's benchmark-relevant options plus refpipe's own (--model-scale, --precision,
--seed, --inject, --cpu-workers, --sequences-per-file)."""

import argparse

from refpipe.arg_types import non_negative_int, positive_int
from refpipe.inject import parse_injections
from refpipe.run_state import Options


def add_parser(commands) -> None:
    p = commands.add_parser("predict", help="run the nine-stage pipeline on a nucleotide FASTA file")
    p.add_argument("input_fasta")
    p.add_argument("-m", "--model-type", type=int, choices=(300, 500), default=500, help="chunk length (default 500)")
    p.add_argument("-o", "--output-dir", help="default: {stem}_predictions")
    p.add_argument("-f", "--force", action="store_true", help="overwrite an existing output directory")
    p.add_argument("-k", "--keep-intermediate", action="store_true", help="keep chunked/translated/split files")
    p.add_argument("-b", "--batch-size", type=positive_int, default=256, help="classifier batch rows (256)")
    p.add_argument("--dnabert-batch-size", type=positive_int, default=32768, help="DNABERT-S tokens per batch")
    p.add_argument("--esm-batch-size", type=positive_int, default=32768, help="ESM-2 tokens per batch")
    p.add_argument("-w", "--num-workers", type=non_negative_int, default=4, help="DataLoader workers (4)")
    p.add_argument("--gpus", help="GPU indices, e.g. 0,1 (a list turns on --parallel)")
    p.add_argument("--parallel", action="store_true", help="v2.0 architecture: worker processes per GPU (a --gpus list turns it on)")
    p.add_argument("--v1-fallback", action="store_true",
                   help="Use v1.0 multi-worker architecture for ESM-2 instead of v2.0 async DataLoader")
    p.add_argument("--persistent-models", action=argparse.BooleanOptionalAction, default=False,
                   help="accepted for parity and logged; builds no model fewer (see README)")
    p.add_argument("--no-progress", action="store_true", help="accepted for parity: refpipe draws no progress bars")
    p.add_argument("-d", "--device", default="auto", help="auto, cpu, cuda or cuda:N")
    p.add_argument("--model-scale", choices=("tiny", "small", "full"), help="default: full on a GPU, tiny on the CPU")
    p.add_argument("--precision", choices=("fp32", "fp16", "bf16"), help="default: fp16 on a GPU, fp32 on the CPU")
    p.add_argument("--seed", type=non_negative_int, default=0, help="weight seed (0)")
    p.add_argument("--inject", action="append", default=[], metavar="NAME=VALUE", help="fault injection (repeatable)")
    p.add_argument("--cpu-workers", type=positive_int, default=1, help="worker processes on the CPU (tests)")
    p.add_argument("--sequences-per-file", type=positive_int, default=10000,
                   help="sequences (frames, proteins) per split file (10000, as VirNucPro)")
    p.set_defaults(run=_run)


def options_from_args(args: argparse.Namespace) -> Options:
    """Options for run_pipeline. @throws UsageError for a bad --inject or REFPIPE_INJECT item."""
    return Options(
        input_path=args.input_fasta,
        model_type=args.model_type,
        output_dir=args.output_dir,
        force=args.force,
        keep_intermediate=args.keep_intermediate,
        batch_size=args.batch_size,
        dnabert_batch_tokens=args.dnabert_batch_size,
        esm_batch_tokens=args.esm_batch_size,
        loader_workers=args.num_workers,
        gpus=args.gpus,
        parallel=args.parallel,
        v1_fallback=args.v1_fallback,
        persistent_models=args.persistent_models,
        device=args.device,
        scale=args.model_scale,
        precision=args.precision,
        seed=args.seed,
        cpu_workers=args.cpu_workers,
        sequences_per_file=args.sequences_per_file,
        injections=parse_injections(args.inject),
    )


def _run(args: argparse.Namespace) -> int:
    from refpipe.pipeline import run_pipeline

    return run_pipeline(options_from_args(args))
