// What a campaign task changes in the suites (src/suites: settings, context, record, profile-configs): records named
// per task, scratch and run cache per task, and the CPU switch that lets a campaign run where there is no GPU.
import { readdir } from 'node:fs/promises'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { createSuiteContext } from '../../src/engine/context.ts'
import { configsFor } from '../../src/engine/profile-configs.ts'
import { type RecordInput, writeSuiteRecord } from '../../src/engine/record.ts'
import { campaignTask, SuiteSettingsError, suiteSettings, targetDevice } from '../../src/engine/settings.ts'
import { makeRunId } from '../../src/results/run-id.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const RECORD_ID = /^[A-Za-z0-9._-]+$/
const input: RecordInput = {
  kind: 'stage',
  id: 'stage-1 GPU',
  name: 'stage',
  measurements: [],
  stats: {},
  verdicts: [],
}

describe('campaignTask (VIRNUCPRO_BENCH_TASK)', () => {
  test('absent or blank: null, outside a campaign', () => {
    expect(campaignTask({})).toBeNull()
    expect(campaignTask({ VIRNUCPRO_BENCH_TASK: '  ' })).toBeNull()
  })

  test('property: any value is read as it is, one name in the record id alphabet, or refused with a SettingError', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 140 }), fc.constantFrom('..', '.', 'a/..', '-t0')), (raw) => {
        let task: string | null
        try {
          task = campaignTask({ VIRNUCPRO_BENCH_TASK: raw })
        } catch (error) {
          expect(error).toBeInstanceOf(SuiteSettingsError)
          expect((error as Error).message).toMatch(/^VIRNUCPRO_BENCH_TASK='.*': not a directory name \(/)
          return
        }
        if (raw.trim() === '') expect(task).toBeNull()
        else {
          expect(task).toBe(raw.trim())
          expect(task).toMatch(RECORD_ID)
          expect(task).not.toMatch(/^\.\.?$/)
        }
      }),
    )
  })

  test('.. (which put its work files in the run directory itself) is refused, not rewritten', () => {
    expect(() => campaignTask({ VIRNUCPRO_BENCH_TASK: '..' })).toThrow(
      "VIRNUCPRO_BENCH_TASK='..': not a directory name (.. is the folder above); set it to a directory name (letters, digits, . _ -, starting with a letter or digit), or unset it",
    )
    expect(campaignTask({ VIRNUCPRO_BENCH_TASK: ' node1-t0 ' })).toBe('node1-t0')
  })
})

describe('two campaign tasks in one run directory', () => {
  const root = tempDirUntilFileEnd('campaign-task-')
  const runId = makeRunId()
  const contextOf = (task: string) =>
    createSuiteContext(runId, { VIRNUCPRO_BENCH_TARGET: 'reference', VIRNUCPRO_BENCH_TASK: task }, root)

  test('same record id, two files named by task; scratch and run journal apart', async () => {
    const [a, b] = await Promise.all([contextOf('node1-t0'), contextOf('node1-t1')])
    expect(a.resultsDir).toBe(b.resultsDir)
    expect(a.workDir).not.toBe(b.workDir)
    const written = await Promise.all([a, b].map((ctx) => writeSuiteRecord(ctx, input)))
    expect(written.map((w) => w.record.id)).toEqual(['stage-1-GPU.node1-t0', 'stage-1-GPU.node1-t1'])
    const files = (await readdir(a.resultsDir)).filter((name) => name.endsWith('.json')).sort()
    expect(files).toEqual(['stage-1-GPU.node1-t0.json', 'stage-1-GPU.node1-t1.json'])
  })

  test('outside a campaign nothing changes: `<id>.json` and work/ of the run', async () => {
    const ctx = await createSuiteContext(makeRunId(), { VIRNUCPRO_BENCH_TARGET: 'reference' }, root)
    expect(ctx.workDir).toBe(`${ctx.resultsDir}/work`)
    expect((await writeSuiteRecord(ctx, input)).record.id).toBe('stage-1-GPU')
  })
})

describe('VIRNUCPRO_BENCH_DEVICE', () => {
  test('gpu by default, cpu on request, anything else refused naming the variable', () => {
    expect(targetDevice({})).toBe('gpu')
    expect(suiteSettings({ VIRNUCPRO_BENCH_DEVICE: 'CPU' }).device).toBe('cpu')
    expect(() => targetDevice({ VIRNUCPRO_BENCH_DEVICE: 'tpu' })).toThrow(SuiteSettingsError)
    expect(() => targetDevice({ VIRNUCPRO_BENCH_DEVICE: 'tpu' })).toThrow(
      "VIRNUCPRO_BENCH_DEVICE='tpu': not one of gpu, cpu (did you mean gpu?); set it to one of them, or unset it",
    )
  })

  test('on the CPU every reference configuration selects no GPU, runs `-d cpu`, k workers for k GPUs', () => {
    const gpu = configsFor('reference', 'tiny', 'gpu')
    const cpu = configsFor('reference', 'tiny', 'cpu')
    for (const n of [1, 2, 4]) {
      const gpus = Array.from({ length: n }, (_, i) => i)
      const arms = cpu.matrix(gpus).arms.map((arm) => arm.config)
      const all = [cpu.base(gpus), cpu.v1(gpus), ...arms, ...cpu.equivalence(gpus), cpu.oom(gpus)]
      for (const config of all) {
        expect(config.gpus).toBeNull()
        expect(config.device).toBe('cpu')
        expect(config.label).toMatch(/ \(cpu\)$/)
        expect(config.extraArgs).toEqual(expect.arrayContaining(['-w', '0']))
        expect(config.extraArgs?.includes('--cpu-workers')).toBe(n > 1)
      }
      // The GPU configuration is the CPU one's origin: same options before the CPU's own.
      const origin = gpu.base(gpus).extraArgs ?? []
      expect(cpu.base(gpus).extraArgs?.slice(0, origin.length)).toEqual(origin)
    }
    expect(cpu.persistentModels([0])).toBe(gpu.persistentModels([0]))
  })

  test('VirNucPro on the CPU: no GPU, `-d cpu`, no reference-only worker options', () => {
    const cpu = configsFor('virnucpro', 'full', 'cpu')
    const pair = cpu.persistentModels([0, 1])
    if (typeof pair === 'string') throw new Error(`VirNucPro has a persistent-models pair, got: ${pair}`)
    for (const config of [cpu.base([0, 1]), ...pair]) {
      expect(config).toMatchObject({ gpus: null, device: 'cpu' })
      expect(config.extraArgs).not.toContain('--cpu-workers')
    }
  })
})
