import fc from 'fast-check'
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { TargetEvent } from '../../../src/pipeline/events.ts'
import {
  applyEvent,
  createLiveProgress,
  EMPTY_PROGRESS,
  formatProgress,
} from '../../../src/report/progress/live-progress.ts'

const start: TargetEvent = { type: 'stage-start', index: 6, name: 'ESM-2 Feature Extraction', atMs: 0 }
const batch: TargetEvent = {
  type: 'batch',
  batch: 3,
  done: 1200,
  total: 5000,
  percent: 24,
  packEfficiency: 0.9,
  tokensPerS: 16474,
  sequencesPerS: 321.4,
  eta: '00:03:12',
  worker: null,
  atMs: 10,
}

afterEach(() => vi.useRealTimers())

describe('formatProgress', () => {
  test('stage, sequences, rates, GPU utilization and ETA on one line', () => {
    const state = { ...applyEvent(applyEvent(EMPTY_PROGRESS, start), batch), gpuUtilPct: 87.4 }
    expect(formatProgress(state)).toBe(
      'ESM-2 Feature Extraction | 1,200/5,000 seq (24.0%) | 16,474 tok/s | 321.4 seq/s | GPU 87% | ETA 00:03:12',
    )
  })

  test('a new stage clears the previous stage batch figures but keeps the GPU reading', () => {
    const state = applyEvent({ ...applyEvent(EMPTY_PROGRESS, batch), gpuUtilPct: 50 }, start)
    expect(state).toEqual({ ...EMPTY_PROGRESS, stage: 'ESM-2 Feature Extraction', gpuUtilPct: 50 })
  })

  test('always one line, whatever the figures', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.double({ min: 0, max: 1e9, noNaN: true }), (done, total, tok) => {
        const line = formatProgress({ ...EMPTY_PROGRESS, stage: 's', done, total, tokensPerS: tok })
        expect(line).not.toContain('\n')
        expect(line).toContain(`/${total.toLocaleString('en-US')} seq`)
      }),
    )
  })
})

describe('createLiveProgress', () => {
  test('on a TTY every update redraws the line in place, and stop ends it', () => {
    const out: string[] = []
    const progress = createLiveProgress({ write: (t) => out.push(t), isTty: true })
    progress.onEvent(start)
    progress.onGpuUtil(90)
    progress.stop()
    expect(out).toEqual(['\r\x1b[2KESM-2 Feature Extraction', '\r\x1b[2KESM-2 Feature Extraction | GPU 90%', '\n'])
  })

  test('elsewhere a plain line every interval, only when something changed', () => {
    vi.useFakeTimers()
    const out: string[] = []
    const progress = createLiveProgress({ write: (t) => out.push(t), isTty: false, intervalMs: 5_000 })
    progress.onEvent(start)
    expect(out).toEqual([])
    vi.advanceTimersByTime(5_000)
    vi.advanceTimersByTime(5_000)
    progress.onEvent(batch)
    vi.advanceTimersByTime(5_000)
    progress.stop()
    vi.advanceTimersByTime(20_000)
    expect(out).toEqual([
      'ESM-2 Feature Extraction\n',
      'ESM-2 Feature Extraction | 1,200/5,000 seq (24.0%) | 16,474 tok/s | 321.4 seq/s | ETA 00:03:12\n',
    ])
  })

  test("a stage name's control characters are written escaped: a CI log line never starts a workflow command", () => {
    vi.useFakeTimers()
    const out: string[] = []
    const progress = createLiveProgress({ write: (t) => out.push(t), isTty: false, intervalMs: 5_000 })
    progress.onEvent({ ...start, name: 'ESM-2\r::error::injected\u0000' })
    vi.advanceTimersByTime(5_000)
    progress.stop()
    expect(out).toEqual(['ESM-2\\r::error::injected\\u0000\n'])
  })
})
