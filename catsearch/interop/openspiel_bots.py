"""OpenSpiel's searchers as catsearch players: ``openspiel-ismcts`` and ``openspiel-mcts``.

:class:`OpenSpielISMCTS` and :class:`OpenSpielMCTS` run OpenSpiel's Python ``ISMCTSBot`` and
``MCTSBot`` on the OpenSpiel form of a catsearch game (:mod:`catsearch.interop.openspiel`),
always from a determinization of the seat's view, so they never see more than the seat
knows. ``catsearch.make_player("openspiel-ismcts:iterations=500")`` finds them through the
``catsearch.players`` entry point group, so the arena can match catsearch's searchers against
OpenSpiel's. Needs the ``[openspiel]`` extra.
"""

from __future__ import annotations

import random
import time
from typing import Any

from catsearch.interop import missing_extra

try:
    from open_spiel.python.algorithms import ismcts as _os_ismcts
    from open_spiel.python.algorithms import mcts as _os_mcts
except ImportError as _e:       # pragma: no cover - exercised by a subprocess test
    raise missing_extra("catsearch.interop.openspiel_bots", "openspiel",
                        "OpenSpiel (open_spiel)", _e) from _e

import numpy as np

from catsearch._core.options import SEED, Option
from catsearch._core.state import State
from catsearch.interop.openspiel import (CatsearchGame, CatsearchState, _options_of,
                                         from_catsearch, load_game)
from catsearch.search.limits import Limits
from catsearch.search.options import SECONDS, configure
from catsearch.search.players import MoveStats, Player, SearchResult, forced_result

__all__ = ["OpenSpielPlayer", "OpenSpielISMCTS", "OpenSpielMCTS", "DEFAULT_BOT_ITERATIONS"]

_MAX_ITERATIONS = 1 << 40

_BOT_OPTIONS: tuple[Option, ...] = (
    Option("iterations", int, None, 1, _MAX_ITERATIONS, none_ok=True,
           doc="simulations per search (1000 when neither it nor seconds is given)"),
    SECONDS,
    Option("uct_c", float, 2.0, 0.0, None, doc="UCT's exploration constant"),
    Option("rollouts", int, 1, 1, 1 << 20, doc="random rollouts per leaf evaluation"),
    SEED,
)
_BOT_ALIASES = {"c": "uct_c", "iters": "iterations", "time": "seconds"}
DEFAULT_BOT_ITERATIONS = 1000

_GAMES: dict[tuple, CatsearchGame] = {}


def _game_for(view: State) -> CatsearchGame:
    options = _options_of(view)
    key = (view.game_id, view.players, tuple(sorted(options.items())))
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = load_game(view.game_id, players=view.players, **options)
    return game


def _seat_view(state: State) -> tuple[int, State]:
    seat = state.current_player
    if seat < 0:
        raise ValueError("the game is over: there is no seat to move")
    if state.view_seat is None:
        return seat, state.view(seat)
    if state.view_seat != seat:
        raise ValueError(f"this is seat {state.view_seat}'s view, but seat {seat} is to move")
    return seat, state


class OpenSpielPlayer(Player):
    """A catsearch player that runs an OpenSpiel bot (the base of :class:`OpenSpielISMCTS`
    and :class:`OpenSpielMCTS`): its options, its seeded generators, its budget. A subclass
    searches a determinization of the seat's view (:func:`from_catsearch`), never the
    state it is given."""

    OPTIONS = _BOT_OPTIONS
    ALIASES = _BOT_ALIASES

    def __init__(self, **options: Any) -> None:
        configure(self, options)
        self.new_game()

    def new_game(self) -> None:
        self._rng = random.Random(self.seed)
        self._np = np.random.RandomState(self._rng.getrandbits(32))

    def _budget(self, limits: Limits | None) -> tuple[int | None, float | None]:
        """The search's iterations and seconds (``None``: unbounded), from ``limits`` or the
        player's own; at least 2 iterations, since OpenSpiel's first simulation only
        expands the root."""
        if limits is not None and (limits.iterations is not None or limits.seconds is not None):
            iterations, seconds = limits.iterations, limits.seconds
        elif self.iterations is None and self.seconds is None:
            iterations, seconds = DEFAULT_BOT_ITERATIONS, None
        else:
            iterations, seconds = self.iterations, self.seconds
        if iterations is not None:
            iterations = max(iterations, 2)
        return iterations, seconds

    def _seeded(self, limits: Limits | None) -> None:
        """A search with ``limits.seed`` draws from that seed (as catsearch's searchers do)."""
        if limits is not None and limits.seed is not None:
            self._rng = random.Random(limits.seed)
            self._np = np.random.RandomState(self._rng.getrandbits(32))

    def _begin(self, state: State, limits: Limits | None):
        """What every search starts with: the time, the seat to move and its view, this
        search's seeds, the OpenSpiel game, and the answer at once when the seat has one
        legal move (catsearch's ``forced_result``; else ``None``)."""
        t0 = time.perf_counter()
        seat, view = _seat_view(state)
        self._seeded(limits)
        return t0, seat, view, _game_for(view), forced_result(view, t0)

    def _evaluator(self):
        return _os_mcts.RandomRolloutEvaluator(n_rollouts=self.rollouts,
                                               random_state=self._np)


