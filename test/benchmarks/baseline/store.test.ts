// The saved baselines (benchmarks/support/baseline/store.ts and machine.ts): keyed by CPU model, cores and Node, saved
// whole, loaded back as saved, and a file that cannot be used named with what is wrong.
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  describeMachine,
  type MachineKey,
  machineDirName,
  thisMachine,
} from '../../../benchmarks/support/baseline/machine.ts'
import {
  BASELINE_DIR_ENV,
  type Baseline,
  BaselineFileError,
  baselinePath,
  baselineRoot,
  benchFileName,
  loadBaseline,
  saveBaseline,
} from '../../../benchmarks/support/baseline/store.ts'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'

const machine: MachineKey = { cpuModel: 'AMD EPYC 7763 64-Core Processor', cores: 2, node: 'v24.11.1' }
const bench = 'bootstrap median CI, n=100, B=10,000'

function sampleBaseline(overrides: Partial<Baseline> = {}): Baseline {
  return {
    format: 1,
    machine,
    bench,
    runs: [
      {
        savedAt: '2026-11-26T10:00:00.000Z',
        revision: '54fba67abcde',
        loadAverage: 0.4,
        judgeOn: 'cpu',
        subjectCosts: [8.1, 7.9, 8.0],
        calibrationCosts: [41.5, 42.0, 41.8],
      },
    ],
    ...overrides,
  }
}

describe('the machine key', () => {
  test('this machine: its CPU model, the cores this process may use, its Node', () => {
    const key = thisMachine()
    expect(key.node).toBe(process.version)
    expect(key.cores).toBeGreaterThanOrEqual(1)
    expect(key.cpuModel.length).toBeGreaterThan(0)
    expect(describeMachine(machine)).toBe('AMD EPYC 7763 64-Core Processor, 2 cores, Node v24.11.1')
  })

  test('a different CPU model, core count or Node version is a different directory; the same key the same one', () => {
    const key = fc.record({
      cpuModel: fc.string({ maxLength: 120 }),
      cores: fc.integer({ min: 1, max: 1024 }),
      node: fc.string({ maxLength: 20 }),
    })
    fc.assert(
      fc.property(key, key, (a, b) => {
        const same = a.cpuModel === b.cpuModel && a.cores === b.cores && a.node === b.node
        expect(machineDirName(a) === machineDirName(b)).toBe(same)
        expect(machineDirName(a)).toMatch(/^[a-z0-9.-]*-[0-9a-f]{8}$/)
        expect(machineDirName(a).length).toBeLessThanOrEqual(90)
      }),
    )
    // Models that differ only where the readable part drops characters still get their own directory.
    expect(machineDirName({ ...machine, cpuModel: 'Intel(R) Xeon(R)' })).not.toBe(
      machineDirName({ ...machine, cpuModel: 'Intel R Xeon R' }),
    )
  })

  test("a bench's file is named by its name; a name with nothing to name a file by is refused", () => {
    expect(benchFileName(bench)).toBe('bootstrap-median-ci-n-100-b-10-000.json')
    expect(() => benchFileName('---')).toThrow(/no letter or digit/)
    expect(baselinePath('/b', machine, 'parse')).toBe(`/b/${machineDirName(machine)}/parse.json`)
  })

  test('the directory: VIRNUCPRO_BENCH_BASELINE_DIR when set, else .bench-baselines in the checkout', () => {
    expect(baselineRoot({ [BASELINE_DIR_ENV]: '/var/lib/bench' })).toBe('/var/lib/bench')
    expect(baselineRoot({})).toBe(join(import.meta.dirname, '../../..', '.bench-baselines'))
  })
})

