"""Random playouts: catsearch's loop against plain C loops, side by side, as ratios.

    python benchmarks/playouts_vs_c.py [--game herding-cats cat-earth] [--players 2 3 4]
                                       [--rounds 5] [--games N] [--cflags "-O3 -march=native"]

``c_reference/herding_cats.c`` and ``c_reference/cat_earth.c`` play each game's uniformly
random games in one C file (the same deal, legal moves in the same order, the same Zobrist
hash, the same random draws; Cat Earth with ``setup=random``, as ``benchmarks/playouts.py``).
Each is compiled here with the flags catsearch's extensions get (the interpreter's ``CFLAGS``
then ``-O2 -g0``, as ``setup.py``; ``--cflags`` appends more), once with the hash and once
without (``-DREF_NO_HASH``).

Two comparisons, per game and player count:

* ``cs, hash`` against ``C``: catsearch's loop with every move through the state contract
  (``legal_moves_c`` and ``apply_c``, virtual calls, keeping the incremental hash: how a
  search moves down its tree), ``play_random_games(..., hashed=True)``, against the C loop
  with the hash;
* ``catsearch`` against ``C, no hash``: the playout a search runs below its tree and
  ``catsearch.benchmark_playouts`` measures (``random_playout``: the game's ``playout_c``,
  on a search's own copy; nobody reads a playout's hash, and Herding Cats' own loop keeps
  none) against the C loop without the hash.

The four loops run in alternation in one process, ``--rounds`` times each, and the best round
of each counts. Before timing, every loop must count the same moves for the same seed, and
one game per player count must end with the same hash in catsearch and in the C loop (the
script stops otherwise: they would not be playing the same games). Printed: nanoseconds a
move and catsearch's speed as a fraction of the C loop's (1.0: as fast; issue 39 asks for at
least 0.85).
"""
import argparse
import ctypes
import os
import shlex
import subprocess
import sys
import sysconfig
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

import catsearch  # noqa: E402
from catsearch._core.counting import play_random_games  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# game -> (C file, its entry point, catsearch's options, games a round by default)
REFERENCES = {
    "herding-cats": ("herding_cats.c", "hc_random_games", {}, 20000),
    "cat-earth": ("cat_earth.c", "ce_random_games", {"setup": "random"}, 400),
}
MASK = (1 << 64) - 1


def compile_c(source, out_dir, *defines, extra=()):
    """Compile a C file of ``c_reference`` into a shared library in ``out_dir`` with the
    extensions' flags (and ``extra`` after them); return it loaded with ctypes."""
    cc = shlex.split(sysconfig.get_config_var("CC") or "cc")
    cflags = shlex.split(sysconfig.get_config_var("CFLAGS") or "")
    name = (os.path.splitext(os.path.basename(source))[0]
            + "".join(d.lower() for d in defines) + ".so")
    path = os.path.join(out_dir, name)
    cmd = cc + cflags + ["-O2", "-g0", *extra, "-shared", "-fPIC",
                         *[f"-D{d}" for d in defines], source, "-o", path]
    subprocess.run(cmd, check=True)
    return ctypes.CDLL(path)


def build(out_dir, *defines, game="herding-cats", extra=()):
    """Compile ``game``'s reference into a shared library; return its entry point."""
    cfile, entry = REFERENCES[game][:2]
    lib = compile_c(os.path.join(HERE, "c_reference", cfile), out_dir, *defines, extra=extra)
    fn = getattr(lib, entry)
    fn.restype = ctypes.c_longlong
    fn.argtypes = [ctypes.c_int, ctypes.c_longlong, ctypes.c_uint64,
                   ctypes.POINTER(ctypes.c_uint64)]
    return fn


def run_c(fn, players, games, seed):
    h = ctypes.c_uint64()
    t0 = time.perf_counter()
    moves = fn(players, games, seed, ctypes.byref(h))
    return moves, time.perf_counter() - t0, h.value


