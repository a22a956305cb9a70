"""Run catsearch-engine with this interpreter, from an installed catsearch or, failing that,
from the checkout three folders up (so the tests work both installed and built in place)."""
import os
import sys

try:
    import catsearch  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..")))

from catsearch.engine.cli import main  # noqa: E402

sys.exit(main())
