"""Running a match: scheduling the games on a backend, writing them down in game order,
showing progress, stopping on a decided SPRT or on Ctrl-C, and summarizing."""

from __future__ import annotations

import json
import math
import signal
import threading
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field

import numpy as np

from catsearch.arena.backends import make_backend
from catsearch.arena.config import MatchConfig
from catsearch.arena.entrants import Entrant, load_imports
from catsearch.arena.progress import Progress
from catsearch.arena.record import GameRecord
from catsearch.arena.results import ResultsFile, format_table, summarize
from catsearch.arena.schedule import iter_schedule
from catsearch.arena.stats import clustered_mean, elo_estimate

__all__ = ["run_match", "MatchResult", "MatchInterrupted", "summary_path_for"]


@dataclass
class MatchResult:
    """What a match produced.

    :ivar config: the match.
    :ivar summary: the summary (also written as JSON next to the results file).
    :ivar records: every game record, in game order (those of earlier runs too when resumed).
    :ivar out: the results file, if any.
    :ivar summary_path: the summary file, if any.
    :ivar interrupted: the run was stopped by Ctrl-C before its end.
    :ivar played: games played by this run (the others came from the file).
    """

    config: MatchConfig
    summary: dict
    records: list[GameRecord] = field(repr=False)
    out: str | None = None
    summary_path: str | None = None
    interrupted: bool = False
    played: int = 0

    def table(self) -> str:
        """The results table, as text."""
        return format_table(self.summary)


class MatchInterrupted(KeyboardInterrupt):
    """Raised by :func:`run_match` (with ``raise_on_interrupt``) after a Ctrl-C; ``result``
    holds what was done, already written to the results file."""

    def __init__(self, result: MatchResult) -> None:
        super().__init__("match interrupted")
        self.result = result


def summary_path_for(out: str) -> str:
    """``results.jsonl`` -> ``results.summary.json``."""
    base = out[:-len(".jsonl")] if out.endswith(".jsonl") else out
    return base + ".summary.json"


class _Tracker:
    """Per-group tallies as the records come in: for progress and for the SPRT's stop."""

    def __init__(self, config: MatchConfig) -> None:
        self.config = config
        self.gpg = config.games_per_group
        P = len(config.entrants)
        self.n = defaultdict(int)
        self.sums = defaultdict(lambda: np.zeros(P))
        self.counts = defaultdict(lambda: np.zeros(P))
        self.failed = set()
        self.failures = 0
        self.complete: list[int] = []
        self.sprt_next = 0
        self.sprt_scores: list[float] = []
        self.llr = 0.0
        self.decision: str | None = None
        self.decided_group: int | None = None

    def add(self, r: GameRecord) -> None:
        g = r.group
        self.n[g] += 1
        for s, e in enumerate(r.entrants):
            self.sums[g][e] += r.returns[s]
            self.counts[g][e] += 1
        if r.failed:
            self.failed.add(g)
            self.failures += 1
        if self.n[g] == self.gpg:
            self.complete.append(g)
        self._advance_sprt()

    def voided(self, g: int) -> bool:
        return self.config.on_failure == "void" and g in self.failed

    def _advance_sprt(self) -> None:
        sprt = self.config.sprt
        if sprt is None:
            return
        while (self.decision is None and self.sprt_next < self.config.groups
               and self.n.get(self.sprt_next, 0) == self.gpg):
            g = self.sprt_next
            self.sprt_next += 1
            if self.voided(g):
                continue
            self.sprt_scores.append(self.sums[g][0] / self.counts[g][0])
            self.llr = sprt.llr(self.sprt_scores, self.gpg)
            self.decision = sprt.decide(self.llr, len(self.sprt_scores))
            if self.decision:
                self.decided_group = g

    def estimate(self) -> str:
        groups = [g for g in self.complete if not self.voided(g)]
        if not groups:
            return ""
        S = np.array([self.sums[g] for g in groups])
        C = np.array([self.counts[g] for g in groups])
        labels = self.config.labels
        if len(labels) == 2 and self.config.seats == 2:
            est = clustered_mean(S[:, 0], C[:, 0], bounds=(0.0, 1.0))
            if math.isnan(est.low):
                return f"{labels[0]} {est.value:.3f}"
            elo = elo_estimate(est)
            e = ("?" if not math.isfinite(elo.value) else f"{elo.value:+.0f}")
            lo = f"{elo.low:+.0f}" if math.isfinite(elo.low) else "-inf"
            hi = f"{elo.high:+.0f}" if math.isfinite(elo.high) else "+inf"
            return f"{labels[0]} {est.value:.3f}±{est.pm:.3f} Elo {e} [{lo}, {hi}]"
        ests = [(clustered_mean(S[:, i], C[:, i], bounds=(0.0, 1.0)), labels[i])
                for i in range(len(labels))]
        ests.sort(key=lambda x: -x[0].value)
        return " ".join(f"{lab} {e.value:.3f}" + ("" if math.isnan(e.pm) else f"±{e.pm:.3f}")
                        for e, lab in ests[:3])


