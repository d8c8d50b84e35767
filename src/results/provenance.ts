import { readFileSync } from 'node:fs'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import { probeNvml } from '../nvml/probe.ts'
import { readGitState } from './git-state.ts'
import type { Provenance } from './schema/index.ts'

const suiteRoot = fileURLToPath(new URL('../..', import.meta.url))

export interface ProvenanceOptions {
  runId: string
  profile: string
  /** The target's checkout (VirNucPro), when there is one; the reference pipeline lives in this suite's own tree. */
  targetDir?: string | null
  targetVersions?: Record<string, string>
  /** The input the record's runs read, as the suites' input resolver describes it. */
  input?: Provenance['input']
}

/** Collects the provenance every record carries. Never throws: a part that cannot be read is null or says why. */
export async function collectProvenance(options: ProvenanceOptions): Promise<Provenance> {
  const { version } = JSON.parse(readFileSync(`${suiteRoot}package.json`, 'utf8')) as { version: string }
  const probe = probeNvml()
  const targetDir = options.targetDir ?? null
  return {
    runId: options.runId,
    suite: { name: 'virnucpro-bench', version, git: await readGitState(suiteRoot) },
    target: {
      profile: options.profile,
      dir: targetDir,
      git: targetDir ? await readGitState(targetDir) : null,
      versions: options.targetVersions ?? {},
    },
    host: {
      hostname: os.hostname(),
      platform: `${os.platform()} ${os.release()}`,
      arch: os.arch(),
      cpus: os.availableParallelism(),
      memBytes: os.totalmem(),
    },
    node: process.versions.node,
    input: options.input ?? null,
    nvml: probe.available
      ? {
          available: true,
          driverVersion: probe.driverVersion,
          nvmlVersion: probe.nvmlVersion,
          gpus: probe.devices.map(({ index, name, uuid, pciBusId, memTotalBytes }) => ({
            index,
            name,
            uuid,
            pciBusId,
            memTotalBytes,
          })),
        }
      : { available: false, reason: probe.reason },
  }
}