describe('save and load', () => {
  test('none saved: null; saved: the same baseline back, the directories made, no temporary file left', async () => {
    const root = tempDirUntilFileEnd('baseline-store-')
    const path = baselinePath(root, machine, bench)
    expect(await loadBaseline(path, machine, bench)).toBeNull()
    await saveBaseline(path, sampleBaseline())
    expect(await loadBaseline(path, machine, bench)).toEqual(sampleBaseline())
    expect(readdirSync(dirname(path))).toEqual([benchFileName(bench)])
  })

  test('a save replaces the file whole', async () => {
    const path = baselinePath(tempDirUntilFileEnd('baseline-store-'), machine, bench)
    await saveBaseline(path, sampleBaseline())
    const grown = sampleBaseline()
    grown.runs.push({ ...grown.runs[0]!, savedAt: '2026-11-26T11:00:00.000Z', subjectCosts: [9, 9, 9] })
    await saveBaseline(path, grown)
    expect((await loadBaseline(path, machine, bench))?.runs).toHaveLength(2)
  })

  test('an invalid baseline is never written', async () => {
    const path = baselinePath(tempDirUntilFileEnd('baseline-store-'), machine, bench)
    const bad = sampleBaseline()
    bad.runs[0]!.calibrationCosts = [1]
    await expect(saveBaseline(path, bad)).rejects.toThrow(/one entry per pair/)
    expect(await loadBaseline(path, machine, bench)).toBeNull()
  })

  test('a directory that cannot be made is named', async () => {
    const root = tempDirUntilFileEnd('baseline-store-')
    writeFileSync(join(root, 'file'), '')
    const path = baselinePath(join(root, 'file'), machine, bench)
    await expect(saveBaseline(path, sampleBaseline())).rejects.toThrow(
      `could not make the baseline directory ${dirname(path)}`,
    )
  })
})

describe('a file that cannot be used is named, with what is wrong and what to do', () => {
  const cases: Array<[string, (path: string) => void, RegExp]> = [
    ['not JSON', (p) => writeFileSync(p, '{"format": 1, "runs": ['), /not JSON/],
    ['an empty file', (p) => writeFileSync(p, ''), /not JSON/],
    ['a JSON array', (p) => writeFileSync(p, '[]'), /not a bench baseline: \(top level\)/],
    [
      'a run with a cost of 0',
      (p) => {
        const b = sampleBaseline()
        b.runs[0]!.subjectCosts = [0, 1, 1]
        writeFileSync(p, JSON.stringify(b))
      },
      /not a bench baseline: runs\.0\.subjectCosts\.0/,
    ],
    ['no runs', (p) => writeFileSync(p, JSON.stringify(sampleBaseline({ runs: [] }))), /runs: /],
    [
      'a newer format',
      (p) => writeFileSync(p, JSON.stringify({ ...sampleBaseline(), format: 2 })),
      /format 2 was written by a newer virnucpro-bench/,
    ],
    [
      'another machine',
      (p) => writeFileSync(p, JSON.stringify(sampleBaseline({ machine: { ...machine, node: 'v22.18.0' } }))),
      /saved for another machine \(AMD EPYC 7763 64-Core Processor, 2 cores, Node v22\.18\.0\), not this one/,
    ],
    [
      'another bench',
      (p) => writeFileSync(p, JSON.stringify(sampleBaseline({ bench: 'parse' }))),
      /saved for bench 'parse'/,
    ],
    ['a directory', (p) => mkdirSync(p), /not a regular file/],
  ]
  test.each(cases)('%s', async (_, make, problem) => {
    const path = baselinePath(tempDirUntilFileEnd('baseline-store-'), machine, bench)
    mkdirSync(dirname(path), { recursive: true })
    make(path)
    const error = await loadBaseline(path, machine, bench).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BaselineFileError)
    expect((error as BaselineFileError).path).toBe(path)
    expect((error as Error).message).toMatch(problem)
    expect((error as Error).message).toContain(`bench baseline ${path}: `)
    expect((error as Error).message).toContain('start a new baseline with VIRNUCPRO_BENCH_SAVE_BASELINE=1')
  })

  test('a FIFO is refused without being opened (it would wait forever)', async () => {
    const root = tempDirUntilFileEnd('baseline-store-')
    const path = baselinePath(root, machine, bench)
    mkdirSync(dirname(path), { recursive: true })
    const { execFileSync } = await import('node:child_process')
    execFileSync('mkfifo', [path])
    await expect(loadBaseline(path, machine, bench)).rejects.toThrow(/not a regular file/)
  })

  test('a link to /dev/zero is refused without being read', async () => {
    const path = baselinePath(tempDirUntilFileEnd('baseline-store-'), machine, bench)
    mkdirSync(dirname(path), { recursive: true })
    symlinkSync('/dev/zero', path)
    await expect(loadBaseline(path, machine, bench)).rejects.toThrow(/not a regular file/)
  })

  test('what a save writes is one JSON document a person can read back', async () => {
    const path = baselinePath(tempDirUntilFileEnd('baseline-store-'), machine, bench)
    await saveBaseline(path, sampleBaseline())
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(sampleBaseline())
  })
})
