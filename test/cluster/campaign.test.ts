import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { submissions, taskCount, validateCampaign } from '../../src/cluster/campaign.ts'
import { campaignEnv, gpuSuiteNames, suiteFiles } from '../../src/cluster/campaign-inputs.ts'
import { ClusterError } from '../../src/cluster/errors.ts'
import { REPO_ROOT } from '../../src/pipeline/profiles.ts'
import { campaignArb, sampleCampaign } from './support/campaigns.ts'

test('submissions: one per partition, their task ranges tile 0..tasks-1 without overlap', () => {
  fc.assert(
    fc.property(campaignArb, (c) => {
      const indices = submissions(c).flatMap((s) =>
        Array.from({ length: s.lastTask - s.firstTask + 1 }, (_, i) => s.firstTask + i),
      )
      expect(indices).toEqual(Array.from({ length: taskCount(c) }, (_, i) => i))
      expect(submissions(c).map((s) => s.partition)).toEqual(c.partitions.length > 0 ? c.partitions : [null])
    }),
  )
})

describe('validateCampaign refuses what a job spec cannot carry, naming it', () => {
  const refused = (overrides: Parameters<typeof sampleCampaign>[0], message: RegExp) => {
    const error = (() => {
      try {
        validateCampaign(sampleCampaign(overrides))
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(ClusterError)
    expect((error as ClusterError).code).toBe('CLUSTER_BAD_CAMPAIGN')
    expect((error as ClusterError).message).toMatch(message)
  }

  test('every arbitrary campaign of the renderer tests passes', () => {
    fc.assert(fc.property(campaignArb, (c) => validateCampaign(c)))
  })

  test.for([
    [{ runId: 'a b' }, /run ID 'a b' may hold only/],
    [{ resultsRoot: 'relative/dir' }, /results directory 'relative\/dir' must be absolute/],
    [{ resultsRoot: '/data/100%' }, /'%'/],
    [{ resultsRoot: '/my results' }, /without whitespace/],
    [{ partitions: ['gpu', 'gpu'] }, /partition listed twice/],
    [{ partitions: ['gpu,cpu'] }, /partition 'gpu,cpu' may hold only/],
    [{ account: 'a;b' }, /account 'a;b'/],
    [{ qos: 'x y' }, /qos 'x y'/],
    [{ nodesPerPartition: 0 }, /nodes per partition must be an integer >= 1, got 0/],
    [{ gpusPerNode: 1.5 }, /GPUs per node must be an integer >= 0/],
    [{ timeLimitMin: 0 }, /time limit \(minutes\) must be an integer >= 1/],
    [{ env: { 'A-B': 'x' } }, /environment: 'A-B' cannot be exported/],
    [{ env: { IFS: ',' } }, /'IFS' cannot be exported/],
    [{ env: { A: 'x\0y' } }, /A's value holds a NUL byte/],
    [{ taskEnv: [{}, {}, {}] }, /3 task environments for 2 tasks/],
  ] as const)('%o', ([overrides, message]) => refused(overrides, message))
})

describe('suites and environment', () => {
  test('the checkout gpu suites by name, nested ones with their folder', () => {
    const names = gpuSuiteNames(REPO_ROOT)
    expect(names).toEqual(expect.arrayContaining(['scaling', 'stage-throughput', 'validation/capacity/capacity']))
    expect(suiteFiles(['scaling'], REPO_ROOT)).toEqual(['benchmarks/scaling.gpu.test.ts'])
    expect(suiteFiles([], REPO_ROOT)).toEqual([])
  })

  test('an unknown suite is refused with the known ones listed', () => {
    expect(() => suiteFiles(['scaling', 'scalign'], REPO_ROOT)).toThrow(/^unknown suite 'scalign' \(suites: .*scaling/)
  })

  test("the suite's own variables travel, the campaign's own are set by the script, --export adds named ones", () => {
    const env = {
      VIRNUCPRO_BENCH_RUNS: '5',
      REFPIPE_PYTHON: '/opt/py',
      VIRNUCPRO_BENCH_RUN_ID: 'stale',
      VIRNUCPRO_BENCH_RESULTS_DIR: '/elsewhere',
      VIRNUCPRO_BENCH_SHARD: '0/2',
      HOME: '/root',
      FAKE_NVML_SCRIPT: '/tmp/s',
    }
    expect(campaignEnv(env, ['FAKE_NVML_SCRIPT'], { VIRNUCPRO_BENCH_DEVICE: 'cpu' })).toEqual({
      VIRNUCPRO_BENCH_RUNS: '5',
      REFPIPE_PYTHON: '/opt/py',
      FAKE_NVML_SCRIPT: '/tmp/s',
      VIRNUCPRO_BENCH_DEVICE: 'cpu',
    })
  })

  test('--export of a variable that is not set, or cannot be exported, is refused naming it', () => {
    expect(() => campaignEnv({}, ['NOT_SET_HERE'], {})).toThrow('--export: NOT_SET_HERE is not set in this environment')
    expect(() => campaignEnv({ UID: '0' }, ['UID'], {})).toThrow("--export: 'UID' cannot be exported")
  })
})
