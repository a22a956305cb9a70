"""The typed notation reader against the precise one (``notation.Fields`` alone): the same
state, text and hash for every valid line, and the same error for every malformed one."""
import random

import pytest

import catsearch
from catsearch._core.text import use_fast_reader
from catsearch.testing import random_game_states


def read(game_id, text, fast):
    old = use_fast_reader(fast)
    try:
        st = catsearch.from_text(game_id, text)
        return ("ok", st.to_text(), st.hash)
    except Exception as e:          # the class and message must match too
        return (type(e).__name__, str(e))
    finally:
        use_fast_reader(old)


def positions(game_id, players, every):
    """The notation and a seat's view of every ``every``-th state of two random games; of
    at least four states where the games are shorter than that (a short game)."""
    opts = {"setup": "random"} if game_id == "cat-earth" and players == 3 else {}
    states = [st.clone() for st, _ in random_game_states(game_id, players, games=2,
                                                         seed=players, **opts)]
    every = max(1, min(every, len(states) // 3))
    for i, st in enumerate(states):
        if i % every == 0:
            yield st.to_text()
            yield st.view_text(i % players)


def mutants(text, rng):
    """Variants of ``text`` with one token changed: a character replaced, dropped or doubled,
    the value emptied, the token dropped or doubled."""
    tokens = text.split(" ")
    alphabet = sorted(set(text) | set("-?,/:=0123456789x\u00e9\t"))
    for j, tok in enumerate(tokens):
        variants = [tok + tok[-1:], tok.split("=")[0] + "=", "", tok + " " + tok]
        for _ in range(4):
            i = rng.randrange(len(tok))
            variants.append(tok[:i] + rng.choice(alphabet) + tok[i + 1:])
            variants.append(tok[:i] + tok[i + 1:])
        for v in variants:
            yield " ".join(tokens[:j] + [v] + tokens[j + 1:])


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_fast_reader_matches_precise_reader(game_id, players):
    rng = random.Random(7)
    checked = 0
    for text in positions(game_id, players, every=23):
        fast = read(game_id, text, True)
        assert fast[0] == "ok" and fast[1] == text
        assert fast == read(game_id, text, False)
        for bad in mutants(text, rng):
            assert read(game_id, bad, True) == read(game_id, bad, False), bad
            checked += 1
    assert checked > 100


def every_position(text, rng):
    """Variants of ``text`` with each character in turn replaced: by a digit or by another
    character of the same token (a card letter in a card field, a digit in a number), so
    each field's typed reader meets wrong values it could almost accept (a digit out of
    range, a move that is not legal, cards that make no set, a misplaced separator)."""
    tokens = text.split(" ")
    for j, tok in enumerate(tokens):
        key, eq, value = tok.partition("=")
        chars = sorted(set(value) | set("0129:/,-?"))
        start = len(key) + len(eq)
        for i in range(start, len(tok)):
            v = tok[:i] + rng.choice(chars) + tok[i + 1:]
            yield " ".join(tokens[:j] + [v] + tokens[j + 1:])


@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_fast_reader_matches_precise_reader_at_every_character(game_id):
    rng = random.Random(11)
    checked = 0
    for text in positions(game_id, 3, every=37):
        for bad in every_position(text, rng):
            assert read(game_id, bad, True) == read(game_id, bad, False), bad
            checked += 1
    assert checked > 300
