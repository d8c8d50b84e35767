// `npm run bench -- --against REV` from the bench's side: with VIRNUCPRO_BENCH_AGAINST naming another checkout, a
// bench runs this checkout's subject and the other's in interleaved pairs and judges one against the other; no
// baseline is read or written. The other checkout here is a copy of this one's src/ (prepare.ts, which makes a real
// worktree with its own npm ci, is tested in against/prepare.test.ts): the same code on both sides passes, and a
// planted 30% slowdown of this side fails.
import { cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { execa } from 'execa'
import { afterAll, expect, test } from 'vitest'
import { AGAINST_ENV, READY_FILE } from '../../benchmarks/support/against/checkout.ts'
import { PLANT_ENV } from '../../benchmarks/support/planted-slowdown.ts'

const root = join(import.meta.dirname, '../..')
const work = mkdtempSync(join(tmpdir(), 'bench-against-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))
const other = join(work, 'other')
cpSync(join(root, 'src'), join(other, 'src'), { recursive: true })
symlinkSync(join(root, 'node_modules'), join(other, 'node_modules'))
writeFileSync(
  join(other, READY_FILE),
  JSON.stringify({ commit: 'c0ffee0123456789', revision: 'copy', node: process.version }),
)

function benchBootstrap(plantPct: string) {
  return execa(
    'npx',
    ['vitest', 'bench', '--project', 'unit (bench)', 'benchmarks/measure.bench.ts', '-t', 'bootstrap CI of the median'],
    {
      cwd: root,
      reject: false,
      env: {
        [AGAINST_ENV]: other,
        [PLANT_ENV]: plantPct,
        VIRNUCPRO_BENCH_BASELINE_DIR: join(work, 'baselines'),
        VIRNUCPRO_BENCH_REPORTS_DIR: join(work, 'reports'),
        VIRNUCPRO_BENCH_RESULTS_DIR: join(work, 'results'),
        VITEST_SUMMARY_FILE: '',
      },
    },
  )
}

test('the same code on both sides passes; a planted 30% on this side fails against the other', {
  timeout: 180_000,
}, async () => {
  const same = await benchBootstrap('')
  const sameOutput = stripVTControlCharacters(`${same.stdout}\n${same.stderr}`)
  expect(sameOutput).toMatch(
    /^\[annotation\] .*bootstrap CI: cpu ratio [\d.]+ .* against c0ffee0123 \(the figures' second arm is its subject\);.*cpu cost [\d.]+x the cost of c0ffee0123 \(copy\) \(\d+% CI [\d.]+-[\d.]+, 50 pairs\), limit 1\.15x: pass$/m,
  )
  expect(same.exitCode, sameOutput).toBe(0)
  const planted = await benchBootstrap('30')
  const plantedOutput = stripVTControlCharacters(`${planted.stdout}\n${planted.stderr}`)
  expect(plantedOutput).toMatch(
    /cpu cost 1\.[2-4]\dx the cost of c0ffee0123 \(copy\) .*: FAIL, slower than c0ffee0123 \(copy\)/,
  )
  expect(planted.exitCode).toBe(1)
  expect(readdirSync(work)).not.toContain('baselines')
})
