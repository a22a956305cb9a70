"""Results: the JSON-lines file of a match, its summary, and the results table.

The results file has one JSON object per line. A ``{"type": "match", ...}`` line holds the
config (the first line, and again after each resume that changed something); every other
line is ``{"type": "game", ...}``, one per game played (a :class:`~catsearch.arena.GameRecord`,
which lists its fields). Everything in the summary is computed from this file alone.
"""

from __future__ import annotations

import dataclasses
import datetime
import fcntl
import json
import math
import os
from collections import defaultdict

import numpy as np

import catsearch
from catsearch.arena.config import FORMAT, MatchConfig
from catsearch.arena.entrants import FAILURE_KINDS
from catsearch.arena.record import GameRecord, ResultsFileError
from catsearch.arena.stats import (NELO_SCALE, bradley_terry, clustered_mean, elo_estimate,
                                   likelihood_of_superiority)

__all__ = ["ResultsFile", "ResultsFileError", "check_game_line", "summarize", "format_table",
           "load_results", "pool_results"]


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def load_results(path: str | os.PathLike) -> tuple[MatchConfig, list[GameRecord]]:
    """Read a results file: its (latest) config and its game records, in game order.

    A last line cut short (a run killed while writing) is ignored.
    """
    config, records, _ = _read(path)
    if config is None:
        raise ResultsFileError(f"{path}: no match line; is this a catsearch-arena results file?")
    return config, sorted(records.values(), key=lambda r: r.game)


def pool_results(paths) -> tuple[MatchConfig, list[GameRecord], list[dict]]:
    """Several results files of one match, each played on its own seed, read as one match:
    more deal groups than one run holds, for an interval one run cannot reach.

    The files must agree on everything but ``seed``, ``groups`` and ``sprt`` (the game and
    its options, the entrants, the seats and seatings, the failure rule, the clock), and no
    two may share a seed (they would hold the same deals twice). The groups of the second
    file follow the first's, and so on, so every deal group stays one cluster of the
    interval. The pooled config is the first file's, with the groups summed and no SPRT (a
    single file keeps its own, SPRT included).

    :param paths: the files (one path alone is one file).
    :returns: ``(config, records, files)``, ``files`` listing each file's ``path``,
        ``seed`` and ``groups``.
    :raises ResultsFileError: a file that cannot be read, or files that are not one match.
    """
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]                     # one file: itself
    try:
        paths = [os.fspath(p) for p in paths]
    except TypeError as e:
        raise TypeError(f"pool_results takes results file paths, not {paths!r} ({e})") from None
    if not paths:
        raise ValueError("pool_results needs at least one results file")
    first = None
    seeds: dict[int, str] = {}
    records: list[GameRecord] = []
    files: list[dict] = []
    groups = games = 0
    for path in paths:
        config, recs = load_results(path)
        if first is None:
            first = config
        elif (config.with_(seed=first.seed, groups=first.groups, sprt=None)
              != first.with_(sprt=None)):
            a, b = first.to_dict(), config.to_dict()
            diff = sorted(k for k in a if k not in ("seed", "groups", "sprt") and a[k] != b[k])
            raise ResultsFileError(f"{path} is not the same match as {paths[0]}: they differ "
                                   f"in {', '.join(diff) or 'their config'}; only seed and "
                                   f"groups may differ")
        if config.seed in seeds:
            raise ResultsFileError(f"{path} and {seeds[config.seed]} were both played with "
                                   f"seed {config.seed}: the same deals, counted twice")
        seeds[config.seed] = path
        records += [dataclasses.replace(r, game=r.game + games, group=r.group + groups)
                    for r in recs]
        files.append({"path": path, "seed": config.seed, "groups": config.groups})
        groups += config.groups
        games += config.total_games
    if len(files) == 1:
        return first, records, files        # one run: its SPRT still reads its groups
    return first.with_(groups=groups, sprt=None), records, files


