/**
 * VIRNUCPRO_BENCH_AB: the two arms of the A/B benchmark (benchmarks/ab.gpu.bench.ts) as JSON,
 * `{"a": {"label": "v1", "extraArgs": [...], "env": {...}}, "b": {...}}`. Parsed here so that doctor and the gpu
 * project's global setup refuse a bad one before any run, with the same words the benchmark would use.
 */
import { z } from 'zod'
import { escapeControls } from '../platform/one-line.ts'

const Arm = z.strictObject({
  label: z.string().min(1),
  extraArgs: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
})
const AbArms = z.strictObject({ a: Arm, b: Arm })
export type AbArms = z.infer<typeof AbArms>

/** @throws Error naming the first bad field (one line). */
export function parseAbArms(text: string): AbArms {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new Error(`not JSON (${escapeControls((error as Error).message)})`, { cause: error })
  }
  const parsed = AbArms.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new Error(`${issue.path.join('.') || '(top level)'}: ${issue.message}`, { cause: parsed.error })
  }
  if (parsed.data.a.label === parsed.data.b.label) throw new Error(`both arms are labelled '${parsed.data.a.label}'`)
  return parsed.data
}
