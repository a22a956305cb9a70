"""The games: a registry from game id to the Cython class that implements it.

Each game lives in its own module (``herding_cats``, ...) with a ``.pxd`` that declares its C
struct; the rules as implemented are in ``docs/rules/``.
"""

from __future__ import annotations

import importlib

from catsearch._core.state import State, play_random_games

__all__ = ["GAMES", "new_game", "from_text", "game_class", "benchmark_playouts"]

# game id -> (module, class). Add a line here when a game lands.
_REGISTRY: dict[str, tuple[str, str]] = {
    "herding-cats": ("catsearch.games.herding_cats", "HerdingCats"),
    "the-cat": ("catsearch.games.the_cat", "TheCat"),
    "cat-cards": ("catsearch.games.cat_cards", "CatCards"),
    "cat-earth": ("catsearch.games.cat_earth", "CatEarth"),
}

GAMES: tuple[str, ...] = tuple(_REGISTRY)


def game_class(game_id: str) -> type[State]:
    """The :class:`State` subclass of ``game_id``.

    :raises ValueError: an unknown id (the message lists the known ones).
    """
    try:
        module, name = _REGISTRY[game_id]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {game_id!r}; the games are {', '.join(GAMES)}") from None
    return getattr(importlib.import_module(module), name)


def new_game(game_id: str, players: int = 3, seed: int | None = None, **options) -> State:
    """A new game of ``game_id`` for ``players`` seats, shuffled and dealt from ``seed``.

    :param seed: a whole number from 0 to 2**64 - 1; ``None`` draws one from the OS.
    :param options: the game's options (see its rules page); an unknown one is an error.
    :raises ValueError: an unknown game, player count or option, naming what is valid.
    """
    cls = game_class(game_id)
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players must be a whole number from 2 to 4, not {players!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                             or not 0 <= seed < 2**64):
        raise ValueError(f"seed must be a whole number from 0 to 2**64 - 1 or None, not {seed!r}")
    return cls.new(players, seed, **options)


def from_text(game_id: str, text: str) -> State:
    """Read a state of ``game_id`` from its full notation or from a seat's view.

    :raises NotationError: the text does not parse; the message names the token and column.
    """
    return game_class(game_id).from_text(text)


def benchmark_playouts(game_id: str, players: int = 3, games: int = 10000, seed: int = 0,
                       **options) -> dict:
    """Play ``games`` full uniformly random games in one Cython loop over the state contract.

    :returns: ``{"games", "moves", "seconds", "games_per_second", "moves_per_second"}``.
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    template = new_game(game_id, players, seed, **options)
    moves, seconds = play_random_games(template, games, seed)
    return {
        "game": game_id,
        "players": players,
        "games": games,
        "moves": moves,
        "seconds": seconds,
        "games_per_second": games / seconds if seconds > 0 else float("inf"),
        "moves_per_second": moves / seconds if seconds > 0 else float("inf"),
    }
