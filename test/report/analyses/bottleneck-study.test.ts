// What a settings study measured of one option (measuredOption), and which study record is read (newestStudy).
import { describe, expect, test } from 'vitest'
import { figureText } from '../../../src/capacity/answer.ts'
import { measuredOption, newestStudy } from '../../../src/report/analyses/bottleneck-study.ts'
import { capacity, DEFAULT_HOURS, fig, row, screening, studyRecord, studyStats } from '../support/bottleneck-study.ts'

describe('measuredOption', () => {
  test('null for an option no setting varied (a grid value that was the default itself)', () => {
    const stats = studyStats(
      [row('x=1', ['--x', '1'], { screening: [screening(1, 1000, 59)] })],
      { '--x': [1], '--y': [2] },
      'x=1',
    )
    expect(measuredOption(stats, '--y')).toBeNull()
  })

  // Issue 56: a switch pair's grid key names both its sides; a row giving either varies it.
  test('a switch pair is varied by either side; a flag by its presence', () => {
    const pair = '--persistent-models/--no-persistent-models'
    const stats = studyStats(
      [
        row('--persistent-models', ['--persistent-models'], { screening: [screening(1, 1000, 59)] }),
        row('--no-persistent-models', ['--no-persistent-models'], { screening: [screening(1, 1000, 61)] }),
        row('--parallel', ['--parallel'], { screening: [screening(1, 1000, 30)] }),
      ],
      { [pair]: [true, false], '--parallel': [true, false] },
      null,
    )
    const m = measuredOption(stats, pair)
    expect(m?.effect).toBe('no-change')
    expect(m?.text).toContain('--persistent-models within')
    expect(m?.text).toContain('--no-persistent-models within')
    expect(measuredOption(stats, '--parallel')?.effect).toBe('faster')
  })

  test('an option given as --opt=V is found', () => {
    const stats = studyStats([row('x=1', ['--x=1'], { screening: [screening(1, 1000, 59)] })], { '--x': [1] }, null)
    expect(measuredOption(stats, '--x')?.effect).toBe('no-change')
  })

  test('no interval on a side: not judged, never "within"', () => {
    const noInterval = studyStats(
      [row('x=1', ['--x', '1'], { screening: [screening(1, 1000, 30, null)] })],
      { '--x': [1] },
      null,
    )
    expect(measuredOption(noInterval, '--x')).toEqual({
      effect: 'not-judged',
      records: 1000,
      text: "not judged yet: x=1 not judged at 1,000 records (median 30.0 s against the default's 60.0 s [57.0, 63.0]): no interval",
    })
    // The best at 6 M, its hours without an interval: not judged at 6 M either.
    const best = row('x=1', ['--x', '1'], {
      screening: [screening(1, 1000, 30)],
      capacity: capacity('c', [fig(5, null, null)]),
    })
    const at6M = measuredOption(studyStats([best], { '--x': [1] }, 'x=1'), '--x')
    expect(at6M?.effect).toBe('not-judged')
    expect(at6M?.text).toContain(
      `on 1 GPU ${figureText(fig(5, null, null), 'h')} against the default's ${figureText(DEFAULT_HOURS[0]!, 'h')}`,
    )
  })

  test('a run that failed, and outputs that could not be compared, are said with their detail', () => {
    const stats = studyStats(
      [
        row('x=1', ['--x', '1'], {
          dropped: { round: 1, records: 1000, why: 'failed', detail: 'x=1 #1 ended as oom: CUDA out of memory' },
        }),
        row('x=2', ['--x', '2'], {
          dropped: { round: 1, records: 1000, why: 'no-outputs', detail: 'no predictions file' },
        }),
      ],
      { '--x': [1, 2] },
      null,
    )
    expect(measuredOption(stats, '--x')).toEqual({
      effect: 'failed',
      records: 1000,
      text: 'its runs failed: x=1 failed in round 1 (1,000 records): x=1 #1 ended as oom: CUDA out of memory; x=2 had no outputs to compare in round 1 (1,000 records): no predictions file',
    })
  })

  test('slower at 6 M (its interval above the default) is no gain: changes nothing measurable', () => {
    const best = row('x=1', ['--x', '1'], {
      screening: [screening(1, 1000, 59)],
      capacity: capacity('c', [fig(30, 28, 32)]),
    })
    const m = measuredOption(studyStats([best], { '--x': [1] }, 'x=1'), '--x')
    expect(m?.effect).toBe('no-change')
    expect(m?.text).toMatch(
      /^changes nothing measurable at 1,000 records nor at 6 M: x=1, the study's best: 6 M on 1 GPU 30\.0 h/,
    )
  })
})

describe('newestStudy', () => {
  test('null without a study record; failed and skipped study records are not read', () => {
    expect(newestStudy([])).toBeNull()
    const stats = studyStats([], {}, null)
    expect(newestStudy([studyRecord('s', stats, { state: 'failed', reason: 'crashed' })])).toBeNull()
  })

  test('stageOptions of the wrong shape: the options read as unread, with the reason, the figures still used', () => {
    const stats = {
      ...studyStats([], {}, null),
      stageOptions: [{ stage: 'ESM-2 Feature Extraction', options: [{ flag: 3 }] }],
    }
    const read = newestStudy([studyRecord('s', stats)])
    expect(read?.state).toBe('read')
    if (read?.state !== 'read') return
    expect(read.study.stageOptions).toEqual([])
    expect(read.study.stageOptionsProblem).toBe('stats.stageOptions is not a list of options')
  })

  test('a recorded problem with control characters stays one line', () => {
    const stats = { ...studyStats([], {}, null), stageOptions: [], stageOptionsProblem: 'exit 1 (bad\nline)' }
    const read = newestStudy([studyRecord('s', stats)])
    expect(read?.state === 'read' && read.study.stageOptionsProblem).toBe('exit 1 (bad\\nline)')
  })
})
