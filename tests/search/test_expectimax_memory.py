"""Expectimax frees what it holds (issue 18, item 5), and its node limit counts chance nodes.

The memory test runs in a subprocess: its resident set is measured alone.
"""
import subprocess
import sys
import textwrap

import pytest

import catsearch
from catsearch.search.expectimax import Expectimax
from catsearch.search.limits import Limits

SCRIPT = textwrap.dedent("""
    import gc, os, time
    import catsearch

    def rss_mb():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

    state = catsearch.new_game("herding-cats", players=3, seed=1)
    gc.disable()        # freed by reference counting alone: no cycle may hold a table
    t0 = time.perf_counter()
    for i in range(1000):
        player = catsearch.make_player("expectimax:depth=1,seed=1")
        player.search(state)
        if i % 2:
            player.close()      # closed or simply dropped: both free the table
        del player
        if i == 9:
            base = rss_mb()
    print(base, rss_mb(), time.perf_counter() - t0)
""")


def test_a_thousand_players_hold_no_memory():
    r = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    base, end, seconds = map(float, r.stdout.split())
    assert end - base <= 50, f"{end - base:.0f} MB more after 1000 players than after 10"


def test_the_table_is_allocated_by_the_first_search_and_freed_by_close():
    player = Expectimax(depth=1)
    assert not player._core.table_allocated          # a new player costs no table
    player.search(catsearch.new_game("cat-cards", 3, 2))
    assert player._core.table_allocated
    player.close()
    assert not player._core.table_allocated
    # usable again after close: the same search, the same result
    st = catsearch.new_game("cat-cards", 3, 2)
    assert Expectimax(depth=2, seed=1).search(st).move == player.search(st, limits=Limits(
        depth=2, seed=1)).move


def _positions(game_id):
    """Positions along a random game, every 7 plies."""
    import random
    rng = random.Random(7)
    st = catsearch.new_game(game_id, 3, 7)
    out = []
    while not st.is_terminal() and len(out) < 4:
        if st.ply % 7 == 3:
            out.append(st.clone())
        st.play(rng.choice(st.legal_moves()))
    return out


def test_the_node_limit_counts_chance_children():
    chance = {}
    for game_id in catsearch.GAMES:
        chance[game_id] = 0
        for st in _positions(game_id):
            for nodes in (1, 60, 500):
                player = Expectimax(nodes=nodes, seed=1)
                r = player.search(st)
                assert r.nodes <= nodes and r.move in st.legal_moves()
                assert player._core.chance_nodes <= r.nodes
                chance[game_id] += player._core.chance_nodes
    # chance children were met, and counted within the limit (Cat Earth's positions here
    # need none: its movers see their own cards)
    assert chance["herding-cats"] > 0 and chance["cat-cards"] > 0, chance
