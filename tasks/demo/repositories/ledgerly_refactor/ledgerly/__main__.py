"""Allow ``python -m ledgerly``."""

import sys

from ledgerly.cli import main

if __name__ == "__main__":
    sys.exit(main())
