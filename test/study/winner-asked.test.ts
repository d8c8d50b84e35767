// Issue 56: the study's `no --parallel` winner runs the command line of the capacity file's v1.0 baseline. Its answer
// is asked at the sizes its own path plans (v1.0's cost shows per file of proteins), so it is the baseline's question
// and the run answers it once (capacity/answered.ts answerInRun); a winner on the default's path keeps its sizes.
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { capacityQuestion } from '../../src/capacity/answered.ts'
import type { SizedConfiguration } from '../../src/capacity/suite.ts'
import { referenceConfigs, virnucproConfigs } from '../../src/engine/profile-configs.ts'
import type { ResolvedInput } from '../../src/input/resolver.ts'
import { parseHelpOptions } from '../../src/pipeline/help-options.ts'
import { gridSettings } from '../../src/study/grid-settings.ts'
import { winnerAsked, withOptions } from '../../src/study/study.ts'

const helpOf = (file: string) => ({
  state: 'read' as const,
  text: '',
  options: parseHelpOptions(readFileSync(new URL(`../fixtures/help/${file}`, import.meta.url), 'utf8')),
})
const sized = (sizes: number[]) =>
  sizes.map((records) => ({ file: `/x/${records}.fa`, records, source: { sha256: 'c'.repeat(64) } }) as ResolvedInput)

describe.each([
  ['VirNucPro', virnucproConfigs(), 'virnucpro-predict.txt'],
  ['the reference pipeline', referenceConfigs('tiny'), 'refpipe-predict.txt'],
])('%s on 1 GPU', (_name, profile, helpFile) => {
  const defaults: SizedConfiguration[] = [{ config: profile.base([0]), gpuCount: 1 }]
  const settingOf = (grid: Record<string, (string | number | boolean | null)[]>) =>
    gridSettings(grid, defaults[0]!.config, helpOf(helpFile)).settings[0]!

  test("`no --parallel` asks the v1.0 baseline's question at the same sizes: one answer for both", () => {
    const winner = withOptions(defaults, settingOf({ '--parallel': [true, false] }))
    expect(winner[0]!.config.architecture).toBe('v1.0')
    const inputs = sized([2_434, 4_868, 9_736])
    const ask = (configs: SizedConfiguration[]) =>
      capacityQuestion(
        configs.map((c) => c.config),
        inputs,
        'decided',
        6,
        {},
      ).key
    expect(ask(winner)).toBe(ask([{ config: profile.v1([0]), gpuCount: 1 }]))
    expect(ask(winner)).not.toBe(ask(defaults))
  })

  test('a winner on another path is asked at the sizes its own path plans; one on the default path at the default sizes', async () => {
    const planned = sized([1_623, 3_246, 6_491])
    const own = sized([2_434, 4_868, 9_736])
    const asked: SizedConfiguration[][] = []
    const o = {
      capacityInputs: planned,
      winnerSizes: async (configs: readonly SizedConfiguration[]) => {
        asked.push([...configs])
        return { inputs: own, capacity: { direct: { runs: 1, gpuCounts: [1], records: [20_000] } } }
      },
    }
    const v1 = settingOf({ '--parallel': [true, false] })
    const v1Configs = withOptions(defaults, v1)
    const other = await winnerAsked(o, defaults[0]!.config, v1, v1Configs)
    expect(other.inputs).toBe(own)
    expect(other.capacity?.direct?.records).toEqual([20_000])
    expect(asked).toEqual([v1Configs])
    const batch = settingOf({ '--dnabert-batch-size': [1024] })
    const same = await winnerAsked(o, defaults[0]!.config, batch, withOptions(defaults, batch))
    expect(same).toEqual({ inputs: planned, capacity: null })
    expect(asked).toHaveLength(1)
  })
})
