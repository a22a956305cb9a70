"""Golden outputs: every game and every searcher pinned on fixed positions and seeds.

``python tests/golden/make_golden.py [--game ID ...] [--out DIR]`` writes one JSON file per
game (the four of ``catsearch.GAMES`` and the toy games of ``catsearch.search``) to
``tests/data/golden/<game-id>.json``. ``tests/search/test_golden.py`` recomputes everything
with the functions below (:func:`build`) and compares it with the stored files, so a refactor
that changes any of it shows where.

Per game and player count:

- ``games``: seeded games from ``new_game(game, players, seed)``, played by seeded uniform
  random choice or by the seat's heuristic move: every move's notation, checkpoints (ply,
  Zobrist hash, notation, legal moves, evaluation, and a digest of every ply since the last
  checkpoint: hash, notation, what each seat observed of the move, each seat's info key),
  the end (returns, scores), every seat's view, info key and determinizations at the middle
  checkpoint, ``perft(3)`` of the start.
- ``searches``: fixed positions (the start, and positions of the seed-1 games, stored in
  full notation and read back from it) searched by each spec of :data:`SPECS` (and, on one
  position per player count, of :data:`EXTRA_SPECS`) with a fresh
  ``make_player(spec)`` and ``player.search(state)`` on the full state: the move, the stats
  per move (``notation -> [visits, mean]``), the value per seat, iterations, nodes, depth.
- ``limits``: searches under :class:`catsearch.search.Limits` on one position.
- ``reuse``: searchers with ``reuse=true`` playing seat 0 of a game while every player
  observes every move: each of seat 0's first searches.

Only iteration, node and depth budgets are used (no time limits) and every searcher gets an
explicit seed, so everything is deterministic. Floats are rounded to 9 decimal places.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT_DIR = ROOT / "tests" / "data" / "golden"

FORMAT = 1
SEEDS = (1, 2, 3)
ROUND = 9

# searchers run on every search position (one fresh player per position and spec)
SPECS = (
    "random:seed=1",
    "heuristic:seed=1",
    "ismcts:iterations=300,seed=1,threads=1",
    "ismcts:iterations=300,seed=1,threads=1,mode=mo",
    "ismcts:iterations=300,seed=1,threads=1,prior=0",
    "pimc:iterations=300,seed=1,threads=1",
    "pimc:iterations=300,seed=1,threads=1,prior=0",
    "expectimax:depth=2,seed=1",
    "expectimax:depth=2,seed=1,pruning=none",
    "expectimax:depth=2,seed=1,mode=paranoid",
)

# the other variants, run on one position per player count (EXTRA_POSITION) to keep the
# whole golden test within seconds
EXTRA_SPECS = (
    "ismcts:iterations=300,seed=1,threads=1,mode=so",
    "ismcts:iterations=300,seed=1,threads=1,reuse=true",
    "ismcts:iterations=300,seed=1,threads=1,playout=heuristic,cutoff=4",
    "ismcts:iterations=300,seed=1,threads=1,final=mean,c=1.2",
    "ismcts:iterations=300,seed=1,threads=1,max_nodes=64",
    "ismcts:iterations=300,seed=1,threads=2",
    "pimc:iterations=300,seed=1,threads=1,dets=4,combine=average,final=mean",
    "pimc:iterations=300,seed=1,threads=1,playout=heuristic,cutoff=4",
    "pimc:iterations=300,seed=1,threads=2,dets=4",
    "expectimax:depth=2,seed=1,pruning=star1",
    "expectimax:depth=2,seed=1,mode=maxn",
    "expectimax:depth=2,seed=1,max_chance=4,chance=top",
    "expectimax:depth=2,seed=1,max_chance=4,samples=3",
    "expectimax:depth=3,nodes=2000,seed=1",
    "expectimax:depth=1,playouts=1,seed=1",
)
EXTRA_POSITION = "heuristic-half"

# (spec, Limits keyword arguments) run on one position per player count
LIMITS = (
    ("ismcts:iterations=300,seed=1,threads=1", {"iterations": 100}),
    # nodes with an iteration cap: ISMCTS under Limits(nodes=N) alone never stops where the
    # whole tree has fewer than N nodes (toy-rps)
    ("ismcts:iterations=300,seed=1,threads=1", {"nodes": 150, "iterations": 2000}),
    ("ismcts:iterations=300,seed=1,threads=1", {"depth": 1}),
    ("ismcts:iterations=300,seed=1,threads=1", {"seed": 7}),
    ("pimc:iterations=300,seed=1,threads=1", {"iterations": 100, "seed": 3}),
    ("pimc:iterations=300,seed=1,threads=1", {"nodes": 150, "iterations": 2000}),
    ("expectimax:depth=2,seed=1", {"depth": 1}),
    ("expectimax:depth=2,seed=1", {"nodes": 200}),
)

# searchers with tree reuse, playing seat 0 while every player observes every move
REUSE = (
    "ismcts:iterations=200,seed=1,threads=1,reuse=true",
    "ismcts:iterations=200,seed=1,threads=1,reuse=true,mode=mo",
    "pimc:iterations=200,seed=1,threads=1,reuse=true,dets=4",
)
REUSE_SEARCHES = 3

#: games whose expectimax searches one ply less deep here: The Cat follows a tick's hidden
#: choices past the horizon to their resolution, so depth 2 costs it seconds a search
SHALLOWER = ("the-cat",)


def game_spec(game_id: str, spec: str) -> str:
    """``spec`` as run on ``game_id``."""
    if game_id in SHALLOWER and spec.startswith("expectimax:depth=2"):
        return spec.replace("depth=2", "depth=1", 1)
    return spec


# -- the games -----------------------------------------------------------------------------

class Game:
    """A registered game: states from ``new_game``, positions stored as full notation."""

    toy = False
    checkpoint_every = 20

    def __init__(self, game_id: str) -> None:
        self.id = game_id
        self.player_counts = (2, 3, 4)
        # search positions per player count (labels of :meth:`positions`)
        self.search_players = (2, 3, 4)
        self.limits_players = 3
        self.reuse_players = 3
        if game_id == "the-cat":
            self.checkpoint_every = 100

    def new(self, players: int, seed: int):
        import catsearch
        return catsearch.new_game(self.id, players, seed=seed)

    def position(self, state, players: int, seed: int, moves: list[str], source: str) -> dict:
        return {"source": source, "text": state.to_text()}

    def load(self, position: dict):
        import catsearch
        return catsearch.from_text(self.id, position["text"])

    def parse_view(self, text: str):
        import catsearch
        return catsearch.from_text(self.id, text)


class ToyGame(Game):
    """A toy game of ``catsearch.search`` (no ``from_text``): positions are replayed from
    ``new(players, seed, rounds)`` by their moves."""

    toy = True
    checkpoint_every = 2

    def __init__(self, game_id: str, cls, player_counts: tuple[int, ...], rounds: int = 3) -> None:
        self.id = game_id
        self.cls = cls
        self.rounds = rounds
        self.player_counts = player_counts
        self.search_players = player_counts
        self.limits_players = player_counts[-1]
        self.reuse_players = player_counts[-1]

    def new(self, players: int, seed: int):
        return self.cls.new(players, seed, rounds=self.rounds)

    def position(self, state, players: int, seed: int, moves: list[str], source: str) -> dict:
        return {"source": source, "text": state.to_text(), "players": players, "seed": seed,
                "moves": list(moves)}

    def load(self, position: dict):
        st = self.new(position["players"], position["seed"])
        for m in position["moves"]:
            st.play(st.str_to_move(m))
        return st

    def parse_view(self, text: str):
        return None


def games() -> dict[str, Game]:
    """Every game with goldens, by id."""
    import catsearch
    from catsearch.testing.toys import ToyPennies, ToyRPS
    out: dict[str, Game] = {g: Game(g) for g in catsearch.GAMES}
    out["toy-rps"] = ToyGame("toy-rps", ToyRPS, (2, 3, 4))
    out["toy-pennies"] = ToyGame("toy-pennies", ToyPennies, (2,))
    out["toy-sum"] = Game("toy-sum")        # the example game (catsearch.testing.example)
    return out


# -- helpers -------------------------------------------------------------------------------

def rnd(x: float) -> float:
    return round(float(x), ROUND) + 0.0     # no -0.0


def rnds(xs) -> list[float]:
    return [rnd(x) for x in xs]


def hexkey(h: int) -> str:
    return f"{h:016x}"


def attempt(fn):
    """``fn()``, or the error it raised as ``{"error": "Type: message"}`` (pinned as well)."""
    try:
        return fn()
    except Exception as e:          # noqa: BLE001 - the error is the behaviour pinned
        return {"error": f"{type(e).__name__}: {e}"}


def ply_line(st, move: int) -> str:
    """What the per-ply digest covers of ``st`` before ``move`` is played."""
    n = st.players
    obs = ",".join(str(st.observe_move(move, q)) for q in range(n))
    keys = ",".join(hexkey(st.info_key(q)) for q in range(n))
    return f"{st.ply}|{st.move_to_str(move)}|{hexkey(st.hash)}|{st.to_text()}|{obs}|{keys}\n"


def checkpoint(st, digest) -> dict:
    out = {"ply": st.ply, "hash": hexkey(st.hash), "text": st.to_text(),
           "digest": digest.hexdigest()[:16], "evaluate": rnds(st.evaluate())}
    if not st.is_terminal():
        out["to_move"] = st.current_player
        out["legal"] = " ".join(st.move_to_str(m) for m in st.legal_moves())
    return out


def seat_views(game: Game, st, seed: int) -> list[dict]:
    """Every seat's view of ``st``, its info key, chance outcomes and determinizations."""
    out = []
    for seat in range(st.players):
        view = st.view(seat)
        text = view.to_text()
        rec = {
            "seat": seat,
            "view_text": text,
            "info_key": hexkey(st.info_key(seat)),
            "view_hash": hexkey(view.hash),
            "chance_outcomes": [[o, rnd(w)] for o, w in view.chance_outcomes()],
            "determinize": st.determinize(seat, seed=seed + seat).to_text(),
            "determinize_of_view": view.determinize(seat, seed=seed + seat).to_text(),
        }
        parsed = game.parse_view(text)
        if parsed is not None:
            rec["view_reads_back"] = parsed.to_text() == text
            rec["determinize_of_parsed_view"] = parsed.determinize(seat, seed=seed + seat).to_text()
        out.append(rec)
    return out


