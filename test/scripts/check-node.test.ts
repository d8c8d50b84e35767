import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, describe, expect, test } from 'vitest'

// The Node-version gate (scripts/check-node.cjs) run by real old Node: the Debian/Ubuntu one at /usr/bin/node.
const OLD_NODE = '/usr/bin/node'
const OLD_NPM = '/usr/bin/npm'
const packageJson = JSON.parse(readFileSync('package.json', 'utf8'))
const required: string = packageJson.engines.node
const nvmrc = readFileSync('.nvmrc', 'utf8').trim()

function isOlderThanEngines(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number)
  const [needMajor = 0, needMinor = 0] = required
    .replace(/^>=\s*/, '')
    .split('.')
    .map(Number)
  return major < needMajor || (major === needMajor && minor < needMinor)
}

const oldVersion = spawnSync(OLD_NODE, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? ''
const skipReason = !oldVersion
  ? `${OLD_NODE} not found`
  : isOlderThanEngines(oldVersion)
    ? null
    : `${OLD_NODE} is ${oldVersion}, not older than ${required}`
const withOldNode = skipReason === null ? test : test.skip
const npmSkipReason = skipReason ?? (existsSync(OLD_NPM) ? null : `${OLD_NPM} not found`)
const withOldNpm = npmSkipReason === null ? test : test.skip

/** What the one line must say: the running version, the requirement, .nvmrc's version and how to get it. */
function expectAdvice(line: string) {
  expect(line).toContain(`this is Node ${oldVersion} (${OLD_NODE})`)
  expect(line).toContain(`needs Node ${required} (package.json engines)`)
  expect(line).toContain(`Get Node ${nvmrc} (.nvmrc): 'nvm install'`)
  const pkg = `node-${process.platform}-${process.arch}`
  expect(line).toContain(
    `'npm i --prefix /tmp/n${nvmrc} ${pkg}@${nvmrc}' and put /tmp/n${nvmrc}/node_modules/${pkg}/bin first`,
  )
}

describe(`scripts/check-node.cjs${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  withOldNode('on old Node: one line naming the versions and the way to Node 24, exit 1', async () => {
    const result = await execa(OLD_NODE, ['scripts/check-node.cjs'], { reject: false })
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe('')
    const lines = result.stderr.split('\n')
    expect(lines).toHaveLength(1)
    expectAdvice(lines[0]!)
  })

  test('on this Node (which meets engines): silent, exit 0', async () => {
    const result = await execa(process.execPath, ['scripts/check-node.cjs'], { reject: false })
    expect({ exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr }).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: '',
    })
  })
})

// The real package.json's scripts and engines (without dependencies, so nothing is downloaded), run by the real old
// npm: each entry point stops at the gate, before the addon build or Vitest get to fail in their own words.
describe(`npm entry points on old Node${npmSkipReason ? ` (skipped: ${npmSkipReason})` : ''}`, () => {
  const work = mkdtempSync(join(tmpdir(), 'check-node-'))
  afterAll(() => rmSync(work, { recursive: true, force: true }))
  const project = join(work, 'project')
  mkdirSync(join(project, 'scripts'), { recursive: true })
  const { dependencies: _deps, devDependencies: _devDeps, ...bare } = packageJson
  writeFileSync(join(project, 'package.json'), JSON.stringify(bare, null, 2))
  // `npm ci` wants a lock file that matches package.json: with no dependencies, the root entry alone.
  const root = { name: bare.name, version: bare.version, license: bare.license, engines: bare.engines, bin: bare.bin }
  const lock = { name: bare.name, version: bare.version, lockfileVersion: 3, requires: true, packages: { '': root } }
  writeFileSync(join(project, 'package-lock.json'), JSON.stringify(lock, null, 2))
  copyFileSync('scripts/check-node.cjs', join(project, 'scripts/check-node.cjs'))
  copyFileSync('.nvmrc', join(project, '.nvmrc'))
  // Only the old Node on PATH; npm's cache and logs kept out of the real home directory.
  const env = {
    PATH: '/usr/bin:/bin',
    HOME: work,
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_update_notifier: 'false',
  }

  withOldNpm.each(['install', 'ci', 'test', 'run test:gpu', 'run bench'])(
    'npm %s stops at the one line',
    async (command) => {
      const result = await execa(OLD_NPM, [...command.split(' '), '--no-audit', '--no-fund'], {
        cwd: project,
        env,
        extendEnv: false,
        reject: false,
      })
      const output = `${result.stdout}\n${result.stderr}`
      expect(result.exitCode, output).not.toBe(0)
      const line = result.stderr.split('\n').find((l) => l.startsWith('virnucpro-bench needs Node'))
      expect(line, output).toBeDefined()
      expectAdvice(line!)
      // Nothing after the gate ran: not the addon build (its file is not even here), not vitest (not installed here).
      expect(output).not.toMatch(/Cannot find module|not found|groupBy/)
    },
  )
})
