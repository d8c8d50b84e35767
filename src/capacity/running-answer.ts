/**
 * The capacity answer after every run, a line each and a line for each UNDECIDED it shows (capacity/answer-line.ts),
 * while the measurement goes on:
 * the runs so far, the planned ones and every one the design adds, analysed as the record will be (the same options),
 * marked PROVISIONAL with the one count of runs the reports use (measured runs kept, warm-ups apart, of those planned
 * so far). A run the journal gives back (a continuation) adds no line of its own: the first new run's line holds it.
 */
import type { Thresholds } from '../config/thresholds.ts'
import type { Configuration } from '../engine/configuration.ts'
import type { MeasuredConfiguration } from '../engine/measure-configuration.ts'
import type { RunObservation } from '../engine/observe-run.ts'
import type { ResolvedInput } from '../input/resolver.ts'
import { type AnalysisOptions, analyzeCapacity, type ConfigMeasurements } from './analyze.ts'
import { capacityAnswer } from './answer.ts'
import { answerLines } from './answer-line.ts'

export interface RunningAnswer {
  /** Says which configuration and input an arm's runs belong to, before its first run. */
  register(arm: string, config: number, input: ResolvedInput): void
  /** More measured runs planned (a design step's). */
  plan(runs: number): void
  /**
   * A run ended: analyse everything kept so far and print its lines, in one call (one console block), not for a run
   * given back by the journal.
   */
  onRun(arm: string, observation: RunObservation, reused: boolean): void
}

export function runningAnswer(o: {
  configs: readonly { config: Configuration; gpuCount: number }[]
  thresholds: Thresholds
  analysis: AnalysisOptions
  plannedRuns: number
  /** Where the lines after a run go, joined by newlines: one console block a run. */
  print: (lines: string) => void
}): RunningAnswer {
  const arms = new Map<string, { config: number; input: ResolvedInput }>()
  const runs = new Map<string, RunObservation[]>()
  let planned = o.plannedRuns
  const measurements = (): { measured: ConfigMeasurements[]; inputs: ResolvedInput[] } => {
    const inputs = [...new Map([...arms.values()].map((a) => [a.input.file, a.input])).values()].sort(
      (a, b) => a.records - b.records,
    )
    const measured = o.configs.map(({ config, gpuCount }, c) => {
      const slots = inputs.map((input) =>
        [...arms]
          .filter(([, a]) => a.config === c && a.input.file === input.file)
          .flatMap(([arm]) => runs.get(arm) ?? []),
      )
      const completed = slots.map((s) =>
        s.filter((r) => !r.measured.warmup && r.measured.run.exitClass === 'completed'),
      )
      // A size of one run so far (between the two runs of a design's step) holds no spread and would take every
      // interval away: left out while two sizes of two runs stand (as a refit of the kept runs does: capacity/refit.ts).
      const settled = completed.filter((s) => s.length >= 2).length >= 2
      return {
        config,
        gpuCount,
        bySize: slots.map(
          (observations, i): MeasuredConfiguration => ({
            config,
            observations: settled && completed[i]!.length === 1 ? [] : observations,
            stop: 'run-budget',
            failure: null,
            reusedRuns: 0,
          }),
        ),
      }
    })
    return { measured, inputs }
  }
  return {
    register: (arm, config, input) => arms.set(arm, { config, input }),
    plan: (more) => {
      planned += more
    },
    onRun(arm, observation, reused) {
      runs.set(arm, [...(runs.get(arm) ?? []), observation])
      if (reused) return
      const { measured, inputs } = measurements()
      const kept = [...runs.values()]
        .flat()
        .filter((r) => !r.measured.warmup && r.measured.run.exitClass === 'completed').length
      // The line after a run shows no stage times nor memory: the analysis goes without them.
      const { stats, verdicts } = analyzeCapacity(measured, inputs, o.thresholds, [], {
        ...o.analysis,
        answerFigures: false,
      })
      const answer = capacityAnswer(stats, verdicts, {
        final: false,
        keptRuns: kept,
        plannedRuns: Math.max(planned, kept),
        // Every configuration is planned on this host: one not fitted yet is 'not measured yet'.
        hostGpus: Math.max(...o.configs.map((c) => c.gpuCount)),
      })
      o.print(answerLines(answer).join('\n'))
    },
  }
}
