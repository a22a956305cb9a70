"""Cat Earth: one or more tests per ruling, on explicit positions built from notation.

Boards are written rank 7 first, files a to g: ``.`` empty, a digit a house of that seat,
``T`` a tree, ``C`` a cat. Cards: ``1`` F, ``2`` FF, ``3`` FFF, ``4`` FR, ``5`` FL, ``6`` FFR,
``7`` FFL, ``8`` FRL, ``9`` FLR, ``T`` Teleport, ``N`` Cat Nip, ``S`` House Swap.
"""
import collections
import math
import random

import numpy as np
import pytest

import catsearch
from catsearch import IllegalMoveError, InvalidMoveError, NotationError, ObservationError
from catsearch.testing import check_observations

GAME = "cat-earth"
DECK = "1111" "222222" "3333" "444" "555" "66" "77" "88" "99" "TTTT" "NNNN" "SSSS"
RNG = "00000000000000a5"


def make(board, hands, *, players=3, turn=0, phase="play", round=1, played=0, pending=0,
         discard="", deck=None, winners="-", view=None):
    """A position from its parts; the deck gets every card not elsewhere, in type order."""
    rows = board.split()
    assert len(rows) == 7
    used = collections.Counter("".join(hands) + discard + (deck or ""))
    if deck is None:
        left = collections.Counter(DECK) - used
        deck = "".join(c for c in DECK if left[c] and not left.subtract(c))
    text = (f"players={players} phase={phase} turn={turn} round={round} played={played} "
            f"pending={pending} board={'/'.join(rows)} hands={'/'.join(h or '-' for h in hands)} "
            f"deck={deck or '-'} discard={discard or '-'} winners={winners} rng={RNG}")
    if view is not None:
        text += f" view={view}"
    return catsearch.from_text(GAME, text)


def board_of(st):
    """The board as 7 rows, rank 7 first."""
    return st.to_text().split("board=")[1].split(" ")[0].split("/")


def square(st, name):
    f, r = "abcdefg".index(name[0]), int(name[1])
    return board_of(st)[7 - r][f]


def moves(st):
    return [st.move_to_str(m) for m in st.legal_moves()]


def field(st, key):
    for tok in st.to_text().split(" "):
        k, _, v = tok.partition("=")
        if k == key:
            return v
    raise KeyError(key)


def check(st):
    """Invariants after every step of a test."""
    assert st.hash == st.recompute_hash()
    assert catsearch.from_text(GAME, st.to_text()) == st


# Trees in three corners (3 players) or four (2 and 4 players).
T3 = ("T.....T", "T......")
T4 = ("T.....T", "T.....T")


def b3(r6, r5, r4, r3, r2):
    return "\n".join([T3[0], r6, r5, r4, r3, r2, T3[1]])


def b4(r6, r5, r4, r3, r2):
    return "\n".join([T4[0], r6, r5, r4, r3, r2, T4[1]])


# -- the board and the setup ----------------------------------------------------------------

DIAGRAM = """
    . . 4 2 4 . .
    . 2 2 2 2 2 .
    4 2 3 . 3 2 4
    2 2 . C . 2 2
    4 2 3 . 3 2 4
    . 2 2 2 2 2 .
    . . 4 2 4 . .
"""


def diagram_squares(players):
    out = set()
    for i, line in enumerate(DIAGRAM.split("\n")[1:8]):
        for f, ch in enumerate(line.split()):
            if ch.isdigit() and int(ch) <= players:
                out.add("abcdefg"[f] + str(7 - i))
    return out


@pytest.mark.parametrize("players,count", [(2, 20), (3, 24), (4, 32)])
def test_starting_squares_per_player_count(players, count):
    st = catsearch.new_game(GAME, players, seed=1)
    legal = {m[2:] for m in moves(st)}
    assert all(m.startswith("H:") for m in moves(st))
    assert legal == diagram_squares(players)
    assert len(legal) == count
    assert square(st, "d4") == "C" and field(st, "phase") == "house"


@pytest.mark.parametrize("players,houses,trees,tree_order",
                         [(2, 10, 2, [1, 0, 1, 0]), (3, 7, 1, [2, 1, 0]), (4, 6, 1, [3, 2, 1, 0])])
def test_setup_order_and_counts(players, houses, trees, tree_order):
    st = catsearch.new_game(GAME, players, seed=3)
    for i in range(players * houses):
        assert st.current_player == i % players, "houses go one at a time from seat 0 clockwise"
        legal = moves(st)
        assert all(m.startswith("H:") for m in legal)
        st.play(legal[(7 * i) % len(legal)])
        check(st)
    assert st.scores() == [houses] * players
    order = []
    for i in range(players * trees):
        assert field(st, "phase") == "tree"
        order.append(st.current_player)
        legal = moves(st)
        assert legal and all(m.startswith("T:") for m in legal)
        st.play(legal[(5 * i) % len(legal)])
        check(st)
    assert order == tree_order, "trees from the last house-placer, counter-clockwise"
    # setup over: the deck was dealt 2 each, seat 0 drew its first card
    assert field(st, "phase") == "play" and field(st, "round") == "1"
    assert st.current_player == 0
    sizes = [len(st.cards()[f"hand{p}"]) for p in range(players)]
    assert sizes == [3] + [2] * (players - 1)
    assert len(st.cards()["deck"]) == 40 - 2 * players - 1
    assert sum(r.count("T") for r in board_of(st)) == players * trees


def test_houses_only_on_empty_starting_squares():
    st = catsearch.new_game(GAME, 2, seed=3)
    st.play("H:d7")
    assert "H:d7" not in moves(st)
    with pytest.raises(IllegalMoveError):
        st.play("H:d7")
    with pytest.raises(IllegalMoveError):
        st.play("H:a1")          # no starting square
    with pytest.raises(IllegalMoveError):
        st.play("H:c5")          # a 3-player square
    with pytest.raises(IllegalMoveError):
        st.play("T:a1")          # trees come after the houses


def tree_phase_position():
    # 3 players, all 21 houses down (7 each), one tree already on a7: seat 1 places next
    board = "\n".join([
        "T......",
        "..0120.",
        ".12.01.",
        "20.C.12",
        ".01.20.",
        ".12012.",
        ".......",
    ])
    return make(board, ["", "", ""], phase="tree", turn=1, round=0, deck=DECK)


def test_tree_adjacency():
    st = tree_phase_position()
    legal = {m[2:] for m in moves(st)}
    near_d4 = {"c5", "d5", "e5", "c4", "d4", "e4", "c3", "d3", "e3"}
    near_tree = {"a6", "b6", "b7"}
    empty = set()
    for r, row in enumerate(board_of(st)):
        for f, ch in enumerate(row):
            if ch == ".":
                empty.add("abcdefg"[f] + str(7 - r))
    assert legal == empty - near_d4 - near_tree
    assert "b7" not in legal and "c5" not in legal and "d5" not in legal   # b7 beside the tree
    assert "a2" in legal and "g7" in legal and "f1" in legal
    for bad in ("T:b7", "T:d5", "T:c4", "T:d4", "T:c6", "T:b6"):
        with pytest.raises(IllegalMoveError):
            st.play(bad)
    st.play("T:a2")
    # a1, b1, b2 ... are now next to a tree too; the diagonal counts
    assert "T:b1" not in moves(st) and "T:b3" not in moves(st) and "T:a3" not in moves(st)
    assert "T:a5" in moves(st)
    st.play("T:g1")
    check(st)
    assert field(st, "phase") == "play"


