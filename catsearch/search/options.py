"""The options of every searcher, declared once: kind, default and range.

Each player class declares ``OPTIONS``, a tuple of :class:`~catsearch._core.options.Option`
built here, and ``ALIASES``. Its constructor and :func:`catsearch.make_player` (through
:class:`~catsearch.search.spec.PlayerSpec`) check them with the same declarations
(:func:`configure`): a value of the wrong type is a ``TypeError``, one out of range an
:class:`~catsearch._core.options.OptionError` (a ``ValueError``), each naming the option, the
value and the valid range. :func:`spec_text` writes a player's options back as a spec.

The budget options (``iterations``, ``nodes``, ``seconds``, ``depth``) are shared by the
searchers and by the checks of :class:`~catsearch.search.limits.Limits`; the seed is the one
seed type of :data:`catsearch._core.options.SEED`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from catsearch._core.game import lookup
from catsearch._core.options import SEED, Option, OptionError, check_options
from catsearch.search.expectimax_core import MAX_DEPTH as EXPECTIMAX_MAX_DEPTH
from catsearch.search.limits import (C_INT_MAX, DEPTH, ITERATIONS, MAX_COUNT, NODES, SECONDS,
                                     Positive)
from catsearch.search.particles import DEFAULT_COUNT as PARTICLES, DEFAULT_TEMPERATURE
from catsearch.search.tree import (EXPLORATION, GAMMA, MAX_NODES, MAX_NODES_LIMIT, PRIOR,
                                   SELECT_RULES)

__all__ = [
    "MAX_WORKERS", "DEFAULT_ITERATIONS", "ITERATIONS", "NODES", "SECONDS", "DEPTH", "SEED", "FORCED",
    "WEIGHTS",
    "MCTS_OPTIONS", "ISMCTS_OPTIONS", "PIMC_OPTIONS", "MCTS_ALIASES", "PIMC_ALIASES",
    "EXPECTIMAX_OPTIONS", "EXPECTIMAX_ALIASES",
    "configure", "spec_text", "differing", "Positive",
]

#: the most workers (threads or processes) one search may use (the engine's Threads maximum)
MAX_WORKERS = 256
#: ISMCTS's and PIMC's budget when none is given: iterations per search
DEFAULT_ITERATIONS = 10_000


#: the game's heuristic's weights (GameSpec.heuristic_weights), for every player that asks
#: the heuristic: ``weights.NAME=value`` each, checked against the game when it searches
WEIGHTS = Option("weights", dict, None, none_ok=True, family=True,
                 doc="the game heuristic's weights, weights.NAME=value each (the game's "
                     "heuristic_weights; default: the game's)")
#: what the worlds a searcher samples honour (State.determinize; docs/search.rst, "Inference")
INFERENCE = Option("inference", ("none", "rules"), "rules",
                   doc="the worlds searched: every one the seat cannot tell apart (none), or "
                       "only those where every move seen was legal (rules)")
#: every searcher answers a position with one legal move at once (players.forced_result)
#: the sampling searchers' inference: the rules' worlds, or those weighted by the opponents'
#: moves under a model of them (search/particles.pyx; docs/search.rst, "Policy inference")
POLICY_INFERENCE = (
    dataclasses.replace(INFERENCE, kind=("none", "rules", "policy"),
                        doc=INFERENCE.doc + ", or those weighted by how likely the other "
                            "seats' moves were there under a model of them (policy)"),
    Positive("policy_temperature", float, DEFAULT_TEMPERATURE,
             doc="with inference=policy: the opponent model's softmax temperature (small: "
                 "they play like the heuristic; large: any legal move alike)"),
    Option("particles", int, None, 1, 1 << 16, none_ok=True,
           doc="with inference=policy: the worlds the belief keeps (default: the game's; "
               f"{PARTICLES}, 128 in The Cat, whose hidden moves cost more to follow)"),
)
FORCED = Option("forced", ("instant", "search"), "instant",
                doc="one legal move: answer at once (its value: the evaluation) or search it")

# -- ISMCTS and determinized MCTS (PIMC) -----------------------------------------------------

#: the searchers' options declared with ``None`` for "the game's": each game may set them
#: (``GameSpec.search_defaults``, measured in docs/search.rst, "Defaults by game"): random
#: playouts of The Cat and Cat Earth are long, so there a playout is cut off and the game's
#: evaluation scores it; Cat Cards sets ISMCTS's exploration and prior as tuned (SPSA)
#: what those options are in a game that sets none
NO_GAME_DEFAULT: dict[str, Any] = {"cutoff": 0, "playout_mix": 1.0, "exploration": EXPLORATION,
                                   "prior": PRIOR, "particles": PARTICLES, "select": "ucb"}


def game_default(option: str, game_id: str | None) -> Any:
    """The default of ``option`` (one of :data:`NO_GAME_DEFAULT`) in the game ``game_id``
    (its ``GameSpec.search_defaults``; ``None``: no game, every game's value)."""
    if game_id is None:
        return NO_GAME_DEFAULT[option]
    return lookup(game_id).spec.search_default(option, NO_GAME_DEFAULT[option])


#: what both MCTS searchers take, in the order their specs are written
MCTS_OPTIONS: tuple[Option, ...] = (
    ITERATIONS,
    SECONDS,
    Option("exploration", float, EXPLORATION, 0.0, None, doc="the exploration constant c"),
    Option("final", ("visits", "mean"), "visits", doc="how the move is picked"),
    Option("playout", ("random", "heuristic"), "random", doc="the playout policy"),
    Option("playout_mix", float, None, 0.0, 1.0, none_ok=True,
           doc="with playout=heuristic, the share of playout moves the heuristic picks, the "
               "others uniformly random (default: the game's; 1, all, in every game)"),
    Option("prior", float, PRIOR, 0.0, 1.0, doc="the weight of the heuristic's move (PUCT)"),
    Option("cutoff", int, None, 0, C_INT_MAX, none_ok=True,
           doc="playout moves before the evaluation (0: none; default: the game's)"),
    WEIGHTS,
    SEED,
    Option("reuse", bool, False, doc="keep the tree from one search to the next"),
    Option("workers", int, 1, 1, MAX_WORKERS, doc="threads or processes"),
    Option("parallel", ("threads", "processes"), "threads", doc="what the workers are"),
    Option("max_nodes", int, MAX_NODES, 1, MAX_NODES_LIMIT, doc="the node budget of a tree"),
    Positive("info_interval", float, 0.25, doc="seconds between info calls"),
    FORCED,
    *POLICY_INFERENCE,
)
#: ISMCTS takes its exploration constant and prior weight from the game where the game sets
#: them (tuned there: GameSpec.search_defaults); PIMC keeps the general ones
ISMCTS_OPTIONS = tuple(
    dataclasses.replace(o, default=None, none_ok=True, doc=o.doc + " (default: the game's)")
    if o.name in ("exploration", "prior") else
    dataclasses.replace(o, kind=("visits", "mean", "draw"),
                        doc=o.doc + " (draw: from the root's average strategy where its move "
                                    "is hidden from the others)")
    if o.name == "final" else o for o in MCTS_OPTIONS) + (
    Option("mode", ("auto", "so", "mo"), "auto", doc="one tree (so) or one per seat (mo)"),
    Option("select", SELECT_RULES, None, none_ok=True,
           doc="the selection where the mover's move is hidden from the others (simultaneous "
               "choices): ucb, rm (regret matching) or exp3 (default: the game's; ucb)"),
    Option("gamma", float, GAMMA, 0.001, 1.0,
           doc="with select=rm|exp3: the share of uniform exploration in the drawn strategy"),
)
PIMC_OPTIONS = MCTS_OPTIONS + (
    Option("determinizations", int, 16, 1, 1 << 20, doc="determinizations (one tree each)"),
    Option("combine", ("vote", "average"), "vote", doc="how the trees are combined"),
)
MCTS_ALIASES = {"c": "exploration", "iters": "iterations", "time": "seconds",
                "threads": "workers"}
PIMC_ALIASES = dict(MCTS_ALIASES, dets="determinizations")


# -- expectimax ------------------------------------------------------------------------------

EXPECTIMAX_OPTIONS: tuple[Option, ...] = (
    dataclasses.replace(DEPTH, high=EXPECTIMAX_MAX_DEPTH, doc="the deepest iteration"),
    NODES,
    SECONDS,
    Option("mode", ("auto", "maxn", "paranoid"), "auto", doc="how decisions are valued"),
    Option("pruning", ("none", "star1", "star2"), "star2", doc="pruning of scalar search"),
    Option("max_chance", int, 16, 0, 1 << 20, doc="the most outcomes of a chance node"),
    Option("chance", ("top", "sample"), "sample",
           doc="what a wider node keeps: its most probable outcomes (top) or a seeded sample "
               "of them (sample)"),
    Option("samples", int, 6, 1, 1 << 20,
           doc="with chance=sample, the resolutions a wider node draws (sparse sampling)"),
    Option("tt_size", int, 1 << 18, 1, 1 << 30, doc="transposition table entries"),
    Option("playouts", int, 0, 0, 1 << 20, doc="playouts per cut-off node (0: evaluation)"),
    WEIGHTS,
    SEED,
    FORCED,
    INFERENCE,
)
EXPECTIMAX_ALIASES = {"d": "depth", "time": "seconds", "prune": "pruning",
                      "width": "max_chance"}


# -- checking and writing back ---------------------------------------------------------------

def declaring_class(cls: type) -> type:
    """The nearest class of ``cls``'s that declares ``OPTIONS`` as a tuple of Options: what
    its constructor checks (a plugin's subclass may still declare a ``{name: type}`` dict for
    its spec and pass only its base's options up)."""
    return next(k for k in cls.__mro__ if isinstance(k.__dict__.get("OPTIONS"), tuple))


def configure(player: Any, given: Mapping[str, Any]) -> dict[str, Any]:
    """Check ``given`` (keyword arguments, by name or alias) against the player class's
    declared ``OPTIONS`` (a tuple of :class:`Option`); set every option, defaults filled in, as an attribute of ``player``
    and return the values (also kept as ``player._values`` for :func:`spec_text`).

    :raises TypeError: a value of the wrong type.
    :raises OptionError: an unknown option or a value out of range.
    """
    cls = type(player)
    base = declaring_class(cls)
    values = check_options(base.OPTIONS, given, cls.name, aliases=getattr(base, "ALIASES", {}))
    for name, value in values.items():
        setattr(player, name, value)
    player._values = values
    return values


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return repr(value) if isinstance(value, float) else str(value)


def spec_text(name: str, options: Iterable[tuple[str, Any]]) -> str:
    """The one text of a player spec: ``name`` and its ``(option, value)`` pairs (a family's
    members as ``weights.NAME``) in name order, as :class:`~catsearch.search.spec.PlayerSpec`
    and :attr:`Player.spec <catsearch.search.players.Player.spec>` both write it; it parses
    back to the same player."""
    parts = [f"{k}={_text(v)}" for k, v in sorted(options)]
    return name + (":" + ",".join(parts) if parts else "")


def differing(declared: tuple[Option, ...], values: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The ``(option, value)`` pairs of ``values`` that differ from their declared defaults,
    a family's members flattened (``weights.NAME``): what a player's spec must say."""
    out = []
    for o in declared:
        if o.name not in values or values[o.name] == o.default:
            continue
        if o.family:
            out += [(f"{o.name}.{k}", v) for k, v in values[o.name].items()]
        else:
            out.append((o.name, values[o.name]))
    return out


def refuse(owner: str, message: str, option: str | None = None, value: Any = None) -> None:
    """Raise an :class:`OptionError` of ``owner`` (a check across options)."""
    raise OptionError(f"{owner}: {message}", owner=owner, option=option, value=value)
