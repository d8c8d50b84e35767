// SamplerCore on the fake library with a hand-driven clock: exact, repeatable series without threads or timers.
import { afterEach } from 'vitest'
import { resolveSamplerOptions, type SamplerOptions } from '../../../src/monitor/options.ts'
import type { MonitorRecord } from '../../../src/monitor/records.ts'
import { SamplerCore } from '../../../src/monitor/sampler.ts'
import type { StageChange } from '../../../src/monitor/stage-timeline.ts'
import { type NvmlSession, openNvml } from '../../../src/nvml/session.ts'
import { ADDON_PATH } from './fake.ts'

const open: { session: NvmlSession; core?: SamplerCore }[] = []

afterEach(() => {
  for (const { session, core } of open.splice(0)) {
    core?.close()
    session.close()
  }
})

export interface HandDriven {
  core: SamplerCore
  /** Sets the clock, queues stage changes to be drained, ticks once; returns that tick's records. */
  tickAt(tMs: number, changes?: StageChange[], forceLowRate?: boolean): MonitorRecord[]
}

/** A core over the active fake; EPOCH_MS is tMs = 0 in epoch ms (for driver samples). */
export function handDrivenCore(options: Partial<SamplerOptions> = {}, startEpochMs = EPOCH_MS): HandDriven {
  const opened = openNvml({ addonPath: ADDON_PATH, warn: () => {} })
  if (!opened.available) throw new Error(`NVML unavailable in test: ${opened.reason}`)
  let nowMs = 0
  const entry: (typeof open)[number] = { session: opened.session }
  open.push(entry)
  const core = new SamplerCore(opened.session.listDevices(), resolveSamplerOptions(options), () => nowMs, startEpochMs)
  entry.core = core
  return {
    core,
    tickAt(tMs, changes = [], forceLowRate = false) {
      nowMs = tMs
      return core.tick({ drainStages: () => changes, forceLowRate })
    },
  }
}

export const EPOCH_MS = 1_700_000_000_000

export const ofKind = <K extends MonitorRecord['kind']>(records: MonitorRecord[], kind: K) =>
  records.filter((r): r is Extract<MonitorRecord, { kind: K }> => r.kind === kind)
