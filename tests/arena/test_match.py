"""Matches of built-in players: duplicate deals, replay, resume, concurrency, SPRT, failures."""

import json

import pytest

import catsearch
from catsearch.arena import (SPRT, Entrant, MatchConfig, ResultsFileError, load_results,
                             replay_moves, run_match, schedule)
from catsearch.arena.game import Worker

GAME = "herding-cats"


def test_duplicate_deals_every_entrant_in_every_seat():
    cfg = MatchConfig(GAME, ("heuristic", "random", "r2=random"), seats=3, groups=3, seed=5)
    tasks = schedule(cfg.seed, cfg.groups, 3, 3, cfg.seatings)
    assert len(tasks) == cfg.total_games == 3 * 6
    assert [t.game for t in tasks] == list(range(len(tasks)))
    for g in range(3):
        group = [t for t in tasks if t.group == g]
        assert len({t.deal_seed for t in group}) == 1
        for seat in range(3):
            assert sorted(t.seats[seat] for t in group) == [0, 0, 1, 1, 2, 2]
    assert len({t.deal_seed for t in tasks}) == 3
    assert len({t.seed for t in tasks}) == len(tasks)
    # rotate: fewer games, still every seat once
    rot = schedule(5, 1, 3, 3, "rotate")
    assert len(rot) == 3
    assert all(sorted(t.seats[s] for t in rot) == [0, 1, 2] for s in range(3))


def test_round_robin_tables():
    tasks = schedule(1, 2, 4, 2)
    pairs = {tuple(sorted(t.seats)) for t in tasks}
    assert pairs == {(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)}
    with pytest.raises(ValueError, match="cannot fill 3 seats"):
        schedule(1, 1, 2, 3)


def test_match_is_deterministic_and_replayable(tmp_path):
    out = tmp_path / "m.jsonl"
    a = run_match(GAME, ["heuristic", "random"], groups=6, seed=3, out=str(out))
    b = run_match(GAME, ["heuristic", "random"], groups=6, seed=3)
    strip = lambda rs: [{k: v for k, v in r.to_json().items()
                         if k not in ("move_seconds", "seconds")}
                        for r in rs]
    assert strip(a.records) == strip(b.records)
    c = run_match(GAME, ["heuristic", "random"], groups=6, seed=4)
    assert strip(c.records) != strip(a.records)
    config, records = load_results(out)
    assert strip(records) == strip(a.records)
    for r in records:
        state = replay_moves(config, r)
        assert state.is_terminal()
        assert state.returns() == pytest.approx(r["returns"])
        assert state.scores() == r["scores"]
    # and playing a game again from its record gives the same game
    from catsearch.arena.schedule import GameTask
    r = records[5]
    task = GameTask(r.game, r.group, r.table, r.seating, r.deal_seed, tuple(r.entrants), r.seed)
    assert r.task == task
    w = Worker(config)
    again = w.play(task)
    w.close()
    assert again.moves == r.moves
    # the summary file
    summ = json.loads((tmp_path / "m.summary.json").read_text())
    assert summ["games"]["counted"] == 12
    assert summ["players"][0]["label"] == "heuristic"


def test_summary_numbers_are_those_of_the_records():
    res = run_match(GAME, ["heuristic", "random"], groups=8, seed=2)
    s = res.summary
    per_group = {}
    for r in res.records:
        i = r["entrants"].index(0)
        per_group.setdefault(r["group"], []).append(r["returns"][i])
    means = [sum(v) / len(v) for v in per_group.values()]
    assert s["players"][0]["score"]["value"] == pytest.approx(sum(means) / len(means))
    assert s["players"][0]["score"]["value"] + s["players"][1]["score"]["value"] == \
        pytest.approx(1.0)
    wins = sum(1 for r in res.records if r["returns"][r["entrants"].index(0)] == 1.0)
    assert s["players"][0]["win"]["value"] == pytest.approx(wins / 16)
    assert "elo" in s and s["elo"]["player"] == "heuristic"
    table = res.table()
    assert "heuristic" in table and "Elo of heuristic vs random" in table


def test_three_seat_round_robin_has_ratings():
    res = run_match(GAME, ["heuristic", "random", "h2=heuristic"], seats=3, groups=4, seed=1)
    s = res.summary
    assert s["games"]["counted"] == 24
    assert [p["label"] for p in s["ratings"]["players"]] == ["heuristic", "random", "h2"]
    assert sum(p["score"]["value"] for p in s["players"]) == pytest.approx(1.0)
    assert "head to head" in res.table()


