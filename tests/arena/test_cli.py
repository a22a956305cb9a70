"""catsearch-arena from the command line: match, summary, replay, sweep, Ctrl-C and resume."""

import json
import os
import signal
import struct
import subprocess
import sys
import time
import zlib

import pytest

import catsearch
from catsearch.arena.cli import main
from catsearch.arena.sweep import run_sweep

GAME = "herding-cats"
# where the catsearch these tests import lives (a checkout built in place, or site-packages)
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(catsearch.__file__)))


def test_match_summary_replay(tmp_path, capsys):
    out = str(tmp_path / "m.jsonl")
    assert main(["match", GAME, "heuristic", "random", "--groups", "5", "--seed", "2",
                 "--out", out, "-q"]) == 0
    table = capsys.readouterr().out
    assert "heuristic" in table and "Elo of heuristic vs random" in table
    assert main(["summary", out]) == 0
    assert capsys.readouterr().out.strip() == table.strip()
    assert main(["summary", out, "--json"]) == 0
    summ = json.loads(capsys.readouterr().out)
    assert summ["games"]["counted"] == 10
    assert main(["replay", out, "3", "--verify"]) == 0
    text = capsys.readouterr().out
    assert "game 3" in text and "verify: playing the game again gives the same" in text
    assert main(["replay", out, "99"]) == 2
    assert "game 99 is not in" in capsys.readouterr().err


def _group_sums(path, label):
    """Per deal group, the points ``label`` took, read from the game lines themselves."""
    sums = {}
    with open(path) as f:
        for line in f:
            obj = json.loads(line)
            if obj["type"] == "game":
                seat = obj["seats"].index(label)
                sums[obj["group"]] = sums.get(obj["group"], 0.0) + obj["returns"][seat]
    return [sums[g] for g in sorted(sums)]


def test_summary_pools_runs_on_other_seeds_by_deal_group(tmp_path, capsys):
    from catsearch.arena.results import pool_results
    from catsearch.arena.stats import clustered_mean
    runs = []
    for seed, groups in ((2, 3), (3, 4)):
        out = str(tmp_path / f"s{seed}.jsonl")
        assert main(["match", GAME, "heuristic", "ismcts:iterations=20", "--groups", str(groups),
                     "--seed", str(seed), "--out", out, "-q"]) == 0
        runs.append(out)
    capsys.readouterr()
    assert main(["summary", *runs, "--json"]) == 0
    summ = json.loads(capsys.readouterr().out)
    assert summ["games"]["counted"] == 14 and summ["games"]["groups_counted"] == 7
    assert [(f["seed"], f["groups"]) for f in summ["pooled"]] == [(2, 3), (3, 4)]
    # seven clusters of two games, not one run's groups 0-3 counted twice
    want = clustered_mean(_group_sums(runs[0], "heuristic") + _group_sums(runs[1], "heuristic"),
                          [2] * 7, bounds=(0.0, 1.0))
    got = summ["players"][0]["score"]
    assert got["value"] == pytest.approx(want.value) and got["low"] == pytest.approx(want.low)
    assert main(["summary", *runs]) == 0
    assert "seeds 2, 3 (2 files pooled): 14 games counted in 7 deal groups" in capsys.readouterr().out
    assert main(["summary", runs[0]]) == 0
    assert "pooled" not in capsys.readouterr().out
    config, records, files = pool_results(runs[1])      # one path alone: that file
    assert config.seed == 3 and len(records) == 8 and len(files) == 1
    with pytest.raises(ValueError, match="at least one results file"):
        pool_results([])


def test_summary_refuses_runs_that_are_not_one_match(tmp_path, capsys):
    a, b, c = (str(tmp_path / f"{n}.jsonl") for n in "abc")
    assert main(["match", GAME, "heuristic", "random", "--groups", "2", "--seed", "2",
                 "--out", a, "-q"]) == 0
    assert main(["match", GAME, "heuristic", "ismcts:iterations=20", "--groups", "2",
                 "--seed", "3", "--out", b, "-q"]) == 0
    assert main(["match", GAME, "heuristic", "random", "--groups", "3", "--seed", "4",
                 "--on-failure", "void", "--out", c, "-q"]) == 0
    capsys.readouterr()
    assert main(["summary", a, b]) == 2
    assert "differ in entrants; only seed and groups may differ" in capsys.readouterr().err
    assert main(["summary", a, c]) == 2
    assert f"{c} is not the same match as {a}: they differ in on_failure" in capsys.readouterr().err
    assert main(["summary", a, a]) == 2
    assert "both played with seed 2: the same deals, counted twice" in capsys.readouterr().err


