// The CI's cluster scripts, read as text where running them would need root and a second cluster (the teardown itself
// runs for real in slurm-cluster.test.ts): valid bash, and .ci/run brings a cluster up for the tests and down after.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'

const read = (path: string) => readFileSync(path, 'utf8')

test.for(['.ci/run', '.ci/slurm-up.sh', '.ci/slurm-down.sh'])('%s is valid bash', (path) => {
  const check = spawnSync('bash', ['-n', path], { encoding: 'utf8' })
  expect(check.stderr).toBe('')
  expect(check.status).toBe(0)
})

describe('.ci/run', () => {
  const text = read('.ci/run')
  const at = (needle: string) => {
    const index = text.indexOf(needle)
    expect(index, needle).toBeGreaterThanOrEqual(0)
    return index
  }

  test("installs Debian's slurm-wlm and munge with the other OS packages", () => {
    expect(text).toMatch(/local wanted=\([^)]*\bslurm-wlm munge\b[^)]*\)/)
  })

  test('starts the cluster before the vitest step, exports its SLURM_CONF, stops it on exit', () => {
    expect(at('bash .ci/slurm-up.sh')).toBeLessThan(
      at('step "vitest (unit + integration + integration-timed + integration-alone + gpu)"'),
    )
    expect(text).toContain('export SLURM_CONF=')
    expect(text).toMatch(/trap '[^']*bash \.ci\/slurm-down\.sh[^']*' EXIT/)
  })
})

describe('.ci/slurm-up.sh', () => {
  const text = read('.ci/slurm-up.sh')

  test('renders slurm.conf for this node: its short host name and CPU count, no cgroups, CPUs as the consumable', () => {
    expect(text).toContain('host=$(hostname -s)')
    expect(text).toContain('cpus=$(nproc)')
    expect(text).toContain('NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus')
    for (const line of ['ProctrackType=proctrack/linuxproc', 'TaskPlugin=task/none', 'SelectTypeParameters=CR_CPU'])
      expect(text).toContain(line)
  })

  test('keeps everything in its state directory (pid files there, nothing under /etc)', () => {
    expect(text).not.toMatch(/>\s*\/etc\//)
    for (const pid of [
      'SlurmctldPidFile=$dir/slurmctld.pid',
      'SlurmdPidFile=$dir/slurmd.pid',
      '--pid-file="$dir/munge/munged.pid"',
    ])
      expect(text).toContain(pid)
  })
})

test('.ci/slurm-down.sh signals only pids from its pid files, checked against the process name, never by name', () => {
  const text = read('.ci/slurm-down.sh')
  expect(text).not.toMatch(/\b(pkill|killall)\b/)
  expect(text).toContain('/proc/$pid/comm')
  for (const stop of [
    'stop "$dir/slurmd.pid" slurmd',
    'stop "$dir/slurmctld.pid" slurmctld',
    'stop "$dir/munge/munged.pid" munged',
  ])
    expect(text).toContain(stop)
})