def run_catsearch(game, players, games, seed, hashed=False):
    """catsearch's loop: ``benchmark_playouts``'s (``random_playout``), or (``hashed``) every
    move through ``legal_moves_c``/``apply_c``, keeping the hash."""
    if not hashed:
        r = catsearch.benchmark_playouts(game, players, games=games, seed=seed,
                                         **REFERENCES[game][2])
        return r["moves"], r["seconds"]
    template = catsearch.new_game(game, players, seed, **REFERENCES[game][2])
    return play_random_games(template, games, seed, True)


def _splitmix(s):
    s = (s + 0x9E3779B97F4A7C15) & MASK
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return s, z ^ (z >> 31)


def catsearch_game_hash(game, players, seed):
    """The hash at the end of the first game ``play_random_games(seed)`` plays, replayed
    through catsearch's Python API (the same deal seed and the same draws)."""
    _, deal_seed = _splitmix(seed)
    st = catsearch.new_game(game, players, seed=deal_seed, **REFERENCES[game][2])
    play = seed ^ 0x5DEECE66D
    while not st.is_terminal():
        moves = st.legal_moves()
        play, z = _splitmix(play)
        st.apply(moves[((z >> 32) * len(moves)) >> 32])
    return st.hash


def check_same_games(game, players, loops, games, seed):
    """Stop unless every loop counts the same moves and the first game's hash agrees."""
    counts = {label: run_c(fn, players, games, seed)[0] for label, fn in loops.items()}
    counts["catsearch"] = run_catsearch(game, players, games, seed)[0]
    counts["catsearch, hash"] = run_catsearch(game, players, games, seed, True)[0]
    if len(set(counts.values())) != 1:
        sys.exit(f"{game}, {players} players: the loops played different games: {counts}")
    c_hash = run_c(loops["C"], players, 1, seed)[2]
    py_hash = catsearch_game_hash(game, players, seed)
    if c_hash != py_hash:
        sys.exit(f"{game}, {players} players: the C loop's hash {c_hash:#x} is not "
                 f"catsearch's {py_hash:#x}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", nargs="+", default=list(REFERENCES), choices=list(REFERENCES))
    ap.add_argument("--games", type=int, default=None,
                    help="games a round (default: 20000 Herding Cats, 400 Cat Earth)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cflags", default="", help="more C flags for the C loops")
    args = ap.parse_args(argv)
    extra = shlex.split(args.cflags)
    print(f"{'game':<13} {'players':>7} {'loop':<10} {'ns/move':>8} {'catsearch/C':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.game:
            games = args.games or REFERENCES[game][3]
            loops = {"C": build(tmp, game=game, extra=extra),
                     "C, no hash": build(tmp, "REF_NO_HASH", game=game, extra=extra)}
            for players in args.players:
                check_same_games(game, players, loops, min(games, 50), args.seed)
                best = {}
                for r in range(args.rounds):
                    for label, fn in loops.items():
                        moves, sec, _ = run_c(fn, players, games, args.seed)
                        best[label] = min(best.get(label, sec), sec)
                    for label, hashed in (("catsearch", False), ("cs, hash", True)):
                        moves, sec = run_catsearch(game, players, games, args.seed, hashed)
                        best[label] = min(best.get(label, sec), sec)
                    print(f"  {game} round {r + 1}/{args.rounds} ({players} players)",
                          file=sys.stderr, flush=True)
                ns = {label: sec * 1e9 / moves for label, sec in best.items()}
                for label, against in (("cs, hash", None), ("C", "cs, hash"),
                                       ("catsearch", None), ("C, no hash", "catsearch")):
                    ratio = "" if against is None else f"{ns[label] / ns[against]:.2f}"
                    print(f"{game:<13} {players:>7} {label:<10} {ns[label]:>8.1f} {ratio:>12}",
                          flush=True)


if __name__ == "__main__":
    main()
