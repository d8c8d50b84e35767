/**
 * The test files of the `integration` Vitest project; every other file under test/ is in `unit` (vitest.config.ts).
 * `npm test` runs `unit` and must answer a person checking a change within minutes on 2 cores, every test under 5 s;
 * these files are no less valuable and CI runs them (`.ci/run`, `npm run test:integration`), but each spends its time
 * in one of the kinds of work below, measured on a 2-core machine (per-file wall times from the unit project's JSON
 * report before the split, on a machine that was busy for part of the run: the README has quiet figures).
 *
 * A file is listed here, not moved: test/ keeps mirroring src/. A listed path that no longer exists fails
 * test/ci/projects.test.ts, so a renamed file cannot drop silently back into `unit`.
 */

/** Runs of the reference pipeline as real processes (python3 with torch on the CPU): each probe of torch costs 2 s. */
const REFERENCE_PIPELINE = [
  // The pipeline's own tests and contracts, and its fault injection, driven as `python3 -m refpipe` (39 s for inject).
  'test/reference-pipeline/frames-contract.test.ts',
  'test/reference-pipeline/inject.test.ts',
  'test/reference-pipeline/predict.test.ts',
  'test/reference-pipeline/unittest.test.ts',
  // Issue 56: VirNucPro's two architectures, 5 runs read through the runner (v1.0, v2.0, v1.0 on 2 workers, packing).
  'test/reference-pipeline/architecture.test.ts',
  // The runner and the target profile against the real pipeline (preflight imports torch: 10 s for one test).
  'test/pipeline/runner-reference.test.ts',
  'test/pipeline/profiles.test.ts',
  // The target's own `predict --help` read through the reference profile (torch imported first: 3 s).
  'test/pipeline/target-help-reference.test.ts',
  // VIRNUCPRO_BENCH_PIPELINE_ARGS against that help, as doctor reads it (issue 56: 5 s).
  'test/engine/pipeline-args-check-reference.test.ts',
  'test/platform/python.test.ts',
  // The CLI's doctor as a real process, which probes python and torch (4-5 s a test).
  'test/cli/doctor.test.ts',
  // The suites on the CPU: repeated real runs a configuration, monitored (16-109 s a file).
  'test/capacity/analyze.test.ts',
  'test/suites/e2e/e2e-equivalence.test.ts',
  'test/suites/e2e/e2e-projection.test.ts',
  // Issue 56: e2e's matrix refuses an arm whose run shows no sign of its switch (4 tiny runs).
  'test/suites/e2e/e2e-matrix.test.ts',
  'test/engine/measure-interleaved.test.ts',
  'test/suites/memory/memory.test.ts',
  'test/suites/scaling/scaling.test.ts',
  'test/suites/shard/shard.test.ts',
  'test/suites/stage/stage.test.ts',
]

/**
 * A real single-node Slurm cluster running campaigns of the stage suite (67 s; a requeued task, about 60 s; skip
 * without SLURM_CONF). Both files may run at once beside other files: the cluster queues a job until the node has the
 * CPUs for it (each wait allows 300 s), which is what a scheduler is for.
 */
const SLURM_CLUSTER = ['test/cluster/slurm-cluster.test.ts', 'test/cluster/slurm-requeue.test.ts']

/**
 * Large seeded studies whose figures the docs state: thousands of simulated histories, 300 simulated campaigns a CI
 * coverage (2.6-2.9 s a test alone, over 5 s beside another file), a million snapshots.
 */
const STUDIES = [
  'test/history/gate-study.test.ts',
  'test/measure/change-points-study.test.ts',
  // The decided rule on twins of VirNucPro (issue 36): 20 seeds x 4 designs (30-40 s here). The width rule's study
  // (design-study.long.test.ts) runs in npm run test:long.
  'test/capacity/decide-study.test.ts',
  'test/report/analyses/fleet-coverage.test.ts',
  'test/nvml/leak.test.ts',
]

/** A whole Vitest run in a child process, of another project or of a bench (13-18 s each). */
const NESTED_VITEST_RUNS = [
  'test/ci/gpu-project.test.ts',
  'test/benchmarks/module-runner.test.ts',
  // benchmarks/measure.bench.ts against a copy of src/ (`--against`'s bench side), planted and not.
  'test/benchmarks/against-bench.test.ts',
  // benchmarks/ab.gpu.bench.ts on the CPU: 8 runs of the reference pipeline under a nested vitest bench.
  'test/benchmarks/ab-gpu-bench.test.ts',
  'test/benchmarks/support/gpu-global-setup.test.ts',
  // A CPU campaign killed and continued: a SIGTERM after the warm-up, a SIGKILL mid-run, a SIGKILL once the record is
  // written (4 campaigns, 3 continued: about 2.5 min; random moments: the long project); and issue 40's finished
  // campaign run again with its run ID pinned, the one never cut (a campaign more, measuring nothing).
  'test/engine/continue-campaign.test.ts',
  // Issue 40: a campaign suspended past its lock's lease, taken over, resumed: 2 campaigns (about 1 min).
  'test/engine/suspended-writer.test.ts',
  // Issue 40, case 6a: a stop signal repeated to a campaign's process group, twice and three times: 2 campaigns (45 s).
  'test/engine/graceful-stop-repeated.test.ts',
  // Issue 40: the gpu project's set-up refused (a live writer, a read-only and a full disk): 4 suites as processes (20 s).
  'test/benchmarks/support/run-context-setup.test.ts',
  // Issue 40: the same command beside a run dated in the future and after a cut-off state (a copy of the same killed
  // run): 3 campaigns, 1 killed (about 1 min).
  'test/engine/run-choice-suite.test.ts',
  // Issue 37: a settings study cut by SIGTERM inside its screen, then continued to its end: 2 campaigns (about 2 min).
  'test/study/study-continue.test.ts',
  // Issue 44: the gpu project over two files in one invocation says its plan, then a line after every run (about 45 s).
  'test/engine/invocation-progress/run-lines-campaign.test.ts',
  // The capacity design's runs on the CPU: 3 designs from one planned measurement of the reference pipeline, checks
  // that hold for any timing (about 1.5 min).
  'test/validation/capacity-cpu-design.test.ts',
  // Issue 44: the capacity answer and the capacity known answers' direct check in one gpu-project console: one name one
  // answer, every UNDECIDED with its reason (one campaign of 9 runs, about 60 s).
  'test/validation/capacity-console.test.ts',
  // Issue 45: every *.bench.ts once under `vitest bench` in the smoke pass (reduced sizes, not judged; about 1 min).
  'test/benchmarks/bench-smoke.test.ts',
]