def test_tree_rule_checked_in_notation():
    st = tree_phase_position()
    text = st.to_text()
    bad = text.replace("board=T......", "board=TT.....", 1).replace("turn=1", "turn=0")
    with pytest.raises(NotationError, match="next to"):
        catsearch.from_text(GAME, bad)      # b7 next to the tree on a7


def test_setup_random_option():
    st = catsearch.new_game(GAME, 3, seed=9, setup="random")
    check(st)
    assert field(st, "phase") == "play" and st.ply == 0 and st.current_player == 0
    assert st.scores() == [7, 7, 7]
    assert "setup=random" in st.to_text()
    starts = diagram_squares(3)
    trees = []
    for r, row in enumerate(board_of(st)):
        for f, ch in enumerate(row):
            name = "abcdefg"[f] + str(7 - r)
            if ch in "012":
                assert name in starts
            if ch == "T":
                trees.append((f, 7 - r))
    assert len(trees) == 3
    for f, r in trees:
        assert max(abs(f - 3), abs(r - 4)) > 1, "tree next to d4"
        for g, s in trees:
            assert (f, r) == (g, s) or max(abs(f - g), abs(r - s)) > 1, "trees next to each other"
    assert catsearch.new_game(GAME, 3, seed=10, setup="random") != st
    assert catsearch.new_game(GAME, 3, seed=9, setup="random") == st
    # the same options survive a new deal
    r = catsearch.benchmark_playouts(GAME, 2, games=50, setup="random")
    assert r["games"] == 50


def test_setup_option_is_validated():
    with pytest.raises(ValueError, match="setup"):
        catsearch.new_game(GAME, 3, setup="fast")
    with pytest.raises(ValueError, match="moves"):
        catsearch.new_game(GAME, 3, setup="fast")
    with pytest.raises(ValueError, match="setup"):
        catsearch.new_game(GAME, 3, houses=3)
    assert field(catsearch.new_game(GAME, 3, seed=1, setup="moves"), "phase") == "house"


# -- path cards --------------------------------------------------------------------------

EMPTY5 = (".......", ".......", "...C...", ".......", ".......")
OPEN = b3(".......", ".2.....", "...C...", ".1.....", "..0....")


@pytest.mark.parametrize("move,end", [
    ("F:d4N", "d5"), ("FF:d4E", "f4"), ("FFF:d4S", "d1"), ("FR:d4N", "e5"), ("FL:d4N", "c5"),
    ("FFR:d4E", "f3"), ("FFL:d4E", "f5"), ("FRL:d4N", "e6"), ("FLR:d4N", "c6"),
    ("FRL:d4W", "b5"), ("FLR:d4S", "e2"),
])
def test_path_rotation(move, end):
    """F forward; R/L turn right/left then step; the cat keeps facing the way it turned."""
    card = {"F": "1", "FF": "2", "FFF": "3", "FR": "4", "FL": "5", "FFR": "6", "FFL": "7",
            "FRL": "8", "FLR": "9"}[move.split(":")[0]]
    st = make(OPEN, [card + "1", "", ""])
    st.play(move)
    check(st)
    assert square(st, end) == "C" and square(st, "d4") == "."
    assert sum(r.count("C") for r in board_of(st)) == 1


def test_push_chain_drops_a_house_off_the_edge():
    board = b3(".......", ".2.....", "...C001", ".1.....", "..2....")
    st = make(board, ["11", "", ""])
    assert st.scores() == [2, 2, 2]
    st.play("F:d4E")
    check(st)
    assert board_of(st)[3] == "....C00"          # the whole line moved, g4 fell off
    assert st.scores() == [2, 1, 2]
    # the next push drops seat 0's own house
    st.play("F:e4E")
    assert board_of(st)[3] == ".....C0"
    assert st.scores() == [1, 1, 2]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_threats_counted_in_closed_form_agree_with_playing_the_steps_out(players):
    """The heuristic's and the evaluation's threats (houses one straight cat move of up to
    three squares would push off) are counted from the empty squares and houses along each
    ray; playing the three steps out on a copy of the ray gives the same, position by
    position, along random games."""
    from catsearch.games.cat_earth import _threats_both_ways
    seen = threatened = 0
    for seed in range(12):
        st = catsearch.new_game("cat-earth", players, seed=seed,
                                **({"setup": "random"} if seed % 2 else {}))
        rng = random.Random(seed)
        while not st.is_terminal():
            fast, by_steps = _threats_both_ways(st)
            assert fast == by_steps, st.to_text()
            seen += 1
            threatened += any(fast)
            st.apply(rng.choice(st.legal_moves()))
    assert seen > 1000 and threatened > seen // 10


@pytest.mark.parametrize("players", [2, 3, 4])
def test_heuristic_values_teleports_nips_and_swaps_in_place_as_if_played(players):
    """The heuristic values a teleport, a nip or a house swap on the board in place (where
    nothing after the card can change the board or end the game) instead of playing it on a
    copy: the same value, move by move, along random games, and the state is left as it
    was; the games reach both kinds of place, a card that ends the turn and one that does
    not."""
    from catsearch.games.cat_earth import _shift_values_both_ways
    compared = ending = 0
    for seed in range(10):
        st = catsearch.new_game("cat-earth", players, seed=seed,
                                **({"setup": "random"} if seed % 2 else {}))
        rng = random.Random(seed)
        while not st.is_terminal():
            text, key = st.to_text(), st.hash
            for m, in_place, played in _shift_values_both_ways(st):
                assert in_place == played, (st.move_to_str(m), text)
                compared += 1
                after = st.clone()
                after.apply(m)
                ending += after.current_player != st.current_player
            assert st.to_text() == text and st.hash == key
            st.apply(rng.choice(st.legal_moves()))
    assert compared > 5000 and ending > 1000


def test_push_chain_with_gaps_moves_only_the_unbroken_line():
    board = b3(".......", ".2.....", "...C0.1", ".1.....", "..2....")
    st = make(board, ["2", "", ""])
    st.play("FF:d4E")
    # step 1 pushes e4 to f4 (line e4 only); step 2 pushes f4+g4: g4 falls off
    assert board_of(st)[3] == ".....C0"
    assert st.scores() == [1, 1, 2]


@pytest.mark.parametrize("row4,blocked,allowed", [
    ("...C00T", ["F:d4E"], ["F:d4N", "F:d4W"]),          # the line would hit a tree
    ("...C0C.", ["F:d4E", "F:f4W"], ["F:f4E"]),          # the line would hit a cat
    ("..CC...", ["F:c4E", "F:d4W"], ["F:c4W", "F:d4E"]),  # a cat onto a cat
    ("...C.0T", ["FF:d4E", "FFF:d4E"], ["F:d4E"]),       # blocked on the second step
])
def test_pushes_blocked_by_tree_and_cat(row4, blocked, allowed):
    trees = ("T......", "T......") if "T" in row4 else T3
    board = "\n".join([trees[0], ".......", ".2.....", row4, ".1.....", "..2.0..", trees[1]])
    st = make(board, ["123", "", ""])
    legal = moves(st)
    for m in blocked:
        assert m not in legal
        with pytest.raises(IllegalMoveError):
            st.play(m)
    for m in allowed:
        assert m in legal


def test_cat_cannot_step_onto_a_tree():
    board = "\n".join(["T......", ".......", ".2.....", "...C...", ".1....T", "..2.0C.", "T......"])
    st = make(board, ["145", "", ""])
    legal = moves(st)
    assert "F:f2E" in legal and "F:f2N" in legal
    assert "FR:f2N" not in legal        # f3, then east onto the tree on g3
    assert "FL:f2N" in legal            # f3, then west to e3
    assert "FL:f2E" not in legal        # g2, then north onto the tree


