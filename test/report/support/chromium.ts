// Headless Debian chromium, as CI installs it: parse a page (--dump-dom) or screenshot it. No network, fresh profile.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { execa } from 'execa'

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium'

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
      CHROMIUM,
      [...FLAGS, `--user-data-dir=${profile}`, '--dump-dom', pathToFileURL(file).href],
      { timeout: 60_000 },
    )
    return result.stdout
  })
}

export function screenshot(file: string, png: string, size = '1400,2000'): Promise<void> {
  return withProfile(async (profile) => {
    await execa(
      CHROMIUM,
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