def test_resume_and_extend(tmp_path):
    out = str(tmp_path / "r.jsonl")
    full = run_match(GAME, ["heuristic", "random"], groups=6, seed=8)
    run_match(GAME, ["heuristic", "random"], groups=3, seed=8, out=out)
    # a run killed while writing: a line cut short
    with open(out, "rb+") as f:
        data = f.read()
        f.seek(0)
        f.truncate()
        f.write(data[:-40])
    config, recs = load_results(out)
    assert len(recs) == 5
    res = run_match(GAME, ["heuristic", "random"], groups=6, seed=8, out=out)
    assert res.played == 12 - 5
    strip = lambda rs: [{k: v for k, v in r.to_json().items()
                         if k not in ("move_seconds", "seconds")}
                        for r in rs]
    assert strip(res.records) == strip(full.records)
    assert res.summary["players"][0]["score"] == full.summary["players"][0]["score"]
    again = run_match(GAME, ["heuristic", "random"], groups=6, seed=8, out=out)
    assert again.played == 0 and len(again.records) == 12
    with pytest.raises(ResultsFileError, match="another match.*seed"):
        run_match(GAME, ["heuristic", "random"], groups=6, seed=9, out=out)
    with pytest.raises(ResultsFileError, match="exists"):
        run_match(GAME, ["heuristic", "random"], groups=6, seed=8, out=out, resume=False)


def test_concurrency_gives_the_serial_results(tmp_path, strip_timings):
    serial = run_match(GAME, ["heuristic", "random"], groups=10, seed=21,
                       out=str(tmp_path / "a.jsonl"))
    par = run_match(GAME, ["heuristic", "random"], groups=10, seed=21, concurrency=2,
                    out=str(tmp_path / "b.jsonl"))
    assert strip_timings(par.records) == strip_timings(serial.records)
    for key in ("players", "elo", "games"):
        a, b = serial.summary[key], par.summary[key]
        if key == "players":
            for p, q in zip(a, b):
                p, q = dict(p), dict(q)
                p.pop("ms_per_move"), q.pop("ms_per_move")
                assert p == q
        else:
            assert a == b
    # the files hold the same games in the same order
    lines = lambda p: [json.loads(x) for x in open(p) if '"type":"game"' in x]
    assert [r["game"] for r in lines(tmp_path / "b.jsonl")] == list(range(20))


def test_sprt_stops_the_match_the_same_way_serial_and_parallel(tmp_path, strip_timings):
    sprt = SPRT(elo0=0, elo1=100, alpha=0.05, beta=0.05)
    cfg = MatchConfig(GAME, ("heuristic", "random"), groups=400, seed=2, sprt=sprt)
    a = run_match(cfg)
    s = a.summary["sprt"]
    assert s["decision"] == "H1"
    assert s["llr"] >= s["upper"]
    assert a.summary["games"]["groups_counted"] == s["groups"] < 400
    assert s["groups"] >= sprt.min_groups
    assert len(a.records) == 2 * s["groups"]
    b = run_match(cfg, concurrency=2, out=str(tmp_path / "s.jsonl"))
    assert strip_timings(b.records) == strip_timings(a.records)
    assert b.summary["sprt"] == s
    assert "H1 accepted" in a.table()
    # an equal pair is accepted as H0 (no better by elo1)
    eq = run_match(GAME, ["heuristic", "h2=heuristic"], groups=2000, seed=1,
                   sprt=SPRT(elo0=0, elo1=60, alpha=0.1, beta=0.1, model="logistic"))
    assert eq.summary["sprt"]["decision"] == "H0"


def test_sprt_needs_two_players():
    with pytest.raises(ValueError, match="SPRT compares 2 players"):
        MatchConfig(GAME, ("heuristic", "random", "h2=heuristic"), sprt=SPRT())


@pytest.mark.parametrize("spec,kind", [("raising:every=5", "error"),
                                       ("illegal:every=5", "illegal"),
                                       ("nonsense:every=5", "protocol")])
