"""Every move in plain words, from one seat's own knowledge: what was played and what it did.

:func:`narrate` tells one move from a seat's view before it and the seat's observation of it
(what the game master sent that seat): the move in the game's own words (its
``GameSpec.gloss``, :mod:`catsearch.play.glosses`), then what it did, read from the
difference between the seat's view before and after the observation (a herd won and by
whom, what a Stampede placed, houses pushed off the board, a The Cat swap that failed and
why, the points of a round's end, why the game ended). Only the seat's view and its
observation are read, so the account tells nothing the seat did not see. Given a full state
(every card shown, as a record viewer has it) and the move's full notation, it tells the
move as everyone would see it once the cards are turned over.

:class:`Narrator` follows a live game for one seat (the browser's log, the terminal's lines).
"""

from __future__ import annotations

import re

import catsearch
from catsearch._core.notation import words_for
from catsearch._core.state import State
from catsearch.play.reasons import end_reason

__all__ = ["narrate", "Narrator", "narrate_game"]

#: a The Cat choice's text -> what the seat chose to do (notation.words_for)
_TC_CHOICES = (("wait", "wait"), ("stop", "call Stop"), (r"pick(\d)", r"pick up pile \1"),
               (r"swap(\d)(\d)", r"swap card \1 of the pile in hand with centre card \2"))


def _fields(state: State) -> dict[str, str]:
    return dict(kv.partition("=")[::2] for kv in state.to_text().split(" "))


def _name(seat: int, you: int | None, capital: bool = False) -> str:
    if seat == you:
        return "You" if capital else "you"
    return f"{'Seat' if capital else 'seat'} {seat}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _scores(scores: list, you: int | None) -> str:
    return ", ".join(f"{_name(s, you)} {x}" for s, x in enumerate(scores))


# -- what each game's move did -------------------------------------------------------------

def _herding_cats(b: dict, a: dict, text: str, mover: int, you: int | None) -> list[str]:
    out = []
    move = text.partition("+")[0]
    if move == "S":
        placed = sum(b["discard"].count(c) - a["discard"].count(c) for c in "opbg")
        out.append(f"the Stampede placed {_plural(placed, 'cat')} from the discard pile"
                   if placed > 0 else "the Stampede placed no cat (none in the discard pile "
                                      "fits a herd)")
    won_b = [int(x) for x in b["won"].split(",")]
    won_a = [int(x) for x in a["won"].split(",")]
    for seat, (x, y) in enumerate(zip(won_b, won_a)):
        if y > x:
            out.append(f"{_name(seat, you)} won {'a herd' if y - x == 1 else _plural(y - x, 'herd')}"
                       f" (now {y})")
    return out


def _the_cat(b: dict, a: dict, text: str, mover: int, you: int | None,
             players: int) -> list[str]:
    out = []
    head, _, tick = text.partition(":")
    if not tick:
        return out
    if tick.startswith("scored="):
        parts = dict(p.partition("=")[::2] for p in tick.split(":"))
        scored = [int(x) for x in parts["scored"].split(",")]
        out.append("the round ends; points scored: " + _scores(scored, you)
                   + "; totals: " + _scores(a["scores"].split(","), you))
        return out
    if you is None:
        return out
    mine = head if mover == you else b["chosen"].split(",")[you]
    m = re.fullmatch(r"swap(\d)(\d)", mine)
    effects = tick.split(",")
    if not m or len(effects) != players or effects[you] != "-":
        return out
    i, j = int(m[1]), int(m[2])
    held = int(b["held"].split(",")[you])
    pile = b["piles"].split("/")[you].split(",")[held]
    if pile[i] == b["centre"][j]:
        out.append(f"your swap changed nothing: card {i} and centre card {j} are both "
                   f"{pile[i]}")
        return out
    first = int(b["tick"]) % players
    for k in range(players):
        q = (first + k) % players
        if q == you:
            break
        if re.fullmatch(rf"swap\d{j}=\w", effects[q]):
            out.append(f"your swap failed: seat {q} swapped centre card {j} first this tick "
                       f"(first touch: seat {q} had priority)")
            return out
    out.append(f"your swap failed: a seat with priority swapped centre card {j} first this "
               "tick (first touch)")
    return out


def _cat_cards(b: dict, a: dict, text: str, mover: int, you: int | None) -> list[str]:
    out = []
    sets_a = a["sets"].split("/")
    if re.fullmatch(r"[0-9a-eSPML]{5}", text.split(",")[0]):
        n = 0 if sets_a[mover] == "-" else len(sets_a[mover].split(","))
        out.append(f"{_name(mover, you)} now {'have' if mover == you else 'has'} "
                   f"{_plural(n, 'set')}")
        if n == 5 and b.get("finals") == "0" and a.get("finals") not in (None, "0", "-"):
            out.append("a fifth set: every other seat has one final turn")
    return out


def _moods(words: str) -> str:
    """The Cat's cards as the table shows them, moods in decimal: ``(now a)`` -> ``(now 10)``,
    a pile's ``(333a)`` -> ``(3, 3, 3, 10)``."""
    words = re.sub(r"\(now ([0-9a-f])\)", lambda m: f"(now {int(m[1], 16)})", words)
    return re.sub(r"\(([0-9a-f]{4})\)",
                  lambda m: "(" + ", ".join(str(int(c, 16)) for c in m[1]) + ")", words)


def _houses(board: str, players: int) -> dict[int, list[str]]:
    rows = board.split("/")
    out: dict[int, list[str]] = {s: [] for s in range(players)}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch.isdigit() and int(ch) < players:
                out[int(ch)].append(f"{'abcdefg'[c]}{len(rows) - r}")
    return out


