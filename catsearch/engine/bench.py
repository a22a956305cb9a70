"""``bench``: a fixed set of searches, and the signature that says they went the same way
(``docs/protocol.rst``, Bench)."""

from __future__ import annotations

import threading
import time

import catsearch
from catsearch._core.state import State
from catsearch.search.limits import StopToken
from catsearch.search.players import Limits
from catsearch.search.spec import PlayerSpec

__all__ = ["bench_positions", "fnv1a64", "run_bench", "BenchRun", "BENCH_PLIES", "BENCH_ITERATIONS"]

BENCH_PLIES = (0, 16, 32)
BENCH_ITERATIONS = 2000


def fnv1a64(data: bytes) -> int:
    """The 64-bit FNV-1a hash of ``data`` (the bench signature)."""
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def bench_positions() -> list[tuple[str, int, int, State]]:
    """The bench positions: ``(game_id, players, plies, state)``, in bench order."""
    out = []
    for game_id in catsearch.GAMES:
        for players in (2, 3, 4):
            for plies in BENCH_PLIES:
                st = catsearch.new_game(game_id, players, seed=players)
                done = 0
                # k moves, then on while the move is forced; never into the end of the game
                while done < plies or len(st.legal_moves()) < 2:
                    nxt = st.clone()
                    nxt.apply(st.heuristic_move(seed=done))
                    if nxt.is_terminal():
                        break
                    st = nxt
                    done += 1
                out.append((game_id, players, done, st))
    return out


def run_bench(spec: PlayerSpec, iterations: int = BENCH_ITERATIONS) -> list[str]:
    """Search every bench position with a fresh player built from ``spec``; return the
    ``info string bench ...`` lines and the summary line."""
    return BenchRun(spec, iterations).run()


class BenchRun:
    """One ``bench``, stoppable from another thread (:meth:`stop`).

    :meth:`run` returns the ``info string bench ...`` lines and the summary line; when
    stopped, the lines of the searches that ended, then
    ``bench stopped positions <done>/<count> iterations <i> nodes <n> time <ms> nps <nps>``
    (the search that was stopped is not counted).
    """

    def __init__(self, spec: PlayerSpec, iterations: int = BENCH_ITERATIONS) -> None:
        self.spec = spec
        self.iterations = iterations
        self.stop_event = threading.Event()
        self.token = StopToken()                # every search's: once set, each ends at once

    def stop(self) -> None:
        """Stop the bench: the search running ends, and no other begins."""
        self.stop_event.set()
        self.token.set()

    def run(self) -> list[str]:
        positions = bench_positions()
        t0 = time.perf_counter()
        lines = []
        signature = bytearray()
        total_nodes = total_iterations = done = 0
        for i, (game_id, players, plies, st) in enumerate(positions):
            if self.stop_event.is_set():
                break
            player = self.spec.build()
            try:
                t1 = time.perf_counter()
                res = player.search(st, limits=Limits(iterations=self.iterations, seed=i,
                                                      stop=self.token))
                ms = int(round((time.perf_counter() - t1) * 1000))
            finally:
                player.close()
            if self.stop_event.is_set():
                break               # this search was cut short: it does not count
            move = st.move_to_str(res.move)
            total_nodes += res.nodes
            total_iterations += res.iterations
            done += 1
            signature += (f"{game_id} {players} {plies} {move} {res.iterations} "
                          f"{res.nodes}\n").encode()
            lines.append(f"info string bench {game_id} players {players} ply {plies} "
                         f"move {move} iterations {res.iterations} nodes {res.nodes} time {ms}")
        seconds = time.perf_counter() - t0
        ms = int(round(seconds * 1000))
        nps = int(total_nodes / seconds) if seconds > 0 else 0
        if done < len(positions):
            lines.append(f"bench stopped positions {done}/{len(positions)} iterations "
                         f"{total_iterations} nodes {total_nodes} time {ms} nps {nps}")
        else:
            lines.append(f"bench positions {len(positions)} iterations {total_iterations} "
                         f"nodes {total_nodes} signature {fnv1a64(bytes(signature)):016x} "
                         f"time {ms} nps {nps}")
        return lines
