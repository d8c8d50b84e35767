/**
 * `npm run bench`: `vitest bench` with two options of its own (benchmarks/support/against/args.ts):
 *   npm run bench                         every bench, each CPU bench judged against this machine's saved baseline
 *   npm run bench -- --save-baseline      the same, this run starting a new baseline of this machine
 *   npm run bench -- --against main       the CPU benches, each subject of this checkout against the same subject of
 *                                         main (a git worktree with its own npm ci) in interleaved pairs, for CI on a
 *                                         pull request; no baseline is read or written
 * Any other argument goes to `vitest bench` as given (a file filter, `-t NAME`, `--project`).
 */
import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'
import { parseBenchArgs } from '../benchmarks/support/against/args.ts'
import { AGAINST_ENV } from '../benchmarks/support/against/checkout.ts'
import { defaultCacheRoot, prepareCheckout } from '../benchmarks/support/against/prepare.ts'
import { BASELINE_MODE_ENV } from '../benchmarks/support/baseline/mode.ts'

const repo = resolve(import.meta.dirname, '..')

async function main(): Promise<number> {
  let args: ReturnType<typeof parseBenchArgs>
  try {
    args = parseBenchArgs(process.argv.slice(2))
  } catch (error) {
    console.error(`npm run bench: ${(error as Error).message}`)
    return 2
  }
  const env = { ...process.env }
  let vitestArgs = args.vitestArgs
  if (args.saveBaseline) env[BASELINE_MODE_ENV] = '1'
  if (args.against !== null) {
    try {
      const other = await prepareCheckout({
        repo,
        revision: args.against,
        cacheRoot: defaultCacheRoot(),
        log: (line) => console.log(line),
      })
      env[AGAINST_ENV] = other.root
    } catch (error) {
      console.error(`npm run bench: ${(error as Error).message}`)
      return 2
    }
    // Only the CPU benches take their subject from a checkout; the GPU ones compare revisions their own way.
    if (!vitestArgs.some((arg) => arg === '--project' || arg.startsWith('--project=')))
      vitestArgs = ['--project', 'unit (bench)', ...vitestArgs]
  }
  const child = spawn(join(repo, 'node_modules', '.bin', 'vitest'), ['bench', ...vitestArgs], {
    cwd: repo,
    env,
    stdio: 'inherit',
  })
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal))
  return await new Promise<number>((done) =>
    child.on('close', (code, signal) => done(code ?? (signal ? 128 + (signal === 'SIGINT' ? 2 : 15) : 1))),
  )
}

process.exitCode = await main()