def _read(path) -> tuple[MatchConfig | None, dict[int, GameRecord], int]:
    """(config, records by game, byte length of the whole lines)."""
    config = None
    records: dict[int, GameRecord] = {}
    lines_of: dict[int, int] = {}
    good = 0
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    for i, raw in enumerate(lines):
        last = i == len(lines) - 1
        if last:                        # text after the final newline: a cut line, or nothing
            break
        text = raw.strip()
        if text:
            try:
                obj = json.loads(text)
            except (json.JSONDecodeError, UnicodeDecodeError) as e:
                raise ResultsFileError(f"{path}, line {i + 1}: not JSON ({e})") from None
            if not isinstance(obj, dict):
                raise ResultsFileError(f"{path}, line {i + 1}: a {type(obj).__name__}, not a "
                                       f"JSON object")
            kind = obj.get("type")
            if kind == "match":
                if obj.get("format") != FORMAT:
                    raise ResultsFileError(f"{path}, line {i + 1}: format {obj.get('format')!r}"
                                           f", this catsearch reads format {FORMAT}")
                try:
                    config = MatchConfig.from_dict(obj["config"])
                except (KeyError, TypeError, ValueError) as e:
                    raise ResultsFileError(f"{path}, line {i + 1}: not a match config "
                                           f"({type(e).__name__}: {e})") from None
            elif kind == "game":
                if config is None:
                    raise ResultsFileError(f"{path}, line {i + 1}: a game before the match line")
                where = f"{path}, line {i + 1}"
                record = check_game_line(obj, config, where)
                if record.game in records:
                    raise ResultsFileError(f"{where}: game {record.game} again (its first line "
                                           f"is line {lines_of[record.game]}); a results file "
                                           f"holds each game once")
                records[record.game] = record
                lines_of[record.game] = i + 1
            else:
                raise ResultsFileError(f"{path}, line {i + 1}: unknown line type {kind!r}")
        good += len(raw) + 1
    return config, records, good


def check_game_line(obj: dict, config: MatchConfig, where: str) -> GameRecord:
    """The record a game line holds, checked against ``config``'s schedule
    (:meth:`GameRecord.from_json`).

    :raises ResultsFileError: naming ``where`` and the first field that is wrong.
    """
    return GameRecord.from_json(obj, config, where)


