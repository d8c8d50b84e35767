/** What the `gpu` project learned about this machine, once, in its global setup; shared with every test file. */
export type GpuAvailability =
  | { ok: true; driverVersion: string; gpuCount: number; gpuNames: string[] }
  | { ok: false; reason: string }

declare module 'vitest' {
  interface ProvidedContext {
    gpuAvailability: GpuAvailability
  }
}

/** The one sentence printed (and attached to every skipped test) when the GPU project cannot run here. */
export function describeUnavailable(reason: string): string {
  return `gpu project: every test skipped, no usable NVIDIA GPU on this machine (${reason})`
}
