"""`python3 -m refpipe ...`: see refpipe.cli."""

import sys

from refpipe.cli import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