class OpenSpielISMCTS(OpenSpielPlayer):
    """OpenSpiel's Python ``ISMCTSBot`` (random rollouts, UCT, the most visited move) as a
    catsearch player, spec ``openspiel-ismcts:iterations=1000,uct_c=2,seed=1``.

    Each search starts from a determinization of the seat's view (never the true state),
    and every simulation resamples from the seat's information state
    (:meth:`~catsearch.State.determinize` with the player's own seeded generator): the bot
    knows exactly what the seat knows. ``seconds`` bounds a search by time instead of (or as
    well as) ``iterations``.
    """

    name = "openspiel-ismcts"

    def search(self, state: State, *, limits: Limits | None = None,
               info=None) -> SearchResult:
        t0, seat, view, game, forced = self._begin(state, limits)
        if forced is not None:
            return forced
        root = from_catsearch(view.determinize(seat, self._rng.getrandbits(64)), game)
        n = view.players
        iterations, seconds = self._budget(limits)
        bot = _os_ismcts.ISMCTSBot(game, self._evaluator(), self.uct_c,
                                   iterations or _MAX_ITERATIONS, random_state=self._np)
        rng = self._rng
        bot.set_resampler(lambda s, p: s.resample(p, rng.getrandbits(64)))
        if seconds is None:
            policy = bot.run_search(root)
            done = iterations
        else:
            done = self._timed(bot, root, iterations, seconds)
            policy = bot.get_final_policy(root, bot._root_node)
        node = bot._root_node
        best = max(p for _, p in policy)
        move = rng.choice(sorted(a for a, p in policy if p == best))
        stats = {a: MoveStats(int(c.visits), float(c.value()) if c.visits else 0.0)
                 for a, c in node.child_info.items()}
        v = stats[move].mean if move in stats else 1.0 / n
        value = tuple(v if s == seat else (1.0 - v) / (n - 1) for s in range(n))
        return SearchResult(move=int(move), value=value, stats=stats, iterations=done,
                            seconds=time.perf_counter() - t0, nodes=len(bot._nodes))

    @staticmethod
    def _timed(bot, root: CatsearchState, iterations: int | None, seconds: float) -> int:
        """``bot``'s search from ``root`` under a time budget (and ``iterations``)."""
        bot.reset()
        bot._root_node = bot.create_new_node(root)
        deadline = time.perf_counter() + seconds
        done = 0
        while (iterations is None or done < iterations) and time.perf_counter() < deadline:
            bot.run_simulation(bot.sample_root_state(root))
            done += 1
        if done == 0:
            bot.run_simulation(bot.sample_root_state(root))
            done = 1
        while bot._root_node.total_visits <= 0:      # the root needs one visit per child
            bot.run_simulation(bot.sample_root_state(root))
            done += 1
        return done


class OpenSpielMCTS(OpenSpielPlayer):
    """OpenSpiel's Python ``MCTSBot`` (perfect-information UCT with random rollouts) as a
    catsearch player, spec ``openspiel-mcts:iterations=1000,determinizations=4``.

    MCTS needs a full state: it searches ``determinizations`` determinizations of the seat's
    view (never the true state), ``iterations / determinizations`` simulations each, and
    plays the move with the most visits over all of them (determinized MCTS, as catsearch's
    ``pimc``).
    """

    name = "openspiel-mcts"
    OPTIONS = _BOT_OPTIONS + (
        Option("determinizations", int, 1, 1, 1 << 20,
               doc="determinizations of the view, one MCTS each"),)
    ALIASES = dict(_BOT_ALIASES, dets="determinizations")

    def search(self, state: State, *, limits: Limits | None = None,
               info=None) -> SearchResult:
        t0, seat, view, game, forced = self._begin(state, limits)
        if forced is not None:
            return forced
        n = view.players
        iterations, seconds = self._budget(limits)
        d = self.determinizations
        visits: dict[int, int] = {}
        rewards: dict[int, float] = {}
        done = 0
        deadline = None if seconds is None else t0 + seconds
        for k in range(d):
            per = None if iterations is None else max(2, iterations // d
                                                      + (k < iterations % d))
            root = from_catsearch(view.determinize(seat, self._rng.getrandbits(64)), game)
            bot = _os_mcts.MCTSBot(game, self.uct_c, per or _MAX_ITERATIONS,
                                   self._evaluator(), solve=False, random_state=self._np)
            if deadline is None:
                node = bot.mcts_search(root)
                done += per
            else:
                node, count = self._timed(bot, root, per,
                                          (deadline - time.perf_counter()) / (d - k))
                done += count
            for c in node.children:
                visits[c.action] = visits.get(c.action, 0) + c.explore_count
                rewards[c.action] = rewards.get(c.action, 0.0) + c.total_reward
        best = max(visits.values())
        move = self._rng.choice(sorted(a for a, v in visits.items() if v == best))
        stats = {a: MoveStats(int(v), float(rewards[a] / v) if v else 0.0)
                 for a, v in visits.items()}
        v = stats[move].mean
        value = tuple(v if s == seat else (1.0 - v) / (n - 1) for s in range(n))
        return SearchResult(move=int(move), value=value, stats=stats, iterations=done,
                            seconds=time.perf_counter() - t0)

    @staticmethod
    def _timed(bot, root: CatsearchState, iterations: int | None, seconds: float):
        """One MCTS from ``root`` within about ``seconds`` (and ``iterations``): MCTSBot has
        no clock, so 16 simulations measure its speed and one search gets what fits."""
        probe = 16 if iterations is None else max(2, min(16, iterations))
        bot.max_simulations = probe
        t = time.perf_counter()
        node = bot.mcts_search(root)
        rate = probe / max(time.perf_counter() - t, 1e-9)
        left = seconds - (time.perf_counter() - t)
        count = int(rate * left)
        if iterations is not None:
            count = min(count, iterations - probe)
        if count <= probe:
            return node, probe
        bot.max_simulations = count
        return bot.mcts_search(root), probe + count
