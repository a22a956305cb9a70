"""Why a move the person typed is not legal, in plain words, from the seat's view alone.

The rules' ``str_to_move`` names the reason for most illegal texts (a cat onto a herd of
another colour); a few read as a move that cannot be (``o@5`` with two herds on the table
reads as "a cat onto herd 5"), and its notation (``cat@5``) says nothing of why. Here the
view's own fields tell the reason: no such herd, pile or slot, or no such card in the hand.
Only the view is read, so nothing hidden is told.
"""

from __future__ import annotations

import re

from catsearch._core.state import State

__all__ = ["why_not_legal"]

_HC_CARDS = {"o": "orange cat", "p": "purple cat", "b": "blue cat", "g": "green cat",
             "O": "orange cowdog", "P": "purple cowdog", "B": "blue cowdog",
             "G": "green cowdog", "S": "Stampede", "W": "Wild Cat Lady"}


def _fields(view: State) -> dict[str, str]:
    return dict(kv.partition("=")[::2] for kv in view.to_text().split(" "))


def _numbered(what: str, n: int, count: int) -> str:
    if count == 0:
        return f"there is no {what} {n}: there are no {what}s on the table"
    if count == 1:
        return f"there is no {what} {n}: the only {what} is {what} 0"
    return f"there is no {what} {n}: the {what}s are numbered 0 to {count - 1}"


def _herding_cats(view: State, text: str, seat: int) -> str | None:
    f = _fields(view)
    herds = [] if f.get("herds", "-") == "-" else f["herds"].split(",")
    hand = f.get("hands", "").split("/")[seat] if "hands" in f else ""
    m = re.fullmatch(r"([opbgW])@(\d+)", text)
    if m:
        card, n = m.group(1), int(m.group(2))
        if n >= len(herds):
            return _numbered("herd", n, len(herds))
        if card not in hand:
            return f"you hold no {_HC_CARDS[card]}"
        return None
    m = re.fullmatch(r"x?([opbgOPBGSW])", text)
    if m and m.group(1) not in hand:
        return f"you hold no {_HC_CARDS[m.group(1)]}"
    return None


def _piles(view: State, text: str, seat: int) -> str | None:
    """The Cat's ``pickN``/``swapNM`` and Cat Cards' ``putN``/``takeN``: no such pile."""
    f = _fields(view)
    if view.game_id == "cat-cards":
        m = re.fullmatch(r"(?:put|take)(\d+)", text)
        count = len(f.get("piles", "").split(","))
        return _numbered("pile", int(m.group(1)), count) if m and int(m.group(1)) >= count \
            else None
    if view.game_id == "the-cat":
        piles = f.get("piles", "").split("/")[seat].split(",")
        centre = f.get("centre", "")
        m = re.fullmatch(r"pick(\d+)", text)
        if m and int(m.group(1)) >= len(piles):
            return _numbered("pile", int(m.group(1)), len(piles))
        m = re.fullmatch(r"swap(\d)(\d)", text)
        if m and int(m.group(2)) >= len(centre):
            return _numbered("centre card", int(m.group(2)), len(centre))
    return None


def why_not_legal(view: State, text: str) -> str:
    """Why ``text`` (a move's notation, as typed) cannot be played in ``view`` (the seat to
    move's view), in plain words; ``"it is not legal here"`` when nothing more specific is
    known."""
    seat = view.current_player
    reason = None
    try:
        if view.game_id == "herding-cats":
            reason = _herding_cats(view, text, seat)
        elif view.game_id in ("the-cat", "cat-cards"):
            reason = _piles(view, text, seat)
    except (IndexError, ValueError, KeyError):     # a view this does not know: no detail
        reason = None
    return reason or "it is not legal here"
