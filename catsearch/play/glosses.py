"""Observations in plain words, for a person at the table: what a seat saw of a move, told
from the observation's text alone (so it tells nothing more than the observation)."""

from __future__ import annotations

import re

__all__ = ["describe_observation"]


_HC_COLOURS = {"o": "orange", "p": "purple", "b": "blue", "g": "green"}


def _an(words: str) -> str:
    return ("an " if words[:1] in "aeiou" else "a ") + words


def _hc_card(c: str) -> str:
    if c in _HC_COLOURS:
        return _an(f"{_HC_COLOURS[c]} cat")
    if c.lower() in _HC_COLOURS:
        return _an(f"{_HC_COLOURS[c.lower()]} cowdog")
    return {"S": "a Stampede", "W": "a Wild Cat Lady", "?": "a card"}.get(c, repr(c))


def _herding_cats(text: str) -> str | None:
    move, plus, drawn = text.partition("+")
    if len(move) == 1 and move in "OPBG":
        words = f"played {_hc_card(move)} (a new herd)"
    elif move == "S":
        words = "played a Stampede"
    elif m := re.fullmatch(r"([opbgW]|cat)@(\d+)", move):
        what = "a cat" if m[1] == "cat" else _hc_card(m[1])
        words = f"put {what} on herd {m[2]}"
    elif len(move) == 2 and move[0] == "x":
        words = f"discarded {_hc_card(move[1])}"
    else:
        return None
    if plus:
        words += " and drew a card" if drawn == "?" else f" and drew {_hc_card(drawn)}"
    return words


def _cat_cards(text: str) -> str | None:
    try:
        from catsearch.games.cat_cards import CARD_NAMES, LETTERS
    except ImportError:     # pragma: no cover - the game module is always built
        return None

    def name(c: str) -> str:
        i = LETTERS.find(c) if c in LETTERS else LETTERS.find(c.lower())
        return c if i < 0 or i >= len(CARD_NAMES) else _an(CARD_NAMES[i])

    head, *rest = text.split(",")
    pile = None
    if m := re.fullmatch(r"put(\d)", head):
        words = [f"put the revealed card on pile {m[1]}"]
    elif m := re.fullmatch(r"take(\d)", head):
        pile = m[1]
        words = [f"picked up pile {pile}"]
    elif head == "pass":
        words = ["passed"]
    elif len(head) == 5:
        words = [f"formed the set {head}"]
    else:
        return None
    for part in rest:
        key, _, card = part.partition("=")
        if key == "refill":
            words.append(f"pile {pile} is refilled with {name(card)}")
        elif key == "reveal":
            words.append(f"the deck reveals {name(card)}")
        else:
            return None
    return "; ".join(words)


def _the_cat_choice(move: str) -> str | None:
    if move == "wait":
        return "waited"
    if move == "stop":
        return "called Stop"
    if m := re.fullmatch(r"pick(\d)", move):
        return f"picked up pile {m[1]}"
    if m := re.fullmatch(r"swap(\d)(\d)", move):
        return f"swapped card {m[1]} of the pile in hand with centre card {m[2]}"
    if move == "hidden":
        return "chose something you cannot see"
    return None


def _the_cat(text: str, seat: int | None = None) -> str | None:
    head, _, tick = text.partition(":")
    words = _the_cat_choice(head)
    if words is None:
        return None
    if not tick:
        return words
    if tick.startswith("scored="):
        parts = dict(p.partition("=")[::2] for p in tick.split(":"))
        words += (f"; the round ends: points {parts.get('scored', '?').replace(',', ', ')}, "
                  f"new centre {parts.get('centre', '?')}")
        if "piles" in parts:
            words += f"; the game ends, the piles: {parts['piles']}"
        return words
    effects = []
    for k, effect in enumerate(tick.split(",")):
        who = "you" if k == seat else f"seat {k}"
        if effect == "-":
            continue
        if m := re.fullmatch(r"pick(\d)(?:=(\w+))?", effect):
            effects.append(f"{who} picked up pile {m[1]}" + (f" ({m[2]})" if m[2] else ""))
        elif m := re.fullmatch(r"swap(\d)(\d)=(\w)", effect):
            effects.append(f"{who} swapped card {m[1]} with centre {m[2]} (now {m[3]})")
        else:
            return None
    return words + "; the tick: " + ("; ".join(effects) if effects else "nothing to see")


def _cat_earth(text: str, seat: int | None = None) -> str | None:
    got = re.fullmatch(r"([^!+]+)(![^+]*)?((?:\+\d[^+]*)*)", text)
    if got is None:
        return None
    words = _cat_earth_move(got[1])
    if words is None:
        return None
    from catsearch.games.cat_earth import CARD_CHARS, CARD_LONG

    def names(cards: str) -> str:
        return ", ".join(CARD_LONG[CARD_CHARS.index(c)] if c in CARD_CHARS[:len(CARD_LONG)]
                         else c for c in cards)

    if got[2]:
        words += f"; a hand put out of the game goes face up: {names(got[2][1:])}"
    for q, cards in re.findall(r"\+(\d)([^+]*)", got[3]):
        if seat is not None and int(q) == seat:
            words += f"; you drew {names(cards)}"
        else:
            words += f"; seat {q} drew {len(cards)} card{'s' if len(cards) != 1 else ''}"
    return words


def _cat_earth_move(text: str) -> str | None:
    if text == "end":
        return "ended the turn"
    if m := re.fullmatch(r"H:([a-g][1-7])", text):
        return f"built a house on {m[1]}"
    if m := re.fullmatch(r"T:([a-g][1-7])", text):
        return f"planted a tree on {m[1]}"
    if m := re.fullmatch(r"TP:([a-g][1-7])-([a-g][1-7])", text):
        return f"teleported the cat on {m[1]} to {m[2]}"
    if m := re.fullmatch(r"CN:([a-g][1-7])", text):
        return f"gave the cat on {m[1]} Cat Nip"
    if m := re.fullmatch(r"HS:([a-g][1-7])-([a-g][1-7])", text):
        return f"swapped the houses on {m[1]} and {m[2]}"
    if m := re.fullmatch(r"x:(\w+)", text):
        return f"discarded a {m[1]} card"
    if m := re.fullmatch(r"([FLR]+):([a-g][1-7])([NESW])", text):
        return f"played path card {m[1]} with the cat on {m[2]}, heading {m[3]}"
    return None


_GLOSSES = {"herding-cats": _herding_cats, "cat-cards": _cat_cards, "the-cat": _the_cat,
            "cat-earth": _cat_earth}


def describe_observation(game: str, text: str, seat: int | None = None) -> str | None:
    """An observation (what a seat saw of a move) in plain words, or ``None`` where there is
    no easy gloss. Made from the observation's text alone, so it tells nothing more;
    ``seat`` (the seat that saw it) is called "you" where the text names seats by position."""
    gloss = _GLOSSES.get(game)
    try:
        if gloss in (_the_cat, _cat_earth):
            return gloss(text, seat)
        return gloss(text) if gloss is not None else None
    except Exception:       # a gloss is a courtesy: never let it stop a game
        return None
