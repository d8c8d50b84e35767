import { describe, expect, test } from 'vitest'
import { checkVirnucpro } from '../../src/doctor/python-check.ts'
import { makeFakeCheckout } from './support/fake-virnucpro.ts'

// The check runs a real python in a real checkout on disk, as the `virnucpro` target profile would.
const envFor = (dir: string | undefined, python = 'python3') => {
  const { VIRNUCPRO_DIR: _dir, VIRNUCPRO_PYTHON: _python, ...rest } = process.env
  return dir === undefined ? rest : { ...rest, VIRNUCPRO_DIR: dir, VIRNUCPRO_PYTHON: python }
}

describe('checkVirnucpro imports the CLI module `python -m virnucpro` starts with', () => {
  test('a checkout whose package imports but whose CLI fails at import: not importable, with the exception line', async () => {
    const dir = makeFakeCheckout('biopython-mismatch')
    const finding = await checkVirnucpro(envFor(dir))
    expect(finding.importable).toBe(false)
    expect(finding.detail).toMatch(/: ImportError: cannot import name '_aligncore' from 'Bio\.Align'/)
    expect(finding.detail).not.toMatch(/exit code|File "/)
    expect(finding).toMatchObject({ dir, python: 'python3' })
  })

  test('a checkout whose CLI imports: importable, from the checkout (its working directory, no PYTHONPATH)', async () => {
    const dir = makeFakeCheckout('clean')
    const finding = await checkVirnucpro(envFor(dir))
    expect(finding.importable).toBe(true)
    expect(finding.detail).toBe(`python3: virnucpro.cli.main imports from ${dir}/virnucpro`)
  })

  test('an import that does not finish is stopped at the timeout and says so', async () => {
    const dir = makeFakeCheckout('hangs')
    const started = performance.now()
    const finding = await checkVirnucpro(envFor(dir), 1_000)
    expect(performance.now() - started).toBeLessThan(20_000)
    expect(finding.importable).toBe(false)
    expect(finding.detail).toBe('python3: import virnucpro.cli.main failed: timed out after 1 s (killed)')
  })

  test("without VIRNUCPRO_DIR: the profile's reason and what to set", async () => {
    const finding = await checkVirnucpro(envFor(undefined))
    expect(finding).toMatchObject({ importable: false, dir: null, python: null })
    expect(finding.detail).toMatch(
      /^VIRNUCPRO_DIR is not set .*\(set VIRNUCPRO_DIR to its checkout and VIRNUCPRO_PYTHON/,
    )
  })

  test('a VIRNUCPRO_PYTHON that does not exist is named', async () => {
    const finding = await checkVirnucpro(envFor(makeFakeCheckout('clean'), '/nonexistent/python3'))
    expect(finding.importable).toBe(false)
    expect(finding.detail).toBe(
      "/nonexistent/python3: import virnucpro.cli.main failed: python not found: '/nonexistent/python3'",
    )
  })
})
