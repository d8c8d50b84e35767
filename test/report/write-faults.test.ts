// Issue 32, the report writer (and capacity's --json) on a bad day, through the real CLI (src/cli.ts, its own process) on real small tmpfs
// mounts: a report set is replaced whole or not at all, the step summary is appended whole or not at all, and every
// failure names the file that failed and what the file system said (ENOSPC, EROFS), never an internal temp file.
import { spawnSync } from 'node:child_process'
import { cpSync, readdirSync, readFileSync, statfsSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { REPORT_FILES } from '../../src/report/write.ts'
import { h100RunDirs } from '../capacity/support/gpu-capacity.ts'
import { cliSandbox, snapshot } from '../cli/support/cli-sandbox.ts'
import { mountTmpfs, resizeTmpfs } from '../support/tmpfs.ts'
import { DEMO_DIR } from './support/demo.ts'

const { at, dir, cli } = cliSandbox('write-faults-')
const PAGE_BYTES = 4096
const pages = (bytes: number) => Math.ceil(bytes / PAGE_BYTES)

/** The demo run, and the demo with its scaling record renamed: two runs whose report sets differ. */
let first: string
let second: string

beforeAll(() => {
  first = at('first')
  cpSync(DEMO_DIR, first, { recursive: true })
  second = at('second')
  cpSync(DEMO_DIR, second, { recursive: true })
  const file = join(second, 'scaling-reference.json')
  writeFileSync(file, readFileSync(file, 'utf8').replaceAll('"scaling, reference pipeline', '"scaling, second run'))
})

/** Every file of a directory (hidden ones too) with its content hashed: equal before and after means untouched. */
function contentsOf(path: string): Record<string, string> {
  return Object.fromEntries(readdirSync(path).map((name) => [name, snapshot(join(path, name))]))
}

/** Pages the files of `path` take: all of them, and the largest one's. */
function pagesOf(path: string): { total: number; largest: number } {
  const sizes = readdirSync(path).map((file) => pages(statSync(join(path, file)).size))
  return { total: sizes.reduce((a, b) => a + b, 0), largest: Math.max(...sizes) }
}

/** The one stderr line of a refusal, after `virnucpro-bench: `. */
const refusal = (stderr: string) =>
  stderr
    .trim()
    .split('\n')
    .at(-1)
    ?.replace(/^virnucpro-bench: /, '')

describe('a report set on a full disk', () => {
  test('over an earlier set: nothing replaced, the earlier 13 files as they were, the failed file named with ENOSPC', async ({
    skip,
  }) => {
    const disk = await mountTmpfs('full-set-', 1024 * PAGE_BYTES)
    if (disk.dir === null) return skip(disk.problem)
    const out = join(disk.dir, 'reports')
    const made = await cli(['report', first, '--out', out])
    expect(made.exitCode, made.stderr).toBe(0)
    const before = contentsOf(out)
    expect(Object.keys(before).sort()).toEqual([...REPORT_FILES].sort())
    // Then room for the earlier set and half its largest file (the later set's are as large, give or take a name):
    // writing the later set beside the earlier one cannot fit, nor can replacing the files one at a time (the largest
    // needs its own room while the old one stays).
    const earlier = pagesOf(out)
    await resizeTmpfs(disk.dir, (earlier.total + Math.floor(earlier.largest / 2)) * PAGE_BYTES)

    const ran = await cli(['report', second, '--out', out])
    expect(ran.exitCode).toBe(3)
    expect(refusal(ran.stderr)).toMatch(
      /^report: cannot write '\S+\/reports\/[a-z0-9.-]+': no space left on the device \(ENOSPC\); the earlier reports in '\S+\/reports' are as they were, none replaced: free space there or give another directory$/,
    )
    expect(ran.stderr).not.toMatch(/\.tmp|internal error/)
    // Byte for byte the earlier set, and nothing beside it (no staging directory left).
    expect(contentsOf(out)).toEqual(before)
  })

  test('into a new directory: nothing written, and the directories the write made are gone again', async ({ skip }) => {
    const disk = await mountTmpfs('full-new-', 16 * PAGE_BYTES)
    if (disk.dir === null) return skip(disk.problem)
    const ran = await cli(['report', first, '--out', join(disk.dir, 'new', 'reports')])
    expect(ran.exitCode).toBe(3)
    expect(refusal(ran.stderr)).toMatch(
      /^report: cannot write '\S+\/new\/reports\/[a-z0-9.-]+': no space left on the device \(ENOSPC\); nothing was written: free space there or give another directory$/,
    )
    expect(readdirSync(disk.dir)).toEqual([])
  })
})

describe('$GITHUB_STEP_SUMMARY', () => {
  /** A step summary with an earlier step's text, on a tmpfs with no free page left: an append fills the last page only. */
  async function fullStepSummary(skip: (note: string) => never): Promise<string> {
    const disk = await mountTmpfs('full-step-', 16 * PAGE_BYTES)
    if (disk.dir === null) return skip(disk.problem)
    const step = join(disk.dir, 'step.md')
    // 3,800 bytes: 296 bytes left in its page, fewer than the demo's summary.md (a torn append would keep those).
    writeFileSync(step, 'earlier step: all green\n'.repeat(158).padEnd(3800, '.'))
    try {
      writeFileSync(join(disk.dir, 'filler'), Buffer.alloc(64 * PAGE_BYTES))
    } catch {
      // ENOSPC: the disk is full now, which is the point.
    }
    expect(statfsSync(disk.dir).bavail).toBe(0)
    return step
  }

  test('on a full disk: nothing appended (the file byte for byte as it was), the error names the file, not --out', async ({
    skip,
  }) => {
    const step = await fullStepSummary(skip)
    const before = snapshot(step)
    const out = at('out-step-full')
    const ran = await cli(['report', first, '--out', out], { env: { GITHUB_STEP_SUMMARY: step } })
    expect(ran.exitCode).toBe(3)
    expect(refusal(ran.stderr)).toBe(
      `report: cannot append the step summary to $GITHUB_STEP_SUMMARY '${step}': no space left on the device (ENOSPC); nothing was appended, the file is as it was (the reports in '${out}' were written)`,
    )
    expect(snapshot(step)).toBe(before)
    // The reports themselves went where they were sent, and the console says so.
    expect(readdirSync(out).sort()).toEqual([...REPORT_FILES].sort())
    expect(ran.stdout).toMatch(/gpu-report: 13 reports in /)
  })

  test('on a read-only place: the step summary file named with EROFS, the reports written', async ({ skip }) => {
    const disk = await mountTmpfs('ro-step-', 16 * PAGE_BYTES, { readOnly: true })
    if (disk.dir === null) return skip(disk.problem)
    const step = join(disk.dir, 'step.md')
    const out = at('out-step-ro')
    const ran = await cli(['report', first, '--out', out], { env: { GITHUB_STEP_SUMMARY: step } })
    expect(ran.exitCode).toBe(3)
    expect(refusal(ran.stderr)).toBe(
      `report: cannot append the step summary to $GITHUB_STEP_SUMMARY '${step}': read-only file system (EROFS); nothing was appended, the file is as it was (the reports in '${out}' were written)`,
    )
    expect(readdirSync(out).sort()).toEqual([...REPORT_FILES].sort())
  })
})

describe('--out', () => {
  test('a link to nowhere is refused naming the link and where it points, before anything is written', async () => {
    const link = at('dangling-out')
    symlinkSync(at('no-such-dir'), link)
    const ran = await cli(['report', first, '--out', link])
    expect(ran.exitCode).toBe(3)
    expect(refusal(ran.stderr)).toBe(
      `report: --out '${link}' is a link to '${at('no-such-dir')}', which does not exist: give a new or empty directory, or one earlier reports went to; nothing was written`,
    )
    expect(snapshot(at('no-such-dir'))).toBe('absent')
  })

  test("a killed write's staging directory is removed by the next write, which says so; a live one's is left", async () => {
    const out = dir('out-leftover')
    const gone = spawnSync(process.execPath, ['-e', '']).pid!
    const host = hostname().replace(/[^A-Za-z0-9.]+/g, '_') || 'host'
    const dead = join(out, `.report-set-${host}-${gone}-0123456789ab`)
    const live = join(out, `.report-set-${host}-${process.pid}-0123456789ab`)
    for (const staging of [dead, live]) {
      await mkdir(staging)
      writeFileSync(join(staging, 'summary.md'), 'half of a killed run')
    }
    const ran = await cli(['report', first, '--out', out])
    expect(ran.exitCode, ran.stderr).toBe(0)
    expect(ran.stderr).toContain(
      `virnucpro-bench report: note: removed ${dead}, the unfinished reports of a killed run`,
    )
    expect(readdirSync(out).sort()).toEqual([...REPORT_FILES, `.report-set-${host}-${process.pid}-0123456789ab`].sort())
  })
})

describe('capacity --json', () => {
  test('on a read-only place: the file named with EROFS and exit 3, not an internal error', async ({ skip }) => {
    const disk = await mountTmpfs('ro-json-', 16 * PAGE_BYTES, { readOnly: true })
    if (disk.dir === null) return skip(disk.problem)
    const [run] = await h100RunDirs(at('capacity'), ['d'])
    const json = join(disk.dir, 'refit.json')
    const ran = await cli(['capacity', run!, '--json', json])
    expect(ran.exitCode).toBe(3)
    expect(refusal(ran.stderr)).toBe(
      `capacity: --json '${json}' cannot be written (read-only file system (EROFS)); nothing was written there: give a file in a writable directory with space`,
    )
  })
})
