# Issue 56, before its proof: the unmodified VirNucPro (stand-in weights) on one GPU through the suite's v2.0
# configuration (--parallel --gpus 0) and its v1.0 baseline (--gpus 0), one run a size: the architecture line read
# and checked in every run, the v2.0 worker's lines, and v2.0 against v1.0 printed. Carrying .devcarry:
#   CUT_S=400 bash .devcarry/vnp-v2-smoke.sh
set -u
t_all=$SECONDS
source .devcarry/activate.sh
source .devcarry/vnp-setup.sh
nvidia-smi --query-gpu=index,name,uuid,memory.total --format=csv,noheader
[ -f /tmp/sample/part-001.fa ] || node src/cli.ts fixtures generate --preset SMALL --records ${RECORDS:-4000} --seed 56 --out /tmp/sample >&2
export VIRNUCPRO_BENCH_TARGET=virnucpro VIRNUCPRO_DIR=$V/virnucpro-broad VIRNUCPRO_PYTHON=python3
export VIRNUCPRO_BENCH_INPUT=/tmp/sample/part-001.fa VIRNUCPRO_BENCH_RUN_ID=vnp-smoke
export VIRNUCPRO_BENCH_RUNS=${RUNS:-1} VIRNUCPRO_BENCH_WARMUP=0 VIRNUCPRO_BENCH_SIZES=${SIZES:-1000,2000}
export VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN=${BUDGET:-1} VIRNUCPRO_BENCH_V1_GPUS=1
echo "set-up $((SECONDS - t_all)) s"
t0=$SECONDS
timeout -s TERM ${CUT_S:-400} vitest run --project gpu benchmarks/scaling.gpu.test.ts -t 'capacity|v1.0 baseline' > $OUT/vnp.log 2>&1
echo "vitest rc=$? $((SECONDS - t0)) s"
grep -aE "capacity sizes|\[run\]|capacity (v2.0 against|PROVISIONAL|FINAL|UNDECIDED|UNCHECKED)|asked for the|✓|×|↓" $OUT/vnp.log | cut -c1-400 | tail -30
grep -ah "Architecture:" results/vnp-smoke/work/*/*/target.log 2>/dev/null | sort | uniq -c
(cd results && find . -name '*.json' -o -name 'target.log' > /tmp/l && tar -czf $OUT/json-logs.tgz -T /tmp/l)
[ -d reports ] && tar -czf $OUT/reports.tgz reports
echo "call $((SECONDS - t_all)) s"