def _cat_earth(b: dict, a: dict, text: str, mover: int, you: int | None,
               players: int) -> list[str]:
    out = []
    hb, ha = _houses(b["board"], players), _houses(a["board"], players)
    for seat in range(players):
        lost = len(hb[seat]) - len(ha[seat])
        if lost > 0 and not text.startswith("HS:"):
            gone = sorted(set(hb[seat]) - set(ha[seat]))
            where = f" ({', '.join(gone)})" if len(gone) == lost else ""
            out.append(f"{_name(seat, you)} lost {_plural(lost, 'house')}{where}: pushed off "
                       "the board")
            if not ha[seat]:
                out.append(f"{_name(seat, you)} {'have' if seat == you else 'has'} no house "
                           f"left and {'are' if seat == you else 'is'} out")
    return out


def narrate(before: State, text: str, mover: int, seat: int | None = None) -> str:
    """One move in plain words.

    :param before: the position before the move as ``seat`` knows it: the seat's view
        (``text`` is then the seat's observation of the move), or a full state (``text`` is
        the move's full notation; everything is told, as once the cards are shown).
    :param text: the seat's observation of the move (a view), or the move's notation.
    :param mover: the seat that made the move.
    :param seat: who is told, called "you"; a view's own seat when ``None``.
    :returns: one or more sentences, never empty.
    :raises TypeError: ``before`` is not a State, ``text`` not a str, ``mover`` not an int.
    :raises ValueError: ``mover`` is not a seat, or ``text`` cannot follow ``before``.
    """
    if not isinstance(before, State):
        raise TypeError(f"narrate tells a move from a State, not {type(before).__name__}")
    if not isinstance(text, str):
        raise TypeError(f"a move's text is a str, not {type(text).__name__}")
    if not isinstance(mover, int) or isinstance(mover, bool):
        raise TypeError(f"mover must be an int, not {type(mover).__name__}")
    n = before.players
    if not 0 <= mover < n:
        raise ValueError(f"mover {mover} is not a seat of this {n}-player game")
    you = before.view_seat if seat is None else seat
    after = before.clone()
    told = text
    if before.view_seat is None:
        move = before.str_to_move(text)
        told = before.observation(mover, move)     # the mover's own words for it
        after.play(move)
    else:
        after.play_observation(text)
    return _tell(before, after, told, mover, you)


def _tell(before: State, after: State, text: str, mover: int, you: int | None) -> str:
    game = before.game_id
    n = before.players
    spec = catsearch.game_class(game).spec
    words = None
    if spec.gloss is not None:
        try:
            words = spec.gloss(text, you)
        except Exception:      # a gloss is a courtesy
            words = None
    if game == "the-cat":      # the choice (hidden until the tick resolves), then the tick
        head = text.partition(":")[0]
        choice = words_for(head, _TC_CHOICES)
        words = ("made a hidden choice" if head == "hidden" or choice is None
                 else f"chose to {choice}")
        tick_words = spec.gloss(text, you) or ""
        if "; the tick: " in tick_words:
            words += "; the tick resolves: " + _moods(tick_words.split("; the tick: ", 1)[1])
    sentence = f"{_name(mover, you, capital=True)} {words or 'played ' + text}"
    b, a = _fields(before), _fields(after)
    try:
        if game == "herding-cats":
            extra = _herding_cats(b, a, text, mover, you)
        elif game == "the-cat":
            extra = _the_cat(b, a, text, mover, you, n)
        elif game == "cat-cards":
            extra = _cat_cards(b, a, text, mover, you)
        elif game == "cat-earth":
            extra = _cat_earth(b, a, text, mover, you, n)
        else:
            extra = []
    except (KeyError, ValueError, IndexError):     # a position this does not know: no more
        extra = []
    parts = [sentence + "."] + [e[0].upper() + e[1:] + "." for e in extra]
    if after.is_terminal():
        parts.append(f"The game is over: {end_reason(after)}. Final scores: "
                     f"{_scores(after.scores(), you)}.")
    return " ".join(parts)


class Narrator:
    """Tells a live game's moves to one seat, following its view.

    :param view: the seat's view now (``table.view(seat)``) or a full state (every move is
        then told in full: ``tell`` takes the moves' notation).
    """

    def __init__(self, view: State) -> None:
        if not isinstance(view, State):
            raise TypeError(f"a Narrator follows a State, not {type(view).__name__}")
        self.view = view.clone()

    def tell(self, mover: int, text: str) -> str:
        """The move ``text`` (the seat's observation; a move's notation for a full state)
        made by ``mover``, in plain words; the narrator's view follows it. Never raises for
        a text the view refuses: it says the notation then."""
        before = self.view
        after = before.clone()
        try:
            words = narrate(before, text, mover)
            if before.view_seat is None:
                after.play(before.str_to_move(text))
            else:
                after.play_observation(text)
        except (ValueError, TypeError):
            return f"{_name(mover, before.view_seat, capital=True)} played {text}."
        self.view = after
        return words


def narrate_game(initial: State, moves: list[tuple[int, str]], seat: int | None = None
                 ) -> list[str]:
    """Every move of a game in plain words: ``initial`` the deal (a full state), ``moves``
    the ``(seat, notation)`` of each move (a record's ``moves``). With ``seat``, each is told
    as that seat saw it (its view and observations only); without, with every card shown.

    :raises ValueError: a move that is not legal where it is played.
    """
    state = initial.clone()
    narrator = Narrator(state if seat is None else state.view(seat))
    out = []
    for mover, text in moves:
        move = state.str_to_move(text)
        told = text if seat is None else state.observation(seat, move)
        out.append(narrator.tell(mover, told))
        state.play(move)
    return out
