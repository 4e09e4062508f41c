"""``python -m mjspec``: the same command line as the ``mjspec`` script."""

import sys

from mjspec.app.cli import main

sys.exit(main())