def test_failing_builtin_player_loses_and_the_match_goes_on(plugin, spec, kind):
    res = run_match(GAME, [spec, "heuristic"], groups=6, seed=1, imports=(plugin,))
    fails = [r for r in res.records if r["failure"]]
    assert fails, "the faulty player should have failed somewhere"
    assert len(res.records) == 12
    for r in fails:
        f = r["failure"]
        assert f["kind"] == kind and f["player"] == spec and f["message"]
        assert r["returns"][f["seat"]] == 0.0 and r["returns"][1 - f["seat"]] == 1.0
        assert not r["terminal"] and len(r["moves"]) == f["ply"]
    p = res.summary["players"][0]
    assert p["failures"][kind] == len(fails) == p["failed_games"]
    assert f"{kind} {len(fails)}" in res.table()
    # void: the groups with a failure leave the statistics
    void = run_match(GAME, [spec, "heuristic"], groups=6, seed=1, imports=(plugin,),
                     on_failure="void")
    bad_groups = {r["group"] for r in fails}
    assert void.summary["games"]["groups_voided"] == len(bad_groups)
    assert void.summary["games"]["groups_counted"] == 6 - len(bad_groups)
    assert void.summary["players"][0]["failures"][kind] == len(fails)


def test_hanging_builtin_player_times_out(plugin):
    res = run_match(GAME, ["hanging:every=40", "heuristic"], groups=2, seed=1,
                    imports=(plugin,), move_timeout=0.2)
    fails = [r["failure"] for r in res.records if r["failure"]]
    assert fails and all(f["kind"] == "timeout" for f in fails)
    assert len(res.records) == 4


def test_plugin_players_work_in_worker_processes(plugin, strip_timings):
    a = run_match(GAME, ["illegal:every=9", "heuristic"], groups=4, seed=3, imports=(plugin,))
    b = run_match(GAME, ["illegal:every=9", "heuristic"], groups=4, seed=3, imports=(plugin,),
                  concurrency=2)
    assert strip_timings(a.records) == strip_timings(b.records)
    assert any(r["failure"] for r in a.records)


def test_bad_configs_say_what_is_wrong():
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        MatchConfig("chess", ("heuristic", "random"))
    with pytest.raises(ValueError, match="at least 2 players"):
        MatchConfig(GAME, ("heuristic",))
    with pytest.raises(ValueError, match="seats must be 2 to 4"):
        MatchConfig(GAME, ("heuristic", "random"), seats=5)
    with pytest.raises(ValueError, match="on_failure"):
        MatchConfig(GAME, ("heuristic", "random"), on_failure="ignore")
    with pytest.raises(ValueError, match="unknown player 'nobody'"):
        run_match(GAME, ["nobody", "random"], groups=1)
    with pytest.raises(ValueError, match="concurrency"):
        run_match(GAME, ["heuristic", "random"], groups=1, concurrency=0)


def test_players_see_only_their_view(plugin):
    """The arena hands every player its seat's view, never the full state."""
    seen = []

    class Spy(catsearch.search.HeuristicPlayer):
        name = "spy"

        def search(self, state, *, limits=None, info=None):
            seen.append((state.view_seat, state.current_player))
            return super().search(state, limits=limits, info=info)

    catsearch.search.register_player("spy", Spy)
    run_match(GAME, ["spy", "heuristic"], groups=1, seed=1)
    assert seen and all(v == c for v, c in seen)


def test_players_that_follow_the_game_are_told_every_move_from_their_view():
    """A player whose ``observe`` does something (``reuse=true`` searchers) is told every
    move, its own and the others', before it is played: its seat's observation of it, with
    its own seat's view (which the observation follows); a player that keeps nothing is not
    asked."""
    told = []

    class Listener(catsearch.search.HeuristicPlayer):
        name = "listener"

        def observe(self, view, observation):
            follows = isinstance(observation, str) and view.view_seat is not None
            if follows:
                view.clone().play_observation(observation)      # raises if it cannot
            told.append((view.view_seat, view.current_player, follows))

    catsearch.search.register_player("listener", Listener)
    result = run_match(GAME, ["listener", "heuristic"], groups=1, seed=1)
    moves = sum(len(r["moves"]) for r in result.records)
    assert len(told) == moves and all(ok for _, _, ok in told)
    assert {v for v, _, _ in told} == {0, 1}          # its seat in each of the two games
    assert any(v != c for v, c, _ in told)            # told the opponent's moves too
    # so an ISMCTS that reuses its tree starts most searches from the kept statistics (more
    # visits at the root than this search's iterations), reproducibly
    kept = []

    class Reuser(catsearch.search.ISMCTS):
        name = "reuser"

        def search(self, state, *, limits=None, info=None):
            r = super().search(state, limits=limits, info=info)
            if r.iterations:        # a forced move is answered without a search
                kept.append(sum(s.visits for s in r.stats.values()) > r.iterations)
            return r

    catsearch.search.register_player("reuser", Reuser)
    a = run_match(GAME, ["reuser:iterations=60,reuse=true", "heuristic"], groups=1, seed=2)
    b = run_match(GAME, ["reuser:iterations=60,reuse=true", "heuristic"], groups=1, seed=2)
    assert [r["moves"] for r in a.records] == [r["moves"] for r in b.records]
    assert all(r["terminal"] and not r["failure"] for r in a.records)
    assert sum(kept) > len(kept) / 4


