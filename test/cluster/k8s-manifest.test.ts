// The Kubernetes Indexed Job, read back with the `yaml` package (as kubectl would read it): its shape, the task script
// it carries, and, for any campaign and any JSON-like value, YAML text that means exactly the object it was made from.
import { spawnSync } from 'node:child_process'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { runDirOf } from '../../src/cluster/campaign.ts'
import { k8sJob, k8sJobName, renderK8sManifest } from '../../src/cluster/k8s-manifest.ts'
import { toYaml } from '../../src/cluster/yaml-text.ts'
import { campaignArb, sampleCampaign } from './support/campaigns.ts'

type Job = {
  kind: string
  metadata: { name: string; annotations: Record<string, string> }
  spec: {
    completionMode: string
    completions: number
    parallelism: number
    backoffLimit: number
    activeDeadlineSeconds: number
    template: {
      metadata: { labels: Record<string, string> }
      spec: {
        affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { topologyKey: string }[] } }
        containers: {
          command: string[]
          resources?: { limits: Record<string, number> }
          volumeMounts: { mountPath: string }[]
        }[]
        volumes: { persistentVolumeClaim: { claimName: string } }[]
      }
    }
  }
}

describe('the Indexed Job', () => {
  const c = sampleCampaign({ nodesPerPartition: 3, gpusPerNode: 8, timeLimitMin: 30 })
  const job = parse(renderK8sManifest(c, { image: 'registry/vnpb:1', claimName: 'shared-results' })) as Job

  test('one pod per task, at most one per node, no retries, the time limit as a deadline', () => {
    expect(job.kind).toBe('Job')
    expect(job.spec).toMatchObject({ completionMode: 'Indexed', completions: 3, parallelism: 3, backoffLimit: 0 })
    expect(job.spec.activeDeadlineSeconds).toBe(30 * 60)
    const anti = job.spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution
    expect(anti).toEqual([expect.objectContaining({ topologyKey: 'kubernetes.io/hostname' })])
  })

  test('GPUs as nvidia.com/gpu limits, the results root from the claim at the same path, the run ID annotated', () => {
    const [container] = job.spec.template.spec.containers
    expect(container!.resources?.limits).toEqual({ 'nvidia.com/gpu': 8 })
    expect(container!.volumeMounts[0]!.mountPath).toBe(c.resultsRoot)
    expect(job.spec.template.spec.volumes[0]!.persistentVolumeClaim.claimName).toBe('shared-results')
    expect(job.metadata.annotations).toEqual({
      'virnucpro-bench/run-id': c.runId,
      'virnucpro-bench/run-dir': runDirOf(c),
    })
  })

  test('the container runs the task script, valid bash, indexed by JOB_COMPLETION_INDEX, without the Slurm probe', () => {
    const [shell, flag, script] = job.spec.template.spec.containers[0]!.command
    expect([shell, flag]).toEqual(['bash', '-c'])
    expect(script).toContain('task_index=${JOB_COMPLETION_INDEX:?')
    expect(script).not.toContain('/campaign/probe')
    expect(spawnSync('bash', ['-n'], { input: script, encoding: 'utf8' }).status).toBe(0)
  })

  test('a job name Kubernetes accepts, whatever the run ID', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9._-]{1,80}$/), (runId) => {
        expect(k8sJobName(runId)).toMatch(/^[a-z0-9]([a-z0-9-]{0,50}[a-z0-9])?$/)
      }),
    )
  })
})

test('for any campaign the manifest parses back to exactly the job object it was written from', () => {
  fc.assert(
    fc.property(campaignArb, (c) => {
      expect(parse(renderK8sManifest(c))).toEqual(k8sJob(c))
    }),
    { numRuns: 60 },
  )
})

test('toYaml: any JSON value (keys and strings of any text) reads back equal', () => {
  const text = fc.string({
    unit: fc.oneof(
      fc.constantFrom('\n', ' ', ':', '#', '-', "'", '"', '|', 'é'),
      fc.string({ unit: 'grapheme', maxLength: 1 }),
    ),
  })
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, tie('leaf'), tie('list'), tie('map')),
    leaf: fc.oneof(
      text,
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
    ),
    list: fc.array(tie('node'), { maxLength: 4 }),
    map: fc.dictionary(text, tie('node'), { maxKeys: 4 }),
  })).node
  fc.assert(
    fc.property(fc.oneof(fc.array(value), fc.dictionary(text, value)), (doc) => {
      const normal = JSON.parse(JSON.stringify(doc))
      expect(parse(toYaml(normal))).toEqual(normal)
    }),
    { numRuns: 300 },
  )
})
