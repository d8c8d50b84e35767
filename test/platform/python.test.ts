import { describe, expect, test } from 'vitest'
import { findTorchPython, probePython, pythonCandidates } from '../../src/platform/python.ts'

describe('pythonCandidates', () => {
  test('puts REFPIPE_PYTHON first, then python3, then /usr/bin/python3', () => {
    expect(pythonCandidates({ REFPIPE_PYTHON: '/opt/py/bin/python' })).toEqual([
      '/opt/py/bin/python',
      'python3',
      '/usr/bin/python3',
    ])
  })

  test('leaves out an empty REFPIPE_PYTHON and duplicates', () => {
    expect(pythonCandidates({ REFPIPE_PYTHON: ' ' })).toEqual(['python3', '/usr/bin/python3'])
    expect(pythonCandidates({ REFPIPE_PYTHON: 'python3' })).toEqual(['python3', '/usr/bin/python3'])
  })
})

describe('probePython', () => {
  test('reports a missing interpreter with its name', () => {
    const probe = probePython('/nonexistent/python3')
    expect(probe.state).toBe('missing')
    if (probe.state === 'missing') expect(probe.reason).toContain('/nonexistent/python3')
  })
})

describe('findTorchPython', () => {
  // This machine and CI install Debian's python3-torch: the reference pipeline's tests must run, not skip.
  test('finds an interpreter with torch on this machine', () => {
    const probe = findTorchPython()
    expect(probe).toMatchObject({ state: 'found' })
    if (probe.state === 'found') expect(probe.torchVersion).toMatch(/^\d+\.\d+/)
  })
})