def test_labels_are_unique_and_entrants_parse():
    cfg = MatchConfig(GAME, ("heuristic", "heuristic", "random"), seats=2, groups=1)
    assert cfg.labels == ("heuristic", "heuristic#2", "random")
    e = Entrant.parse("mine=engine:./bot --fast")
    assert e.label == "mine" and e.command == ("./bot", "--fast")
    assert Entrant.parse("ismcts:iterations=5").label == "ismcts:iterations=5"
    assert Entrant.from_dict(e.to_dict()) == e


def test_searchers_are_reproducible_across_processes(strip_timings):
    """ISMCTS and PIMC get their seeds from the game's record: the same games serial and in
    worker processes."""
    specs = ("ismcts:iterations=40", "pimc:iterations=40")
    cfg = MatchConfig(GAME, specs + ("heuristic",), seats=2, groups=1, seed=12)
    a = run_match(cfg)
    b = run_match(cfg, concurrency=2)
    assert strip_timings(a.records) == strip_timings(b.records)
    assert all(r["terminal"] and not r["failure"] for r in a.records)


def test_a_dying_worker_stops_the_match_loudly_and_keeps_what_is_done(plugin, tmp_path):
    from catsearch.arena import ArenaError
    out = str(tmp_path / "d.jsonl")
    with pytest.raises(ArenaError, match=r"worker process \d died \(exit code 7\) while "
                                         r"playing game \d+"):
        run_match(GAME, ["dying:every=300", "heuristic"], groups=20, seed=1,
                  imports=(plugin,), concurrency=2, out=out)
    config, records = load_results(out)
    assert all(r["terminal"] for r in records)


@pytest.mark.parametrize("game", catsearch.GAMES)
@pytest.mark.parametrize("seats", [2, 3])
def test_every_game_plays_in_the_arena_and_replays(game, seats, strip_timings):
    players = ["heuristic", "random", "r2=random"][:seats]
    res = run_match(game, players, seats=seats, groups=1, seed=3, seatings="rotate")
    assert len(res.records) == seats
    assert not any(r["failure"] for r in res.records)
    assert len({r["deal_seed"] for r in res.records}) == 1
    for r in res.records:
        state = replay_moves(res.config, r)
        assert state.is_terminal() and state.scores() == r["scores"]
        assert state.returns() == pytest.approx(r["returns"])
    assert sum(p["score"]["value"] for p in res.summary["players"]) == pytest.approx(1.0)


def test_imports_are_loaded_before_the_players_are_read(monkeypatch, tmp_path):
    """A player that only an ``imports`` module registers can be named in the entrants, from
    Python (``run_match``, ``MatchConfig``, ``run_sweep``) as from the command line."""
    import os
    import sys

    from catsearch.arena.sweep import run_sweep
    from catsearch.search import spec as spec_module
    for name in ("slow", "raising", "illegal", "nonsense", "hanging", "dying"):
        monkeypatch.delitem(spec_module._PLAYERS, name, raising=False)
    monkeypatch.delitem(sys.modules, "catsearch_arena_plugin_plugin_players", raising=False)
    PLUGIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plugin_players.py")
    with pytest.raises(ValueError, match="unknown player 'slow'"):
        Entrant.parse("slow:ms=0")
    res = run_match(GAME, ["slow:ms=0", "heuristic"], groups=1, seed=1, imports=(PLUGIN,))
    assert res.summary["games"]["counted"] == 2
    monkeypatch.delitem(spec_module._PLAYERS, "slow")
    monkeypatch.delitem(sys.modules, "catsearch_arena_plugin_plugin_players")
    config = MatchConfig(GAME, ("slow:ms=0", "random"), groups=1, imports=(PLUGIN,))
    assert config.entrants[0].spec == "slow:ms=0"
    monkeypatch.delitem(spec_module._PLAYERS, "slow")
    monkeypatch.delitem(sys.modules, "catsearch_arena_plugin_plugin_players")
    sweep = run_sweep(GAME, "slow:ms={}", [0], "random", groups=1, imports=(PLUGIN,))
    assert sweep.points[0]["games"] == 2
