// Campaigns for the renderer tests: one plain example, and an arbitrary of every campaign validateCampaign accepts,
// with hostile environment values (quotes, $, backticks, newlines, non-ASCII) where the shell must keep them as data.
import fc from 'fast-check'
import type { Campaign } from '../../../src/cluster/campaign.ts'
import { isExportableName } from '../../../src/cluster/shell.ts'

export function sampleCampaign(overrides: Partial<Campaign> = {}): Campaign {
  return {
    runId: '2026-11-25T09-00-00Z-ab12',
    resultsRoot: '/shared/results',
    repoDir: '/shared/virnucpro-bench',
    nodeExe: '/usr/bin/node',
    partitions: [],
    nodesPerPartition: 2,
    gpusPerNode: 0,
    cpusPerTask: null,
    timeLimitMin: 60,
    account: null,
    qos: null,
    exclusive: false,
    suiteFiles: ['benchmarks/stage-throughput.gpu.test.ts'],
    env: { VIRNUCPRO_BENCH_DEVICE: 'cpu' },
    taskEnv: [],
    probeToken: 'c0ffee00',
    ...overrides,
  }
}

const word = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,15}$/)
const shellHostile = fc.constantFrom(
  "'",
  '"',
  '$',
  '`',
  '\\',
  '\n',
  ' ',
  '!',
  '*',
  '#',
  ';',
  '&',
  '|',
  '(',
  '\t',
  'é',
  '→',
)

/** Any value a variable can hold (no NUL): plain text mixed with every character the shell would act on. */
export const envValue = fc.string({
  unit: fc.oneof(shellHostile, fc.string({ unit: 'grapheme', maxLength: 1 })),
  maxLength: 40,
})
export const envName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/).filter(isExportableName)
export const envMap = fc.dictionary(envName, envValue, { maxKeys: 6 })

/** A path without the characters sbatch's --output cannot carry (campaign.ts DIRECTIVE_PATH). */
const directivePath = fc.array(word, { minLength: 1, maxLength: 3 }).map((parts) => `/${parts.join('/')}`)
/** A path the shell only ever sees quoted: anything but NUL. */
const anyPath = fc.tuple(directivePath, envValue).map(([base, tail]) => `${base}/${tail.replaceAll('\0', '')}`)

export const campaignArb: fc.Arbitrary<Campaign> = fc
  .record({
    runId: word,
    resultsRoot: directivePath,
    repoDir: anyPath,
    nodeExe: anyPath,
    partitions: fc.uniqueArray(word, { maxLength: 3 }),
    nodesPerPartition: fc.integer({ min: 1, max: 4 }),
    gpusPerNode: fc.integer({ min: 0, max: 8 }),
    cpusPerTask: fc.option(fc.integer({ min: 1, max: 64 })),
    timeLimitMin: fc.integer({ min: 1, max: 10_000 }),
    account: fc.option(word),
    qos: fc.option(word),
    exclusive: fc.boolean(),
    suiteFiles: fc.array(
      anyPath.map((p) => p.slice(1)),
      { maxLength: 3 },
    ),
    env: envMap,
    taskEnv: fc.array(envMap, { maxLength: 3 }),
    probeToken: fc.stringMatching(/^[a-f0-9]{16}$/),
  })
  .filter((c) => c.taskEnv.length <= Math.max(1, c.partitions.length) * c.nodesPerPartition)
