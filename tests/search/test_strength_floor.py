"""The strength floor: every searcher and baseline, on every game, 2 and 3 players, scores
clearly above the random share against ``random`` players.

Each match is played by the arena on duplicate deals (every deal played with the player in
each seat, the others ``random``; with 3 seats the cyclic order is kept), with a fixed seed,
so the scores are the same on every run. A cell passes when its score reaches its floor and
the lower end of its 95% interval (clustered over deals) lies above the random share (1/2 or
1/3). The floors were set from measurement: the measured score and interval of each cell is
in ``FLOORS``' comments (``python tests/search/test_strength_floor.py`` measures them all
again), each floor a little under its measurement, and never below the random share plus a
margin.

The matrix takes every registered player but ``random`` (and aliases of the same class) and
every game in ``catsearch.GAMES``: a new game or searcher joins it with no new code, at its
default options unless ``SPECS`` gives it a budget for this test.
"""
from __future__ import annotations

import sys

import pytest

import catsearch
from catsearch.arena import run_match
from catsearch.search.spec import player_class, player_names, plugin_names

SEED = 1
GROUPS = {2: 20, 3: 12}

#: the budget a player is tested with (per game where the default does not suit)
SPECS = {
    "ismcts": "ismcts:iterations=300",
    "pimc": "pimc:iterations=300",
    "expectimax": "expectimax:depth=2",
    # the ladder's middle level (250 iterations, a soft final choice); its default, level
    # 10, searches up to 2 s a move
    "level": "level:n=6",
}
GAME_SPECS = {
    ("the-cat", "expectimax"): "expectimax:depth=1",
    ("the-cat", "ismcts"): "ismcts:iterations=200,cutoff=8",
    ("the-cat", "pimc"): "pimc:iterations=200,cutoff=8",
    ("cat-earth", "ismcts"): "ismcts:iterations=300,cutoff=20",
    ("cat-earth", "pimc"): "pimc:iterations=300,cutoff=20",
}

#: fewer deals where a game is long for its player (The Cat's expectimax: 3-5 s a game)
GAME_GROUPS = {("the-cat", "expectimax"): {2: 6, 3: 8}}
#: (game, player, seats) -> floor; the measured score [95% interval] in the comment
FLOORS: dict[tuple[str, str, int], float] = {}
#: where no floor was measured: the random share plus this
MARGIN = 0.15


def players() -> list[str]:
    # catsearch's own players: plugins (the OpenSpiel players of catsearch.interop, measured
    # by benchmarks/vs_openspiel.py) may need extras and are not held to these floors
    names = {getattr(player_class(name), "name", name) for name in player_names()
             if name not in plugin_names()}
    return sorted(names - {"random"})


def spec(game_id: str, name: str) -> str:
    return GAME_SPECS.get((game_id, name), SPECS.get(name, name))


def measure(game_id: str, name: str, seats: int) -> tuple[float, float, float]:
    result = run_match(game_id, [spec(game_id, name)] + ["random"] * (seats - 1), seats=seats,
                       groups=GAME_GROUPS.get((game_id, name), GROUPS)[seats], seed=SEED,
                       seatings="all" if seats == 2 else "rotate")
    s = result.summary["players"][0]["score"]
    return s["value"], s["low"], s["high"]


CELLS = [(g, p, n) for g in catsearch.GAMES for p in players() for n in (2, 3)]


@pytest.mark.slow
@pytest.mark.parametrize("game_id,name,seats", CELLS, ids=[f"{g}-{p}-{n}p" for g, p, n in CELLS])
def test_scores_clearly_above_random(game_id, name, seats):
    share = 1 / seats
    floor = FLOORS.get((game_id, name, seats), share + MARGIN)
    mean, low, high = measure(game_id, name, seats)
    assert mean >= floor and low > share, (
        f"{game_id}, {seats} players: {spec(game_id, name)} scored {mean:.3f} "
        f"[{low:.3f}, {high:.3f}] against random over {GROUPS[seats]} deals; its floor is "
        f"{floor:.2f} and the interval must lie above the random share {share:.3f}")


if __name__ == "__main__":
    import time
    for game_id, name, seats in CELLS:
        if sys.argv[1:] and game_id not in sys.argv[1:]:
            continue
        t0 = time.perf_counter()
        mean, low, high = measure(game_id, name, seats)
        print(f'    ("{game_id}", "{name}", {seats}): {mean:.3f} [{low:.3f}, {high:.3f}] '
              f'{time.perf_counter() - t0:.0f}s', flush=True)
