// readTargetHelp against targets that answer, fail, hang or flood, each a real `sh` process standing in for the
// interpreter (the reference pipeline itself: target-help-reference.test.ts, in the integration project).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { liveRunCount } from '../../src/pipeline/live-runs.ts'
import { readProcStat } from '../../src/pipeline/proc.ts'
import type { Launcher, TargetProfile } from '../../src/pipeline/profiles.ts'
import { virnucproProfile } from '../../src/pipeline/profiles.ts'
import { WHOLE_PIPELINE } from '../../src/pipeline/stage-options.ts'
import { readStageOptions, readTargetHelp } from '../../src/pipeline/target-help.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const VIRNUCPRO_HELP = fileURLToPath(new URL('../fixtures/help/virnucpro-predict.txt', import.meta.url))

/** A profile whose launcher is `sh -c SCRIPT sh`: `predict --help` arrive as the script's $1 and $2. */
function shProfile(script: string, extra: Partial<Launcher> = {}): TargetProfile {
  const launcher: Launcher = { file: 'sh', args: ['-c', script, 'sh'], env: {}, ...extra }
  return {
    name: 'fake',
    gpuSelection: 'gpus-flag',
    exitCodes: {},
    launcher: async () => ({ state: 'ready', launcher }),
    preflight: async () => ({ state: 'unavailable', reason: 'not used' }),
  }
}

describe('a target that answers', () => {
  test("runs '<launcher> predict --help' with the launcher's environment and directory, and parses the options", async () => {
    const dir = tempDirUntilFileEnd('target-help-cwd-')
    const profile = shProfile('printf "Options:\\n  --got TEXT  %s in %s with %s\\n" "$*" "$(pwd)" "$MARK"', {
      cwd: dir,
      env: { MARK: 'launcher-env' },
    })
    const help = await readTargetHelp(profile)
    expect(help).toMatchObject({ state: 'read', options: [{ flags: ['--got'], metavar: 'TEXT' }] })
    expect(help.state === 'read' && help.options[0]?.help).toBe(`predict --help in ${dir} with launcher-env`)
  })

  test("VirNucPro's help, printed by the target, gives its options by stage in the study record's shape", async () => {
    const read = await readStageOptions(shProfile(`cat '${VIRNUCPRO_HELP}'`))
    expect(read.stageOptionsProblem).toBeNull()
    expect(read.stageOptions.find((g) => g.stage === 'DNABERT-S Feature Extraction')?.options).toEqual([
      {
        flag: '--dnabert-batch-size',
        help: 'Token batch size for DNABERT-S processing (default: 2048, with BF16: 3072)',
      },
    ])
    expect(read.stageOptions.at(-1)?.stage).toBe(WHOLE_PIPELINE)
    expect(read.stageOptions.at(-1)?.options.map((o) => o.flag)).toContain('-w, --num-workers')
    expect(readFileSync(VIRNUCPRO_HELP, 'utf8')).toContain('--dnabert-batch-size')
  })
})

describe('a target that cannot say its options is one line naming what and where, never a throw', () => {
  test('an interpreter that does not exist', async () => {
    const profile = shProfile('')
    const missing = {
      ...profile,
      launcher: async () => ({
        state: 'ready' as const,
        launcher: { file: '/nonexistent/python3', args: ['-m', 'x'], env: {} },
      }),
    }
    const help = await readTargetHelp(missing)
    expect(help.state).toBe('unavailable')
    if (help.state !== 'unavailable') return
    expect(help.problem).toMatch(/^target 'fake': cannot read 'predict --help': cannot start '\/nonexistent\/python3'/)
    expect(help.problem).toContain('/nonexistent/python3 -m x predict --help')
    expect(help.problem).not.toContain('\n')
  })

  test('a launcher that is unavailable here (VirNucPro without VIRNUCPRO_DIR)', async () => {
    const help = await readTargetHelp(virnucproProfile, {})
    expect(help).toEqual({
      state: 'unavailable',
      problem:
        "target 'virnucpro': cannot read 'predict --help': VIRNUCPRO_DIR is not set (it must name a VirNucPro checkout)",
    })
  })

  test('a target that exits 1: its exit and the last line of its stderr (a traceback names the error last)', async () => {
    const script =
      'echo "Traceback (most recent call last):" >&2; echo "ModuleNotFoundError: No module named \'torch\'" >&2; exit 1'
    const help = await readTargetHelp(shProfile(script))
    expect(help.state === 'unavailable' && help.problem).toMatch(
      /cannot read 'predict --help': exit 1 \(ModuleNotFoundError: No module named 'torch'\): sh -c /,
    )
  })

  test('a target that hangs: ended at the timeout, its whole tree with it (a child it started included)', async () => {
    const dir = tempDirUntilFileEnd('target-help-hang-')
    const pidFile = join(dir, 'child.pid')
    const t0 = performance.now()
    const help = await readTargetHelp(shProfile(`sleep 60 & echo $! > '${pidFile}'; wait`), process.env, {
      timeoutMs: 500,
      graceMs: 200,
    })
    expect(help.state === 'unavailable' && help.problem).toMatch(
      /cannot read 'predict --help': no answer within 0\.5 s, process tree ended: sh -c/,
    )
    expect(performance.now() - t0).toBeLessThan(5_000)
    const child = Number(readFileSync(pidFile, 'utf8'))
    const stat = readProcStat(child)
    expect(stat === null || stat.state === 'Z').toBe(true)
    expect(liveRunCount()).toBe(0)
  })

  test('a target that floods its output: ended past the cap', async () => {
    const help = await readTargetHelp(shProfile('yes "  --x  an option"'), process.env, { maxBytes: 10_000 })
    expect(help.state === 'unavailable' && help.problem).toMatch(/printed over 10000 bytes, not a help text/)
  })

  test('a target that exits 0 but prints no option', async () => {
    const help = await readTargetHelp(shProfile('echo "usage: nothing here"'))
    expect(help.state === 'unavailable' && help.problem).toMatch(/printed no option lines \(\d+ bytes\)/)
  })

  test('readStageOptions keeps the problem and no options', async () => {
    expect(await readStageOptions(shProfile('exit 3'))).toEqual({
      stageOptions: [],
      stageOptionsProblem: expect.stringMatching(
        /^target 'fake': cannot read 'predict --help': exit 3: sh -c exit 3 sh predict --help$/,
      ),
    })
  })
})
