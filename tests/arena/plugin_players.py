"""Built-in players that misbehave, for the arena's failure tests (loaded with
``imports=[this file]``, in every worker too). Each fails on the positions whose hash is
divisible by its ``every`` option, so the faults are the same in every run and process."""

import time

from catsearch.search.players import HeuristicPlayer, SearchResult
from catsearch.search.spec import register_player


class _Faulty(HeuristicPlayer):
    OPTIONS = {"seed": int, "every": int}

    def __init__(self, *, seed=None, every=7):
        super().__init__(seed=seed)
        self.every = every
        self._stopped = False

    def _bad(self, state):
        return state.hash % self.every == 0

    def stop(self):
        self._stopped = True


class RaisingPlayer(_Faulty):
    name = "raising"

    def search(self, state, *, limits=None, info=None):
        if self._bad(state):
            raise RuntimeError("raising player: failing on purpose")
        return super().search(state, limits=limits, info=info)


class IllegalPlayer(_Faulty):
    name = "illegal"

    def search(self, state, *, limits=None, info=None):
        if self._bad(state):
            legal = state.legal_moves()
            move = next(m for m in range(state.num_distinct_moves) if m not in legal)
            return SearchResult(move=move, value=(0.5,) * state.players)
        return super().search(state, limits=limits, info=info)


class NonsensePlayer(_Faulty):
    name = "nonsense"

    def search(self, state, *, limits=None, info=None):
        if self._bad(state):
            return "e2e4"
        return super().search(state, limits=limits, info=info)


class HangingPlayer(_Faulty):
    """Hangs (ignoring stop) on its bad positions."""

    name = "hanging"

    def search(self, state, *, limits=None, info=None):
        if self._bad(state):
            while True:
                time.sleep(0.05)
        return super().search(state, limits=limits, info=info)


class DyingPlayer(_Faulty):
    """Kills the process it runs in (as a crash in native code would): only for worker
    processes."""

    name = "dying"

    def search(self, state, *, limits=None, info=None):
        if self._bad(state):
            import os
            os._exit(7)
        return super().search(state, limits=limits, info=info)


class SlowPlayer(HeuristicPlayer):
    """The heuristic player, taking ``ms`` milliseconds a move (for interrupt tests)."""

    name = "slow"
    OPTIONS = {"seed": int, "ms": int}

    def __init__(self, *, seed=None, ms=5):
        super().__init__(seed=seed)
        self.ms = ms

    def search(self, state, *, limits=None, info=None):
        time.sleep(self.ms / 1000.0)
        return super().search(state, limits=limits, info=info)


for _cls in (RaisingPlayer, IllegalPlayer, NonsensePlayer, HangingPlayer, DyingPlayer,
             SlowPlayer):
    register_player(_cls.name, _cls)
