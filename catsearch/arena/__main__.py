import sys

from catsearch.arena.cli import main

sys.exit(main())
