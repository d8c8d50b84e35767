// Runs `virnucpro-bench monitor` (src/cli/monitor.ts) as its own process, the way src/cli.ts dispatches it.
import { run } from '../../../src/cli/monitor.ts'

process.exitCode = await run(process.argv.slice(2))
