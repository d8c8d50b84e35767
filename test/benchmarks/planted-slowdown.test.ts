// The planted slowdown (benchmarks/support/planted-slowdown.ts) and the pairs it is burned into (paired.ts): real work
// added to the subject's measurement only, never to the calibration's.
import { afterEach, describe, expect, test, vi } from 'vitest'
import { measurePairs } from '../../benchmarks/support/paired.ts'
import {
  burnCpuUs,
  burnMs,
  PLANT_ENV,
  plantedLabel,
  plantedSlowdownPct,
  plantOn,
  plantOnCpuUs,
} from '../../benchmarks/support/planted-slowdown.ts'

afterEach(() => vi.unstubAllEnvs())

describe('the knob', () => {
  test('unset or empty is no slowdown; a percentage is read as given', () => {
    expect(plantedSlowdownPct({})).toBe(0)
    expect(plantedSlowdownPct({ [PLANT_ENV]: ' ' })).toBe(0)
    expect(plantedSlowdownPct({ [PLANT_ENV]: '30' })).toBe(30)
    expect(plantedSlowdownPct({ [PLANT_ENV]: '2.5' })).toBe(2.5)
  })

  test('anything else is refused, naming the variable and the value', () => {
    for (const bad of ['30%', '-5', 'abc', '5000'])
      expect(() => plantedSlowdownPct({ [PLANT_ENV]: bad })).toThrow(`${PLANT_ENV} must be a percentage in 0..1000`)
  })

  test('a planted run says so in every name it labels', () => {
    expect(plantedLabel(0)).toBe('')
    expect(plantedLabel(30)).toBe(' (planted +30%)')
  })
})

describe('the burn', () => {
  test('is busy work of about the asked length: CPU time, not a sleep', () => {
    const before = process.cpuUsage()
    const wallMs = burnMs(40)
    const cpu = process.cpuUsage(before)
    expect(wallMs).toBeGreaterThanOrEqual(40)
    expect((cpu.user + cpu.system) / 1000).toBeGreaterThan(0)
  })

  test('on the CPU clock, uses at least the asked CPU time however busy the machine', () => {
    expect(burnCpuUs(20_000)).toBeGreaterThanOrEqual(20_000)
  })

  test('plants its share of the measured cost, of wall or of CPU time, and nothing at 0%', () => {
    expect(plantOn(50, 'wall', 0)).toBe(0)
    expect(plantOn(50, 'wall', 30)).toBeGreaterThanOrEqual(15)
    expect(plantOn(50, 'cpu', 30)).toBeGreaterThan(0)
    expect(plantOnCpuUs(10_000, 0)).toBe(0)
    // At least 30% of 100 ms, and not much more: the process clock can step by a few ms at once (another thread of
    // this process, a GC, a coarse tick under load: a 3 ms burn once read 7.4 ms in CI), which is small beside the
    // tens of ms the benches plant, so the bound is relative to a burn of that size.
    const burnedUs = plantOnCpuUs(100_000, 30)
    expect(burnedUs).toBeGreaterThanOrEqual(30_000)
    expect(burnedUs).toBeLessThan(45_000)
  })
})

describe('measurePairs', () => {
  const arm = (log: string[], name: string) => ({
    before: () => void log.push(`${name} before`),
    run: () => void log.push(name),
  })

  test('alternates which arm goes first, drops the warm-up pairs, keeps one cost of each kind per pair', async () => {
    const log: string[] = []
    const samples = await measurePairs(arm(log, 's'), arm(log, 'c'), { judgeOn: 'cpu', pairs: 3, warmupPairs: 1 })
    expect(log.filter((l) => !l.endsWith('before'))).toEqual(['s', 'c', 'c', 's', 's', 'c', 'c', 's'])
    expect(log.slice(0, 2)).toEqual(['s before', 's'])
    for (const costs of Object.values(samples)) expect(costs).toHaveLength(3)
  })

  test('with a planted slowdown only the subject is slower, by at least its share', async () => {
    vi.stubEnv(PLANT_ENV, '100')
    const work = { run: () => burnMs(20) }
    const samples = await measurePairs(work, { run: () => burnMs(20) }, { judgeOn: 'wall', pairs: 4, warmupPairs: 0 })
    // burnMs is wall-clock work: the subject's 20 ms and its planted 100% take at least 40 ms whatever the load; the
    // calibration's 20 ms can read more only when the machine preempts it, so its median stays under 40.
    for (const subjectMs of samples.subjectMs) expect(subjectMs).toBeGreaterThanOrEqual(40)
    expect([...samples.calibrationMs].sort((a, b) => a - b)[1]).toBeLessThan(40)
  })

  test("judged on CPU time, the plant adds its share of the subject's CPU time, a child's reported time included", async () => {
    vi.stubEnv(PLANT_ENV, '50')
    const child = { run: () => ({ childCpuMs: 40 }) }
    const samples = await measurePairs(
      child,
      { run: () => ({ childCpuMs: 40 }) },
      { judgeOn: 'cpu', pairs: 3, warmupPairs: 0 },
    )
    for (let i = 0; i < 3; i++) {
      expect(samples.calibrationCpuMs[i]).toBeGreaterThanOrEqual(40)
      expect(samples.subjectCpuMs[i]).toBeGreaterThanOrEqual(60)
    }
  })
})