/**
 * Issue 25's tables and properties: every bad input against the real CLI as a process, dozens of processes a file
 * (17-29 s a file, a property test 6 s), each row checking files byte for byte; the commands' own tests stay in unit.
 */
const CLI_REFUSAL_TABLES = [
  // The nightly job's script end to end: bash, the CLI and SQLite over a dozen nights (21 s, 6 s a test).
  'test/scripts/nightly-history.test.ts',
  'test/cli/refusals-inputs.test.ts',
  'test/cli/refusals-outputs.test.ts',
  'test/cli/outputs-consumers.test.ts',
  'test/cli/refusals.props.test.ts',
  // Issue 32's history faults: a real tmpfs filled up, a damaged page, a writer process beside the readers (23-34 s
  // on a busy 2-core machine, a CLI process 0.7-1.5 s).
  'test/cli/history-faults.test.ts',
  // Issue 32's input validation memory: a 1 GiB and a 200 M-base record read by doctor --settings (8-30 s).
  'test/cli/input-memory.test.ts',
  // Issue 40's readers of a damaged or foreign journal: report, capacity and history add as processes (45 s in a
  // clean-clone CI, 3-8 s a test).
  'test/cli/journal-readers.test.ts',
  // Issue 58's output targets against run directories known by what they hold: capacity, report, history, fixtures
  // and monitor as processes (13 s, 0.6-3.3 s a test).
  'test/cli/output-targets-runs.test.ts',
]

export const INTEGRATION_TEST_FILES: readonly string[] = [
  ...REFERENCE_PIPELINE,
  ...SLURM_CLUSTER,
  ...STUDIES,
  ...NESTED_VITEST_RUNS,
  ...CLI_REFUSAL_TABLES,
]

/**
 * The `long` project (`npm run test:long`, nightly in .github/workflows/long.yml, never in CI): the killed campaign at
 * random moments, the scaling suite at 4 and 8 workers, the capacity design's width-rule study at 20 seeds. CI keeps
 * one example of each: continue-campaign.test.ts, scaling.test.ts, decide-study.test.ts.
 */
export const LONG_TEST_FILES: readonly string[] = ['test/**/*.long.test.ts']

/**
 * Known answers read from wall times measured in the run (the `integration-timed` project, after every other file, two
 * side by side, each pinned with its processes to a core of its own: test/support/pin-core.ts): the line reader's pace on a
 * 10-hour tqdm stream against a plain byte scan (12 s), planted faults caught by their detectors on real runs (40 s),
 * the capacity suite's projections against direct runs (45 s), the settings study's (2 and 1.5 minutes). Each compares
 * wall times measured within a few seconds of each other, or against a stall planted in proportion, so a neighbour
 * slows both sides alike. They run after the other projects, each on its own core, so what they time is the pipeline
 * and not their neighbours' processes.
 */
export const TIMED_INTEGRATION_TEST_FILES: readonly string[] = [
  // Listed longest first: the order they run in (test/support/listed-order.ts), so the two side by side end together
  // (file times of the clean-clone CI5 run: 118, 82, 40, 24, 17 s; 142 s in this order against 160 s largest file first).
  // Issue 37: a settings study's halving of 3 settings over two rounds and the stall it saves (about 2 minutes);
  // a study of 2 settings, one left for its outputs, then two capacity answers, the refit and a continuation (about
  // 1.5 minutes). One file until issue 45: 170-193 s pinned, over the 3 minutes a file may take.
  'test/validation/study-cpu-known-answer.test.ts',
  'test/validation/study-cpu-outputs-known-answer.test.ts',
  'test/validation/capacity-cpu-known-answer.test.ts',
  'test/validation/cpu-scenarios.test.ts',
  // A 10-hour tqdm stream through the runner, its pace read against a plain byte scan of the same stream (10-15 s).
  'test/pipeline/runner-long-line.test.ts',
  // The pinning itself: this worker and its children on one core (a second, 0.1 s).
  'test/support/pin-core.test.ts',
]

/**
 * The known answer whose sides are minutes apart (the `integration-alone` project, after integration-timed, alone on
 * the machine): ten nights of real runs replayed into a history whose gate must flag the night the stall lands and no
 * other (about 2 minutes alone). A core of its own is not enough on the 2-core CI VM: pinned, its nights' median read
 * 2,056 ms alone, 2,488-2,621 ms beside the settings study (CI15-CI18) and 3,423 ms beside the CPU-bound timed files
 * (CI19, 178 s, with the nights after the step up to 1.5x slower again: 207 s in one run here). A neighbour that
 * changes between the nights before the step and those after it moves the step itself: at 1.66x, a planted +120%
 * would read +33%, under the gate's threshold.
 */
export const ALONE_INTEGRATION_TEST_FILES: readonly string[] = ['test/validation/history-known-answer.test.ts']
