import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { parseProcSizes, readPssBytes, readRssBytes } from '../../src/monitor/proc-memory.ts'

// As the kernel writes them (6.x): status pads with a tab and spaces, smaps_rollup opens with a [rollup] range line.
const STATUS =
  'Name:\tpython3\nUmask:\t0022\nState:\tS (sleeping)\nVmPeak:\t  345612 kB\nVmRSS:\t  279420 kB\nRssAnon:\t  270000 kB\nThreads:\t1\n'
const ROLLUP =
  '5597aff2b000-7ffffe113000 ---p 00000000 00:00 0                          [rollup]\nRss:             1058504 kB\nPss:              529413 kB\nPss_Anon:         528258 kB\n'

const name = fc.stringMatching(/^[A-Za-z_][A-Za-z_()]{0,15}$/)
const kib = fc.integer({ min: 0, max: 2 ** 40 })
const padding = fc.stringMatching(/^[ \t]{1,12}$/)
/** Lines that carry no size: a text field, a range header, a count without a unit. */
const noise = fc.oneof(
  fc.constant('Name:\tpython3'),
  fc.constant('Threads:\t4'),
  fc.constant('55d3d7273000-7fff9d124000 ---p 00000000 00:00 0   [rollup]'),
  fc.string({ maxLength: 40 }).filter((s) => !s.includes('\n') && !/kB\s*$/.test(s)),
)

describe('parseProcSizes', () => {
  test('reads the kernel files as written', () => {
    expect(parseProcSizes(STATUS, ['VmRSS', 'VmSwap'])).toEqual({ VmRSS: 279_420 * 1024 })
    expect(parseProcSizes(ROLLUP, ['Rss', 'Pss'])).toEqual({ Rss: 1_058_504 * 1024, Pss: 529_413 * 1024 })
  })

  test('any size line among any others parses back to its bytes; the first of a name counts', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(name, kib, padding), { selector: ([n]) => n, maxLength: 12 }),
        fc.array(noise, { maxLength: 8 }),
        fc.integer({ min: 0, max: 100 }),
        (sizes, others, seed) => {
          const lines = [...sizes.map(([n, k, pad]) => `${n}:${pad}${k} kB`), ...others]
          // Interleave deterministically from the seed; a repeat of the first name with another value goes last.
          const shuffled = lines.map((l, i) => [(i * 7919 + seed) % 101, l] as const).sort(([a], [b]) => a - b)
          const text = [...shuffled.map(([, l]) => l), ...sizes.slice(0, 1).map(([n, k]) => `${n}: ${k + 1} kB`)]
          const names = sizes.map(([n]) => n)
          const parsed = parseProcSizes(text.join('\n'), names)
          const firstOf = (n: string) => {
            const line = shuffled.find(([, l]) => l.startsWith(`${n}:`) && /\d+ kB$/.test(l))
            return line ? Number(/(\d+) kB$/.exec(line[1])![1]) * 1024 : undefined
          }
          for (const n of names) expect(parsed[n]).toBe(firstOf(n))
        },
      ),
    )
  })

  test('never throws, and gives only whole, safe byte counts of the names asked for', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.array(name, { maxLength: 4 }), (text, names) => {
        const parsed = parseProcSizes(text, names)
        for (const [n, bytes] of Object.entries(parsed)) {
          expect(names).toContain(n)
          expect(Number.isSafeInteger(bytes) && (bytes as number) >= 0 && (bytes as number) % 1024 === 0).toBe(true)
        }
      }),
    )
  })
})

describe('readers', () => {
  test('this process: VmRSS and PSS read, PSS at most the VmRSS; a PID that does not exist reads null', async () => {
    const rss = await readRssBytes(process.pid)
    const { pssBytes, readMs } = await readPssBytes(process.pid)
    expect(rss).toBeGreaterThan(10 * 2 ** 20)
    expect(pssBytes).toBeGreaterThan(0)
    expect(pssBytes!).toBeLessThanOrEqual(rss! * 1.1) // read a moment apart: the heap may grow in between
    expect(readMs).toBeGreaterThanOrEqual(0)
    expect(await readRssBytes(2 ** 22 + 1)).toBeNull()
    expect((await readPssBytes(2 ** 22 + 1)).pssBytes).toBeNull()
  })
})
