#!/usr/bin/env bash
# Runs GPU suites one file (or folder) at a time under one wall-clock deadline, so a step that overruns costs only its own
# slot and every step's log survives. Made for lent GPU machines with a hard per-call limit; works on any GPU host.
#
#   scripts/gpu-campaign.sh DEADLINE_S OUT_DIR STEP...      STEP = name:timeout_s:[VAR=value ...] vitest-args
#
# Args are split on spaces; leading VAR=value words set the environment of that step only (e.g. a smaller input for
# one suite: `e2e:200:VIRNUCPRO_BENCH_RECORDS=300 run --project gpu benchmarks/e2e.gpu.test.ts`).
# Each step runs `vitest <args>` with `timeout min(timeout_s, time left - 30 s)`, its output in OUT_DIR/<name>.log; a step
# with less than 20 s left is skipped (said so). At the end: a compact archive of the records, run logs and monitor series
# (never the pipeline's tensor outputs) as OUT_DIR/results.tgz, and one line per verdict of every record.
set -uo pipefail
deadline_s=$1 out=$2; shift 2
start=$SECONDS
mkdir -p "$out"
for step in "$@"; do
  name=${step%%:*}; rest=${step#*:}; limit=${rest%%:*}; args=${rest#*:}
  left=$((deadline_s - (SECONDS - start) - 30))
  if [ "$left" -lt 20 ]; then echo "== $name: skipped, ${left}s left"; continue; fi
  [ "$limit" -gt "$left" ] && limit=$left
  read -r -a words <<< "$args"
  assignments=()
  while [ "${#words[@]}" -gt 0 ] && [[ ${words[0]} =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; do
    assignments+=("${words[0]}"); words=("${words[@]:1}")
  done
  echo "== $name (limit ${limit}s): ${assignments[*]} vitest ${words[*]}"
  timeout --kill-after=10 "$limit" env "${assignments[@]}" vitest "${words[@]}" > "$out/$name.log" 2>&1
  echo "== $name: exit $? after $((SECONDS - start))s total"
  grep -aE '^\[annotation\]|^vitest: |FAIL |AssertionError|Error:' "$out/$name.log" | cut -c1-400 | head -40
done
find results -type f \( -name '*.json' -o -name 'gpu.jsonl' -o -name 'target.log' \) -print0 2>/dev/null |
  tar --null -czf "$out/results.tgz" -T - 2>/dev/null
node -e '
  const fs = require("node:fs"), path = require("node:path")
  for (const run of fs.existsSync("results") ? fs.readdirSync("results") : [])
    for (const f of fs.readdirSync(path.join("results", run)).filter((f) => f.endsWith(".json"))) {
      let r; try { r = JSON.parse(fs.readFileSync(path.join("results", run, f), "utf8")) } catch { console.log("unreadable", f); continue }
      console.log(`# ${r.id} [${r.state}] ${r.reason ?? ""}`)
      for (const v of r.verdicts ?? []) console.log(`  ${v.verdict.padEnd(12)} ${v.id} = ${v.value ?? "-"} ${v.unit ?? ""} ${v.ci ? `[${v.ci.low.toFixed(3)}, ${v.ci.high.toFixed(3)}]` : ""}`)
    }' | cut -c1-200