class _Interrupts:
    """Ctrl-C once: no new games, the ones in flight finish; twice: they are dropped. While
    Ray starts or a cluster is joined (``at_once``), once stops at once."""

    def __init__(self, notify) -> None:
        self.count = 0
        self.notify = notify
        self.at_once = False
        self._old = None

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self._old = signal.signal(signal.SIGINT, self._handle)
        return self

    def _handle(self, signum, frame):
        self.count += 1
        if self.at_once:
            raise KeyboardInterrupt
        if self.count == 1:
            self.notify("interrupted: finishing the games in flight (Ctrl-C again to drop them)")
        else:
            raise KeyboardInterrupt

    def __exit__(self, *exc):
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)
        return False


def run_match(config: MatchConfig | str, players=None, *, out: str | None = None,
              summary: str | None = None, concurrency: int = 1, backend: str = "auto",
              progress=False, resume: bool = True, ray_address: str | None = None,
              raise_on_interrupt: bool = False, **options) -> MatchResult:
    """Play a match (or a round robin) and summarize it.

    ``run_match("herding-cats", ["ismcts:iterations=300", "heuristic"], groups=50, seed=1)``
    or ``run_match(MatchConfig(...))``.

    :param players: entrants (:class:`Entrant` or their text, see :meth:`Entrant.parse`),
        when ``config`` is a game id; ``options`` are the other :class:`MatchConfig` fields.
    :param out: the results file (JSON lines). If it exists and is the same match, the games
        in it are kept and only the others are played (resume); more ``groups`` extend it.
    :param summary: where to write the summary JSON (default: next to ``out``).
    :param concurrency: games at a time.
    :param backend: ``auto`` (inline for 1, else processes), ``inline``, ``process``, ``ray``.
    :param progress: ``True`` for a progress line on stderr, or a callable taking a dict
        (``done``, ``total``, ``failures``, ``estimate``, ``llr``, ``eta``).
    :param raise_on_interrupt: raise :class:`MatchInterrupted` after Ctrl-C instead of
        returning a result with ``interrupted`` set.
    """
    if not isinstance(config, MatchConfig):
        if players is None:
            raise ValueError("run_match(game, players, ...) needs the players")
        load_imports(options.get("imports", ()))     # before the players are read
        config = MatchConfig(game=config, entrants=tuple(
            p if isinstance(p, Entrant) else Entrant.parse(p) for p in players), **options)
    elif players is not None or options:
        raise ValueError("give either a MatchConfig or a game id with players and options")
    load_imports(config.imports)
    for e in config.entrants:
        e.check(config.game)

    results = ResultsFile(out, config, resume=resume) if out else None
    run = _MatchRun(config, results, progress)
    interrupted = run.play(backend, concurrency, ray_address)

    records = run.records()
    summ = summarize(config, records, interrupted=interrupted)
    summ["seconds"] = round(time.monotonic() - run.t0, 3)
    summ["played"] = run.played
    spath = summary or (summary_path_for(out) if out else None)
    if spath:
        with open(spath, "w", encoding="utf-8") as f:
            json.dump(summ, f, indent=2)
            f.write("\n")
    result = MatchResult(config, summ, records, out, spath, interrupted, run.played)
    if interrupted and raise_on_interrupt:
        raise MatchInterrupted(result)
    return result


