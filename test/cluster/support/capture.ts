// Runs a command's run() in this process with what it prints captured (the `slurm` command is called here as src/cli.ts
// will call it), so tests read its exit code, stdout and stderr as a shell would.
import { vi } from 'vitest'

export interface Captured {
  code: number
  stdout: string
  stderr: string
}

export async function captured(command: () => Promise<number>): Promise<Captured> {
  let stdout = ''
  let stderr = ''
  const spies = [
    vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => {
      stdout += `${parts.join(' ')}\n`
    }),
    vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => {
      stderr += `${parts.join(' ')}\n`
    }),
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stdout += String(chunk)
      return true
    }),
  ]
  try {
    return { code: await command(), stdout, stderr }
  } finally {
    for (const spy of spies) spy.mockRestore()
  }
}
