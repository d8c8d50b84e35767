import { execa } from 'execa'
import { expect, test } from 'vitest'

// The `gpu` project on a machine without a driver (forced here by pointing NVML at a library that does not exist, so the
// test means the same on a GPU host): exit 0, every test skipped, the reason said once — never a GPU check passing.
test('without a driver the gpu project skips every test and says why once', { timeout: 120_000 }, async () => {
  const result = await execa('npx', ['vitest', 'run', '--project', 'gpu'], {
    reject: false,
    env: { VIRNUCPRO_BENCH_NVML_LIB: '/nonexistent/libnvidia-ml.so.1', CI: 'true', VITEST_SUMMARY_FILE: '' },
  })
  const output = `${result.stdout}\n${result.stderr}`
  expect(result.exitCode, output).toBe(0)
  const reasonLines = output.split('\n').filter((line) => line.startsWith('gpu project: every test skipped'))
  expect(reasonLines).toHaveLength(1)
  expect(reasonLines[0]).toContain('/nonexistent/libnvidia-ml.so.1')
  const summary = /^vitest: (\d+) passed, (\d+) failed, (\d+) skipped$/m.exec(result.stdout)
  expect(summary, output).not.toBeNull()
  const [, passed, failed, skipped] = summary!.map(Number)
  expect({ passed, failed }).toEqual({ passed: 0, failed: 0 })
  expect(skipped).toBeGreaterThan(0)
})
