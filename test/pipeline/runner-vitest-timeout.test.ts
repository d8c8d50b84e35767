import { fileURLToPath } from 'node:url'
import { execa } from 'execa'
import { expect, test } from 'vitest'
import { processesWithTag, useWorkdir } from './support/fake-profile.ts'

const CONFIG = fileURLToPath(new URL('./fakes/vitest-timeout/vitest.config.ts', import.meta.url))

const work = useWorkdir({ orphans: false })

test('a vitest test that times out mid-run leaves no process of the target behind', async () => {
  const env = { NO_COLOR: '1', FIXTURE_INPUT: work.input, FIXTURE_OUTPUT: work.outputDir, FIXTURE_TAG: work.tag }
  const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url))
  const result = await execa(process.execPath, [vitest, 'run', '--config', CONFIG], {
    env,
    reject: false,
    timeout: 60_000,
  })
  expect(`${result.stdout}\n${result.stderr}`).toMatch(/Test timed out in 1500ms/)
  expect(result.exitCode).toBe(1)
  const deadline = Date.now() + 3_000
  while (processesWithTag(work.tag).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
  expect(processesWithTag(work.tag)).toEqual([])
}, 60_000)
