# Issue 56, session 1 of its proof: the unmodified VirNucPro (stand-in weights) on one GPU, the user's own sample of
# 45,000 short reads (SMALL preset, uniform 100-200 bp, seed 56). Started detached by vnp-56-call.sh from a copy of the
# tree in /tmp/w, so that one measurement spans device calls; everything it keeps goes to /tmp/p.
#  1. The suite's v2.0 capacity answer (`--parallel --gpus 0`): probe-planned sizes, 2 runs a size, no warm-up, the
#     whole sample held out; its job limit (END_S) set so that the vitest ends about 1,150 s after the script starts.
#  2. v1.0 (`--gpus 0`) run directly on the whole sample, as a user runs it, if the time left (to STOP_S) holds it.
set -u
P=/tmp/p; cd /tmp/w
t0=$SECONDS
say() { echo "[$(date -u +%H:%M:%S) +$((SECONDS - t0)) s] $*"; }
source .devcarry/activate.sh
source .devcarry/vnp-setup.sh
nvidia-smi --query-gpu=index,name,uuid,memory.total,clocks.max.sm,driver_version --format=csv,noheader > $P/gpu.txt
python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda)' >> $P/gpu.txt 2>&1
say "set-up done"
node src/cli.ts fixtures generate --preset SMALL --records 45000 --min-length 100 --max-length 200 --seed 56 --out /tmp/sample
IN=/tmp/sample/part-001.fa
sha256sum $IN > $P/sample.sha256
export VIRNUCPRO_BENCH_TARGET=virnucpro VIRNUCPRO_DIR=$V/virnucpro-broad VIRNUCPRO_PYTHON=python3
export VIRNUCPRO_BENCH_INPUT=$IN VIRNUCPRO_BENCH_RUN_ID=vnp-56
export VIRNUCPRO_BENCH_RUNS=2 VIRNUCPRO_BENCH_WARMUP=0 VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN=${BUDGET:-20}
export VIRNUCPRO_BENCH_V1_GPUS=none
export VIRNUCPRO_BENCH_JOB_LIMIT_S=$(( ${END_S:-1150} - (SECONDS - t0) ))
say "vitest: job limit $VIRNUCPRO_BENCH_JOB_LIMIT_S s"
timeout -s TERM $((VIRNUCPRO_BENCH_JOB_LIMIT_S + 90)) vitest run --project gpu benchmarks/scaling.gpu.test.ts -t 'capacity' > $P/vnp.log 2>&1
say "vitest rc=$?"
node src/cli.ts capacity results/vnp-56 > $P/capacity.txt 2>&1
node src/cli.ts capacity results/vnp-56 --json $P/capacity.json > /dev/null 2>&1
node src/cli.ts report results/vnp-56 --out $P/report > $P/report.log 2>&1
cp -r reports $P/reports 2>/dev/null
(cd results && find . \( -name '*.json' -o -name 'target.log' -o -name 'prediction_results_highestscore.csv' \) > /tmp/l && tar -czf $P/results.tgz -T /tmp/l)
left=$(( ${STOP_S:-1520} - (SECONDS - t0) ))
if [ $left -ge 330 ]; then
  t1=$SECONDS
  (cd $V/virnucpro-broad && timeout -s TERM $left python3 -m virnucpro predict $IN -o /tmp/direct-v1 --gpus 0 --force) > $P/direct-v1.log 2>&1
  say "direct v1.0 at 45,000 reads: rc=$? wall $((SECONDS - t1)) s (limit $left s)"
  cp /tmp/direct-v1/prediction_results_highestscore.csv $P/direct-v1-highestscore.csv 2>/dev/null
else say "direct v1.0 not run: $left s left"; fi
say "done"
touch $P/done
