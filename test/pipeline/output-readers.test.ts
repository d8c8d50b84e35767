import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  OutputFormatError,
  type PredictionRow,
  readHighestScores,
  readPredictionResults,
} from '../../src/pipeline/output-readers.ts'

let dir: string
let fileNo = 0
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'readers-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

async function file(text: string): Promise<string> {
  const path = join(dir, `f${fileNo++}.txt`)
  await writeFile(path, text)
  return path
}

async function all<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const row of rows) out.push(row)
  return out
}

async function failure(rows: AsyncIterable<unknown>): Promise<OutputFormatError> {
  const error = await all(rows).then(
    () => null,
    (e: unknown) => e,
  )
  if (!(error instanceof OutputFormatError)) throw new Error(`expected an OutputFormatError, got ${String(error)}`)
  return error
}

const PRED_HEADER = 'Sequence_ID\tPrediction\tscore1\tscore2\n'

describe('readPredictionResults', () => {
  test('reads rows as upstream writes them', async () => {
    const path = await file(`${PRED_HEADER}seq1_chunk_1F1\tvirus\t0.12\t0.88\nseq1_chunk_1R3\tothers\t0.9\t1e-05\n`)
    expect(await all(readPredictionResults(path))).toEqual([
      { id: 'seq1_chunk_1F1', label: 'virus', scores: [0.12, 0.88] },
      { id: 'seq1_chunk_1R3', label: 'others', scores: [0.9, 0.00001] },
    ])
  })

  test('names the line of a row with a bad label', async () => {
    const path = await file(`${PRED_HEADER}a\tvirus\t0.1\t0.9\nb\tmaybe\t0.1\t0.9\n`)
    const error = await failure(readPredictionResults(path))
    expect(error.line).toBe(3)
    expect(error.message).toContain(`${path}:3: Prediction must be virus or others, got 'maybe'`)
  })

  test('names the line of a row with too few fields', async () => {
    const error = await failure(readPredictionResults(await file(`${PRED_HEADER}a\tvirus\t0.1\n`)))
    expect([error.line, error.message.endsWith('expected 4 tab-separated fields, got 3')]).toEqual([2, true])
  })

  test('rejects a wrong header on line 1', async () => {
    expect((await failure(readPredictionResults(await file('id,label\n')))).line).toBe(1)
  })

  test('rejects an empty file', async () => {
    expect((await failure(readPredictionResults(await file('')))).message).toContain('empty')
  })

  test('rejects a blank line in the middle, naming it', async () => {
    expect((await failure(readPredictionResults(await file(`${PRED_HEADER}\na\tvirus\t0\t1\n`)))).line).toBe(2)
  })

  test('any rows written in the upstream format read back exactly', async () => {
    const row = fc.record({
      id: fc.stringMatching(/^[A-Za-z0-9_.|-]{1,30}$/),
      label: fc.constantFrom('virus' as const, 'others' as const),
      scores: fc.tuple(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
      ),
    })
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 30 }), async (rows: PredictionRow[]) => {
        const body = rows.map((r) => `${r.id}\t${r.label}\t${r.scores[0]}\t${r.scores[1]}\n`).join('')
        const read = await all(readPredictionResults(await file(PRED_HEADER + body)))
        // The file holds each score's decimal text, so -0 comes back as 0: compare with what the text says.
        expect(read).toEqual(rows.map((r) => ({ ...r, scores: r.scores.map((s) => Number(String(s))) })))
      }),
      { numRuns: 50 },
    )
  })

  test('a corrupted score is reported at its line, whatever the row', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 20 }), fc.constantFrom('', 'nan', 'x1', '1..2'), async (n, bad) => {
        const good = Array.from({ length: n }, (_, i) => `s${i}\tvirus\t0.5\t0.5\n`).join('')
        const error = await failure(readPredictionResults(await file(`${PRED_HEADER}${good}bad\tothers\t${bad}\t1\n`)))
        expect(error.line).toBe(n + 2)
      }),
      { numRuns: 30 },
    )
  })
})

describe('readHighestScores', () => {
  test('reads pandas booleans and scores', async () => {
    const path = await file(
      'Modified_ID\tIs_Virus\tmax_score_0\tmax_score_1\nseq1_chunk_1\tTrue\t0.1\t0.9\nseq2_chunk_1\tFalse\t0.8\t0.2\n',
    )
    expect(await all(readHighestScores(path))).toEqual([
      { id: 'seq1_chunk_1', isVirus: true, maxScores: [0.1, 0.9] },
      { id: 'seq2_chunk_1', isVirus: false, maxScores: [0.8, 0.2] },
    ])
  })

  test('names the line of a bad Is_Virus value', async () => {
    const path = await file('Modified_ID\tIs_Virus\tmax_score_0\tmax_score_1\nseq1\tyes\t0.1\t0.9\n')
    expect((await failure(readHighestScores(path))).message).toContain(":2: Is_Virus must be True or False, got 'yes'")
  })
})
