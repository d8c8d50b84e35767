/** Public API of the GPU monitor: start/stop, stage tags, the log format and the summary. */
export { formatSummary } from './format-summary.ts'
export { defaultLogPath } from './jsonl-writer.ts'
export { type MonitorLog, MonitorLogError, parseMonitorLog, readMonitorLog } from './log-reader.ts'
export {
  GpuMonitor,
  type GpuMonitorOptions,
  type MonitorStartResult,
  type MonitorStopResult,
  type TargetTree,
} from './monitor.ts'
export { DEFAULT_SAMPLER_OPTIONS, MonitorOptionError, type SamplerOptions } from './options.ts'
export type * from './records.ts'
export { createStageTagger, type StageTagger } from './stage-events.ts'
export { type Attribution, gpusUsedBy } from './summary/attribution.ts'
export type { HostMemoryRole, HostMemorySummary } from './summary/host-memory.ts'
export { IDLE_UTIL_PCT } from './summary/idle-throttle.ts'
export type { MetricName, MetricStats } from './summary/metric-stats.ts'
export {
  type GpuSummary,
  type MonitorSummary,
  type StageSummary,
  type SummaryOptions,
  summarizeRecords,
} from './summary/summarize.ts'
export type { GpuWindowStats } from './summary/window-stats.ts'
