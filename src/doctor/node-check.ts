import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const packageJsonPath = fileURLToPath(new URL('../../package.json', import.meta.url))

/** Compares the running Node with package.json's `engines.node` (a `>=X.Y` range, the only form this package uses). */
export function checkNode(version = process.versions.node) {
  const required: string = JSON.parse(readFileSync(packageJsonPath, 'utf8')).engines.node
  const match = /^>=(\d+)\.(\d+)/.exec(required)
  if (!match) throw new Error(`package.json engines.node '${required}' is not a '>=X.Y' range`)
  const [major = 0, minor = 0] = version.split('.').map(Number)
  const needMajor = Number(match[1])
  const needMinor = Number(match[2])
  const meetsEngines = major > needMajor || (major === needMajor && minor >= needMinor)
  return { version, meetsEngines, required }
}
