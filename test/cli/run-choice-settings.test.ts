// Settings that would send a run somewhere other than asked (issue 40, item 4), refused by `doctor --settings` as
// the real CLI runs it: one line on stderr naming the setting and what to do, exit 1, before anything is measured.
import { execa } from 'execa'
import { describe, expect, test } from 'vitest'
import { CLI } from '../support/other-user.ts'

const checkSettings = (env: Record<string, string>) =>
  execa(process.execPath, [CLI, 'doctor', '--settings'], { env, reject: false, timeout: 60_000 })

describe('doctor --settings', () => {
  test('VIRNUCPRO_BENCH_FRESH=1 beside a pinned VIRNUCPRO_BENCH_RUN_ID: refused in one line naming both', async () => {
    const runId = '2026-11-26T10-00-00Z-ab12'
    const result = await checkSettings({ VIRNUCPRO_BENCH_RUN_ID: runId, VIRNUCPRO_BENCH_FRESH: '1' })
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toBe(
      `virnucpro-bench: VIRNUCPRO_BENCH_FRESH=1 with VIRNUCPRO_BENCH_RUN_ID='${runId}': a pinned run is written into as it is, never started afresh; unset VIRNUCPRO_BENCH_FRESH to continue ${runId}, or pin a new VIRNUCPRO_BENCH_RUN_ID (or remove the run directory ${runId}) to start afresh`,
    )
  })

  test.for(['..', '.', 'node1/../..'])(
    'VIRNUCPRO_BENCH_TASK=%s (its work files would land outside work/): refused in one line',
    async (task) => {
      const result = await checkSettings({ VIRNUCPRO_BENCH_TASK: task })
      expect(result.exitCode).toBe(1)
      expect(result.stderr.split('\n')).toHaveLength(1)
      expect(result.stderr).toMatch(
        /^virnucpro-bench: VIRNUCPRO_BENCH_TASK='[^']+': not a directory name \(.+\); set it to a directory name \(letters, digits, \. _ -, starting with a letter or digit\), or unset it$/,
      )
    },
  )

  test('a task name as the job scripts make it is accepted', async () => {
    const result = await checkSettings({ VIRNUCPRO_BENCH_TASK: 'node-1.cluster-t7' })
    expect(result.stderr).toBe('')
    expect(result.exitCode).toBe(0)
  })
})
