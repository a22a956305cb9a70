"""A game's declaration and the registry built from the declarations.

A game module declares itself once, with a :class:`GameSpec` (its id, seat range, options,
move-space size and notation keys), sets it as its state class's ``spec`` and registers the
class with :func:`register`. Everything generic is derived from the declaration: the registry
(:data:`catsearch.GAMES`, :func:`catsearch.game_class`), option and player-count checks with
their error messages (``State.new``), the common notation fields and their order
(``State.to_text`` / ``State.from_text``), the move count (``num_distinct_moves``) and the
conformance suite's expectations (:func:`catsearch.testing.check_game`).

Test games (the toy games of :mod:`catsearch.testing`) are registered with ``listed=False``:
:func:`lookup`, ``new_game`` and ``from_text`` find them, the public list does not show them.
"""

from __future__ import annotations

import functools
from array import array
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from catsearch._core.options import Option, OptionError, check_options
from catsearch._core.state import State

__all__ = ["GameSpec", "register", "lookup", "listed", "registered", "notation_fields",
           "GENERIC_MOVES_LEFT"]

#: what ``weights`` may be where the heuristic's weights are given (``heuristic_move``): a
#: mapping of names to numbers, checked as the players' ``weights`` option family is
#: the decisions a seat is taken to have left when its game gives no better estimate
GENERIC_MOVES_LEFT = 40

_WEIGHTS = Option("weights", dict, None, none_ok=True, family=True,
                  doc="the heuristic's weights, name -> number")


