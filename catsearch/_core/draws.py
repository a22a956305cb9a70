"""The observation of a move in a hand-and-deck game: the move's text, then the card drawn.

In a game where the mover draws the deck's top card at the end of its turn (Herding Cats,
the example game ``toy-sum``), what a seat is sent of a move is the move's text, then ``+``
and the card drawn: its letter for the mover, ``?`` for every other seat; nothing after the
move once the deck is empty (``o@0+W``, ``o@0+?``, ``o@0``). :func:`draw_observation`
writes it (``State._observation``); :func:`read_draw` reads it back in a seat's view
(``State._play_observation``) and raises :class:`ValueError` with the reason for anything the
seat could not have been sent. The game checks the card counts (a card the seat has seen
every copy of cannot be drawn) with its own unseen counts.
"""

from __future__ import annotations

__all__ = ["draw_observation", "read_draw"]


def draw_observation(move_text: str, *, seat: int, mover: int, drawn: str | None) -> str:
    """What ``seat`` sees of ``mover``'s move ``move_text`` after which ``mover`` draws the
    card of letter ``drawn`` (``None``: the deck is empty, nobody draws)."""
    if drawn is None:
        return move_text
    return f"{move_text}+{drawn if seat == mover else '?'}"


def read_draw(text: str, *, seat: int, mover: int, deck_left: bool,
              letters: str) -> tuple[str, int]:
    """Split the observation ``text`` that ``seat`` received of ``mover``'s move into the
    move's text and the card drawn: its type (its index in ``letters``, the known card
    letters), ``-1`` for a card hidden from ``seat`` (``+?``) or when nobody draws
    (``deck_left`` false: the deck is empty).

    :raises ValueError: the draw is missing, extra, not a card, hidden from the mover itself
        or shown to another seat; the message says what was expected.
    """
    move_text, plus, draw = text.partition("+")
    if not deck_left:
        if plus:
            raise ValueError(f"the deck is empty: nobody draws, the observation is the move "
                             f"alone ({move_text!r}), not {text!r}")
        return move_text, -1
    if not plus or len(draw) != 1 or (draw != "?" and draw not in letters):
        raise ValueError(f"the deck is not empty, so the observation ends with the card "
                         f"drawn: {move_text}+<card> (one of {letters}), or {move_text}+? for "
                         f"another seat's draw; got {text!r}")
    if mover == seat:
        if draw == "?":
            raise ValueError(f"seat {seat} drew the card itself: its observation names it "
                             f"({move_text}+{letters[0]} ...), '+?' is another seat's")
        return move_text, letters.index(draw)
    if draw != "?":
        raise ValueError(f"seat {mover} drew the card, hidden from seat {seat}: seat {seat}'s "
                         f"observation is {move_text}+?, {text!r} is seat {mover}'s")
    return move_text, -1
