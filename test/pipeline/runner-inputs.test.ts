import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { virnucproProfile } from '../../src/pipeline/profiles.ts'
import { type RunTargetOptions, runTarget } from '../../src/pipeline/runner.ts'
import { fakeProfile, useWorkdir } from './support/fake-profile.ts'

const work = useWorkdir()

function options(more: Partial<RunTargetOptions> = {}): RunTargetOptions {
  return { input: work.input, outputDir: work.outputDir, env: { FAKE_RUN_TAG: work.tag }, ...more }
}

describe('bad input gives a failed record with a clear reason, never an exception', () => {
  test('missing input file', async () => {
    const input = join(work.dir, 'absent.fa')
    const record = await runTarget(fakeProfile(), options({ input }))
    expect(record).toMatchObject({ exitClass: 'failed', reason: `input file cannot be read: ${input} (ENOENT)` })
    expect([record.command, record.pids, record.cleanup]).toEqual([null, [], null])
  })

  test('input that is a directory', async () => {
    const record = await runTarget(fakeProfile(), options({ input: work.dir }))
    expect(record.reason).toBe(`input is not a regular file: ${work.dir}`)
  })

  test('output dir that is a file', async () => {
    await writeFile(work.outputDir, 'not a dir')
    const record = await runTarget(fakeProfile(), options())
    expect(record.reason).toBe(`output directory path is not a directory: ${work.outputDir}`)
  })

  test('output dir below a file', async () => {
    const outputDir = join(work.input, 'out')
    const record = await runTarget(fakeProfile(), options({ outputDir }))
    expect(record.reason).toBe(`output directory is unusable: ${outputDir} (ENOTDIR)`)
  })

  test('log file that cannot be opened', async () => {
    const record = await runTarget(fakeProfile(), options({ logPath: join(work.input, 'run.log') }))
    expect(record.reason).toMatch(/^cannot open log file .*run\.log: E[A-Z]+: /)
  })
})

describe('target not installed', () => {
  test('virnucpro without VIRNUCPRO_DIR', async () => {
    const record = await runTarget(virnucproProfile, options({ baseEnv: {} }))
    expect(record.reason).toBe(
      "target 'virnucpro' not installed: VIRNUCPRO_DIR is not set (it must name a VirNucPro checkout)",
    )
  })

  test('virnucpro with a VIRNUCPRO_DIR that does not exist', async () => {
    const record = await runTarget(virnucproProfile, options({ baseEnv: { VIRNUCPRO_DIR: '/nonexistent/virnucpro' } }))
    expect(record.reason).toBe("target 'virnucpro' not installed: VIRNUCPRO_DIR does not exist: /nonexistent/virnucpro")
  })

  test('an interpreter that does not exist', async () => {
    const record = await runTarget(fakeProfile('/nonexistent/python3'), options())
    expect(record).toMatchObject({ exitClass: 'failed', reason: "cannot start '/nonexistent/python3': ENOENT" })
  })

  test('virnucpro whose module is not importable exits 1 and says so in the log', async () => {
    const record = await runTarget(virnucproProfile, options({ baseEnv: { ...process.env, VIRNUCPRO_DIR: work.dir } }))
    expect(record).toMatchObject({ exitClass: 'failed', exitCode: 1 })
    expect(record.logTail.join('\n')).toContain('No module named virnucpro')
  })
})

describe('GPU hooks', () => {
  test('work on a GPU outside the requested set is flagged as a mismatch', async () => {
    const record = await runTarget(fakeProfile(), options({ gpus: [2, 3], gpusUsedBy: async () => [0, 1] }))
    expect(record).toMatchObject({ gpusRequested: [2, 3], gpusUsed: [0, 1], gpuMismatch: true })
  })

  test('work on the requested GPUs is no mismatch, and the hook sees the run PIDs', async () => {
    let seen: number[] = []
    const gpusUsedBy = async (pids: number[]) => {
      seen = pids
      return [3]
    }
    const record = await runTarget(fakeProfile(), options({ gpus: [2, 3], gpusUsedBy }))
    expect(record.gpuMismatch).toBe(false)
    expect(seen).toEqual(record.pids)
  })

  test('memory still held by the run PIDs after cleanup is recorded', async () => {
    const gpuMemoryHeldBy = async (pids: number[]) => [{ pid: pids[0]!, memUsedBytes: 1 << 30, gpu: 0 }]
    const record = await runTarget(fakeProfile(), options({ gpuMemoryHeldBy }))
    expect(record.cleanup?.gpuCheck).toEqual({
      state: 'held',
      holders: [{ pid: record.pids[0], memUsedBytes: 1 << 30, gpu: 0 }],
    })
  })

  test('no memory held is clean', async () => {
    const record = await runTarget(fakeProfile(), options({ gpuMemoryHeldBy: async () => [] }))
    expect(record.cleanup?.gpuCheck).toEqual({ state: 'clean' })
  })
})