def test_path_leaving_the_board():
    board = "\n".join(["T......", "......C", ".2.....", ".....C.", ".1.....", "..0....", "T...T.."])
    st = make(board, ["124", "", ""])
    legal = moves(st)
    assert "F:g6E" not in legal and "F:g6N" in legal      # g6 north is g7: empty
    assert "FF:g6N" not in legal                           # second step off the top
    assert "F:f4E" in legal and "FF:f4E" not in legal     # g4, then off the edge
    assert "FR:g6W" in legal                               # f6, then north to f7
    assert "FR:g6N" not in legal                           # g7, then east: off
    with pytest.raises(IllegalMoveError):
        st.play("FF:f4E")


def test_a_house_can_be_pushed_over_and_onto_d4():
    board = b3(".......", ".2.....", "C00....", ".1.....", "..2....")
    st = make(board, ["3", "", ""], turn=0)
    st.play("FFF:a4E")
    assert board_of(st)[3] == "...C00."
    assert square(st, "d4") == "C"


def test_identical_cards_give_one_move():
    board = OPEN
    one = make(board, ["2", "", ""])
    two = make(board, ["22", "", ""])
    assert one.legal_moves() == two.legal_moves()
    assert len(set(two.legal_moves())) == len(two.legal_moves())


def test_move_text():
    st = make(OPEN, ["2T", "", ""])
    m = st.str_to_move("FF:d4N")
    assert st.move_to_str(m) == "FF:d4N"
    assert st.move_to_str(st.str_to_move("TP:d4-a2")) == "TP:d4-a2"
    for bad in ("no-such-move", "FF:d4", "FF:d4X", "ZZ:d4N", "TP:d4", "HS:c5-c5", "x:Q", "H:h9"):
        with pytest.raises(InvalidMoveError):
            st.str_to_move(bad)
    with pytest.raises(IllegalMoveError, match="no cat on c5"):
        st.str_to_move("FF:c5N")
    assert st.str_to_move("HS:e4-b5") == st.str_to_move("HS:b5-e4")


# -- turn structure -------------------------------------------------------------------------

def test_turn_draw_plays_and_end():
    st = make(OPEN, ["12", "4", "5"])
    ply = st.ply
    st.play("end")
    # the draw is not a move: seat 1 already holds its drawn card
    assert st.ply == ply + 1 and st.current_player == 1
    assert len(st.cards()["hand1"]) == 2 and len(st.cards()["hand0"]) == 2
    check(st)


def test_turn_ends_by_itself_after_the_fourth_card():
    st = make(OPEN, ["1234T", "", ""])
    for m in ("F:d4S", "FF:d3N", "FFF:d5E"):
        st.play(m)
        assert st.current_player == 0
    st.play(moves(st)[0])
    assert st.current_player == 1
    assert field(st, "played") == "0"
    assert len(st.cards()["hand0"]) == 1


def test_turn_ends_by_itself_when_the_hand_is_empty():
    st = make(OPEN, ["1", "", ""])
    st.play("F:d4N")
    assert st.current_player == 1


def test_discard_down_to_four():
    st = make(OPEN, ["1122T", "", ""])
    st.play("end")
    assert field(st, "phase") == "discard" and st.current_player == 0
    assert moves(st) == ["x:F", "x:FF", "x:TP"]
    st.play("x:FF")
    check(st)
    assert st.current_player == 1
    assert st.cards()["hand0"] == "112T" and "2" in st.cards()["discard"]


def test_specials_count_towards_the_four_plays():
    st = make(OPEN, ["TNSS1", "", ""])
    st.play("TP:d4-a5")
    st.play("CN:a5")
    st.play("HS:b3-c2")
    assert st.current_player == 0 and square(st, "c2") == "1"
    st.play("HS:c2-b3")
    assert st.current_player == 1, "four cards played: the turn is over"


# -- special cards ---------------------------------------------------------------------------

def test_teleport_legal_and_illegal_targets():
    board = b3(".......", ".2.....", "...C...", ".1...C.", "..0....")
    st = make(board, ["T", "", ""])
    legal = [m for m in moves(st) if m.startswith("TP:")]
    empties = sum(r.count(".") for r in board_of(st))
    assert len(legal) == 2 * empties
    for bad in ("TP:d4-a7", "TP:d4-b5", "TP:d4-f3", "TP:d4-d4"):   # tree, house, cat, itself
        assert bad not in legal
        with pytest.raises(IllegalMoveError):
            st.play(bad)
    st.play("TP:d4-g4")
    check(st)
    assert square(st, "g4") == "C" and square(st, "d4") == "."
    # onto an empty d4
    st2 = make(b3(".......", ".2.....", ".......", ".1...C.", "..0...."), ["T", "", ""])
    assert "TP:f3-d4" in moves(st2)


def test_cat_nip_needs_an_empty_d4():
    free = make(b3(".......", ".2.....", ".C.....", ".1...C.", "..0...."), ["N", "", ""])
    assert [m for m in moves(free) if m.startswith("CN")] == ["CN:f3", "CN:b4"]
    free.play("CN:b4")
    check(free)
    assert square(free, "d4") == "C" and square(free, "b4") == "."
    with_cat = make(b3(".......", ".2.....", ".C.C...", ".1.....", "..0...."), ["N", "", ""])
    assert moves(with_cat) == [m for m in moves(with_cat) if not m.startswith("CN")]
    with pytest.raises(IllegalMoveError):
        with_cat.play("CN:b4")
    with_house = make(b3(".......", ".2.....", ".C.0...", ".1.....", "..0...."), ["N", "", ""])
    assert not [m for m in moves(with_house) if m.startswith("CN")]


def test_house_swap_between_different_players_only():
    board = b3(".......", ".2.....", "...C00.", ".1.....", ".......")
    st = make(board, ["S", "", ""])
    legal = [m for m in moves(st) if m.startswith("HS:")]
    # houses: b5 (2), e4 (0), f4 (0), b3 (1): pairs of different owners
    assert sorted(legal) == sorted(["HS:b3-e4", "HS:b3-f4", "HS:b3-b5", "HS:e4-b5",
                                    "HS:f4-b5"])
    with pytest.raises(IllegalMoveError):
        st.play("HS:e4-f4")
    with pytest.raises(IllegalMoveError):
        st.play("HS:e4-d4")      # d4 holds a cat
    st.play("HS:f4-b5")
    check(st)
    assert square(st, "f4") == "2" and square(st, "b5") == "0"
    assert st.scores() == [2, 1, 1]


def test_unplayable_special_leaves_end():
    board = b3(".......", "1......", "...C000", ".......", "......2")
    st = make(board, ["N", "", ""])
    assert moves(st) == ["end"]


# -- cats joining ----------------------------------------------------------------------------

def reshuffle_position(row4, deck_card="1", hand0="2", pending=0):
    board = b3(".......", ".2.....", row4, ".1.....", "..0....")
    used = collections.Counter(hand0 + deck_card)
    left = collections.Counter(DECK) - used
    discard = "".join(sorted(left.elements(), key=DECK.index))
    return make(board, [hand0, "", ""], deck=deck_card, discard=discard, pending=pending)


def test_reshuffle_adds_a_cat_on_an_empty_d4():
    st = reshuffle_position("C......")
    n_discard = len(st.cards()["discard"])
    st.play("end")             # seat 1 draws the last card: reshuffle
    check(st)
    assert st.current_player == 1 and st.cards()["hand1"] == "1"
    assert len(st.cards()["deck"]) == n_discard and st.cards()["discard"] == ""
    assert square(st, "d4") == "C" and square(st, "a4") == "C"
    assert field(st, "pending") == "0"
    assert collections.Counter(st.cards()["deck"]) == \
        collections.Counter(DECK) - collections.Counter("21")


