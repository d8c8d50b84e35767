// A headless Chromium or Chrome (Debian's chromium, as CI installs it): parse a page (--dump-dom) or screenshot it. No
// network, fresh profile. The browser is optional (README, "Requirements"): a test that needs one calls
// `skipWithoutChromium` first, and skips where none is found (fails where VIRNUCPRO_BENCH_REQUIRE_TOOLS names chromium).
import { accessSync, constants, statSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { execa } from 'execa'
import which from 'which'
import { skipWithout } from '../../support/optional-tools.ts'

/** The names a Chromium or Chrome binary goes by on PATH, in the order they are tried. */
export const BROWSER_NAMES = [
  'chromium',
  'chromium-browser',
  'google-chrome',
  'google-chrome-stable',
  'chrome',
] as const

export type BrowserSearch = { state: 'found'; path: string } | { state: 'missing'; problem: string }

const isExecutableFile = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK)
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/**
 * The browser the tests use: CHROMIUM when set (and then only it: a path someone chose is never replaced by another
 * browser), else the first of BROWSER_NAMES on PATH.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): BrowserSearch {
  const chosen = env.CHROMIUM?.trim()
  if (chosen)
    return isExecutableFile(chosen)
      ? { state: 'found', path: chosen }
      : { state: 'missing', problem: `CHROMIUM=${chosen} is not an executable file` }
  for (const name of BROWSER_NAMES) {
    const path = which.sync(name, { path: env.PATH ?? '', nothrow: true })
    if (path !== null) return { state: 'found', path }
  }
  return { state: 'missing', problem: `CHROMIUM is unset and none of ${BROWSER_NAMES.join(', ')} is on PATH` }
}

const browser = findChromium()

/** Skips the running test, saying why, when no browser is found; fails it where chromium is a required tool. */
export function skipWithoutChromium(context: { skip: (note?: string) => void }): void {
  skipWithout(context, 'chromium', browser.state === 'missing' ? browser.problem : null)
}

/** Whether a browser was found: work done only for browser tests (in a beforeAll) waits for one. */
export const hasChromium = browser.state === 'found'

function chromiumPath(): string {
  if (browser.state === 'missing') throw new Error(`no browser for this test: ${browser.problem}`)
  return browser.path
}

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

async function withProfile<T>(fn: (profile: string) => Promise<T>): Promise<T> {
  const profile = await mkdtemp(join(tmpdir(), 'chromium-profile-'))
  try {
    return await fn(profile)
  } finally {
    await rm(profile, { recursive: true, force: true })
  }
}

/** The DOM chromium built from the file, serialized. */
export function dumpDom(file: string): Promise<string> {
  return withProfile(async (profile) => {
    const result = await execa(
      chromiumPath(),
      [...FLAGS, `--user-data-dir=${profile}`, '--dump-dom', pathToFileURL(file).href],
      { timeout: 60_000 },
    )
    return result.stdout
  })
}

export function screenshot(file: string, png: string, size = '1400,2000'): Promise<void> {
  return withProfile(async (profile) => {
    await execa(
      chromiumPath(),
      [
        ...FLAGS,
        `--user-data-dir=${profile}`,
        '--hide-scrollbars',
        `--screenshot=${png}`,
        `--window-size=${size}`,
        pathToFileURL(file).href,
      ],
      { timeout: 60_000 },
    )
  })
}
