// The tools a test may need beyond README's "Requirements" (Node, npm, a C/C++ compiler, make, Python 3, git), each
// with what it adds and how to get it. One rule for all of them: where one is missing, a test that needs it skips with
// one line saying what is missing and how to get it; where VIRNUCPRO_BENCH_REQUIRE_TOOLS names it, the same test
// fails instead. .ci/run installs the tools and names them there, so a CI run that lost one cannot pass by skipping.
import { rawSetting } from '../../src/config/variables.ts'

export const OPTIONAL_TOOLS = {
  chromium: {
    adds: 'the HTML reports parsed in a real browser',
    get: 'install Chromium or Chrome (Debian/Ubuntu: apt-get install chromium), or set CHROMIUM to its binary',
  },
  torch: {
    adds: 'the reference pipeline run on the CPU',
    get: 'install Python 3 with PyTorch and NumPy (Debian/Ubuntu: apt-get install python3-torch python3-numpy), or set REFPIPE_PYTHON to a python that has them',
  },
  slurm: {
    adds: 'campaigns submitted to a real Slurm cluster',
    get: 'as root, `bash .ci/slurm-up.sh` starts a single-node cluster; then export SLURM_CONF=/tmp/virnucpro-slurm/slurm.conf',
  },
  'other-user': {
    adds: 'read-only places refused to a user other than root; as root, the CLI runs as nobody',
    get: "put Node and the checkout where every user can read them (not under root's home or a `mktemp -d` directory, mode 700)",
  },
} as const

export type OptionalTool = keyof typeof OPTIONAL_TOOLS

export const REQUIRE_VARIABLE = 'VIRNUCPRO_BENCH_REQUIRE_TOOLS'

const isOptionalTool = (name: string): name is OptionalTool => Object.hasOwn(OPTIONAL_TOOLS, name)

/**
 * The tools VIRNUCPRO_BENCH_REQUIRE_TOOLS names (comma-separated).
 * @throws Error naming a word that is not an optional tool: a misspelt name must not quietly require nothing.
 */
export function requiredTools(env: NodeJS.ProcessEnv = process.env): Set<OptionalTool> {
  const names = (rawSetting(env, REQUIRE_VARIABLE) ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
  const unknown = names.filter((name) => !isOptionalTool(name))
  if (unknown.length > 0)
    throw new Error(
      `${REQUIRE_VARIABLE}='${env[REQUIRE_VARIABLE]}': ${unknown.map((n) => `'${n}'`).join(', ')} is not an optional tool; name tools from: ${Object.keys(OPTIONAL_TOOLS).join(', ')}`,
    )
  return new Set(names.filter(isOptionalTool))
}

/**
 * The one-line reason a test that needs `tool` skips with, or null when `problem` is null (the tool is there).
 * `problem` says what is missing here, in one line.
 * @throws Error when VIRNUCPRO_BENCH_REQUIRE_TOOLS names the tool: there its absence fails the test.
 */
export function toolProblem(
  tool: OptionalTool,
  problem: string | null,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  if (problem === null) return null
  const { adds, get } = OPTIONAL_TOOLS[tool]
  if (requiredTools(env).has(tool))
    throw new Error(`${tool} is required here (${REQUIRE_VARIABLE}=${env[REQUIRE_VARIABLE]}) but ${problem}; ${get}`)
  return `needs ${tool} (${adds}): ${problem}; ${get}`
}

/**
 * Skips the running test where `tool` cannot be used (`problem` not null), saying why, or fails it where the tool is
 * required. For a whole block: `beforeEach((context) => skipWithout(context, tool, problem))`.
 */
export function skipWithout(
  context: { skip: (note?: string) => void },
  tool: OptionalTool,
  problem: string | null,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const reason = toolProblem(tool, problem, env)
  if (reason !== null) context.skip(reason)
}
