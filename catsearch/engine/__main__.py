"""``python -m catsearch.engine``: the engine on stdin/stdout (as ``catsearch-engine``)."""

from catsearch.engine.cli import main

if __name__ == "__main__":
    main()
