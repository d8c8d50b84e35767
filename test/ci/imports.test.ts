/**
 * Imports flow one way (docs: ARCHITECTURE.md): no module of src/ or reporters/ imports itself through others, and the
 * folders of src/ (fixtures, target, monitor, measure, results, suites, history, report, cli, ...) depend on each other
 * without a cycle either, so a folder can be read, tested and moved with only the folders below it. The Python side
 * has its own check (reference-pipeline/tests/test_imports.py).
 *
 * Why a scan of the sources and not a library (madge, dependency-cruiser): every import here is an ES module
 * specifier with its `.ts` extension (tsconfig's allowImportingTsExtensions and Node's type stripping need it), static
 * or `import('...')`, so a short, exact scan resolves each one to its file; the libraries bring a TypeScript parser
 * of their own version to do the same.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')
const SCANNED = ['src', 'reporters']

/** `from '...'`, `import '...'` and `import('...')` with a relative specifier; comments are no imports. */
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)'(\.{1,2}\/[^']+)'/g

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
}

/** file -> the files it imports (relative to the repository root), for every scanned file. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of SCANNED.flatMap(sourceFiles)) {
    const targets = [...withoutComments(readFileSync(join(ROOT, file), 'utf8')).matchAll(IMPORT)].map((m) =>
      relative(ROOT, resolve(ROOT, dirname(file), m[1]!)),
    )
    graph.set(file, [...new Set(targets)])
  }
  return graph
}

/** One cycle as a path that starts and ends at the same node, or null (depth-first, three colours). */
function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node]
    state.set(node, 'open')
    path.push(node)
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next)
      if (cycle) return cycle
    }
    path.pop()
    state.set(node, 'done')
    return null
  }
  for (const node of graph.keys()) {
    const cycle = visit(node)
    if (cycle) return cycle
  }
  return null
}

/** `src/history/store.ts` -> `src/history`; `src/cli.ts` -> `src/cli` (the entry point belongs with its commands). */
const folderOf = (file: string) =>
  file.split('/').length > 2 ? file.split('/').slice(0, 2).join('/') : file.replace(/\.ts$/, '')

function folderGraph(files: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const graph = new Map<string, Set<string>>()
  for (const [file, targets] of files) {
    const from = folderOf(file)
    const edges = graph.get(from) ?? new Set<string>()
    for (const target of targets) if (folderOf(target) !== from) edges.add(folderOf(target))
    graph.set(from, edges)
  }
  return new Map([...graph].map(([k, v]) => [k, [...v]]))
}

const graph = importGraph()

describe('imports flow one way', () => {
  test('the scan sees the code: every import resolves to a scanned or existing file', () => {
    expect(graph.size).toBeGreaterThan(200)
    const targets = [...graph.values()].flat()
    expect(targets.length).toBeGreaterThan(500)
    const missing = targets.filter((t) => !graph.has(t) && !t.startsWith('build/') && !t.endsWith('.json'))
    expect(missing).toEqual([])
  })

  test('no module imports itself through others (src/, reporters/)', () => {
    expect(findCycle(graph)).toBeNull()
  })

  test("no cycle between src/'s folders", () => {
    expect(findCycle(folderGraph(graph))).toBeNull()
  })

  test('the checks can fail: a planted cycle is found, at file and at folder level', () => {
    const planted = new Map(graph)
    planted.set('src/measure/estimators.ts', [
      ...(graph.get('src/measure/estimators.ts') ?? []),
      'src/report/analyses/build.ts',
    ])
    expect(findCycle(planted)).toContain('src/measure/estimators.ts')
    expect(findCycle(folderGraph(planted))).toContain('src/measure')
  })
})
