"""Adapters to other game frameworks (a top layer: nothing in catsearch imports it).

- :mod:`catsearch.interop.openspiel`: every game of :data:`catsearch.GAMES` as an OpenSpiel
  Python game (``pyspiel.load_game("python_catsearch_herding_cats", {"players": 2})``), and
  OpenSpiel's searchers as catsearch players (``openspiel-ismcts``, ``openspiel-mcts``).
  Needs the ``[openspiel]`` extra.
- :mod:`catsearch.interop.pettingzoo`: every game as a PettingZoo AEC environment
  (``catsearch.interop.pettingzoo.env("herding-cats", players=2)``). Needs the
  ``[pettingzoo]`` extra.

``import catsearch`` never imports these modules nor the packages they need; importing one
without its extra raises an :class:`ImportError` that names the extra to install.
"""

from __future__ import annotations

__all__ = ["missing_extra"]


def missing_extra(module: str, extra: str, packages: str, error: ImportError) -> ImportError:
    """The :class:`ImportError` raised by ``module`` when the packages of ``extra`` are not
    installed: it names the extra and the command that installs it."""
    return ImportError(f"{module} needs {packages} (missing: {error.name or error}); install "
                       f"the extra with: pip install 'catsearch[{extra}]'", name=error.name)
