"""Random playouts of Herding Cats: catsearch's loop against a plain C loop, side by side.

    python benchmarks/playouts_vs_c.py [--games 20000] [--rounds 5] [--players 2 3 4]

``c_reference/herding_cats.c`` plays the same games in one C file (the same deal, legal
moves in the same order, the same hash, the same random draws): it is compiled here with the
flags catsearch's extensions get (the interpreter's ``CFLAGS`` then ``-O2 -g0``, as
``setup.py``), once with the hash and once without (``-DREF_NO_HASH``). The two loops run in
alternation in one process, ``--rounds`` times each, and the best round of each counts.
Both must count the same moves for the same seed (the script stops otherwise: then they
would not be playing the same games). Printed: nanoseconds a move and catsearch's speed as a
fraction of the C loop's (1.0: as fast; the issue asks for at least 0.8).
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

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "c_reference", "herding_cats.c")


def compile_c(source, out_dir, *defines):
    """Compile a C file of ``c_reference`` into a shared library in ``out_dir`` with the
    extensions' flags; return it loaded with ctypes."""
    cc = shlex.split(sysconfig.get_config_var("CC") or "cc")
    cflags = shlex.split(sysconfig.get_config_var("CFLAGS") or "")
    name = (os.path.splitext(os.path.basename(source))[0]
            + "".join(d.lower() for d in defines) + ".so")
    path = os.path.join(out_dir, name)
    cmd = cc + cflags + ["-O2", "-g0", "-shared", "-fPIC", *[f"-D{d}" for d in defines],
                         source, "-o", path]
    subprocess.run(cmd, check=True)
    return ctypes.CDLL(path)


def build(out_dir, *defines):
    """Compile the reference into a shared library; return it loaded with ctypes."""
    lib = compile_c(SOURCE, out_dir, *defines)
    lib.hc_random_games.restype = ctypes.c_longlong
    lib.hc_random_games.argtypes = [ctypes.c_int, ctypes.c_longlong, ctypes.c_uint64,
                                    ctypes.POINTER(ctypes.c_uint64)]
    return lib


def run_c(lib, players, games, seed):
    h = ctypes.c_uint64()
    t0 = time.perf_counter()
    moves = lib.hc_random_games(players, games, seed, ctypes.byref(h))
    return moves, time.perf_counter() - t0


def run_catsearch(players, games, seed):
    r = catsearch.benchmark_playouts("herding-cats", players, games=games, seed=seed)
    return r["moves"], r["seconds"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        loops = {"C": build(tmp), "C, no hash": build(tmp, "REF_NO_HASH")}
        print(f"{'players':>7} {'loop':<12} {'ns/move':>8} {'catsearch/C':>12}")
        for players in args.players:
            best = {}
            for r in range(args.rounds):
                for label, lib in loops.items():
                    moves, sec = run_c(lib, players, args.games, args.seed)
                    best.setdefault(label, []).append((sec, moves))
                moves, sec = run_catsearch(players, args.games, args.seed)
                best.setdefault("catsearch", []).append((sec, moves))
                print(f"  round {r + 1}/{args.rounds} ({players} players)", file=sys.stderr,
                      flush=True)
            counts = {label: runs[0][1] for label, runs in best.items()}
            if len(set(counts.values())) != 1:
                sys.exit(f"the loops played different games: moves {counts}")
            ns = {label: min(runs)[0] * 1e9 / runs[0][1] for label, runs in best.items()}
            for label in ("catsearch", "C", "C, no hash"):
                ratio = "" if label == "catsearch" else f"{ns[label] / ns['catsearch']:.2f}"
                print(f"{players:>7} {label:<12} {ns[label]:>8.1f} {ratio:>12}", flush=True)


if __name__ == "__main__":
    main()