def test_reshuffle_uses_the_state_generator():
    a = reshuffle_position("C......")
    b = a.clone()
    a.play("end")
    b.play("end")
    assert a == b
    text = reshuffle_position("C......").to_text().replace(RNG, "00000000000000a6")
    c = catsearch.from_text(GAME, text)
    c.play("end")
    assert c.cards()["deck"] != a.cards()["deck"]


def test_pending_cat_enters_when_d4_empties():
    st = reshuffle_position("...C...")
    st.play("end")
    assert field(st, "pending") == "1"
    assert sum(r.count("C") for r in board_of(st)) == 1
    check(st)
    st.play("F:d4N")           # seat 1 moves the cat off d4: the waiting cat enters
    check(st)
    assert square(st, "d5") == "C" and square(st, "d4") == "C"
    assert field(st, "pending") == "0"


def test_pending_cat_waits_for_a_house_on_d4():
    # d4 holds a house: not empty, so the new cat waits
    st = reshuffle_position("..C1...", deck_card="2")
    st.play("end")
    assert field(st, "pending") == "1"
    st_one = st.clone()
    # FF east: the house goes d4 -> e4 -> f4 and the cat passes over d4, leaving it empty
    st.play("FF:c4E")
    assert square(st, "d4") == "C" and square(st, "e4") == "C" and square(st, "f4") == "1"
    assert field(st, "pending") == "0"
    check(st)
    st_one.play("end")
    assert field(st_one, "pending") == "1" and st_one.current_player == 2


def test_a_cat_ending_on_d4_keeps_the_new_cat_waiting():
    st = reshuffle_position("..C1...", deck_card="1")
    st.play("end")
    assert field(st, "pending") == "1"
    st.play("F:c4E")           # the house goes to e4, the cat stands on d4
    assert square(st, "d4") == "C" and square(st, "e4") == "1"
    assert field(st, "pending") == "1"
    check(st)


def test_no_more_than_four_cats():
    st = reshuffle_position("C..C..C")
    # three cats on the board, none waiting: a fourth joins, waiting since d4 is taken
    st.play("end")
    assert field(st, "pending") == "1"
    four = reshuffle_position("C.CC..C")
    four.play("end")
    assert field(four, "pending") == "0"
    assert sum(r.count("C") for r in board_of(four)) == 4
    waiting = reshuffle_position("C..C..C", pending=1)
    waiting.play("end")
    assert field(waiting, "pending") == "1", "waiting cats count towards the four"


# -- elimination, winning, the cap -----------------------------------------------------------

def test_elimination_and_skipped_turns():
    board = b3(".......", ".2.....", "...C001", ".......", "..2....")
    st = make(board, ["11", "2", "34"])
    st.play("F:d4E")
    check(st)
    assert st.scores() == [2, 0, 2]
    assert st.cards()["hand1"] == "" and "2" in st.cards()["discard"], "hand goes face up"
    assert not st.is_terminal() and st.current_player == 0
    st.play("end")
    assert st.current_player == 2, "seat 1 is out: its turns are skipped"
    st.play("end")
    assert st.current_player == 0 and field(st, "round") == "2"
    check(st)
    assert "(out)" in str(st)


def test_a_player_eliminating_itself_ends_its_turn():
    board = b3(".......", ".2.....", "...C110", ".1.....", "..2....")
    st = make(board, ["12", "", "3"])
    st.play("F:d4E")
    assert st.scores() == [0, 3, 2]
    assert st.current_player == 1, "the mover is out: its turn ends at once"
    assert st.cards()["hand0"] == "" and "2" in st.cards()["discard"]
    check(st)


def test_last_player_with_houses_wins():
    board = b3(".......", ".......", "....C01", ".......", ".......")
    st = make(board, ["1", "", ""], players=3)
    # seat 2 is already out
    assert st.scores() == [1, 1, 0]
    st.play("F:e4E")           # only seat 1's house falls
    assert st.is_terminal()
    assert st.returns() == [1.0, 0.0, 0.0]
    assert field(st, "winners") == "0"
    check(st)


def test_shared_win_when_one_card_removes_the_last_houses():
    board = b4(".......", ".......", "...C01.", ".......", ".......")
    st = make(board, ["3", ""], players=2)
    st.play("FFF:d4E")
    assert st.is_terminal() and st.scores() == [0, 0]
    assert st.returns() == [0.5, 0.5]
    assert field(st, "winners") == "0,1"
    check(st)
    # a card that removes the last houses of some but not all remaining players
    board3 = b3(".......", ".......", "...C01.", ".......", "..2....")
    st3 = make(board3, ["3", "", ""])
    st3.play("FFF:d4E")
    assert st3.returns() == [0.0, 0.0, 1.0]


def test_the_100_round_cap():
    board = b3(".......", ".2.....", "...C000", ".111...", "..2....")
    st = make(board, ["1", "2", "3"], turn=2, round=100)
    assert not st.is_terminal()
    st.play("end")
    assert st.is_terminal()
    assert st.scores() == [3, 3, 2]
    assert st.returns() == [0.5, 0.5, 0.0]
    check(st)
    before = make(board, ["1", "2", "3"], turn=2, round=99)
    before.play("end")
    assert not before.is_terminal() and field(before, "round") == "100"
    # the round ends with the last seat still in
    skip = make(b3(".......", ".......", "...C000", ".11....", "......."), ["1", "2", ""],
                turn=1, round=100)
    skip.play("end")
    assert skip.is_terminal() and skip.returns() == [1.0, 0.0, 0.0]


def test_random_games_end_within_the_cap():
    for seed in range(20):
        st = catsearch.new_game(GAME, 4, seed=seed, setup="random")
        import random
        r = random.Random(seed)
        while not st.is_terminal():
            st.apply(r.choice(st.legal_moves()))
        assert int(field(st, "round")) <= 100
        assert math.isclose(sum(st.returns()), 1.0)


# -- hidden information ----------------------------------------------------------------------

def test_views_hide_hands_and_deck_but_not_the_discard():
    st = make(OPEN, ["12", "34", "T"], discard="NNS")
    v = st.view(1)
    assert v.cards() == {"hand0": "??", "hand1": "34", "hand2": "?",
                         "deck": "?" * len(st.cards()["deck"]), "discard": "NNS"}
    assert field(v, "rng") == "?" and field(v, "view") == "1"
    assert catsearch.from_text(GAME, v.to_text()) == v
    with pytest.raises(ValueError):
        v.view(0)


def test_determinize_keeps_what_the_seat_knows():
    st = make(OPEN, ["12", "34", "T"], discard="NNS")
    for seed in range(20):
        d = st.determinize(1, seed=seed)
        assert d.cards()["hand1"] == "34" and d.cards()["discard"] == "NNS"
        assert len(d.cards()["hand0"]) == 2 and len(d.cards()["hand2"]) == 1
        assert collections.Counter("".join(d.cards().values())) == collections.Counter(DECK)
        assert d.view_text(1) == st.view_text(1)


def test_elimination_in_a_view_reveals_unknown_cards():
    board = b3(".......", ".2.....", "...C001", ".......", "..2....")
    st = make(board, ["11", "25", "34"])
    v = st.view(0)
    v.play("F:d4E")
    assert v.cards()["discard"] == "1??"
    check(v)
    d = v.determinize(0, seed=1)
    assert "?" not in "".join(d.cards().values())
    assert len(d.cards()["discard"]) == 3


