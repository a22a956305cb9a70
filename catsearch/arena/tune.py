"""SPSA tuning of a searcher's numeric options: ``catsearch-arena tune``.

Simultaneous perturbation stochastic approximation (Spall 1992), as fishtest tunes chess
engines: at step ``k`` every parameter is moved by ``+c_k`` or ``-c_k`` (a random sign each,
``delta``), giving two players, ``plus`` and ``minus``; a small round robin of the two and a
fixed opponent on duplicate deals (every game of ``plus`` has a twin of ``minus`` on the same
deal and seat) measures ``result = points(plus) - points(minus)``; every parameter then moves
by ``a_k / c_k * result * delta``, towards the better side. The gains shrink as
``c_k = c / k**gamma`` and ``a_k = a / (A + k)**alpha`` (``alpha = 0.602``, ``gamma = 0.101``,
``A`` a tenth of the steps); ``c`` and ``a`` are set, as fishtest does, from each parameter's
``c_end`` (its perturbation at the last step) and ``r_end`` (its learning rate there).

Everything is seeded (the signs and each step's deals derive from the tuning's seed), each
step is saved to the tuning file as it ends, and running the same command again resumes
after the last saved step (a step cut short by Ctrl-C is played again, identically).
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import random
import time
from dataclasses import asdict, dataclass, field
from typing import Callable

from catsearch._core.game import lookup
from catsearch._core.options import derive_seed, parse_float
from catsearch.arena.config import MatchConfig
from catsearch.arena.entrants import Entrant
from catsearch.arena.match import MatchInterrupted, run_match
from catsearch.arena.progress import format_duration
from catsearch.arena.record import GameRecord
from catsearch.search.options import NO_GAME_DEFAULT, game_default
from catsearch.search.spec import PlayerSpec

__all__ = ["TuneParam", "TuneConfig", "TuneResult", "TuneFileError", "SPSA", "run_tune",
           "ALPHA", "GAMMA", "R_END"]

#: the decay of the step size a_k and of the perturbation c_k (Spall's recommended values)
ALPHA = 0.602
GAMMA = 0.101
#: the learning rate at the last step when none is given: fishtest's 0.002 suits its tens of
#: thousands of games; a tuning of a few thousand games needs a larger one to move at all
R_END = 0.05
#: the version of the tuning file
FORMAT = 1


@dataclass(frozen=True)
class TuneParam:
    """One tuned option: its range, where it starts, and its gains.

    :ivar name: the option's full name (``exploration``, not ``c``).
    :ivar low, high: the range the tuning keeps it in.
    :ivar start: where it starts (default: the template's value, else the option's default).
    :ivar c_end: its perturbation at the last step (default: a twentieth of the range).
    :ivar r_end: its learning rate at the last step (default :data:`R_END`).
    :ivar integer: a whole-number option (the player gets the rounded value).
    """

    name: str
    low: float
    high: float
    start: float
    c_end: float
    r_end: float = R_END
    integer: bool = False

    @classmethod
    def parse(cls, text: str, template: PlayerSpec, game: str | None = None) -> TuneParam:
        """``name=low:high`` or ``name=low:high:c_end`` or ``name=low:high:c_end:r_end``; the
        option must be a number option of the template's player. It starts from the
        template's value, else the option's default (in ``game``, for an option whose default
        is the game's)."""
        if not isinstance(text, str):
            raise TypeError(f"a tuned parameter is a str like 'exploration=0.2:2', not "
                            f"{type(text).__name__}")
        name, eq, rest = text.partition("=")
        name = name.strip()
        if not eq or not name:
            raise ValueError(f"a tuned parameter is name=low:high[:c_end[:r_end]], not {text!r}")
        option = template.declaration(name)        # OptionError (a ValueError) if none
        full = option.name
        family, dot, member = full.partition(".")
        if dot and game is not None:    # a heuristic weight: the game's declaration
            option = dataclasses.replace(lookup(game).spec.weight_option(member), name=full)
        if option.kind not in (int, float):
            raise ValueError(f"{template.name}'s option {full!r} is not a number; only "
                             f"number options can be tuned")
        try:
            values = [parse_float(x, full) for x in rest.split(":")]
        except ValueError:
            raise ValueError(f"{text!r}: low, high, c_end and r_end are numbers") from None
        if not 2 <= len(values) <= 4 or not all(math.isfinite(v) for v in values):
            raise ValueError(f"a tuned parameter is name=low:high[:c_end[:r_end]], not {text!r}")
        low, high = values[0], values[1]
        if not low < high:
            raise ValueError(f"{text!r}: the range {low}:{high} is empty (low < high needed)")
        for bound in (low, high):
            option.check(int(bound) if option.kind is int else bound, template.name)
        c_end = values[2] if len(values) > 2 else (high - low) / 20
        r_end = values[3] if len(values) > 3 else R_END
        if c_end <= 0 or r_end <= 0:
            raise ValueError(f"{text!r}: c_end and r_end are numbers > 0")
        given = template.get(full)
        if given is None:
            given = option.default
        if given is None:       # an option whose default is the game's (search.options)
            given = game_default(full, game) if full in NO_GAME_DEFAULT else low
        start = float(given)
        start = min(max(start, low), high)
        return cls(full, low, high, start, c_end, r_end, option.kind is int)

    def value(self, x: float) -> float | int:
        """``x`` kept in range, as the player gets it: rounded to a whole number for a
        whole-number option, else to four significant digits (specs stay readable)."""
        x = min(max(x, self.low), self.high)
        return int(round(x)) if self.integer else float(f"{x:.4g}")


@dataclass(frozen=True)
class TuneConfig:
    """A tuning: what is tuned against whom, how long, and its seed.

    :ivar game: the game id.
    :ivar template: the tuned player's spec; the tuned options replace its values.
    :ivar opponent: the fixed opponent's spec.
    :ivar params: the tuned options.
    :ivar steps: SPSA steps.
    :ivar groups: deal groups per step (each deal played by the three pairs of ``plus``,
        ``minus`` and the opponent, in both seat orders: ``6 * groups`` games a step).
    :ivar seed: the tuning's seed (signs and deals), 0 to 2**64 - 1.
    """

    game: str
    template: str
    opponent: str
    params: tuple[TuneParam, ...]
    steps: int = 100
    groups: int = 2
    seed: int = 1
    game_options: tuple[tuple[str, object], ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.params:
            raise ValueError("give at least one parameter to tune (--param name=low:high)")
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):
            raise ValueError(f"a parameter is tuned twice: {', '.join(names)}")
        for what, n, hi in (("steps", self.steps, 10**6), ("groups", self.groups, 10**5)):
            if isinstance(n, bool) or not isinstance(n, int):
                raise TypeError(f"{what} is a whole number, not {n!r}")
            if not 1 <= n <= hi:
                raise ValueError(f"{what}={n} is out of range, expected 1 to {hi}")
        MatchConfig(game=self.game, entrants=(Entrant.parse(f"t={self.template}"),
                                              Entrant.parse(f"o={self.opponent}")),
                    game_options=self.game_options)      # checks the game and players

    def to_dict(self) -> dict:
        d = asdict(self)
        d["params"] = [asdict(p) for p in self.params]
        d["game_options"] = [list(x) for x in self.game_options]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> TuneConfig:
        d = dict(d)
        d["params"] = tuple(TuneParam(**p) for p in d["params"])
        d["game_options"] = tuple(tuple(x) for x in d.get("game_options", ()))
        return cls(**d)

    def spec(self, theta: list[float]) -> str:
        """The template with the tuned options set to ``theta``."""
        values = {p.name: p.value(x) for p, x in zip(self.params, theta)}
        return str(PlayerSpec.parse(self.template).replace(**values))


class SPSA:
    """The SPSA iteration over ``params`` (no games: :meth:`perturb` gives the two points
    of step ``k``, :meth:`update` takes their result)."""

    def __init__(self, params: tuple[TuneParam, ...], steps: int, seed: int) -> None:
        self.params, self.steps, self.seed = params, steps, seed
        self.big_a = 0.1 * steps
        self.theta = [p.start for p in params]

    def c(self, k: int) -> list[float]:
        """Each parameter's perturbation at step ``k`` (``c_end`` at the last)."""
        return [p.c_end * (self.steps / k) ** GAMMA for p in self.params]

    def a(self, k: int) -> list[float]:
        """Each parameter's step size at step ``k`` (``r_end * c_end**2`` at the last)."""
        return [p.r_end * p.c_end ** 2 * ((self.big_a + self.steps) / (self.big_a + k)) ** ALPHA
                for p in self.params]

    def perturb(self, k: int) -> tuple[list[int], list[float], list[float]]:
        """Step ``k``'s signs and its two points (each kept in its range)."""
        rng = random.Random(derive_seed(self.seed, 0x5B5A, k))
        delta = [rng.choice((-1, 1)) for _ in self.params]
        ck = self.c(k)
        plus = [p.value(x + c * d) for p, x, c, d in zip(self.params, self.theta, ck, delta)]
        minus = [p.value(x - c * d) for p, x, c, d in zip(self.params, self.theta, ck, delta)]
        return delta, plus, minus

    def update(self, k: int, delta: list[int], result: float) -> None:
        """Move towards the better point: ``result`` is ``plus``'s points minus ``minus``'s."""
        for i, (p, a, c, d) in enumerate(zip(self.params, self.a(k), self.c(k), delta)):
            x = self.theta[i] + a / c * result * d
            self.theta[i] = min(max(x, p.low), p.high)


@dataclass
class TuneResult:
    """What a tuning produced: the config, every step, the values and spec now."""

    config: TuneConfig
    steps: list[dict]
    theta: list[float]
    spec: str
    interrupted: bool = False
    out: str | None = None

    def table(self) -> str:
        lines = [f"tuned {len(self.steps)}/{self.config.steps} steps of {self.config.template} "
                 f"against {self.config.opponent} on {self.config.game}"]
        for p, x in zip(self.config.params, self.theta):
            lines.append(f"  {p.name:16s} {p.start:10.4g} -> {p.value(x):10.4g}   "
                         f"(range {p.low:g} to {p.high:g})")
        lines.append(f"spec: {self.spec}")
        return "\n".join(lines)


class TuneFileError(ValueError):
    """A tuning file that cannot be resumed: unreadable, or another tuning's."""


def _load(path: str, config: TuneConfig) -> list[dict]:
    try:
        with open(path) as f:
            data = json.load(f)
    except json.JSONDecodeError as e:
        raise TuneFileError(f"{path} is not a tuning file: {e}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TuneFileError(f"{path} is not a tuning file of format {FORMAT}")
    if data.get("config") != config.to_dict():
        raise TuneFileError(f"{path} holds another tuning (its game, players, parameters, "
                            f"steps, groups or seed differ); give another --out to start anew")
    return list(data.get("steps", []))


def _save(path: str, config: TuneConfig, steps: list[dict], theta: list[float]) -> None:
    data = {"format": FORMAT, "config": config.to_dict(), "steps": steps, "theta": theta,
            "spec": config.spec(theta)}
    tmp = f"{path}.tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)           # never a half-written tuning file


def _points(records: list[GameRecord], label_index: int) -> float:
    return sum(p for p in (r.points_of(label_index) for r in records) if p is not None)


def run_tune(config: TuneConfig, *, out: str | None = None, concurrency: int = 1,
             backend: str = "auto", ray_address: str | None = None,
             progress: bool | Callable[[str], None] = False) -> TuneResult:
    """Run (or resume, from ``out``) the tuning ``config``; see the module's text.

    :param out: the tuning file (JSON), written after every step; if it exists and holds
        this tuning, the steps in it are kept and the tuning goes on after them.
    :param progress: ``True`` for a line per step on stderr, or a callable taking that line.
    """
    import sys
    say = (lambda s: print(s, file=sys.stderr, flush=True)) if progress is True else \
        (progress if callable(progress) else None)
    steps = _load(out, config) if out and os.path.exists(out) else []
    spsa = SPSA(config.params, config.steps, config.seed)
    for s in steps:                 # replay the saved steps: the same theta as they left
        spsa.update(s["k"], s["delta"], s["result"])
    if say and steps:
        say(f"resuming after step {len(steps)} of {config.steps} from {out}")
    opponent = Entrant.parse("opponent=" + config.opponent)
    t0, first = time.monotonic(), len(steps) + 1
    interrupted = False
    for k in range(first, config.steps + 1):
        delta, plus, minus = spsa.perturb(k)
        match = MatchConfig(game=config.game, entrants=(
            Entrant.builtin(config.spec(plus), "plus"), Entrant.builtin(config.spec(minus), "minus"),
            opponent), seats=2, groups=config.groups, seed=derive_seed(config.seed, k),
            game_options=config.game_options)
        try:
            res = run_match(match, concurrency=concurrency, backend=backend,
                            ray_address=ray_address, raise_on_interrupt=True)
        except MatchInterrupted:
            interrupted = True
            break
        p_plus, p_minus = _points(res.records, 0), _points(res.records, 1)
        result = p_plus - p_minus
        spsa.update(k, delta, result)
        steps.append({"k": k, "delta": delta, "plus": plus, "minus": minus,
                      "points_plus": p_plus, "points_minus": p_minus, "result": result,
                      "theta": list(spsa.theta), "games": len(res.records)})
        if out:
            _save(out, config, steps, spsa.theta)
        if say:
            done = k - first + 1
            eta = (time.monotonic() - t0) / done * (config.steps - k)
            values = "  ".join(f"{p.name}={p.value(x):.4g}"
                               for p, x in zip(config.params, spsa.theta))
            say(f"step {k}/{config.steps}  {values}  plus-minus {result:+.1f} of "
                f"{len(res.records) * 2 // 3} games  ETA {format_duration(eta)}")
    return TuneResult(config, steps, list(spsa.theta), config.spec(spsa.theta),
                      interrupted=interrupted, out=out)
