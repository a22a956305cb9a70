"""A test engine that plays an illegal move now and then (see minimal_engine.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from minimal_engine import main  # noqa: E402

main("illegal", int(sys.argv[1]) if len(sys.argv) > 1 else 7)
