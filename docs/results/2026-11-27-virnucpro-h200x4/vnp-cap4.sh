# The unmodified VirNucPro through the capacity bench on one 4-GPU host: 1 and 4 GPUs (GPUS) at three sizes, the
# decided design, continued across calls (the same command again). On the GPU machine:
#   CUT_S=450 [DIRECT=4] bash .devcarry/vnp-cap4.sh
set -u
t_all=$SECONDS
source .devcarry/activate.sh
source .devcarry/vnp-setup.sh
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
nvidia-smi --query-gpu=index,name,uuid,memory.total --format=csv,noheader
[ -f .devcarry/results-vnp.tgz ] && [ ! -d results ] && tar -xzf .devcarry/results-vnp.tgz && echo "results carried in"
# The user's own sample: 20,000 reads of the MEDIUM preset, seed 36 (same seed and version: the same bytes).
[ -f /tmp/sample/part-001.fa ] || node src/cli.ts fixtures generate --preset MEDIUM --records 20000 --seed 36 --out /tmp/sample >&2
export VIRNUCPRO_BENCH_TARGET=virnucpro VIRNUCPRO_DIR=$V/virnucpro-broad VIRNUCPRO_PYTHON=python3
export VIRNUCPRO_BENCH_INPUT=/tmp/sample/part-001.fa VIRNUCPRO_BENCH_SIZES=${SIZES:-500,2000,5500}
export VIRNUCPRO_BENCH_CAPACITY_GPUS=${GPUS:-1,4}
export VIRNUCPRO_BENCH_RUNS=2 VIRNUCPRO_BENCH_WARMUP=0 VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN=${BUDGET:-92}
[ -n "${DIRECT:-}" ] && export VIRNUCPRO_BENCH_CAPACITY_DIRECT=$DIRECT
echo "set-up $((SECONDS - t_all)) s"
t0=$SECONDS; timeout -s TERM ${CUT_S:-470} vitest bench --project 'gpu (bench)' benchmarks/capacity.gpu.bench.ts > $OUT/vnp-cap.log 2>&1; echo "bench rc=$? $((SECONDS - t0)) s"
grep -aE "capacity (PROVISIONAL|FINAL)|continuing|stopped|runs kept|capacity bench|capacity decisions|Error|error" $OUT/vnp-cap.log | cut -c1-700 | tail -40
# Back: records, run journals and pipeline logs (small); the monitor series apart; the whole results for a new machine.
(cd results && find . -name '*.json' -o -name 'target.log' > /tmp/l && tar -czf $OUT/json-logs.tgz -T /tmp/l)
(cd results && find . -name '*.jsonl' > /tmp/l && tar -cf - -T /tmp/l | gzip -1 > $OUT/gpu.tgz)
tar --exclude='*/out' -czf $OUT/results-vnp.tgz results
[ -d reports ] && tar -czf $OUT/reports.tgz reports
ls -la $OUT; echo "call $((SECONDS - t_all)) s"
