"""The conformance suite: one contract, every game, every player count.

Written once, in the library (:func:`catsearch.testing.check_game`); each game in
``catsearch.GAMES`` and each toy game must pass it unchanged. The tests below it check what
the suite itself does and what it does not cover: the registry, and that a broken game is
caught with a message that says where.
"""
import dataclasses

import pytest

import catsearch
from catsearch._core.game import GameSpec, register
from catsearch.testing import ConformanceError, TOY_GAMES, ToyRPS, check_game

CASES = ([(g, p, {}) for g in catsearch.GAMES for p in (2, 3, 4)]
         + [("the-cat", 3, {"target": 12}), ("cat-cards", 3, {"values": (5, 4, 3, 2, 1)}),
            ("cat-earth", 2, {"setup": "random"})]
         + [("toy-rps", p, {}) for p in (2, 3, 4)] + [("toy-rps", 3, {"rounds": 3}),
                                                      ("toy-pennies", 2, {"rounds": 2})])
IDS = [f"{g}-{p}p" + "".join(f"-{k}" for k in o) for g, p, o in CASES]


#: 4-player games of the four games in the slow tier (the fast tier: 2 and 3 players)
FAST_CASES = [pytest.param(g, p, o, marks=pytest.mark.slow)
              if p == 4 and g in catsearch.GAMES else (g, p, o) for g, p, o in CASES]


@pytest.mark.parametrize("game_id,players,options", FAST_CASES, ids=IDS)
def test_the_game_keeps_the_contract(game_id, players, options):
    report = check_game(game_id, players, seed=11, options=options)
    assert report["states"] >= 9 and report["determinizations"] > 0


def test_unknown_game_lists_the_public_games():
    with pytest.raises(ValueError) as e:
        catsearch.new_game("tic-tac-toe")
    for g in catsearch.GAMES:
        assert g in str(e.value)
    assert "toy-rps" not in str(e.value)


def test_test_games_are_registered_but_not_listed():
    assert set(TOY_GAMES).isdisjoint(catsearch.GAMES)
    st = catsearch.new_game("toy-pennies", rounds=2, seed=1)
    assert type(st).__name__ == "ToyPennies" and st.players == 2
    assert catsearch.from_text("toy-pennies", st.to_text()) == st
    assert catsearch.game_class("toy-rps") is ToyRPS


def test_a_declaration_cannot_take_another_games_id():
    class Impostor(ToyRPS):
        spec = dataclasses.replace(ToyRPS.spec, id="herding-cats")

    with pytest.raises(ValueError, match="taken"):
        register(Impostor, listed=False)


def test_a_declaration_is_checked():
    with pytest.raises(ValueError):
        GameSpec(id="x", name="X", size=8, moves=3, notation=("turn", "rng", "view?"))
    with pytest.raises(ValueError):
        GameSpec(id="x", name="X", size=8, moves=3, notation=("players", "rng", "view?"),
                 seats=(1, 4))


class _Blind(ToyRPS):
    """A broken toy: its view shows every seat's choice (knowledge() says it should not)."""

    spec = dataclasses.replace(ToyRPS.spec, id="toy-broken-view")

    def cards(self):
        return {f"choice{p}": "" if c == "-" else c
                for p, c in enumerate(self.to_text().split("choices=")[1].split()[0].split(","))}

    def view(self, seat):
        return self.clone()


def test_a_broken_game_fails_with_a_message_that_says_where():
    register(_Blind, listed=False)
    with pytest.raises(ConformanceError) as e:
        check_game("toy-broken-view", 2, seed=3)
    msg = str(e.value)
    assert "toy-broken-view" in msg and "seed=3" in msg and "ply" in msg and "state:" in msg
    assert e.value.game == "toy-broken-view" and e.value.ply is not None
    assert isinstance(e.value, AssertionError)


@pytest.mark.parametrize("both_ways,needle", [
    ((1, 2, True), "the heuristic told the legal moves picks 1, not told 2"),
    ((1, 1, False), "the heuristic wrote into the legal moves it was told"),
])
def test_a_heuristic_that_differs_when_told_the_moves_is_caught(monkeypatch, both_ways,
                                                                 needle):
    """A search's prior tells the heuristic the legal moves it generated; a playout does not.
    A game whose heuristic picks otherwise when told (or writes into them) fails the suite.
    (The answers of the C check are stood in for here: a broken game would need compiling.)"""
    import catsearch.testing.conformance as conformance
    monkeypatch.setattr(conformance, "heuristic_both_ways", lambda st, seed: both_ways)
    with pytest.raises(ConformanceError, match=needle):
        check_game("toy-rps", 2, seed=3)

