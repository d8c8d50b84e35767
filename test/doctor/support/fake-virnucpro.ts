// Fake VirNucPro checkouts on disk, for doctor's real import check: the package imports in all of them; its CLI module
// (what `python -m virnucpro` imports first) imports cleanly, fails as a mismatched biopython made it fail, or hangs.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'

export type FakeCheckout = 'clean' | 'biopython-mismatch' | 'hangs'

const CLI_MAIN: Record<FakeCheckout, string> = {
  clean: 'import sys\n\n\ndef cli():\n    return 0\n',
  // A biopython whose Bio.Align lacks the compiled _aligncore: Python itself writes the ImportError, as on the GPU host.
  'biopython-mismatch': 'from Bio.Align import _aligncore\n',
  hangs: 'import time\n\ntime.sleep(120)\n',
}

/** A checkout directory (VIRNUCPRO_DIR) whose `virnucpro.cli.main` behaves as `kind` says; removed at file end. */
export function makeFakeCheckout(kind: FakeCheckout): string {
  const dir = tempDirUntilFileEnd(`fake-virnucpro-${kind}-`)
  const write = (path: string, text: string) => {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  write('virnucpro/__init__.py', '__version__ = "0.0.0+fake"\n')
  write(
    'virnucpro/__main__.py',
    'import sys\nfrom virnucpro.cli.main import cli\n\nif __name__ == "__main__":\n    sys.exit(cli())\n',
  )
  write('virnucpro/cli/__init__.py', '')
  write('virnucpro/cli/main.py', CLI_MAIN[kind])
  if (kind === 'biopython-mismatch') {
    write('Bio/__init__.py', '')
    write('Bio/Align/__init__.py', '')
  }
  return dir
}
