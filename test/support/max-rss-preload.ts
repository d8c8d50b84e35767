// Preloaded into a child Node (`node --import THIS ...`): on exit, writes the process's peak resident set size in KiB
// (process.resourceUsage().maxRSS, the kernel's ru_maxrss) to the file $MAX_RSS_FILE names. How a test measures a
// command's peak memory without a tool (/usr/bin/time) the machine may not have.
import { writeFileSync } from 'node:fs'

const file = process.env.MAX_RSS_FILE
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)))
