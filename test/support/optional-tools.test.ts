// The rule for every optional tool: skip with one line saying what is missing and how to get it, or fail where
// VIRNUCPRO_BENCH_REQUIRE_TOOLS names the tool (.ci/run).
import { describe, expect, test } from 'vitest'
import { OPTIONAL_TOOLS, requiredTools, skipWithout, toolProblem } from './optional-tools.ts'

const problem = 'CHROMIUM is unset and none of chromium is on PATH'

describe('toolProblem', () => {
  test('a tool that is there: no reason, whether required or not', () => {
    expect(toolProblem('chromium', null, {})).toBeNull()
    expect(toolProblem('chromium', null, { VIRNUCPRO_BENCH_REQUIRE_TOOLS: 'chromium' })).toBeNull()
  })

  test('a missing tool: one line with what it adds, what is missing and how to get it', () => {
    for (const tool of Object.keys(OPTIONAL_TOOLS) as (keyof typeof OPTIONAL_TOOLS)[]) {
      const reason = toolProblem(tool, problem, { VIRNUCPRO_BENCH_REQUIRE_TOOLS: '' })!
      expect(reason).toBe(`needs ${tool} (${OPTIONAL_TOOLS[tool].adds}): ${problem}; ${OPTIONAL_TOOLS[tool].get}`)
      expect(reason.split('\n')).toHaveLength(1)
    }
  })

  test('a missing tool that VIRNUCPRO_BENCH_REQUIRE_TOOLS names fails instead, naming the variable; others still skip', () => {
    const env = { VIRNUCPRO_BENCH_REQUIRE_TOOLS: ' slurm , chromium' }
    expect(() => toolProblem('chromium', problem, env)).toThrow(
      `chromium is required here (VIRNUCPRO_BENCH_REQUIRE_TOOLS= slurm , chromium) but ${problem}; ${OPTIONAL_TOOLS.chromium.get}`,
    )
    expect(toolProblem('other-user', problem, env)).toMatch(/^needs other-user /)
  })

  test('a name that is not an optional tool is refused, never read as requiring nothing', () => {
    expect(() => requiredTools({ VIRNUCPRO_BENCH_REQUIRE_TOOLS: 'chromium,chromum' })).toThrow(
      "VIRNUCPRO_BENCH_REQUIRE_TOOLS='chromium,chromum': 'chromum' is not an optional tool; name tools from: chromium, torch, slurm, other-user",
    )
    expect(() => toolProblem('chromium', problem, { VIRNUCPRO_BENCH_REQUIRE_TOOLS: 'pytorch' })).toThrow(/'pytorch'/)
    expect([...requiredTools({ VIRNUCPRO_BENCH_REQUIRE_TOOLS: 'chromium,,slurm,' })]).toEqual(['chromium', 'slurm'])
    expect(requiredTools({}).size).toBe(0)
  })
})

test('skipWithout skips the test with the reason, does nothing where the tool is there, fails where it is required', () => {
  const notes: (string | undefined)[] = []
  const context = { skip: (note?: string) => void notes.push(note) }
  skipWithout(context, 'slurm', null, {})
  expect(notes).toEqual([])
  skipWithout(context, 'slurm', 'no Slurm cluster answers here', {})
  expect(notes).toEqual([toolProblem('slurm', 'no Slurm cluster answers here', {})])
  expect(() => skipWithout(context, 'slurm', 'no', { VIRNUCPRO_BENCH_REQUIRE_TOOLS: 'slurm' })).toThrow(
    /^slurm is required/,
  )
  expect(notes).toHaveLength(1)
})