def test_chance_outcomes_in_a_view():
    st = make(OPEN, ["12", "34", "T"], discard="NNS", turn=1)
    v = st.view(0)
    chance = dict(v.chance_outcomes())
    assert math.isclose(sum(chance.values()), 1.0)
    unseen = collections.Counter(DECK) - collections.Counter("12NNS")
    total = sum(unseen.values())
    for t, w in chance.items():
        assert math.isclose(w, unseen["123456789TNS"[t]] / total)


# -- notation, picture, heuristic ------------------------------------------------------------

def test_notation_errors():
    st = make(OPEN, ["12", "34", "T"])
    text = st.to_text()
    with pytest.raises(NotationError, match="not a square"):
        catsearch.from_text(GAME, text.replace("board=T", "board=X"))
    with pytest.raises(NotationError, match="cards"):
        catsearch.from_text(GAME, text.replace("hands=12/", "hands=122/"))
    with pytest.raises(NotationError):
        catsearch.from_text(GAME, text.replace("phase=play", "phase=dance"))
    with pytest.raises(NotationError, match="turn"):
        catsearch.from_text(GAME, text.replace("turn=0", "turn=-"))
    with pytest.raises(NotationError):
        catsearch.from_text(GAME, text.replace("rng=" + RNG, "rng=?"))


def test_str_draws_the_board():
    st = make(OPEN, ["12", "34", "T"])
    s = str(st)
    assert "a b c d e f g" in s
    assert "  4  . . . C . . .  4" in s
    assert "FF" in s and "Teleport" in s
    assert "?" in str(st.view(0))


def test_heuristic_takes_houses():
    board = b3(".......", ".2.....", "....C11", ".1.....", "..0....")
    st = make(board, ["1", "", ""])
    assert st.move_to_str(st.heuristic_move(seed=1)) == "F:e4E"
    # it also moves a cat away rather than leave its own houses in line for a push
    board = b3(".......", ".2.....", "...C000", ".1.....", "..2....")
    st = make(board, ["1", "", ""])
    assert st.move_to_str(st.heuristic_move(seed=1)) != "F:d4E"
    assert st.move_to_str(st.heuristic_move(seed=1)) != "end"
    ev = st.evaluate()
    assert math.isclose(sum(ev), 1.0)


def test_evaluate_favours_more_houses():
    board = b3(".......", ".2.....", "...C000", ".00....", "..1....")
    st = make(board, ["1", "", ""])
    ev = st.evaluate()
    assert ev[0] > ev[1] and ev[0] > ev[2]


# The evaluation's constants per player count (EV_* in cat_earth.pyx; docs/evaluation.rst,
# "Cat Earth"): beta0, beta1, beta2, threat, edge, hand.
EV = {2: (5.05, -4.25, 0.0, 0.256, 0.197, 0.284),
      3: (2.24, -1.72, 1.13, 0.343, 0.0294, 0.339),
      4: (0.699, -0.00478, 0.891, 0.237, 0.212, 0.225)}


def documented_evaluation(players, houses, threatened, edge, hand):
    """The documented formula: per seat still in, s = houses - EV_THREAT * threatened -
    EV_EDGE * edge houses + EV_HAND * cards in hand (at least 0.5), chance proportional to
    s^beta, beta = EV_BETA0 + EV_BETA1 * progress (+ EV_BETA2 once two seats of 3-4 are
    left), progress the share of the houses that left the board."""
    beta0, beta1, beta2, threat, edge_c, hand_c = EV[players]
    progress = 1 - sum(houses) / (players * {2: 10, 3: 7, 4: 6}[players])
    left = sum(h > 0 for h in houses)
    beta = beta0 + beta1 * progress + (beta2 if players > 2 and left == 2 else 0.0)
    w = [max(0.5, h - threat * t - edge_c * e + hand_c * c) ** beta if h else 0.0
         for h, t, e, c in zip(houses, threatened, edge, hand)]
    return [x / sum(w) for x in w]


def test_evaluate_follows_the_documented_formula():
    # seat 0: 5 houses (a7 and a1 on the edge), 1 card; seat 1: 3 houses, g4 on the edge and
    # pushed off by the cat going 3 squares east; seat 2: 2 houses, 2 cards
    board = "\n".join(["0...T.T", ".0.....", "..0.1..", "...C..1", ".0...2.", "..1.2..",
                       "0.....T"])
    st = make(board, ["1", "", "23"])
    ev = st.evaluate()
    want = documented_evaluation(3, [5, 3, 2], [0, 1, 0], [2, 1, 0], [1, 0, 2])
    assert ev == pytest.approx(want, abs=1e-12)
    assert st.view(1).evaluate() == pytest.approx(ev, abs=1e-15)   # hand sizes are public
    # the old s^2 / sum s^2 (s = houses - 0.5 * threatened) was far too sure of the leader
    # with 3 players (0.709 here) and ranked seat 1 above seat 2: cards in hand count now
    assert 0.5 < ev[0] < 0.6
    assert ev[2] > ev[1]


def test_evaluate_sharpens_once_two_seats_are_left():
    # seat 2 is out: beta gains EV_BETA2, so the same houses make seat 0 surer than with
    # three seats in
    rows = ["T.....T", ".0.....", "..0....", "...C...", ".0...1.", "..1....", "...T..."]
    two = make("\n".join(rows), ["1", "1", ""])
    ev = two.evaluate()
    assert ev[2] == 0.0
    assert ev == pytest.approx(documented_evaluation(3, [3, 2, 0], [0, 0, 0], [0, 0, 0],
                                                     [1, 1, 0]), abs=1e-12)
    rows[6] = "..2T..."
    three = make("\n".join(rows), ["1", "1", ""])
    ev3 = three.evaluate()
    assert ev3 == pytest.approx(documented_evaluation(3, [3, 2, 1], [0, 0, 0], [0, 0, 1],
                                                      [1, 1, 0]), abs=1e-12)
    assert ev[0] / ev[1] > ev3[0] / ev3[1]


def test_evaluate_is_an_estimate_of_the_returns():
    """In [0, 1], summing to 1, the same for a seat's view; the returns once over; 1/n in
    setup."""
    for players in (2, 3, 4):
        st = catsearch.new_game(GAME, players, seed=players)
        assert st.evaluate() == pytest.approx([1 / players] * players)
        ply = 0
        while not st.is_terminal():
            ev = st.evaluate()
            assert all(0.0 <= x <= 1.0 for x in ev) and math.isclose(sum(ev), 1.0)
            if ply % 7 == 0:
                assert st.view(st.current_player).evaluate() == pytest.approx(ev)
            st.play(st.heuristic_move(seed=ply))
            ply += 1
        assert st.evaluate() == st.returns()


# -- observations: what each seat sees of a move (docs/rules/cat-earth.rst, "Observations") ---

def observe_all(st, views, move):
    """Play ``move`` (text) on ``st`` and on every seat's view by its observation; check the
    law (each view is ``st.view(seat)`` again) and return the observations, per seat."""
    m = st.str_to_move(move)
    texts = [st.observation(s, m) for s in range(st.players)]
    st.play(m)
    for s, v in enumerate(views):
        assert v.play_observation(texts[s]) == m
        assert v.to_text() == st.view_text(s) and v.hash == st.view(s).hash
        assert v.hash == v.recompute_hash()
    return texts


