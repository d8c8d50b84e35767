import { globSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'
import { gpuTestTimeoutMs } from './benchmarks/support/gpu-timeouts.ts'
import AnnotationLineReporter from './reporters/annotations.ts'
import FileTimesReporter from './reporters/file-times.ts'
import GpuReportReporter from './reporters/gpu-report.ts'
import RunLinesReporter from './reporters/run-lines.ts'
import SkipReasonsReporter from './reporters/skip-reasons.ts'
import SummaryLineReporter from './reporters/summary-line.ts'
import {
  ALONE_INTEGRATION_TEST_FILES,
  INTEGRATION_TEST_FILES,
  LONG_TEST_FILES,
  TIMED_INTEGRATION_TEST_FILES,
} from './test/support/integration-tests.ts'
import { ListedOrderSequencer } from './test/support/listed-order.ts'
import { ownProcessTestFiles } from './test/support/own-process-tests.ts'
import { timedWorkers } from './test/support/pin-core-plan.ts'

/**
 * `vitest bench` runs on native imports (Node 24 strips the types of our erasable-syntax .ts itself). Vite's module
 * runner turns every cross-module reference into an export getter call, inside src/ too (line-wrap, log-line, NVML
 * status codes), so measured loops paid for millions of getter calls (in one run here: fixture generation 16% and the
 * log parser 12% slower) and Vitest warned. A `(bench)` companion inherits its parent project's config whole, so the
 * switch keys on the command: `vitest bench` runs only the companions; `vitest run` keeps the module runner for tests.
 */
const benchmarkOnly = process.argv[2] === 'bench'

const root = fileURLToPath(new URL('.', import.meta.url))
const NOT_UNIT = [
  ...INTEGRATION_TEST_FILES,
  ...TIMED_INTEGRATION_TEST_FILES,
  ...ALONE_INTEGRATION_TEST_FILES,
  ...LONG_TEST_FILES,
]
/** The unit files that leave state in their process (test/support/own-process-tests.ts says which and why). */
const OWN_PROCESS_UNIT_FILES = ownProcessTestFiles(
  globSync('test/**/*.test.ts', { cwd: root, exclude: NOT_UNIT }),
  root,
)

/**
 * Seven projects:
 * - `unit` and `unit-isolated` (`npm test`) run on any machine (no GPU) in minutes: everything under test/ but the
 *   integration files, and the CPU-side benches in `unit (bench)`. `unit` shares one process among many files;
 *   `unit-isolated` gives a process to each file that leaves state in its own (test/support/own-process-tests.ts).
 * - `integration` (`npm run test:integration`) also needs no GPU: the files listed in test/support/integration-tests.ts,
 *   which run the reference pipeline, known-answer campaigns, large studies or a nested Vitest, two files side by side.
 *   Listed, not moved, so test/ keeps mirroring src/. It has no benches: its `(bench)` companion, which `vitest bench`
 *   makes for every project, matches no file.
 * - `integration-timed` (also run by `npm run test:integration`): the known answers read from wall times measured in
 *   the run, after the other projects, two side by side, each pinned to a core of its own.
 * - `integration-alone` (also run by `npm run test:integration`): the history's known answer, after integration-timed and
 *   alone on the machine (test/support/integration-tests.ts says why).
 * - `long` (`npm run test:long`, nightly in .github/workflows/long.yml, never in CI): `*.long.test.ts`, the random
 *   campaigns and studies whose one example per kind CI keeps (test/support/integration-tests.ts).
 * - `gpu` needs an NVIDIA driver. Its global setup probes NVML once; without a driver it prints one line saying why and
 *   every test in the project is skipped with that reason (see benchmarks/support/gpu-setup.ts), never passed.
 * GPU benchmarks are named *.gpu.bench.ts so that `vitest bench` sends them to `gpu (bench)` and the rest to `unit (bench)`.
 */
export default defineConfig({
  test: {
    experimental: { viteModuleRunner: !benchmarkOnly },
    // Vitest's order, but the timed known answers longest first, as their list gives them (test/support/listed-order.ts).
    sequence: { sequencer: ListedOrderSequencer },
    // The GPU report reporter writes reports/ at the end of a run that produced result records, then hands over to the
    // skip reasons (one line per reason tests were skipped with) and the closing line (vitest runs reporters'
    // onTestRunEnd concurrently, so order needs chaining, not array order).
    reporters: [
      // First: vitest calls reporters in order, and a run's line must come before what its end brings (the default
      // reporter's console lines, annotations). It says nothing outside a gpu project invocation that measures.
      new RunLinesReporter(),
      'default',
      new AnnotationLineReporter(),
      // Each file's time to VITEST_FILE_TIMES_FILE, when set (.ci/run prints the slowest ten).
      new FileTimesReporter(),
      new GpuReportReporter({ after: [new SkipReasonsReporter(), new SummaryLineReporter()] }),
    ],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...NOT_UNIT, ...OWN_PROCESS_UNIT_FILES],
          setupFiles: ['test/support/fast-check-seed.ts', 'test/support/file-end.ts'],
          testTimeout: 30_000,
          // One process serves many files in turn (issue 45): on 2 cores isolation spent about 2 of the unit files' 6
          // minutes in CI importing the same modules again for every file. The files that leave state in their
          // process run in `unit-isolated` (test/support/own-process-tests.ts).
          isolate: false,
          // Both cores: Vitest's default leaves one free (cores - 1: one worker on 2 cores), while most unit files
          // wait on child processes they spawn. Measured on 2 cores: 4 min 11 s with one worker (CPU 4 min 23 s, one
          // core busy), 2 min 54 s with two.
          maxWorkers: '100%',
          // `vitest bench` runs the bench files one at a time: each bench's figures are then its own, whether the whole
          // suite runs or one file, and a baseline saved by one compares with the other. Beside another bench file on
          // 2 cores the bootstrap's ratio read 0.25 where it reads 0.18 alone; a whole run took 174 s two files at a
          // time (started quiet), 126-128 s one at a time (quiet).
          fileParallelism: !benchmarkOnly,
          benchmark: {
            enabled: true,
            include: ['benchmarks/**/*.bench.ts'],
            exclude: ['benchmarks/**/*.gpu.bench.ts', '**/node_modules/**'],
            retainSamples: true,
          },
        },
      },
      {
        extends: true,
        test: {
          name: 'unit-isolated',
          include: OWN_PROCESS_UNIT_FILES,
          setupFiles: ['test/support/fast-check-seed.ts', 'test/support/file-end.ts'],
          testTimeout: 30_000,
          // A fresh process a file, as Vitest's default: these files load the NVML addon on a fake library, mock
          // modules or stub globals (test/support/own-process-tests.ts). Both cores, and the same group as `unit`,
          // whose maxWorkers it must share.
          maxWorkers: '100%',
          benchmark: { include: [] },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: [...INTEGRATION_TEST_FILES],
          // The same settings these files had in `unit`: each long test or hook names its own timeout.
          setupFiles: ['test/support/fast-check-seed.ts', 'test/support/file-end.ts'],
          testTimeout: 30_000,
          // Two files side by side (issue 45): most of these wait on the child processes they start, and one file at a
          // time left a core idle for 35 minutes of CI. Not more than two, whatever the machine: the campaigns' torch
          // processes are CPU-bound, and their timeouts are sized for 2 cores.
          maxWorkers: 2,
          // After unit, in a group of its own: in one run of both (.ci/run), Vitest refuses two projects of one group
          // whose maxWorkers differ.
          sequence: { groupOrder: 1 },
          benchmark: { include: [] },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration-timed',
          include: [...TIMED_INTEGRATION_TEST_FILES],
          setupFiles: ['test/support/fast-check-seed.ts', 'test/support/file-end.ts', 'test/support/pin-core.ts'],
          testTimeout: 30_000,
          // Last of the CPU projects, after every other file: these files' answers are wall times
          // (test/support/integration-tests.ts says why). Two side by side, each pinned to a core of its own with
          // every process it starts (test/support/pin-core.ts); one at a time where that cannot be done.
          maxWorkers: timedWorkers(),
          fileParallelism: timedWorkers() > 1,
          // The count the workers pin by, decided here once: inside a pinned worker the machine reads as one core.
          env: { VIRNUCPRO_BENCH_TIMED_WORKERS: String(timedWorkers()) },
          sequence: { groupOrder: 2 },
          benchmark: { include: [] },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration-alone',
          include: [...ALONE_INTEGRATION_TEST_FILES],
          setupFiles: ['test/support/fast-check-seed.ts', 'test/support/file-end.ts'],
          testTimeout: 30_000,
          // After integration-timed, one file and nothing beside it: not pinned, the machine is its own.
          maxWorkers: 1,
          fileParallelism: false,
          sequence: { groupOrder: 3 },
          benchmark: { include: [] },
        },
      },
      {
        extends: true,
        test: {
          name: 'long',
          include: [...LONG_TEST_FILES],
          setupFiles: ['test/support/fast-check-seed.ts', 'test/support/file-end.ts'],
          testTimeout: 30_000,
          maxWorkers: 1,
          fileParallelism: false,
          sequence: { groupOrder: 4 },
          benchmark: { include: [] },
        },
      },
      {
        extends: true,
        test: {
          name: 'gpu',
          include: ['benchmarks/**/*.gpu.test.ts'],
          globalSetup: ['benchmarks/support/gpu-global-setup.ts', 'benchmarks/support/run-context-setup.ts'],
          // gpu-setup skips every test without a driver; run-ledger keeps every run in the progress ledger.
          setupFiles: ['benchmarks/support/gpu-setup.ts', 'benchmarks/support/run-ledger.ts'],
          // GPU runs are long and share devices: one file at a time.
          maxWorkers: 1,
          fileParallelism: false,
          // The job limit (benchmarks/support/gpu-timeouts.ts): no test outlasts the job it runs in, and none is cut
          // short of it.
          testTimeout: gpuTestTimeoutMs(),
          hookTimeout: gpuTestTimeoutMs(),
          benchmark: {
            enabled: true,
            include: ['benchmarks/**/*.gpu.bench.ts'],
            retainSamples: true,
          },
        },
      },
    ],
  },
})
