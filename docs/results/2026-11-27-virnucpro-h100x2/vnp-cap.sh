set -u
source .devcarry/activate.sh
source .devcarry/vnp-setup.sh
nvidia-smi --query-gpu=index,name,uuid --format=csv,noheader
[ -f .devcarry/results-vnp.tgz ] && [ ! -d results ] && tar -xzf .devcarry/results-vnp.tgz
export VIRNUCPRO_BENCH_TARGET=virnucpro VIRNUCPRO_DIR=$V/virnucpro-broad VIRNUCPRO_PYTHON=python3
export VIRNUCPRO_BENCH_RUNS=2 VIRNUCPRO_BENCH_SIZES=1000,3750 VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN=${BUDGET:-60}
t0=$SECONDS; timeout -s TERM ${CUT_S:-470} vitest bench --project 'gpu (bench)' benchmarks/capacity.gpu.bench.ts > $OUT/vnp-cap.log 2>&1; echo "rc=$? $((SECONDS - t0)) s"
grep -aE "continuing|stopped by|annotation|measured again|PARTIAL|capacity|top-up|design" $OUT/vnp-cap.log | cut -c1-600 | head -40
# What came back from the calls: the records, run journals and logs (small), and the monitor series apart.
(cd results && find . -name '*.json' -o -name 'target.log' > /tmp/l && tar -czf $OUT/json-logs.tgz -T /tmp/l)
(cd results && find . -name '*.jsonl' > /tmp/l && tar -cf - -T /tmp/l | gzip -1 > $OUT/gpu.tgz); ls -la $OUT
