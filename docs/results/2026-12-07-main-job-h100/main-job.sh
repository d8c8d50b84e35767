# Issue 57: the main job at its defaults (the bundled reference pipeline) on one GPU, as a user runs it, from this tree.
# On the GPU machine, carrying .devcarry:   bash .devcarry/main-job.sh
set -u
t_all=$SECONDS
source .devcarry/activate.sh
nvidia-smi --query-gpu=index,name,uuid,memory.total,clocks.max.sm --format=csv,noheader
git log -1 --format='commit %h %s' 2>/dev/null | cut -c1-120
echo "set-up $((SECONDS - t_all)) s"
t0=$SECONDS
timeout -s TERM ${CUT_S:-575} vitest run --project gpu > $OUT/console.log 2>&1
echo "vitest rc=$? $((SECONDS - t0)) s"
grep -aE "^\[plan\] gpu project|Test Files|Tests  |vitest:|✓ \||× \||↓ \||capacity capacity|gpu-report: capacity +(UNCHECKED|PERF)" $OUT/console.log | cut -c1-400 | head -40
[ -d reports ] && tar -czf $OUT/reports.tgz reports
(cd results 2>/dev/null && find . -name '*.json' -not -path '*/work/*' > /tmp/l && tar -czf $OUT/records.tgz -T /tmp/l)
ls -la $OUT; echo "call $((SECONDS - t_all)) s"
