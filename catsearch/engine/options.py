"""The engine's options (``Player``, ``Ponder``, ``Iterations``, ``MoveTime``, ``Threads``, ``Seed``,
``MultiPV``, ``Level``):
declared once, announced by ``uci``, set by ``setoption``, and turned into the player.

The spin options are :class:`~catsearch._core.options.Option` declarations; ``uci`` writes
them and ``setoption`` reads them from the same table. The player is the ``Player`` spec as
a :class:`~catsearch.search.spec.PlayerSpec`, with the engine's ``Seed`` and ``Threads``
added (``spec.replace``) where the spec does not set them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from catsearch._core.options import SEED_MAX, Option
from catsearch.engine.commands import MOVETIME_MAX, BadInput, parse_int, quote
from catsearch.search.players import Player
from catsearch.search.spec import PlayerSpec, player_names

__all__ = ["EngineOptions", "SPIN_OPTIONS", "ITERATIONS_OPTION_MAX", "THREADS_MAX",
           "default_player_spec", "uci_option_lines", "set_option", "player_spec",
           "build_player"]

ITERATIONS_OPTION_MAX = 10**9
THREADS_MAX = 256
MULTIPV_MAX = 64

#: the spin options, by the field of :class:`EngineOptions` they set
SPIN_OPTIONS: dict[str, Option] = {
    "iterations": Option("Iterations", int, 0, 0, ITERATIONS_OPTION_MAX,
                         doc="iterations of a go without limits; 0: none"),
    "movetime": Option("MoveTime", int, 0, 0, MOVETIME_MAX,
                       doc="milliseconds of a go without limits; 0: none"),
    "threads": Option("Threads", int, 1, 1, THREADS_MAX,
                      doc="threads of the search (the player's threads option)"),
    "seed": Option("Seed", int, 0, 0, SEED_MAX,
                   doc="the seed of a go without seed, and of the player"),
    "level": Option("Level", int, 0, 0, 10,
                    doc="play at this level of the measured ladder (1 near random .. 10 full "
                        "strength) instead of the Player spec; 0: the Player spec"),
    "multipv": Option("MultiPV", int, 0, 0, MULTIPV_MAX,
                      doc="each info is followed by this many multipv lines (0: none)"),
}
OPTION_NAMES = ("Player", "Ponder") + tuple(o.name for o in SPIN_OPTIONS.values())


def default_player_spec() -> str:
    """``ismcts`` when this build has it, else ``heuristic``."""
    return "ismcts" if "ismcts" in player_names() else "heuristic"


@dataclass
class EngineOptions:
    """The values of the engine's options."""

    player: str
    iterations: int = SPIN_OPTIONS["iterations"].default
    movetime: int = SPIN_OPTIONS["movetime"].default
    threads: int = SPIN_OPTIONS["threads"].default
    seed: int = SPIN_OPTIONS["seed"].default
    multipv: int = SPIN_OPTIONS["multipv"].default
    level: int = SPIN_OPTIONS["level"].default
    #: the server lets the engine ponder (UCI's Ponder; it changes no search: a
    #: ``go ponder`` is searched either way; the arena ponders an engine that it is set for)
    ponder: bool = False


def uci_option_lines() -> list[str]:
    """The ``option name ...`` lines of the answer to ``uci``."""
    lines = [f"option name Player type string default {default_player_spec()}",
             "option name Ponder type check default false"]
    lines += [f"option name {o.name} type spin default {o.default} min {o.low} max {o.high}"
              for o in SPIN_OPTIONS.values()]
    return lines


def set_option(opts: EngineOptions, name: str, value: str) -> EngineOptions:
    """``opts`` with option ``name`` (case-insensitive) set from its text ``value``; ``opts``
    itself is left as it was.

    :raises BadInput: an unknown option or a value out of its range.
    """
    key = name.lower()
    if key == "player":
        if not value:
            raise BadInput("setoption: Player needs a player spec such as 'heuristic' or "
                           "'random:seed=3'")
        return dataclasses.replace(opts, player=value)
    if key == "ponder":
        if value not in ("true", "false"):
            raise BadInput(f"setoption: Ponder is true or false, not {quote(value)}")
        return dataclasses.replace(opts, ponder=value == "true")
    for field, opt in SPIN_OPTIONS.items():
        if key == opt.name.lower():
            number = parse_int(value, f"setoption {opt.name}", int(opt.low), int(opt.high))
            return dataclasses.replace(opts, **{field: number})
    raise BadInput(f"setoption: unknown option {quote(name)}; the options are "
                   f"{', '.join(OPTION_NAMES)}")


def player_spec(opts: EngineOptions, *, seed: int | None = None,
                threads: int | None = None) -> PlayerSpec:
    """The spec of the player for ``opts``: the Player option's spec, with the engine's Seed
    and Threads (or ``seed``, ``threads``) where that spec does not set them.

    :raises BadInput: a spec that does not parse, or Threads above 1 for a player without
        a ``threads`` option.
    """
    try:
        spec = PlayerSpec.parse(f"level:n={opts.level}" if opts.level else opts.player)
    except (TypeError, ValueError) as e:
        raise BadInput(f"setoption Player: {e}") from None
    seed = opts.seed if seed is None else seed
    threads = opts.threads if threads is None else threads
    extra: dict[str, int] = {}
    if spec.accepts("seed") and "seed" not in spec:
        extra["seed"] = seed
    if threads > 1:
        if not spec.accepts("threads"):
            raise BadInput(f"setoption: Threads {threads} needs a player with a threads "
                           f"option; {spec.name} has none")
        if "threads" not in spec:
            extra["threads"] = threads
    try:
        return spec.replace(**extra)
    except (TypeError, ValueError) as e:
        raise BadInput(f"setoption: {e}") from None


def build_player(opts: EngineOptions) -> Player:
    """A new player for ``opts``.

    :raises BadInput: see :func:`player_spec`, or a player that cannot be built.
    """
    spec = player_spec(opts)
    try:
        return spec.build()
    except (TypeError, ValueError) as e:
        raise BadInput(f"setoption: cannot build the player {quote(str(spec))}: {e}") from None
