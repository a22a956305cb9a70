"""benchmarks/value_of_information.py: the oracle's game loop gives only the oracle's seat
the view that shows every hand, a rerun resumes from its file, and the table counts whole
deal groups with the arena's statistics."""
import json
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "value_of_information.py"


@pytest.fixture(scope="module")
def voi(load_script):
    return load_script(SCRIPT)


def test_only_the_oracles_seat_sees_every_hand(voi, monkeypatch):
    seen = []

    class Spy:
        def __init__(self, player):
            self.player = player

        def choose_move(self, view):
            seat = view.view_seat
            other = view.cards()[f"hand{1 - seat}"]
            seen.append((seat, "?" not in other))
            return self.player.choose_move(view)

    real = voi.make_player
    monkeypatch.setattr(voi, "make_player", lambda spec: Spy(real(spec)))
    r = voi.play("herding-cats", 2, "ismcts:iterations=20", 1, 0, 1)
    assert {shown for seat, shown in seen if seat == 1} == {True}
    assert {shown for seat, shown in seen if seat == 0} == {False}
    assert r["oracle"] == 1 and sum(r["returns"]) == pytest.approx(1.0)


def test_a_rerun_resumes_and_the_table_counts_whole_groups(voi, tmp_path, capsys):
    out = tmp_path / "voi.jsonl"
    argv = ["--games", "herding-cats", "--players", "2", "--groups", "2", "--searcher",
            "ismcts:iterations=20", "--out", str(out)]
    assert voi.main(argv) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 4                                     # 2 groups x 2 seats
    assert voi.main(argv) == 0
    assert out.read_text().splitlines() == lines               # nothing played again
    recs = [json.loads(x) for x in lines]
    c = voi.cell_summary(recs[:3], 2)                          # group 1 unfinished
    assert c["groups"] == 1 and c["games"] == 2
    first = [r for r in recs if r["group"] == 0]
    want = sum(voi.head_to_head(r["returns"], r["oracle"], 1 - r["oracle"]) for r in first) / 2
    assert c["score"].value == pytest.approx(want)
    assert "herding-cats" in capsys.readouterr().out


def test_against_other_opponents_the_measured_seat_sees_its_view_and_follows_the_game(voi):
    """``--opponent heuristic --fair``: the measured seat gets only its own view, the others
    play the opponent's spec, and a policy searcher is told every move (its belief updated)."""
    from catsearch.search.mcts import ISMCTS
    seen, players = [], []
    real = voi.make_player

    def spy(spec):
        p = real(spec)
        players.append(p)
        if isinstance(p, ISMCTS):
            choose = p.choose_move

            def choose_move(view):
                seen.append(view.cards()[f"hand{1 - view.view_seat}"])
                return choose(view)
            p.choose_move = choose_move
        return p

    voi.make_player = spy
    try:
        r = voi.play("herding-cats", 2, "ismcts:iterations=20,inference=policy,particles=16",
                     1, 0, 1, opponent="heuristic", hands=False)
    finally:
        voi.make_player = real
    assert seen and all(set(h) <= {"?"} for h in seen)         # never another seat's hand
    assert [type(p).__name__ for p in players] == ["HeuristicPlayer", "ISMCTS"]
    assert players[1].belief is not None and players[1].belief.stats()["updates"] >= r["moves"] - 2
    assert r["opponent"] == "heuristic" and r["hands"] is False


def test_cells_with_other_opponents_are_kept_apart_and_the_gap_share_is_paired(voi, tmp_path):
    out = tmp_path / "voi.jsonl"
    base = ["--games", "herding-cats", "--players", "2", "--groups", "2", "--out", str(out),
            "--searcher", "ismcts:iterations=20"]
    assert voi.main(base) == 0
    assert voi.main(base + ["--opponent", "heuristic"]) == 0
    assert voi.main(base + ["--opponent", "heuristic", "--fair"]) == 0
    done = voi.load(str(out))
    assert len(done) == 12                                     # three cells of 4 games
    cells = voi.cells(done, 1, ["herding-cats"], [2])
    assert {(k[3], k[4]) for k in cells} == {(None, True), ("heuristic", True),
                                             ("heuristic", False)}
    base_, oracle = {0: (1.0, 2), 1: (1.0, 2)}, {0: (2.0, 2), 1: (1.5, 2)}
    v, lo, hi, m = voi.gap_closed(base_, oracle, oracle)
    assert (v, m) == (pytest.approx(1.0), 2)
    v, lo, hi, m = voi.gap_closed(base_, oracle, base_)
    assert v == pytest.approx(0.0)
