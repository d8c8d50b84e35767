// 1,000,000 snapshots in a real child process: RSS (after GC) and open file descriptors must not grow.
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { createFakeNvml } from '../support/fake-nvml.ts'
import { ADDON_PATH } from './support/session.ts'

const LOOP = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support', 'snapshot-loop.ts')
const SNAPSHOTS = 1_000_000
// A leak of one 16-byte allocation per snapshot would add 16 MB; allocator and heap noise stays well under 8 MB.
const MAX_RSS_GROWTH_BYTES = 8 * 1024 * 1024

test('1,000,000 snapshots leak neither memory nor file descriptors', { timeout: 120_000 }, () => {
  using fake = createFakeNvml({ devices: [{ powerMw: [100_000, 200_000, 300_000], utilGpuPct: [0, 50, 100] }] })
  const output = execFileSync(process.execPath, ['--expose-gc', LOOP, String(SNAPSHOTS)], {
    env: { ...process.env, ...fake.env, NVML_TEST_ADDON: ADDON_PATH },
    encoding: 'utf8',
  })
  const result = JSON.parse(output.trim().split('\n').at(-1)!)
  console.log(
    `leak test: ${SNAPSHOTS} snapshots in ${(result.durationMs / 1000).toFixed(1)} s, ` +
      `RSS ${(result.rssBeforeBytes / 2 ** 20).toFixed(1)} -> ${(result.rssAfterBytes / 2 ** 20).toFixed(1)} MiB, ` +
      `fds ${result.fdsBefore} -> ${result.fdsAfter}`,
  )
  expect(result.count).toBe(SNAPSHOTS)
  // 20,000 warm-up + 1,000,000 reads of a 3-step power script: read number 1,020,000 lands on step 3.
  expect(result.lastPowerMw).toBe(300_000)
  expect(result.rssAfterBytes - result.rssBeforeBytes).toBeLessThan(MAX_RSS_GROWTH_BYTES)
  expect(result.fdsAfter).toBe(result.fdsBefore)
})