@dataclass(frozen=True)
class GameSpec:
    """What a game is, declared once.

    :ivar id: the game id (``"herding-cats"``), as in :data:`catsearch.GAMES`.
    :ivar name: its name in prose (``"Herding Cats"``).
    :ivar size: ``sizeof`` the game's C struct, the one C field of its state class.
    :ivar moves: the size of the move space: moves are ints in ``range(moves)``.
    :ivar notation: the notation's keys in the order they are written; a key ending in
        ``?`` is optional (written only when the game gives it a value, read when present).
        It must hold ``players`` (first), ``rng`` and ``view?`` (last): the kit writes and
        reads those three itself.
    :ivar seats: the smallest and largest number of players (within 2..4).
    :ivar default_players: the player count of ``new_game`` when none is given.
    :ivar options: the game's options, checked by :func:`~catsearch._core.options.check_options`.
    :ivar view_hides_rng: a view must write ``rng=?`` (else a view may give the generator).
    :ivar deck: every card of the game is always somewhere: :meth:`State.cards` is the same
        multiset in every state of a game, and a determinization deals the unseen cards
        (the conformance suite checks both). ``False`` for games whose hidden things are
        choices rather than cards (the toy games).
    :ivar heuristic_weights: the numbers the game's heuristic (``heuristic_move_c``) plays
        by, as float options with their defaults and ranges, in the order of the C array
        the game fills from them at import; a player's ``weights.NAME=value`` sets one
        (:meth:`weight_vector`).
    :ivar max_game_length: ``max_game_length(players)``, the most moves (chance events not
        counted) a game of that many players can last, from the rules (OpenSpiel's
        ``max_game_length``; generic tests size their games by it); ``None``: not known.
    :ivar search_defaults: the searchers' options this game sets otherwise than every game
        (``(("cutoff", 8),)``: tuned on the game), as ``(option, value)`` pairs; a player's
        own option overrides them (:meth:`search_default`).
    :ivar ladder: the game's own ladder of strength levels (``catsearch.search.ladder``),
        measured on it: ten ``(iterations, temperature)`` pairs, level 1 first, each the
        ISMCTS iterations a move and the temperature of the final move's draw from the
        visits; ``()``: the ladder every game plays by.
    :ivar gloss: ``gloss(observation, seat)``, an observation's text in plain words for a
        person (``seat``: the seat that saw it, "you"), or ``None`` where it has none; the
        terminal and the browser show it beside the notation. ``None``: the notation only.
    :ivar history: the notation keys that record what the public moves revealed beyond
        what the table shows (Herding Cats' ``cannot``: what its discards showed). Public: the
        real state, every view and every world dealt from one hold the same. ``()``: the moves
        reveal nothing beyond what a view shows (the rules page, "Inference", says why), so
        ``determinize`` deals the same worlds with and without inference.
    :ivar render: the name of the browser's drawing of the game (``catsearch/play/static/
        render.js``); ``None``: the generic drawing (the cards of every location, from
        :meth:`State.cards`, and the notation).
    :ivar hidden_moves: a seat may see another seat's move as other than it was
        (``observe_move_c`` gives it a code ``>= moves``, as The Cat's simultaneous hidden
        actions): ISMCTS's ``mode=auto`` then searches one tree per seat (MO-ISMCTS), else one
        (SO-ISMCTS, the same search done faster). The conformance suite refuses a game that
        hides a move without declaring it.
    """

    id: str
    name: str
    size: int
    moves: int
    notation: tuple[str, ...]
    seats: tuple[int, int] = (2, 4)
    default_players: int = 3
    options: tuple[Option, ...] = ()
    view_hides_rng: bool = False
    deck: bool = True
    heuristic_weights: tuple[Option, ...] = ()
    max_game_length: Callable[[int], int] | None = field(default=None, compare=False)
    search_defaults: tuple[tuple[str, Any], ...] = ()
    ladder: tuple[tuple[int, float], ...] = ()
    gloss: Callable[[str, int | None], str | None] | None = field(default=None, compare=False)
    render: str | None = None
    hidden_moves: bool = False
    moves_left: Callable[[State], int] | None = field(default=None, compare=False)
    history: tuple[str, ...] = ()
    _players: Option = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        lo, hi = self.seats
        if not 2 <= lo <= hi <= 4 or not lo <= self.default_players <= hi:
            raise ValueError(f"{self.id}: seats must lie within 2..4 and hold the default")
        if self.notation[:1] != ("players",) or "rng" not in self.notation \
                or self.notation[-1:] != ("view?",):
            raise ValueError(f"{self.id}: the notation starts with players, holds rng and "
                             f"ends with view?")
        if self.moves < 1:
            raise ValueError(f"{self.id}: a game has at least one move")
        object.__setattr__(self, "_players", Option("players", int, self.default_players,
                                                    lo, hi))

    def search_default(self, option: str, fallback: Any) -> Any:
        """The game's value of the searchers' ``option`` (:attr:`search_defaults`), else
        ``fallback`` (every game's)."""
        for name, value in self.search_defaults:
            if name == option:
                return value
        return fallback

    def estimate_moves_left(self, state: State) -> int:
        """The decisions the seat to move of ``state`` still has to make, this one included
        (at least 1): the game's :attr:`moves_left`, else the moves ``max_game_length``
        leaves after the state's ply shared among the seats (at most
        :data:`GENERIC_MOVES_LEFT`), else :data:`GENERIC_MOVES_LEFT`."""
        if self.moves_left is not None:
            return max(1, int(self.moves_left(state)))
        n = state.players
        if self.max_game_length is not None:
            left = max(0, self.max_game_length(n) - state.ply)
            return max(1, min(GENERIC_MOVES_LEFT, -(-left // n)))
        return GENERIC_MOVES_LEFT

    @functools.cached_property
    def keys(self) -> tuple[str, ...]:
        """The notation keys every text has, in order."""
        return tuple(k for k in self.notation if not k.endswith("?"))

    @functools.cached_property
    def optional_keys(self) -> tuple[str, ...]:
        """The notation keys a text may have."""
        return tuple(k[:-1] for k in self.notation if k.endswith("?"))

    def check_players(self, players: Any) -> int:
        """``players`` as a seat count of this game (``None``: the default).

        :raises TypeError: not a whole number.
        :raises OptionError: outside the game's seat range.
        """
        if players is None:
            return self.default_players
        try:
            return self._players.check(players, self.id)
        except OptionError:
            lo, hi = self.seats
            span = f"{lo} to {hi}" if lo < hi else f"{lo}"
            raise OptionError(f"{self.id} is for {span} players, not {players!r}",
                              owner=self.id, option="players", value=players) from None

    def check_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Every option's value, defaults filled in (see :func:`check_options`)."""
        return check_options(self.options, given, self.id)

    @property
    def default_weights(self) -> tuple[float, ...]:
        """The heuristic's default weights, in declared order (what the game's C array
        holds)."""
        return tuple(float(o.default) for o in self.heuristic_weights)

    def weight_vector(self, weights: Mapping[str, Any] | None) -> array | None:
        """The heuristic's weights with ``weights`` (name -> value) set, the others at
        their defaults, as a C array of doubles in declared order; ``None`` when ``weights``
        sets none (the game's own array applies).

        :raises OptionError: a weight the game does not have (the message lists its weights)
            or a value out of its range.
        :raises TypeError: ``weights`` is not a mapping (``"abc"``, ``5``, ``[1.0]``), or
            holds a name that is not a str or a value that is not a number.
        """
        if weights is None:
            return None
        if not isinstance(weights, Mapping):
            _WEIGHTS.check(weights, f"{self.id} heuristic")     # raises TypeError
        if not weights:
            return None
        try:
            return self._vector(tuple(sorted(weights.items())))
        except TypeError:           # unhashable or unsortable: the checks below say what
            return self._make_vector(weights)

    @functools.lru_cache(maxsize=64)        # a player asks at every move  # noqa: B019
    def _vector(self, items: tuple) -> array:
        return self._make_vector(dict(items))

    def _make_vector(self, weights: Mapping[str, Any]) -> array:
        _WEIGHTS.check(weights, f"{self.id} heuristic")   # str names, numbers (TypeError)
        for name in weights:
            self.weight_option(name)
        values = check_options(self.heuristic_weights, weights, f"{self.id} heuristic")
        return array("d", (values[o.name] for o in self.heuristic_weights))

    def weight_option(self, name: str) -> Option:
        """The declaration of the heuristic's weight ``name``.

        :raises OptionError: the game's heuristic has no such weight (the message lists
            its weights).
        """
        for o in self.heuristic_weights:
            if o.name == name:
                return o
        known = ", ".join(o.name for o in self.heuristic_weights) or "none"
        raise OptionError(f"{self.id}'s heuristic has no weight {name!r}; its weights are "
                          f"{known}", owner=f"{self.id} heuristic", option=f"weights.{name}")


def notation_fields(state: State) -> dict[str, str]:
    """The ``key=value`` fields of ``state``'s notation (a view's too), as a dict of texts:
    what a game's ``moves_left`` reads."""
    return dict(f.split("=", 1) for f in state.to_text().split() if "=" in f)


_HEAPTYPE = 1 << 9          # Py_TPFLAGS_HEAPTYPE: a class written in Python

# game id -> (its class, listed in catsearch.GAMES)
_REGISTRY: dict[str, tuple[type, bool]] = {}


def register(cls: type, *, listed: bool = True) -> type:
    """Register a state class by its ``spec``; ``listed=False`` for a test game, which
    :func:`lookup` finds but :data:`catsearch.GAMES` does not show. Registering the same
    class again does nothing.

    :raises ValueError: another class already has the id.
    """
    spec = cls.spec
    if not isinstance(spec, GameSpec):
        raise TypeError(f"{cls.__name__}.spec must be a GameSpec, not {type(spec).__name__}")
    # the state's struct is bound by layout (State.__cinit__): the compiled class must hold
    # exactly the struct after State's own fields
    compiled = next(t for t in cls.__mro__ if not t.__flags__ & _HEAPTYPE)
    if not issubclass(compiled, State) or compiled.__basicsize__ - State.__basicsize__ != spec.size:
        raise TypeError(f"{cls.__name__} must declare one C field, its struct of "
                        f"spec.size = {spec.size} bytes")
    old = _REGISTRY.get(spec.id)
    if old is not None and old[0] is not cls:
        raise ValueError(f"game id {spec.id!r} is taken by {old[0].__module__}."
                         f"{old[0].__name__}")
    _REGISTRY[spec.id] = (cls, listed)
    return cls


def listed() -> tuple[str, ...]:
    """The ids of the registered public games, in the order they registered."""
    return tuple(g for g, (_, pub) in _REGISTRY.items() if pub)


def registered() -> tuple[str, ...]:
    """Every registered game id, test games included."""
    return tuple(_REGISTRY)


def lookup(game_id: Any) -> type:
    """The state class of ``game_id`` (a test game too, once registered).

    :raises TypeError: ``game_id`` is not a str.
    :raises ValueError: an unknown id (the message lists the public games).
    """
    if not isinstance(game_id, str):
        raise TypeError(f"a game id is a str, not {type(game_id).__name__}")
    try:
        return _REGISTRY[game_id][0]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {game_id!r}; the games are "
                         f"{', '.join(listed())}") from None
