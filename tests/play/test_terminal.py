"""The terminal mode of ``catsearch-play``: a person at a seat (``--human``), ``--record`` and
``--replay``, and the bots-only mode beside them.

Most games are driven in-process through :func:`catsearch.cli.play_main` with ``sys.stdin``
replaced (fast); one real subprocess per game plays a whole game too. The no-leak checks:
every picture the person is shown before the end is exactly ``str(view(seat))`` of the
replayed game at that point, every line about a move is exactly the seat's observation of
it, and two deals that give the seat the same view but differ in the others' hidden cards
print the same output until the first move whose observation depends on hidden cards.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

import catsearch
from catsearch.cli import play_main
from catsearch.play import glosses, levels, terminal

ROOT = Path(__file__).resolve().parents[2]
GAME_OVER = "=== game over: every card shown ==="
#: enough "first move" answers for any whole game
FIRST = "[1]\n" * 20000
#: The Cat's first move is ``wait``: a person who only waits sits through thousands of ticks
#: (7 s a game). This one picks up a pile (or swaps), waits three ticks and calls Stop, so
#: that picks, swaps and round ends all come up within 250 turns.
THE_CAT = "[3]\n[1]\n[1]\n[1]\n[2]\n" * 4000


def answers(game: str) -> str:
    """The person's lines for a whole game of ``game``."""
    return THE_CAT if game == "the-cat" else FIRST



