"""``catsearch-arena tune``: SPSA over a searcher's numeric options (catsearch.arena.tune)."""
import json
import random

import pytest

from catsearch.arena.cli import main
from catsearch.arena.tune import SPSA, TuneConfig, TuneFileError, TuneParam, run_tune
from catsearch.search.spec import PlayerSpec

TEMPLATE = PlayerSpec.parse("ismcts:iterations=30,seed=3")


def test_spsa_finds_the_best_value_of_a_noisy_objective():
    """The algorithm alone, on a known objective: a player whose chance to score falls with
    the distance of its two options from (1.3, 0.2), measured by 32 noisy game outcomes a
    point (starting from the template's 0.7 and 0.5)."""
    params = (TuneParam.parse("exploration=0:3", TEMPLATE),
              TuneParam.parse("prior=0:1:0.1", TEMPLATE))
    spsa = SPSA(params, steps=300, seed=3)
    noise = random.Random(3)

    def points(theta):
        p = 0.7 - 0.3 * ((theta[0] - 1.3) ** 2 / 2 + (theta[1] - 0.2) ** 2)
        return sum(noise.random() < p for _ in range(32))

    assert spsa.theta == [0.7, 0.5]
    for k in range(1, 301):
        delta, plus, minus = spsa.perturb(k)
        spsa.update(k, delta, points(plus) - points(minus))
    assert abs(spsa.theta[0] - 1.3) < 0.3 and abs(spsa.theta[1] - 0.2) < 0.2, spsa.theta


def test_parameters_are_checked_against_the_players_declarations():
    p = TuneParam.parse("c=0.2:2", TEMPLATE)          # an alias, the full name kept
    assert (p.name, p.low, p.high, p.start, p.integer) == ("exploration", 0.2, 2.0, 0.7, False)
    assert p.c_end == pytest.approx(0.09)
    cut = TuneParam.parse("cutoff=0:40:2:0.1", TEMPLATE)
    assert cut.integer and cut.value(7.6) == 8 and cut.value(99) == 40
    assert TuneParam.parse("exploration=0.2:2", PlayerSpec.parse("ismcts:c=5")).start == 2.0
    # an option whose default is the game's starts from that game's value
    assert cut.start == 0 and TuneParam.parse("cutoff=0:40", TEMPLATE, "the-cat").start == 8
    for bad, kind, words in [
        ("nosuch=0:1", ValueError, "has no option 'nosuch'"),
        ("final=0:1", ValueError, "not a number"),
        ("exploration=1:0.5", ValueError, "empty"),
        ("exploration=0:x", ValueError, "are numbers"),
        ("exploration=-1:1", ValueError, "out of range"),
        ("exploration=0:1:0", ValueError, "> 0"),
        ("exploration", ValueError, "name=low:high"),
        (3, TypeError, "not int"),
    ]:
        with pytest.raises(kind, match=words):
            TuneParam.parse(bad, TEMPLATE)
    params = (TuneParam.parse("c=0.2:2", TEMPLATE),)
    with pytest.raises(ValueError, match="tuned twice"):
        TuneConfig("herding-cats", str(TEMPLATE), "random", params * 2)
    with pytest.raises(ValueError, match="steps=0"):
        TuneConfig("herding-cats", str(TEMPLATE), "random", params, steps=0)
    with pytest.raises(TypeError, match="groups"):
        TuneConfig("herding-cats", str(TEMPLATE), "random", params, groups=1.5)
    with pytest.raises(ValueError, match="unknown game"):
        TuneConfig("chess", str(TEMPLATE), "random", params)


def test_heuristic_weights_are_tuned_from_the_games_declarations():
    w = TuneParam.parse("weights.complete=50:150", TEMPLATE, "herding-cats")
    assert (w.name, w.start, w.integer) == ("weights.complete", 100.0, False)
    h = TuneParam.parse("weights.want=0:8", PlayerSpec.parse("heuristic"), "cat-cards")
    assert h.start == 0.0
    assert TuneParam.parse("weights.complete=50:150",
                           PlayerSpec.parse("ismcts:weights.complete=120"), "herding-cats"
                           ).start == 120.0
    with pytest.raises(ValueError, match="the-cat's heuristic has no weight 'complete'"):
        TuneParam.parse("weights.complete=50:150", TEMPLATE, "the-cat")
    with pytest.raises(ValueError, match="out of range"):     # the game's range: 0 to 1e6
        TuneParam.parse("weights.neutral_swap_every=-1:8", TEMPLATE, "the-cat")
    with pytest.raises(ValueError, match="random has no option 'weights.want'"):
        TuneParam.parse("weights.want=0:8", PlayerSpec.parse("random"), "cat-cards")


def small_config(steps=4):
    return TuneConfig("herding-cats", str(TEMPLATE), "random",
                      (TuneParam.parse("c=0.2:2:0.3:0.2", TEMPLATE),
                       TuneParam.parse("cutoff=0:20:3:0.5", TEMPLATE)), steps=steps, groups=1,
                      seed=15)   # a seed whose steps are not all ties


def test_a_tuning_is_saved_every_step_and_resumes_to_the_same_values(tmp_path):
    out = tmp_path / "tune.json"
    lines = []
    whole = run_tune(small_config(), out=str(out), progress=lines.append)
    assert len(whole.steps) == 4 and not whole.interrupted
    assert len(lines) == 4 and lines[-1].startswith("step 4/4")
    assert all(s["games"] == 6 for s in whole.steps)
    assert any(s["result"] != 0 for s in whole.steps), "every step was a tie: nothing tested"
    data = json.loads(out.read_text())
    assert data["spec"] == whole.spec and data["theta"] == whole.theta
    assert PlayerSpec.parse(whole.spec).get("iterations") == 30     # the template's own stay
    # cut the file after step 2, as an interrupted run leaves it: resuming plays steps 3-4
    # again, identically
    data["steps"] = data["steps"][:2]
    out.write_text(json.dumps(data))
    lines.clear()
    again = run_tune(small_config(), out=str(out), progress=lines.append)
    assert lines[0] == f"resuming after step 2 of 4 from {out}"
    assert [s["result"] for s in again.steps] == [s["result"] for s in whole.steps]
    assert again.theta == whole.theta and again.spec == whole.spec
    # another tuning's file is refused, and left as it was
    before = out.read_text()
    with pytest.raises(TuneFileError, match="another tuning"):
        run_tune(small_config(steps=5), out=str(out))
    assert out.read_text() == before


def test_the_command_line(tmp_path, capsys):
    out = tmp_path / "t.json"
    args = ["tune", "herding-cats", "ismcts:iterations=30,seed=3", "--param", "c=0.2:2",
            "--opponent", "random", "--steps", "2", "--groups", "1", "--out", str(out), "-q",
            "--json"]
    assert main(args) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["steps"] == 2 and shown["spec"].startswith("ismcts:")
    assert main(args[:-1] + ["--steps", "3"]) == 2       # not this file's tuning
    assert "holds another tuning" in capsys.readouterr().err
    assert main(["tune", "herding-cats", "ismcts", "--param", "c=2:1",
                 "--opponent", "random"]) == 2
    assert "empty" in capsys.readouterr().err
