// From bottleneck to option: the flagged stage's advice names the target's own options (from the study's read of its
// --help) and what the newest settings study measured of them; without a study, no option and how to run one.
import { describe, expect, test } from 'vitest'
import { figureText } from '../../../src/capacity/answer.ts'
import { analyzeBottlenecks } from '../../../src/report/analyses/bottleneck.ts'
import { STUDY_COMMAND, type StageAdvice } from '../../../src/report/analyses/bottleneck-options.ts'
import { BOTTLENECK_RULES } from '../../../src/report/analyses/bottleneck-rules.ts'
import { sampleResultRecord } from '../../support/result-records.ts'
import {
  capacity,
  DEFAULT_HOURS,
  DNABERT,
  ESM,
  fig,
  flaggedStageRecord,
  row,
  STAGE_OPTIONS,
  screening,
  studyRecord,
  studyStats,
} from '../support/bottleneck-study.ts'

const adviceOf = (records: Parameters<typeof analyzeBottlenecks>[0], stage: string): StageAdvice => {
  const advice = analyzeBottlenecks(records).advice.find((a) => a.stage === stage)
  if (!advice) throw new Error(`no advice for ${stage}`)
  return advice
}

/** DNABERT-S's budget of 4096 is faster at 6 M on both GPU counts and flips PERF-01 on 2 GPUs; 512 left as slower. */
const BEST_HOURS = [fig(14, 12.1, 16.2), fig(7.4, 6.5, 8.3)]
function dnabertStudy() {
  return studyStats(
    [
      row('dnabert-batch-size=512', ['--dnabert-batch-size', '512'], {
        screening: [screening(1, 1000, 70)],
        dropped: { round: 1, records: 1000, why: 'slower', detail: 'median 70,000 ms against 40,000 ms' },
      }),
      row('dnabert-batch-size=4096', ['--dnabert-batch-size', '4096'], {
        screening: [screening(1, 1000, 40), screening(2, 4000, 120)],
        capacity: capacity('capacity-best', BEST_HOURS),
        flips: [
          { id: 'capacity/2/perf01', question: 'Does 6 M finish within 10 h on 2 GPUs?', from: 'fail', to: 'pass' },
        ],
      }),
    ],
    { '--dnabert-batch-size': [512, 4096] },
    'dnabert-batch-size=4096',
  )
}