def cards_and_knowledge(st) -> dict:
    out = {}
    cards = attempt(st.cards)
    out["cards"] = cards if isinstance(cards, dict) and "error" not in cards else cards
    know = attempt(st.knowledge)
    if isinstance(know, dict) and "error" not in know:
        know = {loc: "".join(str(q) for q in sorted(seats)) for loc, seats in know.items()}
    out["knowledge"] = know
    return out


def play_game(game: Game, players: int, seed: int, policy: str) -> tuple[dict, list]:
    """One game; returns its record and ``[(ply, state clone, moves so far)]`` at every
    ply (for picking search positions)."""
    st = game.new(players, seed)
    rng = random.Random(seed)
    rec: dict = {"players": players, "seed": seed, "policy": policy,
                 "start": {"text": st.to_text(), "hash": hexkey(st.hash)}}
    rec["perft3"] = attempt(lambda: st.perft(3))
    moves: list[str] = []
    states = []
    checkpoints = []
    digest = hashlib.sha256()
    while not st.is_terminal():
        states.append((st.ply, st.clone(), list(moves)))
        if st.ply % game.checkpoint_every == 0:
            checkpoints.append(checkpoint(st, digest))
            digest = hashlib.sha256()
        if policy == "random":
            move = rng.choice(st.legal_moves())
        else:
            move = st.view(st.current_player).heuristic_move(seed=rng.randrange(2**63))
        digest.update(ply_line(st, move).encode())
        moves.append(st.move_to_str(move))
        st.play(move)
    states.append((st.ply, st.clone(), list(moves)))
    checkpoints.append(checkpoint(st, digest))
    rec["moves"] = " ".join(moves)
    rec["plies"] = len(moves)
    rec["checkpoints"] = checkpoints
    rec["end"] = {"ply": st.ply, "text": st.to_text(), "hash": hexkey(st.hash),
                  "recomputed_hash": hexkey(st.recompute_hash()),
                  "returns": rnds(st.returns()), "scores": st.scores()}
    # the views at the middle checkpoint that is not the end
    mid = checkpoints[max(0, (len(checkpoints) - 2) // 2)]["ply"]
    _, mst, _ = states[mid]
    views = {"ply": mid, "seats": seat_views(game, mst, seed)}
    views.update(cards_and_knowledge(mst))
    rec["views"] = views
    return rec, states


# -- searches ------------------------------------------------------------------------------

def result_record(player, state, result) -> dict:
    """What a search answered, with moves in notation (of ``state``, the full state)."""
    return {
        "spec": player.spec,
        "move": state.move_to_str(result.move),
        "stats": {state.move_to_str(m): [s.visits, rnd(s.mean)] for m, s in result.stats.items()},
        "value": rnds(result.value),
        "iterations": result.iterations,
        "nodes": result.nodes,
        "depth": result.depth,
    }


def run_search(spec: str, state, limits: dict | None = None) -> dict:
    from catsearch import make_player
    from catsearch.search import Limits

    def go():
        player = make_player(spec)
        try:
            r = player.search(state, limits=Limits(**limits) if limits else None)
            return result_record(player, state, r)
        finally:
            player.close()
    return attempt(go)


def pick_positions(game: Game, players: int, runs: dict) -> dict[str, dict]:
    """The search positions for ``players``: the start, half through the seed-1 heuristic
    game, and (but with 4 players) half through the seed-1 random game."""
    picks = [("start", "heuristic", 1, 0.0), ("heuristic-half", "heuristic", 1, 0.5)]
    if players != 4:
        picks += [("random-half", "random", 1, 0.5)]
    out = {}
    for label, policy, seed, frac in picks:
        states = runs[(players, seed, policy)]
        live = [s for s in states if not s[1].is_terminal()]
        ply, st, moves = live[int(frac * (len(live) - 1))]
        source = f"{players} players, seed {seed}, {policy} game, ply {ply}"
        out[label] = game.position(st, players, seed, moves, source)
    return out


def play_reuse(game: Game, players: int, spec: str) -> list[dict]:
    """``spec`` (with ``reuse=true``) plays seat 0 against heuristic players, everyone
    observing every move: its first searches."""
    from catsearch import make_player
    st = game.new(players, 1)
    ps = [make_player(spec)] + [make_player(f"heuristic:seed={10 + q}") for q in range(1, players)]
    out = []
    try:
        while not st.is_terminal() and len(out) < REUSE_SEARCHES:
            seat = st.current_player
            r = ps[seat].search(st)
            if seat == 0:
                rec = result_record(ps[0], st, r)
                rec["ply"] = st.ply
                rec["carried_visits"] = sum(s.visits for s in r.stats.values()) - r.iterations
                out.append(rec)
            for p in ps:
                p.observe(st, r.move)
            st.play(r.move)
    finally:
        for p in ps:
            p.close()
    return out


# -- the whole file ------------------------------------------------------------------------

def build(game_id: str, positions: dict | None = None, *, only: str | None = None) -> dict:
    """Everything pinned for ``game_id``.

    :param positions: ``{"<n>p": {label: position}}`` to search instead of the positions
        derived from the games (the test passes the stored ones, so that the searches are
        checked on the pinned positions even when game play differs); the recorded
        ``text``/``source`` are always the derived ones.
    :param only: ``"games"``, ``"searches"``, ``"limits"`` or ``"reuse"``: build that part
        alone (for debugging).
    """
    game = games()[game_id]
    out: dict = {"game": game_id, "format": FORMAT}
    runs: dict = {}
    recs: dict = {}
    for players in game.player_counts:
        for seed in SEEDS:
            for policy in ("random", "heuristic"):
                rec, states = play_game(game, players, seed, policy)
                recs[f"{players}p-seed{seed}-{policy}"] = rec
                runs[(players, seed, policy)] = states
    if only in (None, "games"):
        out["games"] = recs

    derived = {f"{n}p": pick_positions(game, n, runs) for n in game.search_players}
    use = positions or derived
    if only in (None, "searches"):
        searches = {}
        for key, labels in derived.items():
            searches[key] = {}
            for label, pos in labels.items():
                state = game.load(use.get(key, {}).get(label, pos))
                entry = dict(pos)
                specs = SPECS + (EXTRA_SPECS if label == EXTRA_POSITION else ())
                entry["results"] = {game_spec(game.id, spec): run_search(game_spec(game.id, spec),
                                                                         state)
                                    for spec in specs}
                searches[key][label] = entry
        out["searches"] = searches

    if only in (None, "limits"):
        key = f"{game.limits_players}p"
        label = EXTRA_POSITION
        pos = derived[key][label]
        state = game.load(use.get(key, {}).get(label, pos))
        limits = {"position": key + "/" + label, "results": {}}
        for spec, kw in LIMITS:
            spec = game_spec(game.id, spec)
            name = spec + " | Limits(" + ", ".join(f"{k}={v}" for k, v in kw.items()) + ")"
            limits["results"][name] = run_search(spec, state, kw)
        out["limits"] = limits

    if only in (None, "reuse"):
        out["reuse"] = {"players": game.reuse_players,
                        "results": {spec: attempt(lambda: play_reuse(game, game.reuse_players, spec))
                                    for spec in REUSE}}
    return out


def stored_positions(data: dict) -> dict:
    """The search positions of a stored file, as :func:`build` takes them."""
    return {key: {label: {k: v for k, v in entry.items() if k != "results"}
                  for label, entry in labels.items()}
            for key, labels in data.get("searches", {}).items()}


def dumps(data: dict) -> str:
    """Pretty-printed JSON with sorted keys; lists of numbers on one line."""
    text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False)
    text = re.sub(r"\[[-0-9.eE+,\s]*\]", lambda m: re.sub(r"\s+", " ", m.group(0))
                  .replace("[ ", "[").replace(" ]", "]"), text)
    return text + "\n"


def path_of(game_id: str, out_dir: Path = OUT_DIR) -> Path:
    return out_dir / f"{game_id}.json"


# -- comparing -----------------------------------------------------------------------------

def first_difference(stored, now, path: str = "") -> str | None:
    """The first field where ``now`` differs from ``stored``, as ``path: stored ... now ...``;
    ``None`` if they are equal."""
    if isinstance(stored, dict) and isinstance(now, dict):
        for k in sorted(set(stored) | set(now), key=str):
            sub = f"{path}/{k}" if path else str(k)
            if k not in now:
                return f"{sub}: stored, but no longer produced"
            if k not in stored:
                return f"{sub}: produced now ({_short(now[k])}), but not stored"
            d = first_difference(stored[k], now[k], sub)
            if d is not None:
                return d
        return None
    if isinstance(stored, list) and isinstance(now, list):
        for i, (a, b) in enumerate(zip(stored, now)):
            label = f"[{i}]"
            if isinstance(a, dict) and "ply" in a:
                label = f"[{i}](ply {a['ply']})"
            d = first_difference(a, b, path + label)
            if d is not None:
                return d
        if len(stored) != len(now):
            return f"{path}: {len(stored)} items stored, {len(now)} now"
        return None
    if type(stored) is not type(now) or stored != now:
        if isinstance(stored, str) and isinstance(now, str) and len(stored) + len(now) > 120:
            i = next((j for j, (x, y) in enumerate(zip(stored, now)) if x != y),
                     min(len(stored), len(now)))
            lo = max(0, i - 30)
            return (f"{path}: first differs at character {i}: stored ...{stored[lo:i + 50]!r}... "
                    f"now ...{now[lo:i + 50]!r}...")
        return f"{path}: stored {_short(stored)} != now {_short(now)}"
    return None


def _short(x) -> str:
    s = json.dumps(x, sort_keys=True)
    return s if len(s) <= 300 else s[:300] + "..."


# -- main ----------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", metavar="ID",
                    help="only this game (repeatable); default: all of them")
    ap.add_argument("--out", type=Path, default=OUT_DIR, help=f"directory (default {OUT_DIR})")
    ap.add_argument("--check", action="store_true",
                    help="compare with the stored files instead of writing them")
    args = ap.parse_args(argv)
    known = games()
    ids = args.game or list(known)
    bad = [g for g in ids if g not in known]
    if bad:
        ap.error(f"unknown game(s) {', '.join(bad)}; the games are {', '.join(known)}")
    args.out.mkdir(parents=True, exist_ok=True)
    failed = 0
    for gid in ids:
        path = path_of(gid, args.out)
        if args.check:
            stored = json.loads(path.read_text())
            diff = first_difference(stored, build(gid, stored_positions(stored)))
            print(f"{gid}: {'ok' if diff is None else diff}")
            failed += diff is not None
        else:
            path.write_text(dumps(build(gid)))
            print(f"wrote {path}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))      # this checkout's catsearch, not an installed one
    sys.exit(main())