def run(argv: list[str], text: str, monkeypatch, capsys) -> tuple[int, str, str]:
    """``play_main(argv)`` with ``text`` as its input; its exit status, stdout, stderr."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    rc = play_main(argv)
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def pictures(out: str) -> list[str]:
    """The view pictures the person was shown, in order."""
    return re.findall(r"Your view \(seat \d\):\n(.*?)\n\nYour moves:", out, flags=re.S)


def move_lines(out: str) -> list[tuple[str, str]]:
    """``(who, observation)`` for every line telling a move (after the list of seats)."""
    game = out.partition("'quit' to leave.\n")[2]
    assert game, "no introduction"
    return re.findall(r"^  (you|seat \d): (\S+)", game, flags=re.M)


def replay_record(path: Path, seat: int):
    """From a record: the seat's view picture at each of its turns, its observation of each
    move (with who moved), and the full-state pictures along the way."""
    rec = json.loads(path.read_text())
    state = catsearch.from_text(rec["game"], rec["deal"])
    views, observed, fulls = [], [], []
    for mv in rec["moves"]:
        if state.current_player == seat:
            views.append(str(state.view(seat)))
            fulls.append(str(state))
        m = state.str_to_move(mv["move"])
        who = "you" if mv["seat"] == seat else f"seat {mv['seat']}"
        observed.append((who, state.observation(seat, m)))
        state.play(m)
    return rec, state, views, observed, fulls


# -- whole games ---------------------------------------------------------------------------

@pytest.mark.parametrize("game", catsearch.GAMES)
def test_whole_game_in_a_subprocess(game, tmp_path):
    """A real ``python -m catsearch.cli`` process: the person answers the first listed move
    every time (The Cat: see :data:`THE_CAT`), to the end; the record replays to the same
    result."""
    rec_path = tmp_path / "game.json"
    proc = subprocess.run(
        [sys.executable, "-m", "catsearch.cli", game, "--human", "1", "--players", "2",
         "--level", "easy", "--seed", "3", "--record", str(rec_path)],
        input=answers(game), capture_output=True, text=True, timeout=60, cwd=ROOT,
        env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    assert GAME_OVER in proc.stdout
    assert "You win" in proc.stdout or "You lose" in proc.stdout or "share" in proc.stdout
    rec = json.loads(rec_path.read_text())
    assert rec["finished"] and rec["result"]["scores"]
    assert rec["seats"][1] == "human"
    replayed = subprocess.run([sys.executable, "-m", "catsearch.cli", "--replay", str(rec_path)],
                              capture_output=True, text=True, timeout=60, cwd=ROOT,
                              env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert replayed.returncode == 0, replayed.stderr
    assert f"game over. scores: {rec['result']['scores']}" in replayed.stdout


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game", catsearch.GAMES)
def test_whole_game_shows_only_the_seats_view(game, players, tmp_path, monkeypatch, capsys):
    """Every picture shown before the end is the seat's view at that point, every line about
    a move is the seat's observation of it, and no full-state picture that differs from the
    view is ever shown before the end."""
    seat = players - 1
    rec_path = tmp_path / "game.json"
    rc, out, err = run([game, "--human", str(seat), "--players", str(players), "--level",
                        "easy", "--seed", "11", "--record", str(rec_path)], answers(game),
                       monkeypatch, capsys)
    assert rc == 0, err
    before, sep, after = out.partition(GAME_OVER)
    assert sep, "the game did not end"
    rec, final, views, observed, fulls = replay_record(rec_path, seat)
    assert final.is_terminal()
    assert rec["result"] == {"scores": final.scores(), "returns": final.returns()}
    assert pictures(before) == views
    assert move_lines(before) == observed
    secret = [full for full, view in zip(fulls, views) if full != view]
    assert secret, "no hidden card in the whole game: the check would prove nothing"
    for full in secret:
        assert full not in before
    assert str(final) in after            # at the end every card is shown


@pytest.mark.parametrize("game", catsearch.GAMES)
def test_same_view_same_output(game, monkeypatch, capsys):
    """Two deals with the same view for the seat and different hidden cards: the same output
    (help, hint, bad lines, the view) up to the first observation of a move."""
    seat = 0
    a = catsearch.new_game(game, 3, seed=5)
    b = a.determinize(seat, 99)
    assert b.to_text() != a.to_text() and b.view(seat) == a.view(seat)
    hidden_a = {k: v for k, v in a.cards().items() if v != a.view(seat).cards()[k]}
    assert hidden_a and any(b.cards()[k] != v for k, v in hidden_a.items()), \
        "the deals must differ in what the seat cannot see"
    lines = "help\nhint\nnot-a-move\n0\n999\nview\nhint\n[1]\nquit\n"
    outs = []
    for deal in (a, b):
        # --seed 1: a chosen seed seats the AI (and the hint) the same in both runs
        rc, out, err = run([game, "--human", str(seat), "--level", "medium", "--seed", "1",
                            "--deal-text", deal.to_text()], lines, monkeypatch, capsys)
        assert rc == 0, err
        outs.append(re.sub(r"\d+\.\d\d s\)", "(time) s)", out))    # the hint's time
    cut = outs[0].index("\n  you: ")       # the first move: seat 0 (the person) moves first
    assert outs[0][:cut] == outs[1][:cut]
    assert outs[0][:cut].count("hint (medium") == 2
    assert len(pictures(outs[0][:cut])) == 2 and pictures(outs[0])[0] == str(a.view(seat))


def test_seat_0_moves_first_everywhere():
    """The checks above take seat 0 to move first in every game."""
    for game in catsearch.GAMES:
        assert catsearch.new_game(game, 3, seed=5).current_player == 0


# -- commands and bad lines -----------------------------------------------------------------

def test_commands_and_bad_lines(monkeypatch, capsys, tmp_path):
    rec_path = tmp_path / "left.json"
    rc, out, err = run(["herding-cats", "--human", "0", "--level", "easy", "--seed", "1",
                        "--record", str(rec_path)],
                       "\nhelp\nhint\nbanana\n0\n7\nS\nHINT\nxo\nquit\n", monkeypatch, capsys)
    assert rc == 0 and err == ""
    assert "Commands:" in out and "quit" in out
    assert re.search(r"^hint \(easy: level:n=3\): \[\d+\] \S+  value for you \d\.\d{3}",
                     out, flags=re.M)
    assert "not a move: 'banana'" in out
    assert "no move [0]: the moves are numbered [1] to [2]" in out
    assert "no move [7]: the moves are numbered [1] to [2]" in out
    assert "S cannot be played: you hold no Stampede; your moves: xo xp" in out
    assert out.count("hint (easy") == 2              # commands are read in any case
    assert "  you: xo+" in out                      # the notation plays the move
    assert "You left the game (quit)." in out
    assert GAME_OVER not in out
    rec = json.loads(rec_path.read_text())
    assert rec["finished"] is False and rec["result"] is None
    assert rec["moves"][0] == {"seat": 0, "move": "xo"}
    # a record left unfinished replays too
    rc, out, err = run(["--replay", str(rec_path)], "", monkeypatch, capsys)
    assert rc == 0 and "not finished" in out


def test_end_of_input_ends_cleanly(monkeypatch, capsys):
    rc, out, err = run(["herding-cats", "--human", "1"], "", monkeypatch, capsys)
    assert rc == 0 and err == ""
    assert "You left the game (end of input).\nthe deal's seed: " in out


def test_eof_in_a_subprocess():
    proc = subprocess.run([sys.executable, "-m", "catsearch.cli", "cat-cards", "--human", "0",
                           "--level", "easy"], input="help\n", capture_output=True, text=True,
                          timeout=60, cwd=ROOT,
                          env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0 and proc.stderr == ""
    assert "Commands:" in proc.stdout and "end of input" in proc.stdout


@pytest.mark.parametrize("argv, message", [
    (["herding-cats", "--human", "3"], "--human 3: seats are 0..2"),
    (["herding-cats", "--human", "0", "--player", "random", "--player", "random",
      "--player", "random"], "3 --player specs for 2 AI seats"),
    (["herding-cats", "--human", "0", "--player", "nobody"], "unknown player 'nobody'"),
    (["herding-cats", "--human", "0", "--option", "oops"], "--option expects KEY=VALUE"),
    (["--human", "0"], "the game is required"),
    (["herding-cats", "--human", "0", "--deal-text", "players=9"], "missing field"),
])
def test_argument_errors(argv, message, monkeypatch, capsys):
    rc, out, err = run(argv, "", monkeypatch, capsys)
    assert rc == 2 and message in err and out == ""


def test_unknown_level_is_refused(monkeypatch, capsys):
    with pytest.raises(SystemExit) as e:
        run(["herding-cats", "--human", "0", "--level", "godlike"], "", monkeypatch, capsys)
    assert e.value.code == 2


# -- AI seats -------------------------------------------------------------------------------

def test_seat_specs():
    specs = terminal.seat_specs(3, 1, ["random"], "hard", 7)
    assert specs[1] is None
    assert specs[0].name == "random" and "seed" in specs[0]
    assert str(specs[2]).startswith("level:") and specs[2].get("n") == 10    # hard: level 10
    assert terminal.seat_specs(3, 1, [], None, 7)[0].get("n") == 6        # medium by default
    # the same command seats the same players
    assert terminal.seat_specs(3, 1, [], "medium", 7) == terminal.seat_specs(3, 1, [], None, 7)
    # bots only, no level: heuristic, as before levels existed (and unseeded)
    assert [str(s) for s in terminal.seat_specs(2, None, [], None, 1)] == ["heuristic"] * 2


def test_levels_are_documented_specs():
    assert list(levels.LEVELS) == ["easy", "medium", "hard"]
    for lv in levels.LEVELS.values():
        catsearch.make_player(lv.spec)
        assert lv.spec in (ROOT / "docs" / "play.rst").read_text()


@pytest.mark.slow
@pytest.mark.parametrize("game", catsearch.GAMES)
def test_levels_answer_within_about_two_seconds(game):
    """Each level, on positions spread over a game of 4 players: well within 2 s a move on
    average, never much more (``hard`` caps itself at 2 s)."""
    positions = []
    st = catsearch.new_game(game, 4, seed=2)
    ply = 0
    while not st.is_terminal() and len(positions) < 6:
        if ply % 12 == 0:
            positions.append(st.view(st.current_player))
        st.apply(st.heuristic_move(seed=ply))
        ply += 1
    for lv in levels.LEVELS.values():
        player = catsearch.make_player(lv.spec)
        times = []
        for view in positions:
            t0 = time.perf_counter()
            player.search(view)
            times.append(time.perf_counter() - t0)
        assert sum(times) / len(times) < 2.0 and max(times) < 4.0, (lv.name, times)


# -- the bots-only mode, record and replay -----------------------------------------------------

def test_bots_only_mode_still_works(monkeypatch, capsys, tmp_path):
    rec_path = tmp_path / "bots.json"
    rc, out, err = run(["herding-cats", "--players", "2", "--seed", "4", "--quiet", "--record",
                        str(rec_path)], "", monkeypatch, capsys)
    assert rc == 0, err
    assert "seat 0: heuristic" in out and "scores:" in out
    rec = json.loads(rec_path.read_text())
    assert rec["seats"] == ["heuristic", "heuristic"] and rec["finished"]
    rc, out, err = run(["herding-cats", "--players", "2", "--level", "medium", "--quiet"], "",
                       monkeypatch, capsys)
    assert rc == 0 and "seat 0: level:n=6" in out        # medium: level 6 of the ladder


def test_record_replay_round_trip(tmp_path, monkeypatch, capsys):
    rec_path = tmp_path / "game.json"
    rc, out, _ = run(["cat-cards", "--human", "0", "--players", "3", "--level", "easy",
                      "--seed", "8", "--option", "values=4,2,1,4,1", "--record", str(rec_path)], FIRST,
                     monkeypatch, capsys)
    assert rc == 0
    rec = json.loads(rec_path.read_text())
    assert {"format", "version", "game", "players", "options", "seed", "deal", "seats",
            "level", "moves", "finished", "result"} <= set(rec)
    assert rec["format"] == "catsearch-game" and rec["version"] == 1
    assert rec["game"] == "cat-cards" and rec["players"] == 3 and rec["seed"] == 8
    assert rec["options"] == {"values": "4,2,1,4,1"}
    deal = catsearch.new_game("cat-cards", 3, seed=8, values="4,2,1,4,1")
    assert rec["deal"] == deal.to_text()
    rc, out, err = run(["--replay", str(rec_path)], "", monkeypatch, capsys)
    assert rc == 0, err
    # every position is shown with every card
    for mv in rec["moves"]:
        deal.play(mv["move"])
        assert str(deal) in out
    assert f"game over. scores: {deal.scores()}" in out
    assert out.count("\nmove ") == len(rec["moves"])
    # --step without a terminal prints everything at once
    rc, stepped, _ = run(["--replay", str(rec_path), "--step"], "", monkeypatch, capsys)
    assert rc == 0 and stepped == out


def test_replay_refuses_bad_records(tmp_path, monkeypatch, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    rc, _, err = run(["--replay", str(bad)], "", monkeypatch, capsys)
    assert rc == 2 and "not JSON" in err
    bad.write_text(json.dumps({"format": "something-else"}))
    rc, _, err = run(["--replay", str(bad)], "", monkeypatch, capsys)
    assert rc == 2 and "not a catsearch game record" in err
    deal = catsearch.new_game("herding-cats", 2, seed=1)
    record = terminal.GameRecord("herding-cats", 2, {}, 1, deal.to_text(),
                                 ["human", "heuristic"], moves=[{"seat": 0, "move": "S"}])
    record.write(str(bad))
    rc, _, err = run(["--replay", str(bad)], "", monkeypatch, capsys)
    assert rc == 2 and "move 1 (S) does not play" in err
    rc, _, err = run(["--replay", str(tmp_path / "missing.json")], "", monkeypatch, capsys)
    assert rc == 2 and "missing.json" in err


# -- observations in plain words --------------------------------------------------------------

@pytest.mark.parametrize("game, text, words", [
    ("herding-cats", "xo+?", "discarded an orange cat and drew a card"),
    ("herding-cats", "W@1+g", "put a Wild Cat Lady on herd 1 and drew a green cat"),
    ("herding-cats", "P", "played a purple cowdog (a new herd)"),
    ("cat-cards", "take0,refill=S,reveal=2",
     "picked up pile 0; pile 0 is refilled with a Siamese; the deck reveals a white cat"),
    ("cat-cards", "put1", "put the revealed card on pile 1"),
    ("the-cat", "swap12", "swapped card 1 of the pile in hand with centre card 2"),
    ("the-cat", "hidden:swap30=9,pick3",
     "chose something you cannot see; the tick: seat 0 swapped card 3 with centre 0 (now 9); "
     "seat 1 picked up pile 3"),
    ("the-cat", "wait:scored=5,2:centre=6281",
     "waited; the round ends: points 5, 2, new centre 6281"),
    ("cat-earth", "HS:c5-e3", "swapped the houses on c5 and e3"),
    ("cat-earth", "FFL:d3E!1N+0?", "played path card FFL with the cat on d3, heading E; a hand "
     "put out of the game goes face up: F, Cat Nip; seat 0 drew 1 card"),
    ("herding-cats", "??", None),
])
def test_describe_observation(game, text, words):
    assert glosses.describe_observation(game, text) == words


def test_describe_observation_names_the_seat_that_saw_it():
    assert glosses.describe_observation("cat-earth", "end+14", seat=1) == \
        "ended the turn; you drew FR"
    assert glosses.describe_observation("the-cat", "pick1:-,pick1=8889", seat=1) == \
        "picked up pile 1; the tick: you picked up pile 1 (8889)"


# -- the deal's seed is secret until the end (issue 33, item 5) -------------------------------

def _play_subprocess(args: list[str]) -> str:
    """A whole game of Herding Cats in a ``catsearch-play`` process, the person (seat 0)
    answering the first listed move every time; its output."""
    proc = subprocess.run([sys.executable, "-m", "catsearch.cli", "herding-cats", "--human",
                           "0", "--level", "easy", *args], input="[1]\n" * 400,
                          capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert GAME_OVER in proc.stdout
    return proc.stdout


def test_the_default_seed_is_random_and_told_only_at_the_end():
    seeds = []
    for _ in range(2):
        out = _play_subprocess([])
        before, _, after = out.partition(GAME_OVER)
        m = re.search(r"^the deal's seed: (\d+) ", after, flags=re.M)
        assert m, after
        seed = int(m.group(1))
        seeds.append(seed)
        # the seed is the deal's: its view is the first picture shown
        assert pictures(before)[0] == str(catsearch.new_game("herding-cats", 3, seed=seed).view(0))
        # nothing before the end names the seed or any AI seat's seed
        assert str(seed) not in before and "seed" not in before
        ai = [int(x) for x in re.findall(r"^  seat \d played \S+seed=(\d+)", after, flags=re.M)]
        assert len(ai) == 2, after
        # the AI's seeds are not derived from the deal's
        assert all(x != terminal._derived_seed(seed, s) for s, x in zip((1, 2), ai))
    assert seeds[0] != seeds[1] and 1 not in seeds


def test_a_chosen_seed_deals_and_seats_the_same_game():
    outs = [_play_subprocess(["--seed", "7"]) for _ in range(2)]
    assert outs[0] == outs[1]
    assert "the deal's seed: 7 " in outs[0]
    specs = terminal.seat_specs(3, 0, [], "easy", 7)
    for s in (1, 2):
        assert f"  seat {s} played {specs[s]}" in outs[0]


def test_hint_shows_the_top_moves_ranked(monkeypatch, capsys):
    """hint uses SearchResult.ranked(3): the chosen move first, numbered, with its value for
    the seat and its visits."""
    rc, out, err = run(["herding-cats", "--human", "0", "--level", "medium", "--seed", "1"],
                       "hint\nquit\n", monkeypatch, capsys)
    assert rc == 0 and err == ""
    m = re.search(r"^hint \(.*\): \[\d+\] (\S+)  value for you", out, flags=re.M)
    assert m, out
    top = re.search(r"^  top moves: 1\. (\S+) \d\.\d{3} \((\d+) visits\), 2\. (\S+) \d\.\d{3} "
                    r"\((\d+) visits\)", out, flags=re.M)
    assert top, out
    assert top.group(1) == m.group(1)                  # the chosen move first
    assert top.group(3) != top.group(1)


# -- numbers and notation (issue 37) ---------------------------------------------------------

def test_a_bare_number_that_a_move_names_is_asked_about(monkeypatch, capsys):
    """Cat Cards' first moves are put0 put1 put2: ``1`` could be ``[1]`` (put0) or ``put1``;
    it plays nothing and says so. ``[2]`` plays the list's second move, said back."""
    rc, out, err = run(["cat-cards", "--human", "0", "--level", "easy", "--seed", "3",
                        "--players", "2"], "1\n[2]\nquit\n", monkeypatch, capsys)
    assert rc == 0 and err == ""
    assert "[1] put0" in out and "[2] put1" in out
    assert "'1' is ambiguous: [1] is put0; moves with 1 in them: put1." in out
    assert "[2] = put1" in out
    assert move_lines(out)[0] == ("you", "put1")


