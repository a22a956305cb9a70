"""The law of observations, checked on random games: :func:`check_observations`.

A game master holds the full state and sends each seat, for every move, its observation
(:meth:`State.observation <catsearch._core.state.State.observation>`); a seat follows the game
on its view with :meth:`~catsearch._core.state.State.play_observation`. The law: following its
observations from its first view, a seat's view is always exactly the full state's view of
that seat, and no observation tells a seat anything it cannot know.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from catsearch._core.options import derive_seed
from catsearch._core.state import State
from catsearch.errors import ObservationError
from catsearch.testing.conformance import _Checker

__all__ = ["check_observations", "BAD_OBSERVATIONS"]

#: Texts that are no observation in any game: each must raise ``ObservationError`` and leave
#: the view unchanged.
BAD_OBSERVATIONS = ("", "?", "nonsense!", "x" * 5000, "\x00", "play:", "#")


def check_observations(game_id: str, players: int, *, games: int = 3, seed: int = 0,
                       options: Mapping[str, Any] | None = None, leak_checks: int = 2) -> dict:
    """Check the law of observations on ``games`` random games of ``game_id``.

    At every move, for every seat: the observation is one non-empty token without
    whitespace; the seat's view, following the observations from its first view, equals the
    full state's view of the seat (notation, hash, legal moves, info key, chance outcomes);
    :meth:`play_observation` returns what the seat saw of the move (``observe_move``). No
    leak: for ``leak_checks`` determinizations of the full state for that seat (full states
    the seat cannot tell from it) in which the move is legal and leaves the seat's view the
    same, the seat's observation is the same text (so it carries nothing the seat does not
    know afterwards). Bad observations (:data:`BAD_OBSERVATIONS`, another seat's observation
    of a draw, an observation of a move that is not legal) raise ``ObservationError`` and
    leave the view unchanged.

    :returns: counts: ``moves``, ``observations``, ``leak_checks``.
    :raises ConformanceError: the first failure, naming game, seed, ply and what failed.
    """
    ck = _Checker(game_id, players, seed, options, ("moves", "observations", "leak_checks"))
    report, rng = ck.report, ck.rng
    for g, game_seed, st in ck.deals(games, salt=1000):
        views = [st.view(s) for s in range(players)]
        ply = 0
        while not st.is_terminal():
            ck.at(g, game_seed, ply, st)
            move = rng.choice(st.legal_moves())
            after = st.clone()
            after.apply(move)
            texts = [_observation(ck, st, s, move) for s in range(players)]
            for s in range(players):
                report["leak_checks"] += _check_no_leak(ck, st, after, s, move, texts[s],
                                                        derive_seed(game_seed, ply, s),
                                                        leak_checks)
                if ply % 7 == s % 7:
                    _check_refused(ck, views[s], texts, s)
                try:
                    code = views[s].play_observation(texts[s])
                except ObservationError as e:
                    ck.fail(f"seat {s}'s view {views[s].to_text()!r} refused its observation "
                            f"{texts[s]!r} of {st.move_to_str(move)!r}: {e}")
                ck.expect(code == st.observe_move(move, s),
                          f"play_observation({texts[s]!r}) on seat {s}'s view returned {code}, "
                          f"observe_move gives {st.observe_move(move, s)}")
                _check_same_view(ck, views[s], after, s, texts[s])
                report["observations"] += 1
            st = after
            ply += 1
            report["moves"] += 1
    return report


def _observation(ck: _Checker, st: State, seat: int, move: int) -> str:
    text = st.observation(seat, move)
    ck.expect(isinstance(text, str) and text and text.split() == [text],
              f"the observation of {st.move_to_str(move)!r} for seat {seat} is {text!r}: "
              "expected one non-empty token without whitespace")
    return text


def _check_same_view(ck: _Checker, view: State, after: State, seat: int, text: str) -> None:
    want = after.view(seat)
    what = f"seat {seat}'s view after its observation {text!r}"
    ck.expect(view.to_text() == want.to_text(),
              f"{what} is {view.to_text()!r}; the full state's view is {want.to_text()!r}")
    ck.expect(view.hash == want.hash and view.hash == view.recompute_hash(),
              f"{what}: hash {view.hash:#x}, recomputed {view.recompute_hash():#x}; the full "
              f"state's view has {want.hash:#x}")
    ck.expect(view.is_terminal() == want.is_terminal()
              and view.current_player == want.current_player, f"{what}: turn or end differ")
    if not view.is_terminal():
        ck.expect(view.legal_moves() == want.legal_moves(), f"{what}: legal moves differ")
        ck.expect(view.chance_outcomes() == want.chance_outcomes(),
                  f"{what}: chance outcomes differ")
    ck.expect(view.info_key(seat) == after.info_key(seat), f"{what}: info keys differ")


def _check_no_leak(ck: _Checker, st: State, after: State, seat: int, move: int, text: str,
                   seed: int, tries: int) -> int:
    """States ``seat`` cannot tell from ``st``, where ``move`` leaves the same view, must give
    the same observation: else it tells the seat something about the hidden cards."""
    seen_after = after.view_text(seat)
    checked = 0
    for k in range(tries):
        d = st.determinize(seat, seed=derive_seed(seed, k))
        if move not in d.legal_moves():
            continue
        d_after = d.clone()
        d_after.apply(move)
        if d_after.view_text(seat) != seen_after:
            continue
        other = d.observation(seat, move)
        ck.expect(other == text,
                  f"seat {seat} sees {st.move_to_str(move)!r} as {text!r} here but as "
                  f"{other!r} in {d.to_text()!r}, a state it cannot tell from this one and "
                  "that the move leaves looking the same: the observation leaks hidden cards")
        checked += 1
    return checked


def _check_refused(ck: _Checker, view: State, texts: list[str], seat: int) -> None:
    before = (view.to_text(), view.hash)
    bad = list(BAD_OBSERVATIONS)
    bad += [t for s, t in enumerate(texts) if t != texts[seat]][:1]
    for text in bad:
        try:
            view.play_observation(text)
        except ObservationError:
            pass
        except Exception as e:
            ck.fail(f"seat {seat}'s view given the bad observation {text[:80]!r} raised "
                    f"{type(e).__name__}: {e} (expected ObservationError)")
        else:
            ck.fail(f"seat {seat}'s view followed the bad observation {text[:80]!r} (its own "
                    f"observation of this move is {texts[seat]!r})")
        ck.expect((view.to_text(), view.hash) == before,
                  f"seat {seat}'s view changed when it refused {text[:80]!r}")
