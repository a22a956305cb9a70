"""Herding Cats: what a discard reveals (docs/rules/herding-cats.rst, "Inference").

The reference below is written from the rules alone, over the public move log: a forward
search over the types a seat's hand could hold, from every deal, through its plays, its
discards (legal only with nothing playable) and its draws. The view's ``allows`` (the
configurations kept in C) must agree with it both ways, and the worlds ``determinize`` deals
must follow the exact posterior: the prior restricted to the worlds the reference allows.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest

import catsearch
from catsearch.testing.inference import check_inference

TYPES = "opbgOPBGSW"


def _card(move: str) -> str:
    """The card type a move takes from the mover's hand."""
    if move.startswith("x"):
        return move[1]
    return move[0] if "@" in move else move


def _playable(state_text: str) -> set[str]:
    fields = dict(f.split("=", 1) for f in state_text.split())
    herds = [h for h in fields["herds"].split(",") if h != "-"]
    out = set("OPBGS")
    for h in herds:
        out.add(h[0].lower())
    if herds:
        out.add("W")
    return out


def reference(log: list, seat: int, world) -> bool:
    """Could the game of ``log`` have happened, for ``seat``, with ``world`` real?"""
    hands = world.cards()
    for s in range(world.players):
        if s == seat:
            continue
        states = {tuple(sorted(h)) for h in itertools.combinations_with_replacement(TYPES, 3)}
        for mover, move, before in log:
            if mover != s:
                continue
            x = _card(move)
            if move.startswith("x"):
                play = _playable(before)
                states = {h for h in states if x in h and not any(c in play for c in h)}
            else:
                states = {h for h in states if x in h}
            states = {tuple(sorted(h[:h.index(x)] + h[h.index(x) + 1:])) for h in states}
            if "deck=-" not in before.split():
                states = {tuple(sorted(h + (c,))) for h in states for c in TYPES}
        if tuple(sorted(hands[f"hand{s}"])) not in states:
            return False
    return True


@pytest.mark.parametrize("players", [2, 3, 4])
def test_law_against_the_reference(players):
    report = check_inference("herding-cats", players, games=2, seed=players, worlds=3,
                             reference=reference)
    assert report["refused"] > 0            # the check has teeth: some worlds were refused


def _position_after_a_discard(players: int, seed: int):
    """A game's log and state right after seat 0 discards (and drew), seat 1 to move."""
    rng = random.Random(seed)
    while True:
        st = catsearch.new_game("herding-cats", players, seed=rng.randrange(2**64))
        log = []
        while not st.is_terminal():
            m = st.heuristic_move(seed=rng.randrange(2**64))
            text, mover = st.move_to_str(m), st.current_player
            log.append((mover, text, st.to_text()))
            st.apply(m)
            if mover == 0 and text.startswith("x") and st.current_player == 1 \
                    and "deck=-" not in st.to_text():
                return log, st


def _exact_posterior(view, log, seat: int, other: int) -> dict[str, float]:
    """Seat ``other``'s hand (sorted letters) over every world: the prior (the unseen cards
    dealt uniformly) restricted to the worlds the reference allows."""
    world = view.determinize(seat, seed=0, inference="none")
    unseen = Counter("".join(world.cards()[k] for k in ("deck",) + tuple(
        f"hand{p}" for p in range(world.players) if p != seat)))
    size = len(world.cards()[f"hand{other}"])
    out = {}
    for hand in itertools.combinations_with_replacement(sorted(unseen), size):
        key = "".join(hand)
        if key in out:
            continue
        need = Counter(hand)
        prior = math.prod(math.comb(unseen[t], k) for t, k in need.items())
        if prior == 0:
            continue
        # a world with this hand: deal the rest of the unseen cards anywhere else
        rest = list((unseen - need).elements())
        text = world.to_text().split()
        fields = dict(f.split("=", 1) for f in text)
        fields.pop("cannot", None)      # the reference, not the notation, judges the world
        hands = fields["hands"].split("/")
        hands[other] = key
        pos = 0
        for p in range(world.players):
            if p not in (seat, other):
                hands[p] = "".join(rest[pos:pos + len(hands[p])])
                pos += len(hands[p])
        fields["hands"] = "/".join(hands)
        fields["deck"] = "".join(rest[pos:]) or "-"
        w = catsearch.from_text("herding-cats", " ".join(f"{k}={v}" for k, v in fields.items()))
        if reference(log, seat, w):
            out[key] = prior
    total = sum(out.values())
    return {k: v / total for k, v in out.items()}