def test_observations_of_setup_moves_and_the_deal():
    st = catsearch.new_game(GAME, 3, seed=5)
    views = [st.view(s) for s in range(3)]
    assert observe_all(st, views, "H:d1") == ["H:d1"] * 3      # public: the move's own text
    while st.cards()["hand0"] == "":
        last = st.move_to_str(st.legal_moves()[0])
        texts = observe_all(st, views, last)
    # the last tree deals 2 cards each, and seat 0 draws its first card: each seat sees its own
    hands = [st.cards()[f"hand{p}"] for p in range(3)]
    assert texts == [f"{last}+0{hands[0]}+1??+2??", f"{last}+0???+1{hands[1]}+2??",
                     f"{last}+0???+1??+2{hands[2]}"]


def test_observations_of_plays_ends_and_discards():
    st = make(OPEN, ["12", "34", "T"])          # the deck: every other card, in type order
    views = [st.view(s) for s in range(3)]
    assert observe_all(st, views, "F:d4N") == ["F:d4N"] * 3       # a card play: all public
    # end: seat 1 draws the deck's top card (F); only seat 1 sees which
    assert observe_all(st, views, "end") == ["end+1?", "end+11", "end+1?"]
    st = make(OPEN, ["12345", "6", "T"])
    views = [st.view(s) for s in range(3)]
    assert observe_all(st, views, "end") == ["end"] * 3            # 5 cards: discard next
    assert observe_all(st, views, "x:FF") == ["x:FF+1?", "x:FF+11", "x:FF+1?"]


def test_observation_of_an_elimination_shows_the_hand_face_up():
    board = b3(".......", ".2.....", "...C001", ".......", "..2....")
    st = make(board, ["11", "25", "34"])
    views = [st.view(s) for s in range(3)]
    # seat 1's last house falls off: its hand goes face up, for everyone
    assert observe_all(st, views, "F:d4E") == ["F:d4E!25"] * 3
    assert views[2].cards()["discard"] == "125"


def test_observation_of_the_draw_that_reshuffles():
    st = reshuffle_position("C......")
    pile = st.cards()["discard"]
    views = [st.view(s) for s in range(3)]
    assert observe_all(st, views, "end") == ["end+1?", "end+11", "end+1?"]
    # every view remembers the pile that became the deck; nobody has drawn from it yet
    for v in views:
        assert field(v, "pile") == pile and field(v, "fresh") == "-/-/-"
    assert observe_all(st, views, "end") == ["end+2?", "end+2?", "end+2" + st.cards()["hand2"]]
    assert field(views[2], "fresh") == f"-/-/{st.cards()['hand2']}"
    assert field(views[0], "fresh") == "-/-/?"


@pytest.mark.parametrize("seat,text,why", [
    (0, "", "no observation"),
    (0, "nonsense!", "no observation"),
    (0, "FF:d4Q", "no move"),
    (0, "FFF:d4N", "seat 0 holds no FFF"),
    (0, "end+11", "names the card seat 1 drew"),
    (0, "end+1T", "names a card seat 1 drew"),
    (1, "end+1?", "seat 1 sees its own draw"),
    (1, "end", "seat 1's draw is missing"),
    (1, "end+1N", "every Cat Nip is already face up"),
    (1, "end+11+2?", "seat 2 draws nothing"),
    (1, "end+111", "seat 1 draws one card"),
    (2, "F:d4N!1", "nobody is put out"),
])
def test_bad_observations_leave_the_view_unchanged(seat, text, why):
    st = make(OPEN, ["12", "34", "T"], discard="NNNN")
    v = st.view(seat)
    before = (v.to_text(), v.hash)
    with pytest.raises(ObservationError):
        v.play_observation(text)
    assert (v.to_text(), v.hash) == before


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_law_of_observations(players):
    report = check_observations(GAME, players, games=2, seed=3)
    assert report["observations"] == players * report["moves"] and report["leak_checks"] > 0


# -- the memory of the last reshuffle ---------------------------------------------------------

def reshuffled_2p():
    """2 players: seat 0 ends with F last in the deck; seat 1 draws it and the discard pile
    (every card but seat 0's FF and that F) becomes the new deck."""
    board = b4(".......", ".1.....", "...C...", ".0.....", ".......")
    left = collections.Counter(DECK) - collections.Counter("21")
    discard = "".join(sorted(left.elements(), key=DECK.index))
    st = make(board, ["2", ""], players=2, deck="1", discard=discard)
    st.play("end")
    return st, discard


def test_a_reshuffle_is_remembered_in_views_and_full_states():
    st, pile = reshuffled_2p()
    assert field(st, "pile") == pile and field(st, "fresh") == "-/-"
    check(st)
    v = st.view(0)
    assert field(v, "pile") == pile and catsearch.from_text(GAME, v.to_text()) == v
    # before any reshuffle there is nothing to remember: the notation is unchanged
    assert "pile=" not in make(OPEN, ["12", "34", "T"]).to_text()


def test_determinize_deals_the_deck_from_the_reshuffled_pile():
    st, pile = reshuffled_2p()
    # the deck is the pile: seat 0 knows that seat 1 holds the F it drew before
    for seed in range(30):
        d = st.view(0).determinize(0, seed=seed)
        assert d.cards()["hand1"] == "1"
        assert sorted(d.cards()["deck"]) == sorted(pile)
        assert d.view_text(0) == st.view_text(0)
    assert st.view(0).chance_outcomes() == [(0, 1.0)]       # seat 1's card, seen by seat 0
    assert st.dealt_from(0) == {"deck": pile}
    # a view that forgot the reshuffle (no pile=, fresh=) deals seat 1 anything
    forgot = catsearch.from_text(GAME, " ".join(
        t for t in st.view_text(0).split() if not t.startswith(("pile=", "fresh="))))
    assert {forgot.determinize(0, seed=s).cards()["hand1"] for s in range(30)} != {"1"}


def test_no_peeking_after_a_reshuffle():
    """Two full states with different hidden histories that give seat 0 the same view: the
    same view notation and the same determinizations, seed for seed."""
    st = reshuffle_position("C......")          # 3 players: seat 1 draws the last card
    for _ in range(3):
        st.play("end")                           # seat 1 ends, seat 2 draws; seat 2 ends, ...
    a = st
    assert a.current_player == 0 and field(a, "fresh") != "-/-/-"
    # b: seat 2 drew another card of the pile since the reshuffle (it is still in hand)
    x = a.cards()["hand2"]
    y = next(c for c in a.cards()["deck"] if c != x)
    deck = a.cards()["deck"].replace(y, x, 1)
    fresh = field(a, "fresh").split("/")
    fresh[2] = fresh[2].replace(x, y, 1)
    text = a.to_text()
    for key, value in (("hands", field(a, "hands").split("/")[:2] + [y]),
                       ("deck", deck), ("fresh", fresh)):
        old = f"{key}={field(a, key)}"
        text = text.replace(old, f"{key}={value if isinstance(value, str) else '/'.join(value)}")
    b = catsearch.from_text(GAME, text)
    assert a != b and a.cards()["hand2"] != b.cards()["hand2"]
    assert a.view_text(0) == b.view_text(0) and a.info_key(0) == b.info_key(0)
    assert a.view_text(2) != b.view_text(2)
    for seed in range(10):
        da, db = a.determinize(0, seed=seed), b.determinize(0, seed=seed)
        assert da == db and da.view_text(0) == a.view_text(0)
        # the deck comes from the pile, less what seat 0 drew since: the F that seat 1 drew
        # before the reshuffle stays in a hand
        assert "1" in da.cards()["hand1"] + da.cards()["hand2"]
    # the same from the views themselves, and from the views reached by observations
    assert a.view(0).determinize(0, seed=4) == b.view(0).determinize(0, seed=4)


