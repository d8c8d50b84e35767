#!/usr/bin/env bash
# The nightly GPU job's history step (.github/workflows/gpu-bench.yml): add the night's run to the history database,
# look for change points, rebuild the reports with the night in their trends, and fail on what the newest run brings
# to light, naming each regression's commit range.
#   usage: scripts/nightly-history.sh RUN_DIR
#   env:   VIRNUCPRO_BENCH_HISTORY  the database (created on the first night)
#          REPORTS_DIR              where history-changes.txt and .json go (default reports)
#          GITHUB_STEP_SUMMARY      when set, the change points are appended to the job summary
# Exit: 0 nothing brought to light (a regression of tonight's run alone, not yet confirmed, is a ::warning:: line);
# 1 a confirmed regression (one ::error:: line per regression, with its commits); 2 bad usage;
# 3 the database cannot be used (missing run directory, locked, a newer schema: its one-line reason).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cli=(node "$here/../src/cli.ts")
run_dir=${1:-}
reports=${REPORTS_DIR:-reports}

if [ -z "$run_dir" ] || [ $# -ne 1 ]; then echo "usage: $0 RUN_DIR" >&2; exit 2; fi
if [ -z "${VIRNUCPRO_BENCH_HISTORY:-}" ]; then echo "nightly-history: VIRNUCPRO_BENCH_HISTORY is not set (the database to add to)" >&2; exit 2; fi
if [ ! -d "$run_dir" ]; then
  # The suites wrote nothing (they were skipped or crashed before their first record): nothing to add or judge.
  echo "::error title=History not updated::no run directory $run_dir: the GPU steps wrote no records"
  exit 3
fi
mkdir -p "$reports" "$(dirname "$VIRNUCPRO_BENCH_HISTORY")"
# The exit code as a step output too: the workflow saves the database after 0 or 1, never after 3.
trap 'code=$?; [ -n "${GITHUB_OUTPUT:-}" ] && echo "exit=$code" >> "$GITHUB_OUTPUT"; exit $code' EXIT

"${cli[@]}" history add "$run_dir"
added=$?
if [ $added -ne 0 ]; then echo "::error title=History not updated::history add exited $added (its reason is above)"; exit 3; fi

"${cli[@]}" history changes --json-file "$reports/history-changes.json" > "$reports/history-changes.txt"
changes=$?
cat "$reports/history-changes.txt"

# The reports again, now with this night in the history's trends (the reporter drew them before the night was added);
# benchmarks and how the run ended come from what the reporter stored beside the records. The reporters appended their
# step summaries already, and the job's summary step appends the rebuilt summary.md: not a third time here.
if ! GITHUB_STEP_SUMMARY='' "${cli[@]}" report "$run_dir" --history "$VIRNUCPRO_BENCH_HISTORY" --out "$reports" > "$reports/report-rebuild.log" 2>&1; then
  echo "::warning title=Reports not rebuilt::the reports lack this night's trends: see $reports/report-rebuild.log"
fi

if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  # 1 MiB per step is GitHub's limit; the report's own summary comes after this one.
  { echo '## Change points over the history'; echo; echo '```'; head -c 200000 "$reports/history-changes.txt"; echo '```'; } >> "$GITHUB_STEP_SUMMARY"
fi

# A regression of tonight's run alone is a suspect: a warning naming its commits; a second night confirms it (exit 1).
[ -f "$reports/history-changes.txt" ] && sed -n '/^SUSPECTED: /,/^[^ ]/p' "$reports/history-changes.txt" | sed -n 's/^  \(.*\)$/::warning title=Suspected regression (one night)::\1/p'

case $changes in
  0) exit 0 ;;
  1)
    # The indented lines under the gate's heading: one per regression, each with its commit range.
    sed -n '/^REGRESSION: the newest run brings/,$p' "$reports/history-changes.txt" | sed -n 's/^  \(.*\)$/::error title=Performance regression::\1/p'
    exit 1 ;;
  *) echo "::error title=History not judged::history changes exited $changes (its reason is above)"; exit 3 ;;
esac