@pytest.mark.parametrize("inference, follows", [("rules", True), ("none", False)])
def test_worlds_follow_the_exact_posterior(inference, follows):
    from scipy.stats import chisquare
    log, st = _position_after_a_discard(2, seed=7)
    view = st.view(1)
    posterior = _exact_posterior(view, log, 1, 0)
    n = 3000
    seen = Counter("".join(sorted(view.determinize(1, seed=i, inference=inference)
                                  .cards()["hand0"])) for i in range(n))
    keys = sorted(set(posterior) | set(seen))
    expected = [posterior.get(k, 0.0) * n for k in keys]
    observed = [seen.get(k, 0) for k in keys]
    if not follows:
        # worlds the rules exclude are dealt, or the frequencies are off
        assert any(e == 0 and o > 0 for e, o in zip(expected, observed)) or \
            chisquare(observed, expected).pvalue < 1e-6
        return
    assert all(o == 0 for e, o in zip(expected, observed) if e == 0)
    keep = [i for i, e in enumerate(expected) if e > 0]
    p = chisquare([observed[i] for i in keep], [expected[i] for i in keep]).pvalue
    assert p > 1e-3, (p, posterior, seen)


def test_the_notation_carries_what_discards_revealed():
    log, st = _position_after_a_discard(3, seed=3)
    text = st.to_text()
    assert " cannot=0:" in text
    assert catsearch.from_text("herding-cats", text).to_text() == text
    view = st.view(1)
    assert " cannot=0:" in view.to_text()
    # a hand its configurations refuse: every card of seat 0 can be nothing
    fields = dict(f.split("=", 1) for f in text.split())
    fields["cannot"] = "0:" + ".".join(["opbgOPBGSW"] * len(fields["hands"].split("/")[0]))
    with pytest.raises(catsearch.NotationError, match="configurations allow"):
        catsearch.from_text("herding-cats", " ".join(f"{k}={v}" for k, v in fields.items()))
    for wrong, match in [("0:OPBGS", "mask"), ("9:-.-.-", "seats"), ("0:OPBGSx.-.-", "letters"),
                         ("0-OPBGS", "seat")]:
        fields["cannot"] = wrong
        with pytest.raises(catsearch.NotationError, match=match):
            catsearch.from_text("herding-cats", " ".join(f"{k}={v}" for k, v in fields.items()))


def test_an_observation_the_discards_exclude_is_refused():
    # seat 0 discarded with nothing playable and, the deck empty, drew nothing since: a
    # cowdog from it now is impossible, though seat 1 has not seen where the last P is
    text = ("players=3 turn=0 hands=oo/OB/PG deck=- herds=- discard=ooppppbbbbggggSSSSWWWW "
            "out=OoooOoooPpppPpppBbbbBbbbGgggGggg won=3,3,2 cannot=0:OPBGS.OPBGS "
            "rng=0000000000000001")
    st = catsearch.from_text("herding-cats", text)
    view = st.view(1)
    assert "P" in [view.move_to_str(m) for m in view.legal_moves()]   # a world has it...
    with pytest.raises(ValueError, match="discards"):
        view.play_observation("P")                                   # ...the discards not
    assert view.to_text() == st.view_text(1)                         # nothing changed
    view.play_observation("xo")
