import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { KNOWN_VARIABLES } from '../../src/config/variables.ts'

const DOC = readFileSync(resolve(import.meta.dirname, '../../docs/settings.md'), 'utf8')

describe('docs/settings.md', () => {
  test('names every variable the suite reads, and no other', () => {
    const named = new Set([...DOC.matchAll(/^\| `(VIRNUCPRO_BENCH_[A-Z0-9_]+)` \|/gm)].map((m) => m[1]!))
    expect([...named].sort()).toEqual([...KNOWN_VARIABLES].sort())
  })
})
