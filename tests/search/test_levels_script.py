"""benchmarks/levels.py: it measures each step of a game's own ladder (or of a candidate
given with --rungs), a rerun with --record takes the steps already measured instead of
playing them again, and --doc writes each game's table into its own part of the page,
leaving the other games' parts as they were."""
import json
from pathlib import Path

import pytest

from catsearch.search.ladder import ladder

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "levels.py"


@pytest.fixture(scope="module")
def levels(load_script):
    return load_script(SCRIPT)


@pytest.fixture
def played(levels, monkeypatch):
    """The steps measured, as (game, the two specs); each a fake +100 Elo step."""
    calls = []

    def measure(game, rungs, level, groups, jobs, seed):
        calls.append((game, levels.spec(rungs[level - 1]), levels.spec(rungs[level - 2])))
        return {"level": level, "elo": 100.0, "low": 50.0, "high": 150.0,
                "games": 2 * groups, "failures": 0}

    monkeypatch.setattr(levels, "measure_step", measure)
    return calls


def test_each_game_plays_its_own_ladder(levels, played, capsys):
    assert levels.main(["--games", "cat-cards,herding-cats", "--groups", "2",
                        "--levels", "2-3"]) == 0
    cc, hc = ladder("cat-cards"), ladder("herding-cats")
    assert played == [("cat-cards", levels.spec(cc[1]), levels.spec(cc[0])),
                      ("cat-cards", levels.spec(cc[2]), levels.spec(cc[1])),
                      ("herding-cats", levels.spec(hc[1]), levels.spec(hc[0])),
                      ("herding-cats", levels.spec(hc[2]), levels.spec(hc[1]))]
    out = capsys.readouterr().out
    assert "cat-cards L3 vs L2: +100 [+50, +150] in 4 games" in out
    assert f"{cc[2].iterations} iterations, t={cc[2].temperature:g}" in out
    assert "+200 ± 71" in out           # two steps of ±50 added in quadrature


def test_a_candidate_ladder_is_played_and_the_real_spec_plays_it(levels, played):
    rungs = ",".join(f"{k + 1}:{k / 10:g}" for k in range(10))
    levels.main(["--games", "the-cat", "--groups", "1", "--levels", "5", "--rungs", rungs])
    assert played == [("the-cat", "level:n=5,iterations=5,temperature=0.4",
                       "level:n=4,iterations=4,temperature=0.3")]
    import catsearch
    p = catsearch.make_player(played[0][1])
    st = catsearch.new_game("the-cat", players=2, seed=1)
    assert (p.rung_for(st).iterations, p.rung_for(st).temperature) == (5, 0.4)
    with pytest.raises(SystemExit, match="declare the rungs"):
        levels.main(["--games", "the-cat", "--rungs", rungs, "--doc"])
    with pytest.raises(SystemExit, match="10 levels, not 2"):
        levels.main(["--rungs", "4:1,8:1"])


def test_a_rerun_with_a_record_goes_on_where_it_stopped(levels, played, tmp_path):
    record = tmp_path / "steps.jsonl"
    levels.main(["--games", "cat-cards", "--groups", "2", "--levels", "2-3",
                 "--record", str(record)])
    assert len(played) == 2 and len(record.read_text().splitlines()) == 2
    levels.main(["--games", "cat-cards", "--groups", "2", "--levels", "2-4",
                 "--record", str(record)])
    assert len(played) == 3 and played[-1][1] == levels.spec(ladder("cat-cards")[3])
    # other groups are another measurement: played again
    levels.main(["--games", "cat-cards", "--groups", "3", "--levels", "2",
                 "--record", str(record)])
    assert len(played) == 4


def test_the_doc_keeps_the_games_not_measured(levels, played, tmp_path, monkeypatch):
    page = tmp_path / "play.rst"
    page.write_text(f"Intro\n\n{levels.START}\n\nold\n\n{levels.END}\n\nAfter\n")
    monkeypatch.setattr(levels, "DOC", page)
    levels.main(["--games", "cat-earth", "--groups", "2", "--levels", "2", "--doc"])
    levels.main(["--games", "herding-cats", "--groups", "2", "--levels", "2", "--doc"])
    levels.main(["--games", "cat-earth", "--groups", "3", "--levels", "2", "--doc",
                 "--record", str(tmp_path / "steps.jsonl")])
    text = page.read_text()
    assert text.startswith("Intro\n\n") and text.endswith(f"{levels.END}\n\nAfter\n")
    assert "old" not in text
    hc, ce = text.index(".. levels: herding-cats"), text.index(".. levels: cat-earth")
    assert hc < ce                                 # in the order of catsearch.GAMES
    assert text.count("**cat-earth**") == 1 and "--groups 3" in text[ce:]
    assert "--groups 2 --levels 2 --doc``" in text[hc:ce]
    assert "--groups 3 --levels 2 --doc``" in text[ce:]      # not where it kept its steps
    assert f"\n\n{levels.END}" in text


def test_an_interrupt_keeps_the_steps_done(levels, monkeypatch, tmp_path, capsys):
    record = tmp_path / "steps.jsonl"

    def measure(game, rungs, level, groups, jobs, seed):
        if level == 3:
            raise KeyboardInterrupt
        return {"level": level, "elo": 10.0, "low": 0.0, "high": 20.0, "games": 2,
                "failures": 0}

    monkeypatch.setattr(levels, "measure_step", measure)
    assert levels.main(["--games", "cat-cards", "--groups", "1", "--levels", "2-4",
                        "--record", str(record)]) == 130
    assert f"interrupted at cat-cards level 3; the steps measured are in {record}" in \
        capsys.readouterr().err
    assert [json.loads(x)["level"] for x in record.read_text().splitlines()] == [2]