describe('without a settings study', () => {
  const advice = analyzeBottlenecks([flaggedStageRecord()]).advice

  test('each flagged stage once, in the order flagged; no option named; the study to run, said', () => {
    expect(advice.map((a) => a.stage)).toEqual([DNABERT, ESM])
    for (const a of advice) {
      expect(a.study).toBeNull()
      expect(a.options).toEqual([])
      expect(a.summary).toContain(STUDY_COMMAND)
    }
    expect(STUDY_COMMAND).toBe(
      `VIRNUCPRO_BENCH_SWEEP='{"--option":[...]}' npx vitest run --project gpu benchmarks/study.gpu.test.ts`,
    )
  })

  test("the rules' recommendations name no option of the target's (the stage's options come from its --help)", () => {
    // `idle-requested-gpus` is run-wide: --gpus is the CLI contract every profile shares (pipeline/command.ts).
    for (const rule of BOTTLENECK_RULES.filter((r) => r.id !== 'idle-requested-gpus'))
      expect(rule.recommendation, rule.id).not.toMatch(/(^|[\s(/])--?[a-z]/)
  })
})

describe("without a study, a capacity record's reading of the target's help", () => {
  const capacityRecord = (createdAt: string, stageOptions: unknown) =>
    sampleResultRecord({ id: `capacity-${createdAt}`, kind: 'capacity', createdAt, stats: { stageOptions } })

  test("the stage's own options are named from the newest capacity record, none measured, with the grid to measure them", () => {
    const older = capacityRecord('2026-11-01T00:00:00.000Z', [
      { stage: DNABERT, options: [{ flag: '--old', help: '' }] },
    ])
    const newer = capacityRecord('2026-11-02T00:00:00.000Z', STAGE_OPTIONS)
    const a = adviceOf([flaggedStageRecord(), older, newer], DNABERT)
    expect(a.study).toBeNull()
    expect(a.options).toEqual([
      { ...STAGE_OPTIONS[0]!.options[0]!, scope: 'stage', effect: 'not-varied', measured: null },
    ])
    expect(a.summary).toBe(
      `No settings study in these results. The target's own options for this stage (its predict --help): --dnabert-batch-size; measure them with VIRNUCPRO_BENCH_SWEEP='{"--dnabert-batch-size":[...]}' npx vitest run --project gpu benchmarks/study.gpu.test.ts.`,
    )
  })

  // Issue 56: a switch pair is keyed `--x/--no-x` in a grid; its positive side alone is refused as one side of a pair.
  test('a switch pair of the stage is suggested as the grid keys one, --x/--no-x', () => {
    const pair = { flag: '--persistent-models / --no-persistent-models', help: 'keep models loaded' }
    const record = capacityRecord('2026-11-02T00:00:00.000Z', [{ stage: DNABERT, options: [pair] }])
    expect(adviceOf([flaggedStageRecord(), record], DNABERT).summary).toContain(
      `VIRNUCPRO_BENCH_SWEEP='{"--persistent-models/--no-persistent-models":[...]}'`,
    )
  })

  test('a study stopped before any figure cites nothing: the capacity reading stands in; a damaged reading names none', () => {
    const partial = { ...studyRecord('study-cut', dnabertStudy()), state: 'partial' as const, stats: {} }
    const withOptions = capacityRecord('2026-11-02T00:00:00.000Z', STAGE_OPTIONS)
    expect(adviceOf([flaggedStageRecord(), partial, withOptions], DNABERT).options.map((o) => o.flag)).toEqual([
      '--dnabert-batch-size',
    ])
    const damaged = capacityRecord('2026-11-03T00:00:00.000Z', [{ stage: DNABERT, options: 'cut' }])
    expect(adviceOf([flaggedStageRecord(), damaged], DNABERT).options).toEqual([])
  })
})

describe("with a settings study: the stage's own options and what the study measured", () => {
  const records = [flaggedStageRecord(), studyRecord('study-dnabert', dnabertStudy())]

  test('DNABERT-S: its option and help from the study, its best setting faster at 6 M beside the default, the flip', () => {
    const a = adviceOf(records, DNABERT)
    expect(a.study).toEqual({ recordId: 'study-dnabert', name: 'settings study study-dnabert', provisional: false })
    expect(a.options).toHaveLength(1)
    const [option] = a.options
    expect(option).toMatchObject({
      flag: '--dnabert-batch-size',
      help: STAGE_OPTIONS[0]!.options[0]!.help,
      scope: 'stage',
      effect: 'faster',
    })
    for (const [i, gpus] of ['1 GPU', '2 GPUs'].entries())
      expect(option!.measured).toContain(
        `on ${gpus} ${figureText(BEST_HOURS[i]!, 'h')} against the default's ${figureText(DEFAULT_HOURS[i]!, 'h')}`,
      )
    expect(option!.measured).toMatch(
      /^faster than the default: dnabert-batch-size=512 left the screen as slower in round 1/,
    )
    expect(option!.measured).toContain("dnabert-batch-size=4096, the study's best: 6 M")
    expect(option!.measured).toContain('it flips Does 6 M finish within 10 h on 2 GPUs?: FAIL to PASS')
    expect(a.summary).toBe(
      "The study 'settings study study-dnabert' measured --dnabert-batch-size faster than the default.",
    )
  })

  test('ESM-2: its options named though the study varied none, with the command that would measure them', () => {
    const a = adviceOf(records, ESM)
    expect(a.options.map((o) => [o.flag, o.effect, o.measured])).toEqual([
      ['--esm-batch-size', 'not-varied', null],
      ['--v1-fallback', 'not-varied', null],
    ])
    expect(a.summary).toContain("varied none of this stage's options (--esm-batch-size; --v1-fallback)")
    expect(a.summary).toContain(
      `measure them with VIRNUCPRO_BENCH_SWEEP='{"--esm-batch-size":[...],"--v1-fallback":[...]}' npx vitest run --project gpu`,
    )
  })
})

describe('an option that changes nothing says so', () => {
  test('every value within the default interval or left as slower: "changes nothing measurable at N records"', () => {
    const stats = studyStats(
      [
        row('esm-batch-size=1024', ['--esm-batch-size', '1024'], {
          screening: [screening(1, 1000, 75)],
          dropped: { round: 1, records: 1000, why: 'slower', detail: 'slower half' },
        }),
        // Its interval [190, 210] s overlaps the default's [190, 210] at 4,000 records; not the study's best.
        row('esm-batch-size=8192', ['--esm-batch-size', '8192'], {
          screening: [screening(1, 1000, 59), screening(2, 4000, 199)],
        }),
        row('v1-fallback=1', ['--v1-fallback', '1'], {
          screening: [screening(1, 1000, 61)],
          dropped: { round: 1, records: 1000, why: 'outputs-differ', detail: 'labels agree 97.1% (below 99%)' },
        }),
      ],
      { '--esm-batch-size': [1024, 8192], '--v1-fallback': [1] },
      'esm-batch-size=8192',
    )
    // The best measured to 6 M within the default's interval on both GPU counts.
    stats.rows[2]!.capacity = capacity('capacity-best', [fig(21, 18, 24), fig(12, 10.5, 13.5)])
    const a = adviceOf([flaggedStageRecord(), studyRecord('study-esm', stats)], ESM)
    const esm = a.options.find((o) => o.flag === '--esm-batch-size')!
    expect(esm.effect).toBe('no-change')
    expect(esm.measured).toMatch(
      /^changes nothing measurable at 4,000 records nor at 6 M: esm-batch-size=1024 left the screen as slower in round 1 \(1,000 records\); esm-batch-size=8192, the study's best: 6 M on 1 GPU/,
    )
    const v1 = a.options.find((o) => o.flag === '--v1-fallback')!
    expect(v1).toMatchObject({ effect: 'outputs-differ' })
    expect(v1.measured).toBe(
      "its outputs are not the default's: v1-fallback=1: outputs not the default's in round 1 (1,000 records): labels agree 97.1% (below 99%)",
    )
    expect(a.summary).toBe(
      "The study 'settings study study-esm' varied --esm-batch-size; --v1-fallback: none measured faster than the default.",
    )
  })

  test('a stage whose only varied option changes nothing: the summary says none of its options changes anything', () => {
    const stats = studyStats(
      // 201 s [191, 211] against the default's 200 s [190, 210] at 4,000 records.
      [
        row('dnabert-batch-size=1024', ['--dnabert-batch-size', '1024'], {
          screening: [screening(1, 1000, 61), screening(2, 4000, 201, 10)],
        }),
      ],
      { '--dnabert-batch-size': [1024] },
      'dnabert-batch-size=1024',
    )
    const a = adviceOf([flaggedStageRecord(), studyRecord('study-flat', stats)], DNABERT)
    expect(a.options[0]?.measured).toMatch(
      /^changes nothing measurable at 4,000 records: dnabert-batch-size=1024 within the default's interval at 4,000 records \(median 201\.0 s \[191\.0, 211\.0\] against the default's 200\.0 s \[190\.0, 210\.0\]\)$/,
    )
    expect(a.summary).toBe(
      "No option of this stage that the study 'settings study study-flat' varied changes anything measurable: --dnabert-batch-size.",
    )
  })

  test('a setting faster at the screen, its interval clear of the default, is faster (the same figures, moved apart)', () => {
    const stats = studyStats(
      [
        row('dnabert-batch-size=1024', ['--dnabert-batch-size', '1024'], {
          screening: [screening(1, 1000, 61), screening(2, 4000, 150)],
        }),
      ],
      { '--dnabert-batch-size': [1024] },
      null,
    )
    const a = adviceOf([flaggedStageRecord(), studyRecord('study-screen', stats)], DNABERT)
    expect(a.options[0]).toMatchObject({ effect: 'faster' })
    expect(a.options[0]?.measured).toContain('dnabert-batch-size=1024 faster at 4,000 records')
  })
})

