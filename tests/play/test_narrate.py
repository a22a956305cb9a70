"""Every move in plain words (catsearch.play.narrate): whole games of every game with 2 and 4
players, told to every seat; each line plain language; nothing hidden from a seat told to it
(checked against the real state's full moves); the effects the issue names (a herd won, a
Stampede, houses pushed off, a failed swap, a round's points, why the game ended)."""

from __future__ import annotations

import re

import pytest

import catsearch
from catsearch.games.herding_cats import _hc_card
from catsearch.play.narrate import Narrator, narrate, narrate_game
from catsearch.play.reasons import end_reason


def whole_game(game: str, players: int, seed: int):
    state = catsearch.new_game(game, players=players, seed=seed)
    initial = state.clone()
    moves, full = [], []
    k = 0
    while not state.is_terminal():
        move = state.heuristic_move(seed=k) if state.current_player >= 0 else state.legal_moves()[0]
        mover = state.current_player
        moves.append((mover, state.move_to_str(move)))
        full.append([state.observation(s, move) for s in range(players)])
        state.apply(move)
        k += 1
    return initial, moves, full, state


def seat_counts(game):
    lo, hi = catsearch.game_class(game).spec.seats
    return sorted({max(lo, 2), min(hi, 4)})


GAMES = [(g, n) for g in catsearch.GAMES for n in seat_counts(g)]

#: an observation's raw notation never shows in a narration line
RAW = re.compile(r"[=?+@]|\bhidden\b(?! choice)|\bpick\d|\bswap\d|\btake\d|\bput\d")


@pytest.mark.parametrize("game,players", GAMES)
def test_every_move_is_told_in_plain_words_without_a_hidden_card(game, players):
    initial, moves, full, final = whole_game(game, players, seed=5)
    for seat in range(players):
        lines = narrate_game(initial, moves, seat)
        assert len(lines) == len(moves)
        for (mover, text), line, obs in zip(moves, lines, full):
            who = "You" if mover == seat else f"Seat {mover}"
            assert line.startswith(who + " ") and line.endswith("."), line
            assert not RAW.search(line), (text, line)
            if mover == seat:
                continue
            mine, theirs = obs[seat], obs[mover]
            if game == "herding-cats" and "+" in theirs:
                drawn = theirs.partition("+")[2]
                assert mine.endswith("+?") and "drew a card" in line, line
                assert f"drew {_hc_card(drawn)}" not in line, line
            elif game == "the-cat" and ":" not in theirs:
                assert line == f"Seat {mover} made a hidden choice.", line
            elif game == "the-cat":
                # another seat's pick never shows its cards to this seat
                assert not re.search(rf"seat {mover} picked up pile \d \(", line), line
            elif game == "cat-earth":
                for q, cards in re.findall(r"\+(\d)([^+]*)", theirs):
                    if int(q) != seat:
                        assert f"seat {q} drew {len(cards)} card" in line, line
        assert "The game is over: " + end_reason(final) in lines[-1]


def test_a_full_state_tells_everything_so_the_leak_check_can_fail():
    initial, moves, full, _ = whole_game("herding-cats", 2, seed=5)
    lines = narrate_game(initial, moves)       # every card shown
    told = [line for (mover, _), line in zip(moves, lines) if mover == 1 and "drew a card" not in
            line and "drew" in line]
    assert told                                 # seat 1's draws named: what a seat's lines hide


def all_lines(game, players, seed, seat=0):
    initial, moves, _, _ = whole_game(game, players, seed)
    return narrate_game(initial, moves, seat)


def test_herding_cats_tells_herds_won_and_stampedes():
    text = "\n".join(all_lines("herding-cats", 2, 3))
    assert re.search(r"You won a herd \(now \d\)", text)
    assert re.search(r"Seat 1 won (a herd|\d herds) \(now \d\)", text)
    assert re.search(r"The Stampede placed (\d cats?|no cat)", text)


def test_the_cat_tells_a_failed_swap_and_why_and_the_rounds_points():
    text = "\n".join(all_lines("the-cat", 2, 3))
    assert re.search(r"Your swap failed: seat 1 swapped centre card \d first this tick", text)
    assert re.search(r"The round ends; points scored: you \d+, seat 1 \d+; totals: ", text)
    assert "reached 20 points" in text


def test_cat_earth_tells_houses_pushed_off():
    text = "\n".join(all_lines("cat-earth", 4, 3))
    assert re.search(r"lost \d houses?( \([a-g]\d(, [a-g]\d)*\))?: pushed off the board", text)
    assert "has no house left and is out" in text


def test_cat_cards_tells_sets():
    text = "\n".join(all_lines("cat-cards", 3, 2))
    assert re.search(r"You formed the set \w{5}.*You now have 1 set\.", text)


def test_narrator_follows_a_view_and_says_the_notation_for_a_text_it_refuses():
    state = catsearch.new_game("herding-cats", players=2, seed=1)
    narrator = Narrator(state.view(1))
    move = state.legal_moves()[0]
    line = narrator.tell(0, state.observation(1, move))
    assert line.startswith("Seat 0 ") and "drew a card" in line
    assert narrator.view.ply == 1
    assert narrator.tell(1, "nonsense") == "You played nonsense."
    assert narrator.view.ply == 1


def test_bad_arguments():
    state = catsearch.new_game("the-cat", players=2, seed=1)
    with pytest.raises(TypeError):
        narrate("state", "wait", 0)
    with pytest.raises(TypeError):
        narrate(state, 3, 0)
    with pytest.raises(TypeError):
        narrate(state, "wait", True)
    with pytest.raises(ValueError, match="mover 5"):
        narrate(state, "wait", 5)
    with pytest.raises(ValueError):
        narrate(state.view(0), "swap99", 0)
    with pytest.raises(TypeError):
        Narrator(None)
