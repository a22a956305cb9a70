"""Why a move the person typed is not legal, in plain words, from the seat's view alone;
and why a game ended (:func:`end_reason`, from the final state, every card shown by then).

The rules' ``str_to_move`` names the reason for most illegal texts (a cat onto a herd of
another colour); a few read as a move that cannot be (``o@5`` with two herds on the table
reads as "a cat onto herd 5"), and its notation (``cat@5``) says nothing of why. Here the
view's own fields tell the reason: no such herd, pile or slot, or no such card in the hand.
Only the view is read, so nothing hidden is told.
"""

from __future__ import annotations

import re

from catsearch._core.state import State

__all__ = ["why_not_legal", "end_reason", "THE_CAT_MAX_ROUNDS", "CAT_EARTH_MAX_ROUNDS"]

#: The Cat ends after this many rounds when nobody reached the target (TC_MAX_ROUNDS in
#: catsearch/games/the_cat.pxd; docs/rules/the-cat.rst)
THE_CAT_MAX_ROUNDS = 50
#: Cat Earth ends after this many rounds (docs/rules/cat-earth.rst)
CAT_EARTH_MAX_ROUNDS = 100

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


def _seats(seats: list[int]) -> str:
    names = [f"seat {s}" for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def end_reason(state: State) -> str:
    """Why the finished game ``state`` (a full state) ended, in plain words: The Cat's
    target or its round cap, Cat Cards' fifth set or its empty deck, Cat Earth's last house
    or its round cap, Herding Cats' last card. ``"the game is over"`` when the game is not
    one of these (or the state says nothing more).

    :raises ValueError: the game is not over.
    """
    if not state.is_terminal():
        raise ValueError("the game is not over")
    try:
        f = _fields(state)
        game = state.game_id
        if game == "the-cat":
            target = int(f["target"])
            scores = [int(x) for x in f["scores"].split(",")]
            reached = [s for s, x in enumerate(scores) if x >= target]
            if reached:
                return (f"{_seats(reached)} reached {target} points (the game is first to "
                        f"{target} points)")
            return (f"the {THE_CAT_MAX_ROUNDS}-round cap: {THE_CAT_MAX_ROUNDS} rounds were "
                    f"played and nobody reached {target} points")
        if game == "herding-cats":
            return "every card was played (the deck and every hand are empty)"
        if game == "cat-cards":
            sets = [0 if x == "-" else len(x.split(",")) for x in f["sets"].split("/")]
            five = [s for s, n in enumerate(sets) if n >= 5]
            if five:
                return (f"a fifth set ended it (five sets: {_seats(five)}), and every other "
                        "seat had a final turn")
            return "the deck and the piles ran out, and every seat had a final turn"
        if game == "cat-earth":
            houses = [f["board"].count(str(s)) for s in range(state.players)]
            alive = [s for s, n in enumerate(houses) if n > 0]
            if int(f["round"]) >= CAT_EARTH_MAX_ROUNDS and len(alive) > 1:
                return (f"the {CAT_EARTH_MAX_ROUNDS}-round cap: the most houses on the board "
                        "win")
            if len(alive) == 1:
                return f"{_seats(alive)} is the last with houses on the board"
            if not alive:
                return "the last houses of every seat still in went with one card"
    except (KeyError, ValueError, IndexError):
        pass
    return "the game is over"
