"""The games, and the registry built from their declarations.

Each game lives in its own module (``herding_cats``, ...) with a ``.pxd`` that declares its C
struct; it declares itself once (a :class:`~catsearch._core.game.GameSpec`: id, seats,
options, move-space size, notation keys) and registers its state class, so that importing the
module is what lists the game. The rules as implemented are in ``docs/rules/``.
"""

from __future__ import annotations

from catsearch._core.game import listed, lookup
from catsearch._core.options import check_int, check_seed
from catsearch._core.counting import play_random_games
from catsearch._core.state import State

# Importing a game module registers it; GAMES keeps this order.
from catsearch.games import herding_cats, the_cat, cat_cards, cat_earth  # noqa: F401,E402

__all__ = ["GAMES", "new_game", "from_text", "game_class", "benchmark_playouts"]

GAMES: tuple[str, ...] = listed()


def game_class(game_id: str) -> type[State]:
    """The :class:`State` subclass of ``game_id``.

    :raises ValueError: an unknown id (the message lists the known ones).
    """
    return lookup(game_id)


def new_game(game_id: str, players: int | None = None, seed: int | None = None,
             **options) -> State:
    """A new game of ``game_id`` for ``players`` seats, shuffled and dealt from ``seed``.

    :param players: the number of seats (the game's default, 3 for every game, when ``None``).
    :param seed: a whole number from 0 to 2**64 - 1; ``None`` draws one from the OS.
    :param options: the game's options (see its rules page); an unknown one is an error.
    :raises ValueError: an unknown game, or a player count, seed or option out of range
        (an :class:`~catsearch._core.options.OptionError`), naming what is valid.
    :raises TypeError: a player count, seed or option value of the wrong type.
    """
    return lookup(game_id).new(players, seed, **options)


def from_text(game_id: str, text: str) -> State:
    """Read a state of ``game_id`` from its full notation or from a seat's view.

    :raises TypeError: ``game_id`` or ``text`` is not a str.
    :raises NotationError: the text does not parse; the message names the token and column.
    """
    return lookup(game_id).from_text(text)


def benchmark_playouts(game_id: str, players: int = 3, games: int = 10000, seed: int = 0,
                       **options) -> dict:
    """Play ``games`` full uniformly random games in one Cython loop over the state contract.

    :param games: a whole number from 1 to 2**40.
    :param seed: a whole number from 0 to 2**64 - 1.
    :returns: ``{"games", "moves", "seconds", "games_per_second", "moves_per_second"}``.
    :raises TypeError, ValueError: as :func:`new_game`, and for ``games``.
    """
    games = check_int(games, "games", 1, 2**40)
    seed = check_seed(seed, none_ok=False)
    template = new_game(game_id, players, seed, **options)
    players = template.players
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
