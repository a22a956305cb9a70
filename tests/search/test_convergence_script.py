"""benchmarks/convergence.py: each budget's move is scored against the reference search's
own means (the reference's move loses nothing), a rerun with the same --out resumes, and a
bad searcher spec is refused before any search."""
import json
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "convergence.py"
ARGS = ["--positions", "3", "--budgets", "20,50", "--reference", "400", "--seeds", "2"]


@pytest.fixture(scope="module")
def convergence(load_script):
    return load_script(SCRIPT)


def test_moves_are_scored_by_the_reference_means(convergence, tmp_path, capsys):
    out = tmp_path / "cv.jsonl"
    assert convergence.main([*ARGS, "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 3
    for row in rows:
        assert row["legal"] > 1
        for budget in ("20", "50"):
            assert len(row["budgets"][budget]) == 2
            for move, loss in row["budgets"][budget]:
                assert move != row["reference"] or loss == 0.0
    table = capsys.readouterr().out
    assert "3 positions" in table and "    50 " in table.replace(",", "")


def test_the_positions_are_the_same_every_run(convergence):
    first = convergence.positions("the-cat", 2, 3, 23)
    assert [s.to_text() for s in first] == [
        s.to_text() for s in convergence.positions("the-cat", 2, 3, 23)]


def test_a_rerun_resumes(convergence, tmp_path, monkeypatch):
    out = tmp_path / "cv.jsonl"
    convergence.main([*ARGS[:1], "2", *ARGS[2:], "--out", str(out)])
    first = out.read_text()
    searched = []
    real = convergence.measure
    monkeypatch.setattr(convergence, "measure", lambda *a: searched.append(1) or real(*a))
    convergence.main([*ARGS, "--out", str(out)])
    assert len(searched) == 1                     # only the third position
    assert out.read_text().startswith(first)


def test_a_bad_searcher_is_refused(convergence, capsys):
    with pytest.raises(SystemExit):
        convergence.main(["--searcher", "ismcts:bogus=1"])
    assert "bogus" in capsys.readouterr().err
