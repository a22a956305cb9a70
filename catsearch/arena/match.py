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
    records: list[dict] = field(repr=False)
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

    def add(self, r: dict) -> None:
        g = r["group"]
        self.n[g] += 1
        for s, e in enumerate(r["entrants"]):
            self.sums[g][e] += r["returns"][s]
            self.counts[g][e] += 1
        if r.get("failure"):
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
    done: dict[int, dict] = dict(results.records) if results else {}
    tracker = _Tracker(config)
    for r in sorted(done.values(), key=lambda r: r["game"]):
        tracker.add(r)
    todo = (t for t in iter_schedule(config.seed, config.groups, len(config.entrants),
                                     config.seats, config.seatings) if t.game not in done)
    total = config.total_games
    left_at_start = total - sum(1 for g in done if g < total)

    show = None
    bar = None
    if progress is True:
        bar = Progress()
        show = bar
    elif callable(progress):
        show = progress

    def notify(text: str) -> None:
        if bar is not None:
            bar.message(text)

    # records are written in game order, so that any backend writes the same file
    order: deque[int] = deque()         # the games submitted and not yet written, in order
    buffer: dict[int, dict] = {}
    played = 0

    def write(r: dict) -> None:
        done[r["game"]] = r
        if results:
            results.add(r)

    def flush(everything: bool = False) -> None:
        while order and order[0] in buffer:
            r = buffer.pop(order.popleft())
            if not beyond_decision(r):
                write(r)
        if everything:
            for g in sorted(buffer):
                r = buffer.pop(g)
                if not beyond_decision(r):
                    write(r)

    def status() -> dict:
        """What the progress line shows (but the time left)."""
        sprt = config.sprt
        return {"done": len(done) + len(buffer), "total": total,
                "failures": tracker.failures, "estimate": tracker.estimate(),
                "llr": tracker.llr if sprt else None, "lower": sprt.lower if sprt else None,
                "upper": sprt.upper if sprt else None}

    def beyond_decision(r: dict) -> bool:
        return tracker.decided_group is not None and r["group"] > tracker.decided_group

    interrupted = False
    t0 = time.monotonic()
    nxt = next(todo, None)
    inflight = 0
    runner = None
    try:
        with _Interrupts(notify) as stops:
            if tracker.decision is None and nxt is not None:
                stops.at_once = backend == "ray"       # joining a cluster: stop at once
                runner = make_backend(backend, config, concurrency, ray_address, log=notify)
                stops.at_once = False
            while runner is not None and (nxt is not None or inflight):
                if stops.count or tracker.decision is not None:
                    nxt = None
                    if tracker.decision is not None:
                        runner.drop()
                        inflight = 0
                        break
                while nxt is not None and inflight < runner.capacity:
                    runner.submit(nxt)
                    order.append(nxt.game)
                    inflight += 1
                    nxt = next(todo, None)
                if not inflight:
                    break
                for r in runner.wait(0.25):
                    inflight -= 1
                    played += 1
                    buffer[r["game"]] = r
                    tracker.add(r)
                flush()
                if show is not None:
                    elapsed = time.monotonic() - t0
                    left = left_at_start - played
                    eta = elapsed / played * left if played else math.inf
                    show({**status(), "eta": eta, "eta_is_bound": config.sprt is not None})
            interrupted = stops.count > 0
    except KeyboardInterrupt:
        interrupted = True
        if runner is not None:
            runner.drop()
            runner = None
    finally:
        if runner is not None:
            runner.close()
        if show is not None and played:
            show({**status(), "eta": 0.0}, **({"force": True} if show is bar else {}))
        flush(everything=True)
        if results:
            results.close()
        if bar is not None:
            bar.close()

    records = sorted(done.values(), key=lambda r: r["game"])
    summ = summarize(config, records, interrupted=interrupted)
    summ["seconds"] = round(time.monotonic() - t0, 3)
    summ["played"] = played
    spath = summary or (summary_path_for(out) if out else None)
    if spath:
        with open(spath, "w", encoding="utf-8") as f:
            json.dump(summ, f, indent=2)
            f.write("\n")
    result = MatchResult(config, summ, records, out, spath, interrupted, played)
    if interrupted and raise_on_interrupt:
        raise MatchInterrupted(result)
    return result