def test_memory_notation_errors():
    st, pile = reshuffled_2p()
    text = st.to_text()
    for bad in (text.replace(f"pile={pile}", "pile=-"),           # an empty pile
                text.replace(" fresh=-/-", ""),                   # pile without fresh
                text.replace("fresh=-/-", "fresh=1/-"),           # more drawn than the pile
                text.replace("fresh=-/-", "fresh=?/-")):          # unknown in a full state
        with pytest.raises(NotationError):
            catsearch.from_text(GAME, bad)


def test_observation_when_the_mover_puts_itself_out():
    board = b3(".......", ".2.....", "...C..0", ".1.....", "..1....")
    st = make(board, ["31", "4", "5"])
    views = [st.view(s) for s in range(3)]
    texts = observe_all(st, views, "FFF:d4E")     # its last house falls: out, the turn ends
    drawn = st.cards()["hand1"].replace("4", "", 1)
    assert texts == ["FFF:d4E!1+1?", f"FFF:d4E!1+1{drawn}", "FFF:d4E!1+1?"]


# -- tensors (docs/rules/cat-earth.rst, "Tensors") ---------------------------------------------

def parts(st, t, kind):
    """The tensor ``t`` of ``kind`` cut into its named parts."""
    return {p.name: t[p.start:p.stop] for p in st.tensor_layout(kind)}


def lit(a):
    """The indices of the non-zero elements."""
    return np.flatnonzero(a).tolist()


OBS_PARTS = ["houses", "trees", "cats", "turn", "phase", "played", "round", "waiting_cats",
             "alive", "house_counts", "hand", "hand_sizes", "discard", "deck_size", "winners"]
INFO_PARTS = OBS_PARTS + ["others_cards", "reshuffle_pile", "draws_since_reshuffle"]


@pytest.mark.parametrize("players,obs,info", [(2, 240, 291), (3, 294, 370), (4, 348, 449)])
def test_tensor_layouts(players, obs, info, check_tensor_layouts):
    st = catsearch.new_game(GAME, players, seed=1)
    n = players
    want = dict(houses=49 * n, trees=49, cats=49, turn=n, phase=5, played=1, round=1,
                waiting_cats=1, alive=n, house_counts=n, hand=12, hand_sizes=n, discard=13,
                deck_size=1, winners=n, others_cards=12 * (n - 1), reshuffle_pile=13,
                draws_since_reshuffle=13 * n)
    check_tensor_layouts(st, want, {"observation": OBS_PARTS, "information_state": INFO_PARTS},
                         {"observation": obs, "information_state": info})


def test_tensor_values_in_a_hand_made_position():
    # OPEN: houses of seat 0 on c2, seat 1 on b3, seat 2 on b5; trees a7 g7 a1; the cat on d4
    st = make(OPEN, ["12", "34", "T"], discard="NNS", turn=1, played=1)
    o = parts(st, st.observation_tensor(1), "observation")
    sq = lambda name: "abcdefg".index(name[0]) + 7 * (int(name[1]) - 1)
    # seat 1 is "self" (index 0), then seat 2 (1) and seat 0 (2)
    assert lit(o["houses"]) == [0 * 49 + sq("b3"), 1 * 49 + sq("b5"), 2 * 49 + sq("c2")]
    assert lit(o["trees"]) == sorted([sq("a7"), sq("g7"), sq("a1")])
    assert lit(o["cats"]) == [sq("d4")]
    assert lit(o["turn"]) == [0] and lit(o["phase"]) == [2]            # play
    assert o["played"][0] == pytest.approx(1 / 4) and o["round"][0] == pytest.approx(1 / 100)
    assert lit(o["waiting_cats"]) == [] and lit(o["alive"]) == [0, 1, 2]
    assert o["house_counts"].tolist() == pytest.approx([1 / 7] * 3)
    assert o["hand"].tolist() == pytest.approx([0, 0, 1 / 4, 1 / 3] + [0] * 8)  # FFF, FR
    assert o["hand_sizes"].tolist() == pytest.approx([2 / 5, 1 / 5, 2 / 5])
    assert o["discard"].tolist() == pytest.approx([0] * 10 + [2 / 4, 1 / 4, 0])  # N N S
    assert o["deck_size"][0] == pytest.approx(32 / 40) and lit(o["winners"]) == []
    i = parts(st, st.information_state_tensor(1), "information_state")
    for name in OBS_PARTS:
        assert np.array_equal(i[name], o[name])
    assert lit(i["others_cards"]) == lit(i["reshuffle_pile"]) == []
    assert lit(i["draws_since_reshuffle"]) == []
    # seat 0's own hand: F, FF
    assert parts(st, st.observation_tensor(0), "observation")["hand"].tolist() == \
        pytest.approx([1 / 4, 1 / 6] + [0] * 10)


def test_tensors_never_show_another_seats_cards():
    st = make(OPEN, ["12", "34", "T"], discard="NNS", turn=1)
    other = make(OPEN, ["TT", "34", "9"], discard="NNS", turn=1)     # others' cards differ
    assert other.info_key(1) == st.info_key(1) and other.info_key(0) != st.info_key(0)
    for f in ("observation_tensor", "information_state_tensor"):
        assert np.array_equal(getattr(st, f)(1), getattr(other, f)(1))
        assert not np.array_equal(getattr(st, f)(0), getattr(other, f)(0))
        assert np.array_equal(getattr(st.view(1), f)(1), getattr(st, f)(1))


def test_tensors_remember_the_last_reshuffle():
    st, pile = reshuffled_2p()
    st.play("end")                        # seat 1 ends; seat 0 draws from the new deck
    drawn = field(st, "fresh").split("/")[0]
    t = "123456789TNS".index(drawn)
    copies = [4, 6, 4, 3, 3, 2, 2, 2, 2, 4, 4, 4]
    want_pile = [collections.Counter(pile)[c] / copies[k] for k, c in enumerate("123456789TNS")]
    i1 = parts(st, st.information_state_tensor(1), "information_state")
    assert i1["reshuffle_pile"].tolist() == pytest.approx(want_pile + [0])
    # seat 1 saw seat 0 (index 1) draw one card, not which
    assert lit(i1["draws_since_reshuffle"]) == [13 + 12]
    assert i1["draws_since_reshuffle"][25] == pytest.approx(1 / 40)
    i0 = parts(st, st.information_state_tensor(0), "information_state")
    assert lit(i0["draws_since_reshuffle"]) == [t]
    assert i0["draws_since_reshuffle"][t] == pytest.approx(1 / copies[t])
    # the observation tensor holds none of it
    o1 = st.observation_tensor(1)
    assert np.array_equal(o1, st.information_state_tensor(1)[:len(o1)])


def test_tensors_of_views_searched_forward():
    # another seat's card revealed by chance shows in others_cards
    st = make(OPEN, ["12", "34", "T"], discard="NNS", turn=1)
    v = st.view(0)
    v.apply_chance(9)                     # one of seat 1's cards is a Teleport
    i = parts(v, v.information_state_tensor(0), "information_state")
    assert lit(i["others_cards"]) == [0 * 12 + 9]
    assert i["others_cards"][9] == pytest.approx(1 / 4)
    # unknown cards reach the discard pile when a view puts out a seat: discard[12]
    board = b3(".......", ".2.....", "...C001", ".......", "..2....")
    v = make(board, ["11", "25", "34"]).view(0)
    v.play("F:d4E")
    o = parts(v, v.observation_tensor(0), "observation")
    assert o["discard"][12] == pytest.approx(2 / 40) and o["discard"][0] == pytest.approx(1 / 4)
    assert lit(o["alive"]) == [0, 2]      # seat 0 and seat 2 (index 2); seat 1 is out