class ResultsFile:
    """The results file of a run: opened fresh, or resumed when it exists and agrees."""

    def __init__(self, path: str | os.PathLike, config: MatchConfig, *, resume: bool = True):
        self.path = os.fspath(path)
        self.records: dict[int, GameRecord] = {}
        # one run at a time on a file: a second one would interleave its lines with ours
        self._f = open(self.path, "a", encoding="utf-8")
        try:
            fcntl.flock(self._f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._f.close()
            raise ResultsFileError(f"{self.path} is in use by another catsearch-arena run; "
                                   f"wait for it to end, or choose another file") from None
        try:
            self._open(config, resume)
        except BaseException:
            self._f.close()
            raise

    def _open(self, config: MatchConfig, resume: bool) -> None:
        old = None
        if os.path.getsize(self.path) > 0:
            if not resume:
                raise ResultsFileError(f"{self.path} exists; resume it (the default) or choose "
                                       f"another file")
            old, self.records, good = _read(self.path)
            if old is None:
                raise ResultsFileError(f"{self.path}: no match line; is this a results file?")
            mine, theirs = config.identity(), old.identity()
            diff = [k for k in mine if mine[k] != theirs[k]]
            if diff:
                detail = "; ".join(f"{k}: file has {theirs[k]!r}, this run {mine[k]!r}"
                                   for k in diff)
                raise ResultsFileError(f"cannot resume {self.path}: it is another match ({detail})")
            self._f.truncate(good)                 # drop a line cut short by a kill
        if old is None or old.to_dict() != config.to_dict():
            self._write({"type": "match", "format": FORMAT, "config": config.to_dict(),
                         "catsearch": catsearch.__version__, "time": _now()})

    @property
    def resumed(self) -> int:
        return len(self.records)

    def _write(self, obj: dict) -> None:
        self._f.write(json.dumps(obj, separators=(",", ":")) + "\n")
        self._f.flush()

    def add(self, record: GameRecord) -> None:
        self.records[record.game] = record
        self._write(record.to_json())

    def close(self) -> None:
        self._f.close()


# -- the summary ----------------------------------------------------------------------------

def _group_scores(records: list[GameRecord], who: int) -> tuple[float, int]:
    points = [p for p in (r.points_of(who) for r in records) if p is not None]
    return sum(points, 0.0), len(points)


def _counted_groups(config: MatchConfig, by_group: dict[int, list[GameRecord]]):
    """Which groups count, and the SPRT's course: walk the complete groups (in order, without
    gaps when an SPRT is on), leave out voided ones, stop where the SPRT decides."""
    gpg = config.games_per_group
    complete = sorted(g for g, rs in by_group.items() if len(rs) == gpg and g < config.groups)
    voided = {g for g in complete
              if config.on_failure == "void" and any(r.failed for r in by_group[g])}
    sprt = None
    if config.sprt is None:
        counted = [g for g in complete if g not in voided]
    else:
        counted = []
        scores: list[float] = []
        llr, decision, at = 0.0, None, None
        for g in range(config.groups):
            if g not in by_group or len(by_group[g]) != gpg:
                break                  # the SPRT reads groups in order only
            if g in voided:
                continue
            counted.append(g)
            s, n = _group_scores(by_group[g], 0)
            scores.append(s / n)
            llr = config.sprt.llr(scores, gpg)
            decision = config.sprt.decide(llr, len(scores))
            if decision:
                at = g
                break
        sprt = {**config.sprt.to_dict(), "llr": llr, "lower": config.sprt.lower,
                "upper": config.sprt.upper, "decision": decision, "decided_at_group": at,
                "groups": len(scores)}
    return counted, sorted(voided), complete, sprt


def summarize(config: MatchConfig, records: list[GameRecord], *,
              interrupted: bool = False) -> dict:
    """The summary of a match (a JSON-able dict) from its config and game records (game
    lines' dicts are read as :meth:`GameRecord.from_json` reads them)."""
    records = [r if isinstance(r, GameRecord) else GameRecord.from_json(r, config)
               for r in records]
    by_group: dict[int, list[GameRecord]] = defaultdict(list)
    for r in records:
        by_group[r.group].append(r)
    counted, voided, complete, sprt = _counted_groups(config, by_group)
    P = len(config.entrants)
    G = len(counted)
    sums = np.zeros((G, P))
    wins = np.zeros((G, P))
    shared = np.zeros((G, P))
    counts = np.zeros((G, P))
    pair = np.zeros((G, P, P))
    for gi, g in enumerate(counted):
        for r in by_group[g]:
            ent = r.entrants
            for s, e in enumerate(ent):
                sums[gi, e] += r.returns[s]
                counts[gi, e] += 1
                if r.won(s):
                    wins[gi, e] += 1
                elif r.shared_win(s):
                    shared[gi, e] += 1
            for a in range(len(ent)):
                for b in range(len(ent)):
                    if a != b:
                        pair[gi, ent[a], ent[b]] += r.head_to_head(a, b)

    failures = {e.label: dict.fromkeys(FAILURE_KINDS, 0) for e in config.entrants}
    restarts = dict.fromkeys(config.labels, 0)
    moves = dict.fromkeys(config.labels, 0)
    seconds = dict.fromkeys(config.labels, 0.0)
    for r in records:
        f = r.failure
        if f is not None:
            failures[f.player][f.kind] += 1
            if f.restarted:
                restarts[f.player] += 1
        for label, t in r.move_times():
            moves[label] += 1
            seconds[label] += t

    players = []
    for i, e in enumerate(config.entrants):
        score = clustered_mean(sums[:, i], counts[:, i], bounds=(0.0, 1.0))
        win = clustered_mean(wins[:, i], counts[:, i], bounds=(0.0, 1.0))
        nplayed = int(counts[:, i].sum())
        players.append({
            "label": e.label,
            "player": e.to_dict(),
            "games": nplayed,
            "score": score.to_dict(),
            "win": win.to_dict(),
            "shared": float(shared[:, i].sum() / nplayed) if nplayed else None,
            "failures": failures[e.label],
            "failed_games": sum(failures[e.label].values()),
            "restarts": restarts[e.label],
            "moves": moves[e.label],
            "ms_per_move": 1000.0 * seconds[e.label] / moves[e.label] if moves[e.label] else None,
        })

    out: dict = {
        "type": "summary",
        "game": config.game,
        "seats": config.seats,
        "seed": config.seed,
        "entrants": list(config.labels),
        "games": {
            "planned": config.total_games,
            "recorded": len(records),
            "counted": int(counts.sum()) // config.seats if G else 0,
            "groups_planned": config.groups,
            "groups_counted": G,
            "groups_voided": len(voided),
            "groups_incomplete": len(by_group) - len(complete),
            "games_per_group": config.games_per_group,
        },
        "expected_score": 1.0 / config.seats,
        "players": players,
        "interrupted": interrupted,
    }
    if config.time_control is not None:
        out["time_control"] = {
            "text": str(config.time_control),
            "flags": sum(1 for r in records if r.failure_kind == "timeout"),
        }
    if sprt is not None:
        out["sprt"] = sprt
    if P == 2 and config.seats == 2:
        s0 = clustered_mean(sums[:, 0], counts[:, 0], bounds=(0.0, 1.0))
        elo = elo_estimate(s0)
        per_game_sd = s0.se * math.sqrt(G * config.games_per_group) if G >= 2 else math.nan
        nelo = ((s0.value - 0.5) / per_game_sd * NELO_SCALE
                if per_game_sd and math.isfinite(per_game_sd) else math.nan)
        out["elo"] = {
            "player": config.labels[0], "opponent": config.labels[1],
            **elo.to_dict(),
            "los": _nan_none(likelihood_of_superiority(s0)),
            "normalized": _nan_none(nelo),
        }
    elif G >= 1:
        bt = bradley_terry(pair, seed=config.seed)
        out["ratings"] = {
            "model": "bradley-terry",
            "players": [{"label": lab, "rating": r, "low": _nan_none(lo), "high": _nan_none(hi)}
                        for lab, r, lo, hi in zip(config.labels, bt.ratings, bt.low, bt.high)],
        }
    if P > 2 and G >= 1:
        tot = pair.sum(axis=0)
        games = tot + tot.T
        with np.errstate(invalid="ignore", divide="ignore"):
            share = np.where(games > 0, tot / games, np.nan)
        out["pairwise"] = [[_nan_none(float(x)) if i != j else None
                            for j, x in enumerate(row)] for i, row in enumerate(share)]
    return out


def _nan_none(x):
    return None if isinstance(x, float) and math.isnan(x) else x


# -- the table ------------------------------------------------------------------------------

def _est(d: dict, digits: int = 3) -> str:
    if d["value"] is None:
        return "-"
    if d["low"] is None:
        return f"{d['value']:.{digits}f}"
    v, lo, hi = d["value"], d["low"], d["high"]
    if abs((hi - v) - (v - lo)) < 10 ** -digits:
        return f"{v:.{digits}f} ± {(hi - lo) / 2:.{digits}f}"
    # kept inside [0, 1], the interval is lopsided: both ends
    return f"{v:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _elo(v) -> str:
    if v is None:
        return "?"
    if isinstance(v, str):
        return "+inf" if v == "inf" else "-inf"
    r = round(v)
    return f"{r:+d}" if r else "0"


def format_table(summary: dict) -> str:
    """The results table of a summary, as text."""
    g = summary["games"]
    seeds = (f"seeds {', '.join(str(f['seed']) for f in summary['pooled'])} "
             f"({len(summary['pooled'])} files pooled)" if "pooled" in summary
             else f"seed {summary['seed']}")
    lines = [f"{summary['game']}, {summary['seats']} seats, {seeds}: "
             f"{g['counted']} games counted in {g['groups_counted']} deal groups "
             f"({g['games_per_group']} games each)"
             + (f", {g['groups_voided']} groups voided" if g["groups_voided"] else "")
             + (f", {g['groups_incomplete']} incomplete" if g["groups_incomplete"] else "")]
    rating = {}
    if "ratings" in summary:
        rating = {p["label"]: p for p in summary["ratings"]["players"]}
    width = max(6, *(len(p["label"]) for p in summary["players"]))
    cols = max(15, *(len(_est(p[k])) for p in summary["players"] for k in ("score", "win")))
    head = f"  {'player':<{width}}  {'games':>6}  {'score':>{cols}}  {'win':>{cols}}"
    if rating:
        head += f"  {'rating':>16}"
    head += f"  {'ms/move':>8}  failures"
    lines.append(head)
    for p in summary["players"]:
        row = (f"  {p['label']:<{width}}  {p['games']:>6}  {_est(p['score']):>{cols}}  "
               f"{_est(p['win']):>{cols}}")
        if rating:
            r = rating[p["label"]]
            iv = (f" [{r['low']:+.0f},{r['high']:+.0f}]" if r["low"] is not None else "")
            row += f"  {r['rating']:>+5.0f}{iv:>11}"
        ms = "-" if p["ms_per_move"] is None else f"{p['ms_per_move']:.2f}"
        fails = ", ".join(f"{k} {v}" for k, v in p["failures"].items() if v) or "0"
        row += f"  {ms:>8}  {fails}"
        lines.append(row)
    if "time_control" in summary:
        tc = summary["time_control"]
        lines.append(f"  time control {tc['text']} (base+increment, seconds): {tc['flags']} "
                     f"flag{'' if tc['flags'] == 1 else 's'} (clocks run out: timeout "
                     f"failures)")
    lines.append(f"  (score: mean utility per game, 1 for a win, shared on ties; "
                 f"{summary['expected_score']:.3f} is even; ± or [low, high]: a 95% interval over "
                 f"deal groups)")
    if "elo" in summary:
        e = summary["elo"]
        iv = (f" [{_elo(e['low'])}, {_elo(e['high'])}]" if e["low"] is not None else "")
        los = "" if e["los"] is None else f", LOS {100 * e['los']:.1f}%"
        ne = "" if e["normalized"] is None else f", normalized Elo {e['normalized']:+.1f}"
        lines.append(f"Elo of {e['player']} vs {e['opponent']}: {_elo(e['value'])}{iv}{los}{ne}")
    if "sprt" in summary:
        s = summary["sprt"]
        verdict = {"H1": f"H1 accepted (elo >= {s['elo1']:g})",
                   "H0": f"H0 accepted (elo <= {s['elo0']:g})",
                   None: "undecided"}[s["decision"]]
        lines.append(f"SPRT ({s['model']} elo0={s['elo0']:g} elo1={s['elo1']:g} "
                     f"alpha={s['alpha']:g} beta={s['beta']:g}): LLR {s['llr']:.2f} "
                     f"[{s['lower']:.2f}, {s['upper']:.2f}] after {s['groups']} groups: {verdict}")
    if "pairwise" in summary:
        labels = summary["entrants"]
        lines.append("head to head: the row player's share of the games against the column "
                     "player (finishing ahead 1, level 1/2)")
        lines.append("  " + " " * (width + 4) + "".join(f"  {f'[{j + 1}]':>6}"
                                                      for j in range(len(labels))))
        for i, (lab, row) in enumerate(zip(labels, summary["pairwise"])):
            cells = "".join(f"  {'-' if x is None else f'{x:.3f}':>6}" for x in row)
            lines.append(f"  {f'[{i + 1}]':>3} {lab:<{width}}{cells}")
    if summary.get("interrupted"):
        lines.append("(interrupted: the figures are for the games done so far)")
    return "\n".join(lines)
