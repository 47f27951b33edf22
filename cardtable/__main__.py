"""``python -m cardtable`` runs the command line."""

import sys

from cardtable.cli import main

sys.exit(main())