# -- hardening (issue 33): views hold what their seat can know, and never crash ---------------

ISSUE_VIEW = ("players=3 phase=house turn=0 round=0 played=0 pending=0 board=...0.../...0.../"
              ".1..11./.0.C..2/....10./..2.2../...2... hands=-/-/- deck=" + "?" * 40
              + " discard=- winners=- rng=? view=0")


def test_a_view_refuses_an_illegal_move_and_no_legal_sequence_crashes():
    # issue 33, item 1: FRL:cat1W on a setup view was accepted and left a state that raised
    # in str()/to_text() or killed the process; in a subprocess, with random sequences of the
    # moves views allow, from that view and from views of real games (each state printed and
    # read back)
    import subprocess
    import sys
    code = f"""
import random, catsearch
from catsearch import IllegalMoveError
from catsearch.testing import random_game_states
v = catsearch.from_text("cat-earth", {ISSUE_VIEW!r})
try:
    v.apply(v.str_to_move("FRL:cat1W"))
    raise SystemExit("accepted")
except IllegalMoveError:
    pass
starts = [v]
for n in (2, 3, 4):
    for i, (st, _) in enumerate(random_game_states("cat-earth", n, games=2, seed=33)):
        if i % 9 == 0:
            starts += [st.view(s) for s in range(n)]
rng = random.Random(33)
for v0 in starts:
    for _ in range(2):
        v = v0.clone()
        for _ in range(200):
            if v.is_terminal():
                break
            v.apply(rng.choice(v.legal_moves()))
            str(v)
            back = catsearch.from_text("cat-earth", v.to_text())
            assert back == v and back.hash == v.hash == v.recompute_hash(), v.to_text()
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]


def test_a_views_moves_for_another_seat_are_those_of_some_world():
    # every FFF is in the discard pile or seat 1's hand: seat 0 cannot play one (the fuzz's
    # "5 FFF cards, but the game has 4"), nor a House Swap, all of which seat 1 has seen
    st = make(OPEN, ["12", "3S", "T"], discard="333SSS")
    v = st.view(1)
    names = [v.move_to_str(m) for m in v.legal_moves()]
    assert not any(x.startswith(("FFF:", "HS:")) for x in names)
    assert "FF:d4N" in names and any(x.startswith("TP:") for x in names)
    for seed in range(10):
        w = st.determinize(1, seed=seed)
        assert set(w.legal_moves()) <= set(v.legal_moves())
    for m in v.legal_moves():
        c = v.clone()
        c.apply(m)
        check(c)
    with pytest.raises(IllegalMoveError):
        v.play("FFF:d4S")


def test_a_views_discards_for_another_seat_are_those_of_some_world():
    # every F is in the discard pile: seat 0, discarding, cannot discard one
    st = make(OPEN, ["22345", "", "T"], phase="discard", discard="1111")
    v = st.view(2)
    names = [v.move_to_str(m) for m in v.legal_moves()]
    assert "x:F" not in names and "x:FF" in names and "x:TP" in names


def test_a_views_moves_after_a_reshuffle_leave_the_deck_dealable():
    # seat 1's view right after a reshuffle: the deck is the pile; seat 0 cannot play a card
    # that the deck must still hold
    st, pile = reshuffled_2p()
    v = st.view(1)
    for m in v.legal_moves():
        c = v.clone()
        c.apply(m)
        check(c)
    for seed in range(10):
        assert set(st.view(1).determinize(1, seed=seed).legal_moves()) <= set(v.legal_moves())


@pytest.mark.parametrize("old,new,field_name", [
    ("hands=??/34/?", "hands=1?/34/?", "hands"),      # another seat's card
    ("hands=??/34/?", "hands=??/?4/?", "hands"),      # ? in the seat's own hand
    ("hands=??/34/?", "hands=??/3*/?", None),          # * where a card ... counts still add up
    ("discard=NNS", "discard=NN?", "discard"),        # ? in the face-up discard pile
])
def test_a_view_refuses_what_its_seat_cannot_know(old, new, field_name):
    v = make(OPEN, ["12", "34", "T"], discard="NNS").view(1)
    text = v.to_text()
    assert old in text
    bad = text.replace(old, new)
    if field_name is None:      # a * in the own hand is a view a search played on: it reads
        assert catsearch.from_text(GAME, bad).to_text() == bad
        return
    with pytest.raises(NotationError, match=field_name):
        catsearch.from_text(GAME, bad)


def test_a_view_refuses_a_deck_card_and_another_seats_draws():
    v = make(OPEN, ["12", "34", "T"], discard="NNS").view(1)
    text = v.to_text()
    with pytest.raises(NotationError, match="deck"):
        catsearch.from_text(GAME, text.replace("deck=?", "deck=1", 1))
    st, pile = reshuffled_2p()
    st.play("end")                            # seat 0 draws a FFF from the reshuffled deck
    w = st.view(1)
    wt = w.to_text()
    assert "fresh=?/- view=1" in wt
    with pytest.raises(NotationError, match="fresh"):
        catsearch.from_text(GAME, wt.replace("fresh=?/-", "fresh=3/-"))
    with pytest.raises(NotationError, match="pile"):
        catsearch.from_text(GAME, wt.replace(f"pile={pile}", f"pile={pile[:-1]}?"))
    t0 = st.view(0).to_text()
    assert "fresh=3/- view=0" in t0
    with pytest.raises(NotationError, match="fresh"):
        catsearch.from_text(GAME, t0.replace("fresh=3/-", "fresh=?/-"))
    # a full state refuses * anywhere
    with pytest.raises(NotationError):
        catsearch.from_text(GAME, st.to_text().replace("fresh=3/-", "fresh=*/-"))


def test_a_view_a_search_played_on_writes_star_and_reads_back():
    # seat 0 ends its turn in seat 1's view: seat 1 draws a card nobody in the view knows
    v = make(OPEN, ["12", "34", "T"], discard="NNS", turn=0).view(1)
    v.play("end")
    assert v.current_player == 1 and field(v, "hands").split("/")[1] == "34*"
    check(v)
    assert dict(v.chance_outcomes())
    # eliminated seats' unknown cards reach the discard pile as *
    board = b3(".......", ".2.....", "...C001", ".......", "..2....")
    v = make(board, ["11", "25", "34"]).view(0)
    v.play("F:d4E")
    assert field(v, "discard") == "1**"
    check(v)


@pytest.mark.parametrize("key", ["pile", "fresh"])
@pytest.mark.parametrize("length", [41, 255, 256, 300, 1000])
def test_long_memory_fields_are_notation_errors(key, length):
    # issue 33, item 4: 256+ characters in fresh= / pile= raised OverflowError
    st, pile = reshuffled_2p()
    for text, unk in ((st.to_text(), "1"), (st.view(0).to_text(), "?")):
        value = dict(tok.split("=", 1) for tok in text.split(" "))[key]
        long = unk * length if key == "pile" else "/".join(["?" * length, "-"])
        with pytest.raises(NotationError, match=key):
            catsearch.from_text(GAME, text.replace(f"{key}={value}", f"{key}={long}"))


@pytest.mark.parametrize("seat,error", [(2**31, ValueError), (2**64, ValueError), (-1, ValueError),
                                        (True, TypeError), (1.0, TypeError), ("0", TypeError),
                                        (None, TypeError)])
def test_dealt_from_checks_its_seat(seat, error):
    st, _ = reshuffled_2p()
    with pytest.raises(error):
        st.dealt_from(seat)
    assert st.dealt_from(0) == st.dealt_from(0)
