import { join } from 'node:path'
import type { TestBenchmark } from 'vitest'
import type { Reporter, SerializedError, TestCase, TestModule, TestRunEndReason, Vitest } from 'vitest/node'
import { workDirOf } from '../src/engine/context.ts'
import { campaignTask } from '../src/engine/settings.ts'
import { escapeControls } from '../src/platform/one-line.ts'
import { regressionGateFails } from '../src/report/analyses/regression.ts'
import { reporterHistoryFile } from '../src/report/history-input.ts'
import type { BenchmarkTaskResult, RunOutcome } from '../src/report/input.ts'
import { loadReportInput } from '../src/report/load.ts'
import { checkOutDir } from '../src/report/out-dir.ts'
import { terminalSummary } from '../src/report/render/terminal.ts'
import { listRunDirs, newRunDir, reportsDir, resultsRoot } from '../src/report/run-dir.ts'
import { REPORT_FILES, writeReports } from '../src/report/write.ts'
import { storeInvocation } from '../src/results/invocations.ts'
import { checkWriter } from '../src/results/writer-lock.ts'

export interface GpuReportOptions {
  /** Where reports go; default VIRNUCPRO_BENCH_REPORTS_DIR or `reports`. */
  outDir?: string
  /** Results root; default VIRNUCPRO_BENCH_RESULTS_DIR or `results`. */
  resultsRoot?: string
  /** Report this run ID; default: VIRNUCPRO_BENCH_RUN_ID, the provided `runId`, or the run directory this run created. */
  runId?: string
  /** A stored run directory to compare with (regression gate); default VIRNUCPRO_BENCH_BASELINE. */
  baselineDir?: string
  /**
   * A history database to draw trends from; default VIRNUCPRO_BENCH_HISTORY when it names an existing file. It holds
   * the runs added before this one (`history add` runs after the tests).
   */
  historyFile?: string
  /**
   * A significant regression beyond the threshold against `baselineDir`, or a baseline group this run could not compare
   * because its record failed, fails the run (exit code 1).
   */
  failOnRegression?: boolean
  /**
   * Reporters whose onTestRunEnd runs after the reports are printed. Vitest runs every reporter's onTestRunEnd at
   * once (Promise.all), so the closing summary line must be chained here to stay the last line printed.
   */
  after?: Pick<Reporter, 'onTestRunEnd'>[]
  /** Print lines through this function (tests); default process.stdout. */
  write?: (text: string) => void
}

/**
 * At the end of a vitest run: reads the run's result records (and the benchmark results vitest reported), writes
 * every report into `reports/`, and prints one line per suite and where the reports are. It writes also when tests
 * failed or the run was interrupted, saying so. Prints nothing when the run produced neither records nor benchmarks.
 * Pass SummaryLineReporter as `after` (not beside it in `reporters`): its closing line must stay the last line.
 */
export default class GpuReportReporter implements Reporter {
  readonly #options: GpuReportOptions
  #vitest: Vitest | null = null
  #before = new Set<string>()
  #benchmarks: BenchmarkTaskResult[] = []

  constructor(options: GpuReportOptions = {}) {
    this.#options = options
  }

