import { execa } from 'execa'
import { expect, test } from 'vitest'

test('every annotation reaches stdout as one line naming project and test', async () => {
  const result = await execa('npx', ['vitest', 'run', '--root', 'test/reporters/fixtures/annotations'], {
    reject: false,
    env: { CI: 'true' },
  })
  expect(result.exitCode).toBe(0)
  expect(result.stdout.split('\n')).toContain('[annotation] fixture > measures something | throughput: 123 MB/s')
})
