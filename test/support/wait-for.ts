/**
 * Polls `check` every 25 ms until it holds or `timeoutMs` has passed; says whether it held (the last check made at the
 * deadline). For what another process does in its own time: a process group ending, a file appearing.
 */
export async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (check()) return true
    await new Promise((r) => setTimeout(r, 25))
  }
  return check()
}