describe('which study, and what it could not read', () => {
  test('the newest study that reads is cited; a damaged newer one is passed over', () => {
    const older = studyRecord('study-old', dnabertStudy(), { createdAt: '2026-11-30T00:00:00.000Z' })
    const newer = studyRecord('study-new', dnabertStudy(), { createdAt: '2026-12-02T00:00:00.000Z' })
    expect(adviceOf([flaggedStageRecord(), newer, older], DNABERT).study?.recordId).toBe('study-new')
    expect(adviceOf([flaggedStageRecord(), older, newer], DNABERT).study?.recordId).toBe('study-new')
    const damaged = studyRecord(
      'study-damaged',
      { ...dnabertStudy(), rows: 'none' },
      { createdAt: '2026-12-03T00:00:00.000Z' },
    )
    expect(adviceOf([flaggedStageRecord(), damaged, older], DNABERT).study?.recordId).toBe('study-old')
    const only = adviceOf([flaggedStageRecord(), damaged], DNABERT)
    expect(only.study).toBeNull()
    expect(only.summary).toMatch(
      /^study record 'study-damaged' .*stats\.rows.*: run the study again with VIRNUCPRO_BENCH_SWEEP=/,
    )
  })

  test("a partial study's advice is marked provisional", () => {
    const partial = {
      ...studyRecord('study-partial', dnabertStudy()),
      state: 'partial' as const,
      reason: 'interrupted',
    }
    const a = adviceOf([flaggedStageRecord(), partial], DNABERT)
    expect(a.study?.provisional).toBe(true)
    expect(a.summary).toContain('(PROVISIONAL: stopped mid-way)')
  })

  test("help unread: the grid's options placed by their flags, the problem said", () => {
    const stats = {
      ...dnabertStudy(),
      stageOptions: [],
      stageOptionsProblem: "target 'virnucpro': cannot read 'predict --help': exit 1",
    }
    const a = adviceOf([flaggedStageRecord(), studyRecord('study-unread', stats)], DNABERT)
    expect(a.options).toMatchObject([{ flag: '--dnabert-batch-size', help: '', effect: 'faster' }])
    expect(a.summary).toContain(
      "The study did not read the target's options (target 'virnucpro': cannot read 'predict --help': exit 1)",
    )
  })

  test('a whole-pipeline option the study varied is listed with the stage, marked so', () => {
    const stats = studyStats(
      [
        row('num-workers=8', ['-w', '8'], {
          screening: [screening(1, 1000, 59)],
          dropped: { round: 1, records: 1000, why: 'slower', detail: 'x' },
        }),
      ],
      { '-w': [8] },
      null,
    )
    const a = adviceOf([flaggedStageRecord(), studyRecord('study-w', stats)], DNABERT)
    expect(a.options.map((o) => [o.flag, o.scope, o.effect])).toEqual([
      ['--dnabert-batch-size', 'stage', 'not-varied'],
      ['-w, --num-workers', 'whole pipeline', 'no-change'],
    ])
    expect(a.summary).toContain('It varied whole-pipeline options too: -w, --num-workers.')
  })

  // Issue 56: a switch pair is written `--x/--no-x` in the grid and `--x / --no-x` in the help: one option.
  test('a switch pair the study varied is found under its help entry', () => {
    const stats = studyStats(
      [
        row('--persistent-models', ['--persistent-models'], {
          screening: [screening(1, 1000, 59)],
          dropped: { round: 1, records: 1000, why: 'slower', detail: 'x' },
        }),
      ],
      { '--persistent-models/--no-persistent-models': [true, false] },
      null,
      {
        stageOptions: STAGE_OPTIONS.map((g) =>
          g.stage === DNABERT
            ? { ...g, options: [...g.options, { flag: '--persistent-models / --no-persistent-models', help: 'keep' }] }
            : g,
        ),
      },
    )
    const a = adviceOf([flaggedStageRecord(), studyRecord('study-pair', stats)], DNABERT)
    expect(a.options.find((o) => o.flag.startsWith('--persistent-models'))?.effect).toBe('no-change')
  })
})
