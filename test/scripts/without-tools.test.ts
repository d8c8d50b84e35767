// scripts/without-tools.sh: a command run as on a machine without the named optional tools, the machine unchanged.
import { execa } from 'execa'
import { beforeEach, describe, expect, test } from 'vitest'

const SCRIPT = 'scripts/without-tools.sh'
const asRoot = process.getuid?.() === 0
const without = (tools: string, script: string) =>
  execa('bash', [SCRIPT, tools, '--', 'bash', '-c', script], { reject: false, timeout: 30_000 })

describe('as root: the tools are hidden inside the command, and only there', () => {
  beforeEach((context) => {
    if (!asRoot) context.skip('only root can make a mount namespace (unshare -m) to hide tools in')
  })

  test('chromium and slurm: no name on PATH finds them, CHROMIUM and SLURM_CONF are unset', async () => {
    const names = 'chromium chromium-browser google-chrome google-chrome-stable chrome sinfo sbatch srun scontrol'
    // sh (dash) as the PATH search: bash's `command -v` falls back to a name it cannot execute.
    const ran = await execa('bash', [SCRIPT, 'chromium,slurm', '--', 'sh', '-c', `command -v ${names}; env`], {
      reject: false,
      env: { CHROMIUM: '/usr/bin/chromium', SLURM_CONF: '/etc/slurm/slurm.conf' },
    })
    expect(ran.stderr).toMatch(/^without-tools: hidden chromium,slurm: /)
    expect(ran.stdout).not.toMatch(/^\/.*\/(chromium|chrome|google-chrome|sinfo|sbatch|srun|scontrol)/m)
    expect(ran.stdout).not.toMatch(/^(CHROMIUM|SLURM_CONF)=/m)
  })

  test('torch: importing it fails as if it were not installed (an empty directory would import as a namespace)', async () => {
    const ran = await without(
      'torch',
      'for p in python3 /usr/bin/python3; do $p -c "import torch" 2>&1 | tail -n 1; done',
    )
    for (const line of ran.stdout.trim().split('\n'))
      expect(line).toMatch(/^ModuleNotFoundError: No module named 'torch'/)
  })

  test('outside the command nothing changed: the namespace ended with it', async () => {
    const before = (await execa('cat', ['/proc/self/mountinfo'])).stdout
    await without('chromium,slurm', 'true')
    expect((await execa('cat', ['/proc/self/mountinfo'])).stdout).toBe(before)
  })
})

test('an unknown tool or a missing command is refused with the usage, exit 2', async () => {
  const unknown = await without('chromum', 'true')
  expect(unknown.exitCode).toBe(2)
  expect(unknown.stderr).toMatch(asRoot ? /^without-tools: unknown tool 'chromum'; usage: / : /needs root/)
  const bare = await execa('bash', [SCRIPT, 'chromium'], { reject: false })
  expect(bare.exitCode).toBe(2)
  expect(bare.stderr).toMatch(/^usage: scripts\/without-tools.sh TOOL\[,TOOL...\] -- COMMAND\.\.\./)
})