def test_notation_first_and_the_real_reason(monkeypatch, capsys):
    rc, out, err = run(["herding-cats", "--human", "0", "--level", "easy", "--seed", "1"],
                       "o@5\n[3]\nxp\nquit\n", monkeypatch, capsys)
    assert rc == 0 and err == ""
    assert "o@5 cannot be played: there is no herd 5: there are no herds on the table" in out
    assert "cat@5" not in out
    assert "no move [3]: the moves are numbered [1] to [2]" in out
    assert move_lines(out)[0][1].startswith("xp")


def test_help_lists_every_mode_and_the_web_options(monkeypatch, capsys):
    with pytest.raises(SystemExit) as e:
        play_main(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    for word in ("--web", "--host", "--port", "--max-games", "--seed-links", "--human",
                 "--replay", "modes:"):
        assert word in out, word


@pytest.mark.parametrize("argv, message", [
    (["--web", "--port", "abc"], "--port 'abc' is not a whole number; ports are 0..65535"),
    (["--web", "--port", "-1"], "--port -1: ports are 0..65535"),
    (["--web", "--port", "65536"], "--port 65536: ports are 0..65535"),
    (["--web", "--max-games", "0"], "--max-games 0: at least 1"),
    (["--web", "herding-cats"], "--web takes no game argument"),
    (["--web", "--human", "0"], "--web takes no --human"),
    (["herding-cats", "--port", "80"], "--port is an option of --web"),
    (["herding-cats", "--level", "godlike"], "argument --level: invalid choice"),
])
def test_command_line_errors_are_one_line(argv, message, monkeypatch, capsys):
    try:
        rc = play_main(argv)
    except SystemExit as e:
        rc = e.code
    cap = capsys.readouterr()
    assert rc == 2 and cap.out == ""
    assert cap.err.startswith("catsearch-play: error: ") and message in cap.err
    assert cap.err.count("\n") == 1 and "Traceback" not in cap.err


def test_end_reason_says_why_each_game_ended():
    from catsearch.play.reasons import end_reason
    for game, words in (("the-cat", "reached 20 points"), ("herding-cats", "every card"),
                        ("cat-cards", "fifth set"), ("cat-earth", "last with houses")):
        s = catsearch.new_game(game, players=3, seed=1)
        with pytest.raises(ValueError):
            end_reason(s)
        while not s.is_terminal():
            s.apply(s.heuristic_move(seed=s.ply))
        assert words in end_reason(s), (game, end_reason(s))
    # The Cat at its round cap, nobody at the target: not "first to 20 points"
    s = catsearch.new_game("the-cat", players=3, seed=1)
    while not s.is_terminal():
        s.apply(s.heuristic_move(seed=s.ply))
    text = re.sub(r"scores=[\d,]+", "scores=3,7,1", re.sub(r"round=\d+", "round=50", s.to_text()))
    capped = catsearch.from_text("the-cat", text)
    assert end_reason(capped) == ("the 50-round cap: 50 rounds were played and nobody reached "
                                  "20 points")
