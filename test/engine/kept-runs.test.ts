// What a continuation may reuse, on run folders as a killed or finished invocation leaves them (no pipeline needed:
// the observations are made up, the files and the decisions are real).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { keepRun, measuredByThisProcess, takeKeptRun } from '../../src/engine/kept-runs.ts'
import type { RunObservation } from '../../src/engine/observe-run.ts'
import { RUN_FILE } from '../../src/results/run-journal.ts'
import type { RunKey } from '../../src/results/run-key.ts'
import { observation } from '../support/result-records.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const environment: RunKey = {
  suite: 'c0de',
  target: { profile: 'virnucpro', version: 'a8d3e4b' },
  gpus: ['NVIDIA H100 GPU-1111'],
  driver: '580.159.04',
  input: 'f'.repeat(64),
}
const KEY: RunKey = {
  ...environment,
  arm: { config: { gpus: [0], device: null, extraArgs: '' }, inputSha256: 'e'.repeat(64), monitorIntervalMs: 100 },
}
const by = measuredByThisProcess('earlier-invocation')

async function kept(o: RunObservation, key = KEY): Promise<string> {
  const dir = join(tempDirUntilFileEnd('kept-'), 'slot', '1-GPU-run-2')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'target.log'), 'the run log\n')
  await keepRun(dir, key, o, by)
  return dir
}

describe('takeKeptRun', () => {
  test('a completed run of the same key is given back as it was, with who measured it', async () => {
    const o = observation('1 GPU run 2')
    const dir = await kept(o)
    const got = await takeKeptRun(dir, structuredClone(KEY))
    expect(got.state).toBe('kept')
    if (got.state !== 'kept') return
    expect(got.kept.observation).toEqual(o)
    expect(got.kept.measuredBy).toEqual(by)
  })

  test.for([
    ['timeout', 'it ended as timeout: ran past 540 s'],
    ['oom', 'it ended as oom: CUDA out of memory'],
    ['failed', 'it ended as failed: Traceback'],
  ] as const)(
    'a run that ended as %s is measured again, never replayed, and its logs set aside',
    async ([exit, why]) => {
      const o = observation('1 GPU run 2', { exitClass: exit, reason: why.split(': ')[1]! })
      const dir = await kept(o)
      expect(await takeKeptRun(dir, KEY)).toEqual({ state: 'measure', why })
      expect(existsSync(dir)).toBe(false)
      expect(readFileSync(`${dir}.attempt-1/target.log`, 'utf8')).toBe('the run log\n')
    },
  )

  // Each part of the key, changed on its own, starts that run afresh and names what changed.
  const changes: [string, RunKey, RegExp][] = [
    ['the input', { ...KEY, input: '0'.repeat(64) }, /^its key differs: input \(was f{37}\.\.\., now 0{37}\.\.\.\)$/],
    ['the subset read', { ...KEY, arm: { ...(KEY.arm as object), inputSha256: '1'.repeat(64) } }, /arm\.inputSha256/],
    [
      'the target version',
      { ...KEY, target: { profile: 'virnucpro', version: 'b00' } },
      /target\.version \(was a8d3e4b, now b00\)/,
    ],
    ['the target profile', { ...KEY, target: { profile: 'reference', version: 'a8d3e4b' } }, /target\.profile/],
    [
      'a GPU',
      { ...KEY, gpus: ['NVIDIA H100 GPU-2222'] },
      /gpus \(was \["NVIDIA H100 GPU-1111"\], now \["NVIDIA H100 GPU-2222"\]\)/,
    ],
    ['the driver', { ...KEY, driver: '580.200' }, /driver \(was 580\.159\.04, now 580\.200\)/],
    ['the suite', { ...KEY, suite: 'c0de2' }, /suite \(was c0de, now c0de2\)/],
    [
      'a setting shaping the run',
      {
        ...KEY,
        arm: { ...(KEY.arm as object), config: { gpus: [0], device: null, extraArgs: '--model-scale small' } },
      },
      /arm\.config\.extraArgs \(was , now --model-scale small\)/,
    ],
    [
      'the monitor interval',
      { ...KEY, arm: { ...(KEY.arm as object), monitorIntervalMs: 20 } },
      /arm\.monitorIntervalMs/,
    ],
  ]
  test.for(changes)('%s changed: measured afresh, saying what differs', async ([, current, named]) => {
    const dir = await kept(observation('1 GPU run 2'))
    const got = await takeKeptRun(dir, current)
    expect(got.state).toBe('measure')
    expect(got.state === 'measure' && got.why).toMatch(named)
  })

  test('a half-written run.json is never read as a run', async () => {
    const dir = await kept(observation('1 GPU run 2'))
    const whole = readFileSync(join(dir, RUN_FILE), 'utf8')
    writeFileSync(join(dir, RUN_FILE), whole.slice(0, Math.floor(whole.length / 2)))
    const got = await takeKeptRun(dir, KEY)
    expect(got.state === 'measure' && got.why).toMatch(
      /^its run\.json is unreadable \(not valid JSON: .* \(cut short while written\?\)\)$/,
    )
  })

  test('a folder a kill left without run.json (the run in flight) is measured again, its files kept aside', async () => {
    const dir = join(tempDirUntilFileEnd('kept-'), 'slot', '1-GPU-run-3')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'target.log'), 'half a run\n')
    expect(await takeKeptRun(dir, KEY)).toEqual({
      state: 'measure',
      why: 'it was in flight when its invocation stopped (no run.json)',
    })
    expect(readdirSync(join(dir, '..'))).toEqual(['1-GPU-run-3.attempt-1'])
    // Set aside again on the next attempt: the earlier attempt stays.
    mkdirSync(dir)
    await takeKeptRun(dir, KEY)
    expect(readdirSync(join(dir, '..')).sort()).toEqual(['1-GPU-run-3.attempt-1', '1-GPU-run-3.attempt-2'])
  })

  test('no folder: nothing to say, measure', async () => {
    expect(await takeKeptRun(join(tempDirUntilFileEnd('kept-'), 'nothing'), KEY)).toEqual({
      state: 'measure',
      why: null,
    })
  })
})
