/**
 * What makes two bench runs comparable: the same CPU model, the same number of cores this process may use, the same
 * Node (V8 and its JIT change with it). A baseline is kept per key and a run is judged only against its own key's
 * baseline; a machine this checkout has not seen has none.
 */
import { createHash } from 'node:crypto'
import os from 'node:os'

export interface MachineKey {
  /** `os.cpus()[0].model` as the kernel reports it, e.g. 'AMD EPYC 7763 64-Core Processor'. */
  cpuModel: string
  /** Cores this process may run on (os.availableParallelism(): affinity and cgroup limits included). */
  cores: number
  /** process.version, e.g. 'v24.11.1'. */
  node: string
}

export function thisMachine(): MachineKey {
  return {
    cpuModel: os.cpus()[0]?.model.trim() || 'unknown CPU',
    cores: os.availableParallelism(),
    node: process.version,
  }
}

/** `AMD EPYC, 2 cores, Node v24.11.1`: how a key is named in messages. */
export function describeMachine(key: MachineKey): string {
  return `${key.cpuModel}, ${key.cores} core${key.cores === 1 ? '' : 's'}, Node ${key.node}`
}

/**
 * The key as a directory name: readable parts, then a hash of the exact key so that two models the slug makes alike
 * (punctuation, case, length) never share a directory. `amd-epyc-2-cores-node-v24.11.1-3f9a0c1e`
 */
export function machineDirName(key: MachineKey): string {
  const slug = `${key.cpuModel}-${key.cores}-cores-node-${key.node}`
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
  const hash = createHash('sha256')
    .update(JSON.stringify([key.cpuModel, key.cores, key.node]))
    .digest('hex')
  return `${slug}-${hash.slice(0, 8)}`
}

/** True when both keys name the same machine. */
export function sameMachine(a: MachineKey, b: MachineKey): boolean {
  return a.cpuModel === b.cpuModel && a.cores === b.cores && a.node === b.node
}