class _MatchRun:
    """One run of a match: the games still to schedule, those in flight, those finished
    and written (in game order, so that any backend writes the same file), the progress
    shown, and when to stop (a decided SPRT, Ctrl-C)."""

    def __init__(self, config: MatchConfig, results: ResultsFile | None, progress) -> None:
        self.config = config
        self.results = results
        self.done: dict[int, GameRecord] = dict(results.records) if results else {}
        self.tracker = _Tracker(config)
        for r in sorted(self.done.values(), key=lambda r: r.game):
            self.tracker.add(r)
        self.todo = (t for t in iter_schedule(config.seed, config.groups,
                                              len(config.entrants), config.seats,
                                              config.seatings)
                     if t.game not in self.done)
        self.total = config.total_games
        self.left_at_start = self.total - sum(1 for g in self.done if g < self.total)
        self.order: deque[int] = deque()  # the games submitted and not yet written, in order
        self.buffer: dict[int, GameRecord] = {}  # finished, waiting for an earlier game
        self.played = 0
        self.inflight = 0
        self.next_task = None
        self.t0 = time.monotonic()
        self.bar = Progress() if progress is True else None
        self.show = self.bar if progress is True else progress if callable(progress) else None

    # -- what the user sees ----------------------------------------------------------------

    def notify(self, text: str) -> None:
        if self.bar is not None:
            self.bar.message(text)

    def status(self) -> dict:
        """What the progress line shows (but the time left)."""
        sprt, tracker = self.config.sprt, self.tracker
        return {"done": len(self.done) + len(self.buffer), "total": self.total,
                "failures": tracker.failures, "estimate": tracker.estimate(),
                "llr": tracker.llr if sprt else None, "lower": sprt.lower if sprt else None,
                "upper": sprt.upper if sprt else None}

    def show_progress(self) -> None:
        if self.show is None:
            return
        elapsed = time.monotonic() - self.t0
        left = self.left_at_start - self.played
        eta = elapsed / self.played * left if self.played else math.inf
        self.show({**self.status(), "eta": eta, "eta_is_bound": self.config.sprt is not None})

    def show_final(self) -> None:
        if self.show is not None and self.played:
            self.show({**self.status(), "eta": 0.0},
                      **({"force": True} if self.show is self.bar else {}))

    # -- scheduling and recording ------------------------------------------------------------

    def schedule(self, runner) -> None:
        """Submit games until the backend is full or none is left."""
        while self.next_task is not None and self.inflight < runner.capacity:
            runner.submit(self.next_task)
            self.order.append(self.next_task.game)
            self.inflight += 1
            self.next_task = next(self.todo, None)

    def finished(self, r: GameRecord) -> None:
        """A game came back from the backend."""
        self.inflight -= 1
        self.played += 1
        self.buffer[r.game] = r
        self.tracker.add(r)

    def beyond_decision(self, r: GameRecord) -> bool:
        """A game of a group after the one where the SPRT decided: not written."""
        return self.tracker.decided_group is not None and r.group > self.tracker.decided_group

    def _write(self, r: GameRecord) -> None:
        if not self.beyond_decision(r):
            self.done[r.game] = r
            if self.results:
                self.results.add(r)

    def flush(self, everything: bool = False) -> None:
        """Write the finished games that no earlier game in flight waits for (all of them,
        in game order, with ``everything``)."""
        while self.order and self.order[0] in self.buffer:
            self._write(self.buffer.pop(self.order.popleft()))
        if everything:
            for g in sorted(self.buffer):
                self._write(self.buffer.pop(g))

    def records(self) -> list[GameRecord]:
        return sorted(self.done.values(), key=lambda r: r.game)

    # -- the loop, and stopping --------------------------------------------------------------

    def play(self, backend: str, concurrency: int, ray_address: str | None) -> bool:
        """Play the games left on ``backend``; whether the run was interrupted."""
        interrupted = False
        self.t0 = time.monotonic()
        self.next_task = next(self.todo, None)
        runner = None
        try:
            with _Interrupts(self.notify) as stops:
                if self.tracker.decision is None and self.next_task is not None:
                    stops.at_once = backend == "ray"       # joining a cluster: stop at once
                    runner = make_backend(backend, self.config, concurrency, ray_address,
                                          log=self.notify)
                    stops.at_once = False
                while runner is not None and (self.next_task is not None or self.inflight):
                    if self._stopping(stops, runner):
                        break
                    self.schedule(runner)
                    if not self.inflight:
                        break
                    for r in runner.wait(0.25):
                        self.finished(r)
                    self.flush()
                    self.show_progress()
                interrupted = stops.count > 0
        except KeyboardInterrupt:
            interrupted = True
            if runner is not None:
                runner.drop()
                runner = None
        finally:
            if runner is not None:
                runner.close()
            self.show_final()
            self.flush(everything=True)
            if self.results:
                self.results.close()
            if self.bar is not None:
                self.bar.close()
        return interrupted

    def _stopping(self, stops: _Interrupts, runner) -> bool:
        """After Ctrl-C or a decided SPRT, no new games; a decided SPRT also drops those in
        flight (true: leave the loop)."""
        if stops.count or self.tracker.decision is not None:
            self.next_task = None
            if self.tracker.decision is not None:
                runner.drop()
                self.inflight = 0
                return True
        return False
