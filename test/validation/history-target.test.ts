// The stepped target's checkout: real git, no pipeline run. What each night's commit hands the pipeline (inject.txt)
// and in what order, whether the step is made at once or appended after the nights before it were measured.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, test } from 'vitest'
import {
  appendStep,
  checkoutNight,
  createPlainTarget,
  createSteppedTarget,
  type SteppedTarget,
} from '../../src/validation/history-target.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const root = tempDirUntilFileEnd('history-target-')
const injectOf = (target: SteppedTarget) => readFileSync(join(target.dir, 'virnucpro', 'inject.txt'), 'utf8')
const subjects = async (target: SteppedTarget) =>
  (await execa('git', ['log', '--format=%s', '--reverse', 'main'], { cwd: target.dir })).stdout.split('\n')

async function injectsByNight(target: SteppedTarget): Promise<string[]> {
  const out: string[] = []
  for (let night = 0; night < target.commits.length; night++) {
    await checkoutNight(target, night)
    out.push(injectOf(target))
  }
  return out
}

describe('stepped target', () => {
  test('the step made at once: nothing before stepAt, the injection from it on, one commit a night', async () => {
    const target = await createSteppedTarget(join(root, 'once'), { nights: 4, stepAt: 2, inject: 'cpu-stall-ms=700' })
    expect(new Set(target.commits).size).toBe(4)
    expect(await injectsByNight(target)).toEqual(['', '', ...Array(2).fill('--inject cpu-stall-ms=700\n')])
    expect(await subjects(target)).toEqual([
      'night 0: unchanged',
      'night 1: unchanged',
      'night 2: add cpu-stall-ms=700',
      'night 3: unchanged',
    ])
  })

  test('the step appended after the nights before it were checked out: the same history, the earlier commits kept', async () => {
    const target = await createPlainTarget(join(root, 'later'), 3)
    const before = [...target.commits]
    expect(await injectsByNight(target)).toEqual(['', '', ''])
    // The checkout is now detached at night 2, as measuring leaves it.
    await appendStep(target, 2, 'cpu-stall-ms=1234')
    expect(target.commits.slice(0, 3)).toEqual(before)
    expect(new Set(target.commits).size).toBe(5)
    expect(await injectsByNight(target)).toEqual(['', '', '', ...Array(2).fill('--inject cpu-stall-ms=1234\n')])
    expect((await subjects(target)).at(3)).toBe('night 3: add cpu-stall-ms=1234')
  })

  test('a step outside the nights, or no nights, is refused naming the bound', async () => {
    await expect(createSteppedTarget(join(root, 'bad1'), { nights: 3, stepAt: 3, inject: 'x' })).rejects.toThrow(
      'stepAt must be inside the nights (1..2), got 3',
    )
    await expect(createPlainTarget(join(root, 'bad2'), 0)).rejects.toThrow('a target needs at least one night, got 0')
    const target = await createPlainTarget(join(root, 'bad3'), 1)
    await expect(appendStep(target, 0, 'x')).rejects.toThrow('a step needs at least one night, got 0')
  })
})