def test_cli_errors_name_the_problem(tmp_path, capsys):
    assert main(["match", GAME, "heuristic", "nobody", "-q"]) == 2
    assert "unknown player 'nobody'" in capsys.readouterr().err
    assert main(["match", GAME, "heuristic", "random", "--sprt", "elo1=x", "-q"]) == 2
    assert "not a number" in capsys.readouterr().err
    assert main(["match", GAME, "heuristic", "random", "--setoption", "bob:Seed=1", "-q"]) == 2
    assert "no player is labelled 'bob'" in capsys.readouterr().err


def test_sprt_from_the_cli(tmp_path, capsys):
    out = str(tmp_path / "sprt.jsonl")
    assert main(["match", GAME, "heuristic", "random", "--sprt", "elo0=0,elo1=150", "-q",
                 "--out", out]) == 0
    table = capsys.readouterr().out
    assert "H1 accepted" in table
    assert main(["summary", out]) == 0            # one file: its SPRT is read again
    assert capsys.readouterr().out.strip() == table.strip()


def _games_in(path):
    if not os.path.exists(path):
        return 0
    with open(path) as f:
        return sum(1 for line in f if '"type":"game"' in line)


@pytest.mark.parametrize("jobs", [pytest.param("1", marks=pytest.mark.slow), "2"])
def test_ctrl_c_saves_what_is_done_and_the_rerun_resumes(tmp_path, jobs, strip_timings):
    plugin = os.path.join(os.path.dirname(__file__), "plugin_players.py")
    out = str(tmp_path / "int.jsonl")
    cmd = [sys.executable, "-m", "catsearch.arena", "match", GAME, "slow:ms=5", "heuristic",
           "--import", plugin, "--groups", "6", "--seed", "5", "--out", out, "-j", jobs]
    env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT)
    proc = subprocess.Popen(cmd, cwd=str(tmp_path), env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 60
    while _games_in(out) < 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)          # as a terminal's Ctrl-C: the whole group
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr and "run the same command to resume" in stderr
    done = _games_in(out)
    assert 2 <= done < 12
    assert "(interrupted" in stdout
    # the rerun plays only what is missing, and the whole equals an uninterrupted match
    rerun = subprocess.run(cmd + ["-q"], cwd=str(tmp_path), env=env, capture_output=True, text=True,
                           timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    from catsearch.arena import load_results, run_match
    config, records = load_results(out)
    assert len(records) == 12
    whole = run_match(config.with_(), concurrency=1)
    assert strip_timings(records) == strip_timings(whole.records)


def _children(pid):
    """The pids of the processes ``pid`` started (Linux's /proc)."""
    kids = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            kids += [int(k) for k in f.read().split()]
    return kids


def _alive(pid):
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_sigterm_stops_the_workers_and_saves_what_is_done(tmp_path):
    """``kill`` (SIGTERM) to the arena alone, as a job scheduler sends it: the worker
    processes stop with it, the games done are saved, and the rerun resumes."""
    plugin = os.path.join(os.path.dirname(__file__), "plugin_players.py")
    out = str(tmp_path / "term.jsonl")
    cmd = [sys.executable, "-m", "catsearch.arena", "match", GAME, "slow:ms=5", "heuristic",
           "--import", plugin, "--groups", "6", "--seed", "5", "--out", out, "-j", "2"]
    env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT)
    err = tmp_path / "stderr.txt"
    with open(err, "w") as stderr:      # a file, not a pipe: orphans must not hold it open
        proc = subprocess.Popen(cmd, cwd=str(tmp_path), env=env, stdout=subprocess.DEVNULL,
                                stderr=stderr)
    workers = []
    try:
        deadline = time.monotonic() + 60
        while _games_in(out) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        workers = _children(proc.pid)
        assert workers, "the match runs its games in worker processes"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 130, err.read_text()
        assert "interrupted" in err.read_text()
        deadline = time.monotonic() + 10
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [w for w in workers if _alive(w)], "worker processes outlived the arena"
    finally:
        for pid in [proc.pid] + workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
    assert 2 <= _games_in(out) < 12
    rerun = subprocess.run(cmd + ["-q"], cwd=str(tmp_path), env=env, capture_output=True,
                           text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert _games_in(out) == 12


def _check_png(path):
    """A valid PNG: the signature, every chunk's CRC, IHDR first, IEND last, and image data
    that inflates to the size IHDR announces. Returns (width, height)."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, kinds, w, h, channels = 8, b"", [], 0, 0, 0
    while pos < len(data):
        n = struct.unpack(">I", data[pos:pos + 4])[0]
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + n]
        crc = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0]
        assert crc == zlib.crc32(kind + body) & 0xFFFFFFFF, kind
        kinds.append(kind)
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8
            channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    assert kinds[0] == b"IHDR" and kinds[-1] == b"IEND"
    assert len(zlib.decompress(idat)) == h * (1 + channels * w)
    return w, h


def test_sweep_writes_a_plot(tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt
    res = run_sweep(GAME, "ismcts:iterations={}", [4, 16, 64], "random", groups=3, seed=1,
                    out_dir=str(tmp_path / "sw"), plot=str(tmp_path / "sweep.png"))
    assert [p["budget"] for p in res.points] == [4, 16, 64]
    assert all(p["games"] == 6 for p in res.points)
    assert all("elo" in p for p in res.points)
    assert res.plot == str(tmp_path / "sweep.png") and res.plot_error is None
    assert _check_png(tmp_path / "sweep.png") == (640, 400)
    pixels = plt.imread(str(tmp_path / "sweep.png"))
    assert (pixels[..., :3] < 0.5).any() and (pixels[..., :3] > 0.9).any()  # drawn on white
    saved = json.loads((tmp_path / "sw" / "sweep.json").read_text())
    assert saved["points"] == json.loads(json.dumps(res.points))
    assert saved["plot"] == res.plot
    assert "budget sweep" in res.table() and f"plot: {res.plot}" in res.table()
    # the same deals for every budget
    seeds = [[r["deal_seed"] for r in m.records] for m in res.matches]
    assert seeds[0] == seeds[1] == seeds[2]


def test_sweep_without_matplotlib_says_how_to_get_it(tmp_path, capsys, monkeypatch):
    """With matplotlib missing, the sweep still plays, prints and saves everything, and
    says how to install what draws the plot."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)     # import matplotlib -> ImportError
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    png = tmp_path / "sweep.png"
    assert main(["sweep", GAME, "ismcts:iterations={}", "--budgets", "2,4", "--opponent",
                 "random", "--groups", "2", "--out-dir", str(tmp_path / "sw"), "--plot",
                 str(png)]) == 0
    captured = capsys.readouterr()
    assert "budget sweep of ismcts:iterations={} against random" in captured.out
    assert 'no plot: the sweep plot needs matplotlib, which is not installed: pip install ' \
        '"catsearch[plot]"' in captured.out
    assert 'pip install "catsearch[plot]"' in captured.err        # said before the sweep
    assert not png.exists()
    saved = json.loads((tmp_path / "sw" / "sweep.json").read_text())
    assert [p["budget"] for p in saved["points"]] == [2, 4] and saved["plot"] is None
    assert "catsearch[plot]" in saved["plot_error"]
    assert (tmp_path / "sw" / "budget-4.jsonl").exists()
    from catsearch.arena.sweep import PlotUnavailable, SweepResult, plot_sweep
    with pytest.raises(PlotUnavailable, match=r'pip install "catsearch\[plot\]"'):
        plot_sweep(SweepResult(GAME, "x={}", "random", saved["points"]), str(png))
    assert issubclass(PlotUnavailable, ImportError)
