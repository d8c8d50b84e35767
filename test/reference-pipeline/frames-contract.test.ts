import { execa } from 'execa'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { keptFrames } from '../../src/input/six-frame.ts'
import { pythonExecutable, REFPIPE_ROOT, skipReason } from './support.ts'

// The chunk/six-frame contract has two independent implementations: src/input/six-frame.ts and
// reference-pipeline/refpipe/frames.py. Random records (ACGT with some IUPAC letters, any length) must give the same
// kept frames, proteins and in-frame bases in both.

const PY_KEPT_FRAMES = `
import json, sys
from refpipe.frames import chunk_sequence, six_frames
records, length = json.load(sys.stdin)
out = []
for record_id, sequence in records:
    for chunk_id, bases in chunk_sequence(record_id, sequence, length):
        out += [[f.frame_id, f.protein, f.nucleotides] for f in six_frames(chunk_id, bases)]
json.dump(out, sys.stdout)
`

const base = fc.constantFrom(...'ACGTACGTACGTACGTACGTNRY')
const sequence = fc.array(base, { minLength: 1, maxLength: 1600 }).map((letters) => letters.join(''))

describe.skipIf(skipReason !== null)('six-frame contract: TypeScript and Python agree', () => {
  for (const chunkLength of [300, 500]) {
    test(`same kept frames for random records (chunk length ${chunkLength})`, async () => {
      const records = fc.sample(fc.array(sequence, { minLength: 50, maxLength: 50 }), {
        numRuns: 1,
        seed: chunkLength,
      })[0]!
      const named = records.map((s, i) => [`r${i}`, s] as const)
      const result = await execa(pythonExecutable(), ['-c', PY_KEPT_FRAMES], {
        env: { PYTHONPATH: REFPIPE_ROOT },
        input: JSON.stringify([named, chunkLength]),
      })
      const expected = named.flatMap(([id, s]) =>
        keptFrames({ id, sequence: s }, chunkLength).map((f) => [f.proteinId, f.protein, f.nucleotides]),
      )
      expect(JSON.parse(String(result.stdout))).toEqual(expected)
    })
  }
})
