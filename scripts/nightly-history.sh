#!/usr/bin/env bash
# The nightly GPU job's history step (.github/workflows/gpu-bench.yml): add the night's run to the history database,
# look for change points, rebuild the reports with the night in their trends, and fail on what the newest run brings
# to light, naming each regression's commit range. It is also the one writer of the job summary: the rebuilt report's
# summary (change points and the newest run's judgement in its trends), cut after a whole line at GitHub's 1 MiB.
#   usage: scripts/nightly-history.sh RUN_DIR
#   env:   VIRNUCPRO_BENCH_HISTORY  the database (created on the first night)
#          REPORTS_DIR              where the reports, history-changes.txt and .json go (default reports)
#          GITHUB_STEP_SUMMARY      when set, the job summary is written there
# Exit: 0 nothing brought to light (a regression of tonight's run alone, not yet confirmed, is a ::warning:: line);
# 1 a confirmed regression (one ::error:: line per regression, with its commits); 2 bad usage;
# 3 the database cannot be used (missing run directory, no valid record, locked, a newer schema: its one-line reason).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cli=(node "$here/../src/cli.ts")
run_dir=${1:-}
reports=${REPORTS_DIR:-reports}

summary() { if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then printf '%s\n' "$@" >> "$GITHUB_STEP_SUMMARY"; fi; }

if [ -z "$run_dir" ] || [ $# -ne 1 ]; then echo "usage: $0 RUN_DIR" >&2; exit 2; fi
if [ -z "${VIRNUCPRO_BENCH_HISTORY:-}" ]; then echo "nightly-history: VIRNUCPRO_BENCH_HISTORY is not set (the database to add to)" >&2; exit 2; fi
if [ ! -d "$run_dir" ]; then
  # The suites wrote nothing (they were skipped or crashed before their first record): nothing to add or judge.
  echo "::error title=History not updated::no run directory $run_dir: the GPU steps wrote no records"
  summary '## No results' '' "No run directory $run_dir: the GPU steps wrote no records; their log says why."
  exit 3
fi
mkdir -p "$reports" "$(dirname "$VIRNUCPRO_BENCH_HISTORY")"
# The exit code as a step output too: the workflow saves the database after 0 or 1, never after 3.
trap 'code=$?; [ -n "${GITHUB_OUTPUT:-}" ] && echo "exit=$code" >> "$GITHUB_OUTPUT"; exit $code' EXIT

"${cli[@]}" history add "$run_dir"
added=$?
changes=skipped
if [ $added -eq 0 ]; then
  "${cli[@]}" history changes --json-file "$reports/history-changes.json" > "$reports/history-changes.txt"
  changes=$?
  cat "$reports/history-changes.txt"
fi

# The reports again, now with this night in the history's trends (the reporter drew them before the night was added);
# benchmarks and how the run ended come from what the reporter stored beside the records. The GPU steps leave the job
# summary to this one: it is written once, from the final reports.
if ! "${cli[@]}" report "$run_dir" --history "$VIRNUCPRO_BENCH_HISTORY" --out "$reports" > "$reports/report-rebuild.log" 2>&1; then
  why=$(tail -n 1 "$reports/report-rebuild.log")
  echo "::warning title=Reports not rebuilt::$why (log: $reports/report-rebuild.log)"
  summary '## Reports not rebuilt' '' "$why" '' "The reports of the GPU steps, if any, are in the job's artifacts."
fi

if [ $added -ne 0 ]; then echo "::error title=History not updated::history add exited $added (its reason is above)"; exit 3; fi

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
