# Issue 48's GPU proof: the unmodified VirNucPro (stand-in weights) on one H200, its capacity measured as a user runs it
# (`vitest run --project gpu benchmarks/scaling.gpu.test.ts -t capacity`) on an own sample of 45,000 reads, at the
# sizes the probe plans and with the held-out check, continued across calls (the same command again). On the GPU
# machine, carrying .devcarry (with docs/results/2026-11-27-virnucpro-h200x4/vnp-setup.sh):   CUT_S=550 bash .devcarry/vnp-held-out.sh
set -u
t_all=$SECONDS
source .devcarry/activate.sh
source .devcarry/vnp-setup.sh
nvidia-smi --query-gpu=index,name,uuid,memory.total,clocks.max.sm --format=csv,noheader
[ -f .devcarry/results-vnp.tgz ] && [ ! -d results ] && tar -xzf .devcarry/results-vnp.tgz && echo "results carried in"
# The user's own sample: 45,000 reads of the MEDIUM preset, seed 48 (the same seed and version: the same bytes); the
# second proof used PRESET=SMALL RECORDS=16000 (200-800 bp reads).
[ -f /tmp/sample/part-001.fa ] || node src/cli.ts fixtures generate --preset ${PRESET:-MEDIUM} --records ${RECORDS:-45000} --seed 48 --out /tmp/sample >&2
export VIRNUCPRO_BENCH_TARGET=virnucpro VIRNUCPRO_DIR=$V/virnucpro-broad VIRNUCPRO_PYTHON=python3
export VIRNUCPRO_BENCH_INPUT=/tmp/sample/part-001.fa VIRNUCPRO_BENCH_RUN_ID=${RUN_ID:-vnp-held-out}
export VIRNUCPRO_BENCH_RUNS=2 VIRNUCPRO_BENCH_WARMUP=${WARMUP:-1} VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN=${BUDGET:-19}
echo "set-up $((SECONDS - t_all)) s"
t0=$SECONDS
timeout -s TERM ${CUT_S:-550} vitest run --project gpu benchmarks/scaling.gpu.test.ts -t capacity > $OUT/vnp.log 2>&1
echo "vitest rc=$? $((SECONDS - t0)) s"
grep -aE "capacity (sizes|PROVISIONAL|FINAL|UNDECIDED|UNCHECKED)|continuing|kept|Error|error|✓|×" $OUT/vnp.log | cut -c1-900 | tail -30
(cd results && find . -name '*.json' -o -name 'target.log' > /tmp/l && tar -czf $OUT/json-logs.tgz -T /tmp/l)
tar --exclude='*/out' -czf $OUT/results-vnp.tgz results
[ -d reports ] && tar -czf $OUT/reports.tgz reports
ls -la $OUT; echo "call $((SECONDS - t_all)) s"