  #root(): string {
    return this.#options.resultsRoot ?? resultsRoot()
  }

  onInit(vitest: Vitest): void {
    this.#vitest = vitest
  }

  async onTestRunStart(): Promise<void> {
    this.#before = new Set(await listRunDirs(this.#root()))
    this.#benchmarks = []
  }

  onTestCaseBenchmark(testCase: TestCase, benchmark: TestBenchmark): void {
    for (const task of benchmark.tasks) {
      if (task.fromStore) continue
      const l = task.latency
      this.#benchmarks.push({
        name: `${testCase.fullName} > ${task.name}`,
        project: testCase.project.name,
        latencyMs: { mean: l.mean, p50: l.p50, p99: l.p99, min: l.min, max: l.max, sd: l.sd, rme: l.rme },
        samples: l.samplesCount,
        opsPerS: task.throughput.mean,
      })
    }
  }

  #providedRunId(): string | null {
    for (const project of this.#vitest?.projects ?? []) {
      const provided = (project.getProvidedContext() as unknown as Record<string, unknown>).runId
      if (typeof provided === 'string' && provided.length > 0) return provided
    }
    return null
  }

  /**
   * Throws WriterLostError when this invocation held the run's writer lock (the gpu project's global setup provides
   * its token) and holds it no more: another invocation took the run over while this one was suspended, and its
   * reports are that one's to write.
   */
  #checkStillWriter(dir: string): void {
    for (const project of this.#vitest?.projects ?? []) {
      const writer = (project.getProvidedContext() as unknown as Record<string, unknown>).writer as
        | { token?: unknown }
        | null
        | undefined
      if (typeof writer?.token !== 'string' || join(this.#root(), String(this.#providedRunId())) !== dir) continue
      checkWriter(workDirOf(dir, campaignTask(process.env)), writer.token)
    }
  }

  async #runDir(): Promise<string | null> {
    const runId = this.#options.runId ?? (process.env.VIRNUCPRO_BENCH_RUN_ID?.trim() || null) ?? this.#providedRunId()
    return runId ? join(this.#root(), runId) : newRunDir(this.#root(), this.#before)
  }

  async onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    errors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): Promise<void> {
    await this.#report(errors, reason)
    for (const next of this.#options.after ?? []) await next.onTestRunEnd?.(modules, errors, reason)
  }

  async #report(errors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): Promise<void> {
    const write = this.#options.write ?? ((text: string) => process.stdout.write(text))
    try {
      const dir = await this.#runDir()
      if (dir === null && this.#benchmarks.length === 0) return
      if (dir !== null) this.#checkStillWriter(dir)
      const outcome: RunOutcome =
        reason === 'passed' && errors.length === 0
          ? { state: 'passed' }
          : reason === 'interrupted'
            ? { state: 'interrupted', note: 'the vitest run was interrupted' }
            : { state: 'failed', note: `some tests failed (${errors.length} unhandled errors)` }
      const baselineDir = this.#options.baselineDir ?? (process.env.VIRNUCPRO_BENCH_BASELINE?.trim() || null)
      const history = this.#options.historyFile ?? reporterHistoryFile()
      const input = await loadReportInput({
        resultsDir: dir,
        baselineDir,
        benchmarks: this.#benchmarks,
        outcome,
        history,
      })
      // A run whose GPU suites were all skipped (no driver) has a run ID but nothing to report: leave reports/ (maybe a
      // real run's) alone rather than overwrite it with an empty report.
      if (input.records.length === 0 && input.invalid.length === 0 && this.#benchmarks.length === 0) return
      const outDir = reportsDir(this.#options.outDir)
      // Never over files of the report names that no report wrote (a reports/ of the user's own).
      await checkOutDir(outDir, REPORT_FILES, 'reports directory')
      const written = await writeReports(input, outDir)
      for (const left of written.removedLeftovers)
        write(`gpu-report: note: removed ${escapeControls(left)}, the unfinished reports of a killed run\n`)
      write(`${terminalSummary(written.report, written.outDir, written.files, written.leftOut).join('\n')}\n`)
      if (written.stepSummaryError) write(`gpu-report: ${escapeControls(written.stepSummaryError.message)}\n`)
      // So that `virnucpro-bench report` rebuilds these reports whole (benchmarks and outcome are no records).
      if (dir !== null)
        await storeInvocation(dir, { finishedAt: new Date().toISOString(), outcome, benchmarks: this.#benchmarks })
      if (this.#options.failOnRegression && regressionGateFails(written.report.regression)) process.exitCode = 1
    } catch (error) {
      // A report failure must never hide the test results or the closing summary line.
      write(`gpu-report: reports not written: ${escapeControls((error as Error).message)}\n`)
    }
  }
}
