"""A fake VirNucPro for runner tests: the real CLI contract and log format, no models.

Usage: fake_target.py predict INPUT -o OUT [-m 500] [-d cpu] [--gpus 0,1] --force [--fake MODE ...]
Modes (repeatable): crash-at=N, hang-at=N, ignore-term, partial, oom, oom-exit1, orphan, setsid-child,
bad-output, no-output, cut-line, abort, skew=N:SECONDS, workers=K, chatter=N (unrelated lines).
It logs like upstream (pipeline_telemetry.py): stage start/end lines, a summary block, worker lines on stderr.
"""
import argparse
import logging
import os
import signal
import subprocess
import sys
import time

STAGES = ["Sequence Chunking", "Six-Frame Translation", "Nucleotide File Splitting", "Protein File Splitting",
          "DNABERT-S Feature Extraction", "ESM-2 Feature Extraction", "Feature Merging", "Model Prediction",
          "Consensus Scoring"]
log = logging.getLogger("virnucpro.pipeline.telemetry")


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("command")
    p.add_argument("input")
    p.add_argument("-o", "--output-dir", required=True)
    p.add_argument("-m", "--model-type", default="500")
    p.add_argument("-d", "--device", default="auto")
    p.add_argument("--gpus", default=None)
    p.add_argument("--force", action="store_true")
    p.add_argument("--stage-ms", type=float, default=20)
    p.add_argument("--fake", action="append", default=[])
    p.add_argument("--as-worker", type=int, default=None)
    return p.parse_args()


def modes(args):
    out = {}
    for item in args.fake:
        key, _, value = item.partition("=")
        out[key] = value
    return out


def worker(rank):
    fmt = f"%(asctime)s - Worker {rank} - %(name)s - %(levelname)s - %(message)s"
    logging.basicConfig(stream=sys.stderr, format=fmt, level=logging.INFO)
    wlog = logging.getLogger("virnucpro.pipeline.gpu_worker")
    time.sleep(0.3)  # long enough for the harness's tree poll to see the worker
    for i in range(1, 4):
        wlog.info(f"Batch {i}: {i * 100}/300 ({i * 100 / 3:.1f}%) | 91.2% pack eff, {16474 + i:,.0f} tok/s, 321.5 seq/s, ETA: 0:00:0{3 - i}")
    wlog.info("Async inference complete: 300 sequences, 321.5 seq/s, 16,474 tokens/s")


def write_outputs(args, bad):
    stem = os.path.splitext(os.path.basename(args.input))[0]
    merged = os.path.join(args.output_dir, f"{stem}_merged")
    os.makedirs(merged, exist_ok=True)
    with open(os.path.join(merged, "prediction_results.txt"), "w") as f:
        f.write("Sequence_ID\tPrediction\tscore1\tscore2\n")
        f.write("seq1_chunk_1F1\tvirus\t0.1\t0.9\nseq1_chunk_1R1\tothers\t0.8\t0.2\n")
        if bad:
            f.write("seq2_chunk_1F1\tmaybe\t0.5\n")
    with open(os.path.join(merged, "prediction_results_highestscore.csv"), "w") as f:
        f.write("Modified_ID\tIs_Virus\tmax_score_0\tmax_score_1\nseq1_chunk_1\tTrue\t0.8\t0.9\n")


def hang(mode):
    if "ignore-term" in mode:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    while True:
        time.sleep(1)


def spawn_helpers(mode):
    me = os.path.abspath(__file__)
    if "orphan" in mode:  # same group; the parent exits without waiting
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    if "setsid-child" in mode:  # leaves the group and session: only PID tracking finds it
        subprocess.Popen([sys.executable, "-c", "import os, time; time.sleep(600)"], start_new_session=True)
    return [subprocess.Popen([sys.executable, me, "predict", "x", "-o", "x", "--as-worker", str(r)])
            for r in range(int(mode.get("workers", "0") or 0))]


def run_stage(n, name, args, mode, timings):
    log.info(f"=== Stage {n}: {name} ===")
    start = time.monotonic()
    if mode.get("crash-at") == str(n):
        raise RuntimeError(f"injected crash in stage {n}")
    if mode.get("hang-at") == str(n):
        hang(mode)
    if "oom" in mode and n == 6 or "oom-exit1" in mode and n == 6:
        log.error("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB")
        sys.exit(4 if "oom" in mode else 1)
    time.sleep(args.stage_ms / 1000)
    elapsed = time.monotonic() - start
    timings.append((name, elapsed))
    logged = elapsed + float(mode["skew"].split(":")[1]) if mode.get("skew", ":").split(":")[0] == str(n) else elapsed
    log.info(f"  {name} completed in {logged:.1f}s [sequences: {1234 * n:,}, files: {n}]")


def summary(total, timings):
    width = max(len(n) for n, _ in timings)
    lines = ["", "=" * 80, "PIPELINE SUMMARY", "=" * 80, f"Total wall time: 00:00:00 ({total:.1f}s)", "", "Stages:"]
    for i, (name, s) in enumerate(timings, 1):
        lines.append(f"  {i}. {name} {'.' * (width - len(name) + 4)}  {s:6.1f}s ({s / total * 100:5.1f}%)")
    lines += ["", "Key metrics:", f"  Sequences processed: {sum(1234 * i for i in range(1, len(timings) + 1)):,}", "=" * 80]
    for line in lines:
        log.info(line)


def main():
    args = parse()
    if args.as_worker is not None:
        return worker(args.as_worker)
    fmt = "%(asctime)s - %(name)s - %(levelname)s - %(message)s"
    logging.basicConfig(stream=sys.stdout, format=fmt, datefmt="%Y-%m-%d %H:%M:%S", level=logging.INFO)
    mode = modes(args)
    if "cut-line" in mode:
        sys.stdout.write("=== Stage 1: Sequence Chu")
        sys.stdout.flush()
        os._exit(1)
    if "abort" in mode:
        os.kill(os.getpid(), signal.SIGABRT)
    for i in range(int(mode.get("chatter", "0") or 0)):
        print(f"unrelated output line {i}", flush=True)
    workers = spawn_helpers(mode)
    t0 = time.monotonic()
    timings = []
    for n, name in enumerate(STAGES, 1):
        run_stage(n, name, args, mode, timings)
        if n == 6:
            for w in workers:
                w.wait()
    if "no-output" not in mode:
        write_outputs(args, "bad-output" in mode)
    summary(time.monotonic() - t0, timings)
    sys.stdout.flush()
    return 2 if "partial" in mode else 0


if __name__ == "__main__":
    sys.exit(main())
