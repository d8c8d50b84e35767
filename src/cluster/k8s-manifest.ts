/**
 * A Kubernetes Indexed Job for clusters without Slurm: one pod per task (completion index = task index), at most one
 * per node (required pod anti-affinity on the host name), the same task body as the sbatch script, the results root
 * mounted from one ReadWriteMany claim at the same path on every pod. Pure: campaign in, YAML text out.
 */
import { type Campaign, runDirOf, taskCount } from './campaign.ts'
import { K8S_TASK, renderTaskBody } from './task-script.ts'
import { toYaml, type YamlValue } from './yaml-text.ts'

export interface K8sOptions {
  /** An image holding node, python with torch, and the suite's checkout (node_modules installed) at campaign.repoDir. */
  image: string
  /** A ReadWriteMany PersistentVolumeClaim for the results root. */
  claimName: string
}

export const DEFAULT_K8S_OPTIONS: K8sOptions = { image: 'virnucpro-bench:latest', claimName: 'virnucpro-bench-results' }

/** A DNS-1123 name (lower case, digits, '-'; 52 characters at most, so pod names that add the index still fit 63). */
export function k8sJobName(runId: string): string {
  const name = `vnpb-${runId}`
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .slice(0, 52)
  return name.replace(/-+$/, '')
}

/** The manifest's object (what toYaml writes); exported for tests that compare it with the parsed text. */
export function k8sJob(c: Campaign, options: K8sOptions = DEFAULT_K8S_OPTIONS): YamlValue {
  const name = k8sJobName(c.runId)
  const selector = { 'virnucpro-bench/job': name }
  const tasks = taskCount(c)
  const script = ['# virnucpro-bench campaign task (Kubernetes indexed pod)', ...renderTaskBody(c, K8S_TASK)].join('\n')
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      labels: selector,
      annotations: { 'virnucpro-bench/run-id': c.runId, 'virnucpro-bench/run-dir': runDirOf(c) },
    },
    spec: {
      completionMode: 'Indexed',
      completions: tasks,
      parallelism: tasks,
      // A task that fails is a finding (its record says why); rerunning it would measure twice.
      backoffLimit: 0,
      activeDeadlineSeconds: c.timeLimitMin * 60,
      template: {
        metadata: { labels: selector },
        spec: {
          restartPolicy: 'Never',
          affinity: {
            podAntiAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [
                { labelSelector: { matchLabels: selector }, topologyKey: 'kubernetes.io/hostname' },
              ],
            },
          },
          containers: [
            {
              name: 'suite',
              image: options.image,
              workingDir: c.repoDir,
              command: ['bash', '-c', script],
              ...(c.gpusPerNode > 0 && { resources: { limits: { 'nvidia.com/gpu': c.gpusPerNode } } }),
              volumeMounts: [{ name: 'results', mountPath: c.resultsRoot }],
            },
          ],
          volumes: [{ name: 'results', persistentVolumeClaim: { claimName: options.claimName } }],
        },
      },
    },
  }
}

/** The Indexed Job as YAML (kubectl apply -f). Validate the campaign first (campaign.ts validateCampaign). */
export function renderK8sManifest(c: Campaign, options: K8sOptions = DEFAULT_K8S_OPTIONS): string {
  return `# virnucpro-bench campaign, run ${c.runId}: kubectl apply -f this file; records land in ${runDirOf(c)}\n${toYaml(k8sJob(c, options))}`
}
