"""A test engine that exits in the middle of a game (see minimal_engine.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from minimal_engine import main  # noqa: E402

main("crash", int(sys.argv[1]) if len(sys.argv) > 1 else 7)
