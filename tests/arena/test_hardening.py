"""The arena leaves nothing behind and trusts no results file (issue 33, item 8): SIGTERM
with two workers ends it promptly every time, SIGKILL takes its workers and the resource
tracker with it, every line of a results file is checked (an error names the file and the
line), and one results file is used by one run at a time. Every process is real, every wait
bounded."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from catsearch.arena import load_results
from catsearch.arena.cli import main
from catsearch.arena.results import ResultsFile, ResultsFileError

from tests.arena.test_cli import PACKAGE_ROOT, _alive, _children, _games_in

GAME = "herding-cats"
ENV = dict(os.environ, PYTHONPATH=PACKAGE_ROOT)


def _arena(out, tmp_path, groups=400):
    cmd = [sys.executable, "-m", "catsearch.arena", "match", GAME, "random", "heuristic",
           "--groups", str(groups), "--seed", "3", "-j", "2", "--out", str(out), "-q"]
    return subprocess.Popen(cmd, cwd=str(tmp_path), env=ENV, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)


def _wait_for_games(proc, out, n=1, limit=60.0):
    deadline = time.monotonic() + limit
    while _games_in(out) < n and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.02)


def _sigterm_trials(tmp_path, trials):
    for t in range(trials):
        out = tmp_path / f"t{t}.jsonl"
        proc = _arena(out, tmp_path)
        try:
            _wait_for_games(proc, out)
            time.sleep(0.05 * (t % 7))            # at different points of the games
            kids = _children(proc.pid)
            proc.send_signal(signal.SIGTERM)
            code = proc.wait(timeout=15)          # it hung in Queue._finalize_join before
            assert code == 130, proc.stderr.read()
            deadline = time.monotonic() + 30
            while any(_alive(k) for k in kids) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert not [k for k in kids if _alive(k)], f"trial {t}: a process outlived it"
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        config, records = load_results(out)      # what was saved reads back, each game once
        assert len({r["game"] for r in records}) == len(records) >= 1


def test_sigterm_with_two_workers_ends_the_arena_promptly(tmp_path):
    _sigterm_trials(tmp_path, 3)


@pytest.mark.slow
def test_sigterm_with_two_workers_ends_the_arena_promptly_every_time(tmp_path):
    _sigterm_trials(tmp_path, 40)


def test_sigkill_takes_the_workers_and_the_resource_tracker_with_it(tmp_path):
    out = tmp_path / "k.jsonl"
    proc = _arena(out, tmp_path)
    kids = []
    try:
        _wait_for_games(proc, out)
        kids = _children(proc.pid)
        assert len(kids) >= 3, "two workers and multiprocessing's resource tracker"
        proc.kill()
        proc.wait(timeout=10)
        # a bound, not a measurement: on a loaded machine the workers' SIGTERM handlers and
        # the resource tracker's read of its closed pipe wait for a core
        deadline = time.monotonic() + 30
        while any(_alive(k) for k in kids) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [k for k in kids if _alive(k)], "processes outlived a killed arena"
    finally:
        for k in kids:
            if _alive(k):
                os.kill(k, signal.SIGKILL)


# -- results files ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def good_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("results") / "good.jsonl"
    assert main(["match", GAME, "random", "heuristic", "--groups", "2", "--out", str(path),
                 "-q"]) == 0
    return path.read_text().splitlines()


def _game(lines, k=0):
    return json.loads([s for s in lines if '"type":"game"' in s][k])


def _bad_lines(lines):
    """(name, the file's lines with one game line made bad, a word the error must hold)."""
    match = lines[0]
    g = _game(lines)
    out = [("missing fields", {"type": "game", "game": 79}, "no 'group'"),
           ("game 999", {**g, "game": 999}, "game 999 is not a game of this match"),
           ("game -1", {**g, "game": -1}, "game -1 is not a game"),
           ("game as a string", {**g, "game": "0"}, "'game' is malformed"),
           ("game as a bool", {**g, "game": True}, "'game' is malformed"),
           ("returns out of range", {**g, "returns": [2.0, -1.0]}, "'returns' is malformed"),
           ("returns too short", {**g, "returns": [1.0]}, "'returns' is malformed"),
           ("another game's deal", {**g, "deal_seed": g["deal_seed"] + 1}, "deal_seed"),
           ("entrants swapped", {**g, "entrants": g["entrants"][::-1]}, "entrants"),
           ("a failure of no seat", {**g, "failure": {"kind": "crash", "seat": 7}},
            "'failure' is malformed")]
    return [(name, [match, json.dumps(bad)], word) for name, bad, word in out] + [
        ("a list", [match, "[1, 2]"], "not a JSON object"),
        ("a duplicate", [match, lines[1], lines[1]], "game 0 again"),
        ("a bad config", ['{"type":"match","format":1,"config":{"game":5}}'], "match config")]


def test_every_bad_results_line_is_an_error_naming_the_line(good_file, tmp_path, capsys):
    for k, (name, lines, word) in enumerate(_bad_lines(good_file)):
        path = tmp_path / f"bad{k}.jsonl"
        path.write_text("\n".join(lines) + "\n")
        with pytest.raises(ResultsFileError, match=f"line {len(lines)}") as e:
            load_results(path)
        assert word in str(e.value), (name, str(e.value))
        assert main(["summary", str(path)]) == 2, name
        err = capsys.readouterr().err
        assert f"{path}, line {len(lines)}" in err and "Traceback" not in err, (name, err)


def test_a_good_file_reads_back_whole(good_file, tmp_path):
    path = tmp_path / "good.jsonl"
    path.write_text("\n".join(good_file) + "\n")
    config, records = load_results(path)
    assert [r["game"] for r in records] == list(range(config.total_games))


def test_one_results_file_is_used_by_one_run_at_a_time(good_file, tmp_path, capsys):
    path = tmp_path / "busy.jsonl"
    path.write_text("\n".join(good_file) + "\n")
    config, _ = load_results(path)
    holder = ResultsFile(path, config)          # another run holds it
    try:
        before = path.read_text()
        assert main(["match", GAME, "random", "heuristic", "--groups", "3", "--out", str(path),
                     "-q"]) == 2
        assert "in use by another catsearch-arena run" in capsys.readouterr().err
        assert path.read_text() == before        # nothing written, nothing cut
    finally:
        holder.close()
    assert main(["match", GAME, "random", "heuristic", "--groups", "3", "--out", str(path),
                 "-q"]) == 0                     # free again: it resumes
    assert len(load_results(path)[1]) == 6
