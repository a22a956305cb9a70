"""Who plays whom, on which deal, in which seat, with which seeds.

A match is a list of deal groups. Group ``g`` has one deal (seed ``deal_seed(master, g)``);
for every table (the entrants who sit down together) the deal is played once under every
seating, so each entrant holds each seat's cards once. Games are numbered in the order
``group, table, seating``; a game's number and the master seed determine everything about it.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass

__all__ = ["derive_seed", "deal_seed", "tables", "seatings", "GameTask", "schedule",
           "iter_schedule"]


def derive_seed(master: int, *parts: object) -> int:
    """A 64-bit seed from the master seed and a path of labels (BLAKE2b of their text).

    The same inputs give the same seed on every machine and Python version. This is the
    arena's own derivation, kept as it is so that a results file, and a match run again from
    its command, get the same deals and searches as when they were first played (the
    library's :func:`catsearch._core.options.derive_seed` would give other seeds). Seeds are
    of the one seed type (:func:`~catsearch._core.options.check_seed`): the master seed is
    checked by :class:`~catsearch.arena.MatchConfig`, and every seed derived here is a
    whole number from 0 to 2**64 - 1.
    """
    text = "/".join([str(int(master))] + [str(p) for p in parts])
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


def deal_seed(master: int, group: int) -> int:
    """The seed of group ``group``'s deal: ``catsearch.new_game(game, n, seed=...)``."""
    return derive_seed(master, "deal", group)


def game_seed(master: int, game: int) -> int:
    """The seed of game ``game``'s searches (see :func:`search_seed`)."""
    return derive_seed(master, "game", game)


def search_seed(game_seed_: int, seat: int, ply: int | None = None) -> int:
    """The seed given to the player in ``seat``: for the whole game (``ply`` None; the
    built-in players' ``seed`` option) or for the search at ``ply`` (``Limits.seed``; what an
    engine gets as ``go seed``)."""
    return derive_seed(game_seed_, "seat", seat) if ply is None else \
        derive_seed(game_seed_, "seat", seat, "ply", ply)


def tables(entrants: int, seats: int) -> list[tuple[int, ...]]:
    """The tables of a round robin: every set of ``seats`` entrants, in lexicographic order
    (one table when there are exactly as many entrants as seats)."""
    if seats < 2:
        raise ValueError(f"a table has at least 2 seats, not {seats}")
    if entrants < seats:
        raise ValueError(f"{entrants} players cannot fill {seats} seats; give at least {seats} "
                         f"players (the same spec twice is allowed: each is its own entrant)")
    return list(itertools.combinations(range(entrants), seats))


def seatings(seats: int, kind: str = "all") -> list[tuple[int, ...]]:
    """The seatings of a table: tuples ``order`` with ``order[seat]`` = index into the table.

    ``rotate``: the ``seats`` cyclic rotations (each entrant takes every seat once, the cyclic
    order of play kept); ``all``: every permutation (``seats!`` of them).
    """
    if kind == "rotate":
        return [tuple((s + r) % seats for s in range(seats)) for r in range(seats)]
    if kind == "all":
        return list(itertools.permutations(range(seats)))
    raise ValueError(f"seatings must be 'rotate' or 'all', not {kind!r}")


@dataclass(frozen=True)
class GameTask:
    """One game to play.

    :ivar game: its number in the match.
    :ivar group: its deal group; ``deal_seed`` is that group's deal.
    :ivar table: the index of its table.
    :ivar seating: the index of its seating.
    :ivar seats: per seat, the index of the entrant sitting there.
    :ivar seed: the game's search seed (see :func:`search_seed`).
    """

    game: int
    group: int
    table: int
    seating: int
    deal_seed: int
    seats: tuple[int, ...]
    seed: int


def games_per_group(entrants: int, seats: int, kind: str = "all") -> int:
    return len(tables(entrants, seats)) * len(seatings(seats, kind))


def iter_schedule(master: int, groups: int, entrants: int, seats: int,
                  kind: str = "all", start_group: int = 0):
    """Every game of groups ``start_group .. groups - 1``, in game-number order, lazily."""
    tabs = tables(entrants, seats)
    orders = seatings(seats, kind)
    for g in range(start_group, groups):
        ds = deal_seed(master, g)
        for t, table in enumerate(tabs):
            for r, order in enumerate(orders):
                number = (g * len(tabs) + t) * len(orders) + r
                yield GameTask(game=number, group=g, table=t, seating=r, deal_seed=ds,
                               seats=tuple(table[i] for i in order),
                               seed=game_seed(master, number))


def task_for(master: int, entrants: int, seats: int, kind: str, number: int) -> GameTask:
    """Game ``number`` of the schedule :func:`iter_schedule` makes (whatever its groups)."""
    tabs = tables(entrants, seats)
    orders = seatings(seats, kind)
    g, rest = divmod(number, len(tabs) * len(orders))
    t, r = divmod(rest, len(orders))
    return GameTask(game=number, group=g, table=t, seating=r, deal_seed=deal_seed(master, g),
                    seats=tuple(tabs[t][i] for i in orders[r]), seed=game_seed(master, number))


def schedule(master: int, groups: int, entrants: int, seats: int,
             kind: str = "all", start_group: int = 0) -> list[GameTask]:
    """Every game of groups ``start_group .. groups - 1``, in game-number order."""
    return list(iter_schedule(master, groups, entrants, seats, kind, start_group))
