"""Cat Cards: one test (at least) per ruling, on explicit positions built from notation, plus
a pure-Python reference model of the rules that the engine must match along random games."""
import collections
import itertools
import random

import pytest

import catsearch
from catsearch import IllegalMoveError, InvalidMoveError, NotationError
from catsearch.games import cat_cards

GAME = "cat-cards"
ORDER = "0123456789abcdeSPML"
COUNTS = [6, 7, 7, 5, 7, 5, 5, 4, 7, 5, 5, 4, 5, 4, 4, 10, 10, 10, 10]
COMPOSITION = collections.Counter({ORDER[t]: c for t, c in enumerate(COUNTS)})
DEFAULT_VALUES = (3, 2, 1, 4, 1)


def srt(cards):
    return "".join(sorted(cards, key=ORDER.index))


def position(hands, piles=("", "", ""), deck="rest", sets=None, turn=0, step="2", finals=0,
             revealed="", values=None, dump=None):
    """A full state. ``hands``: ``"public:private"`` per seat. The cards not named go to the
    deck (``deck="rest"``, in a fixed order) or, with an explicit deck, to the public hand of
    seat ``dump``."""
    players = len(hands)
    sets = sets or [[] for _ in range(players)]
    named = "".join(h.replace(":", "") for h in hands) + "".join(piles) + revealed \
        + "".join("".join(s) for s in sets) + (deck if deck != "rest" else "")
    used = collections.Counter(named)
    assert not used - COMPOSITION, f"the position uses more cards than the game has: {used - COMPOSITION}"
    rest = srt((COMPOSITION - used).elements())
    hands = list(hands)
    if deck == "rest":
        deck = rest
    else:
        assert dump is not None or not rest, "an explicit deck needs a seat to hold the rest"
        if rest:
            pub, priv = hands[dump].split(":")
            hands[dump] = srt(pub + rest) + ":" + priv
    def part(x):
        return srt(x) or "-"
    hand_text = "/".join(":".join(part(x) for x in h.split(":")) for h in hands)
    set_text = "/".join(",".join(s) or "-" for s in sets)
    values = ",".join(map(str, values or DEFAULT_VALUES))
    text = (f"players={players} turn={turn} step={step} finals={finals} revealed={revealed or '-'} "
            f"piles={','.join(part(p) for p in piles)} hands={hand_text} deck={deck or '-'} "
            f"sets={set_text} values={values} rng=0000000000000000")
    return catsearch.from_text(GAME, text)


def moves(st):
    return [st.move_to_str(m) for m in st.legal_moves()]


def set_moves(st):
    return [m for m in moves(st) if len(m) == 5 and not m.startswith("take")]


def can_form(cards, set_text):
    """Whether a seat holding ``cards`` (given in its public part) may form ``set_text``."""
    st = position([cards + ":", ":", ":"], piles=("1", "", ""))
    return srt(set_text) in set_moves(st)


# -- setup -----------------------------------------------------------------------------------

def test_setup_three_piles_of_one_then_three_private_cards_each():
    for players in (2, 3, 4):
        st = catsearch.new_game(GAME, players, seed=3)
        cards = st.cards()
        assert collections.Counter("".join(cards.values())) == COMPOSITION
        assert sum(COMPOSITION.values()) == 120 and len(COMPOSITION) == 19
        # seat 0's first turn has begun: one card revealed from the top of the deck
        assert len(cards["revealed"]) == 1
        assert [len(cards[f"pile{k}"]) for k in range(3)] == [1, 1, 1]
        for p in range(players):
            assert len(cards[f"hand{p}.private"]) == 3 and cards[f"hand{p}.public"] == ""
        assert len(cards["deck"]) == 120 - 3 - 3 * players - 1
        assert st.current_player == 0 and moves(st) == ["put0", "put1", "put2"]


def splitmix_shuffle(cards, seed):
    """The deal's shuffle, in Python: splitmix64, Lemire's multiply-shift, Fisher-Yates."""
    mask = 2**64 - 1
    state = seed
    def below(n):
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        return ((z >> 32) * n) >> 32
    cards = list(cards)
    for i in range(len(cards) - 1, 0, -1):
        j = below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return "".join(cards)


@pytest.mark.parametrize("players", [2, 4])
def test_setup_deals_piles_then_hands_from_the_top(players):
    deck = splitmix_shuffle(srt(COMPOSITION.elements()), 11)
    st = catsearch.new_game(GAME, players, seed=11)
    cards = st.cards()
    assert [cards[f"pile{k}"] for k in range(3)] == list(deck[:3])
    for p in range(players):
        assert cards[f"hand{p}.private"] == srt(deck[3 + 3 * p:6 + 3 * p])
    n = 3 + 3 * players
    assert cards["revealed"] == deck[n]             # seat 0's step 1
    assert cards["deck"] == deck[n + 1:]
    assert st.scores() == [0] * players
    assert "step=1" in st.to_text() and "finals=0" in st.to_text()


# -- set validity ---------------------------------------------------------------------------

@pytest.mark.parametrize("cards,ok", [
    ("11111", True),      # five orange cats
    ("13579", True),      # every one of them is orange
    ("12345", False),     # 1 orange, 2 white, 4 black: no shared colour
    ("2367a", True),      # all white
    ("3333c", False),     # orange/white x4 and black/blue share nothing
    ("88cde", True),      # all blue
])
def test_a_set_needs_one_colour_every_cat_has(cards, ok):
    assert (cat_cards.set_problem(cards) is None) is ok
    assert can_form(cards, cards) is ok


@pytest.mark.parametrize("cards,ok", [
    ("00000", True),      # five Sphynxes: colourless
    ("000SS", True),      # Sphynxes with a pair of Siamese
    ("00PPP", True),      # 2 Sphynxes (colourless) and toys
    ("0001S", False),     # a Sphynx cannot go with a coloured cat (and one Siamese is no pair)
    ("0011P", False),     # Sphynx + orange cats: no colour X that all have
    ("01SSP", False),
])
def test_a_sphynx_goes_only_with_sphynxes_and_siamese(cards, ok):
    assert (cat_cards.set_problem(cards) is None) is ok
    assert can_form(cards, cards) is ok


@pytest.mark.parametrize("cards,ok", [
    ("111SS", True),      # Siamese take orange
    ("000SS", True),      # Siamese take colourless
    ("SSPPP", True),      # two Siamese are two cats; no other cat constrains X
    ("SSMMM", True),
    ("111S2", False),     # one Siamese: not allowed (and 2 is not orange anyway)
    ("1111S", False),     # exactly one Siamese
    ("11SSS", False),     # three Siamese
    ("1SSSS", False),
    ("SSSSS", False),
    ("1234S", False),     # a Siamese does not rescue cats without a shared colour
])
def test_zero_or_exactly_two_siamese_taking_any_colour(cards, ok):
    assert (cat_cards.set_problem(cards) is None) is ok
    assert can_form(cards, cards) is ok


@pytest.mark.parametrize("cards,ok", [
    ("111PP", True),
    ("11PPP", True),
    ("11PPM", False),     # two toy types
    ("111ML", False),
    ("1SSML", False),
])
def test_toys_of_one_type_only(cards, ok):
    assert (cat_cards.set_problem(cards) is None) is ok
    assert can_form(cards, cards) is ok


@pytest.mark.parametrize("cards,ok", [
    ("1PPPP", False),     # one cat
    ("SPPPP", False),
    ("11PPP", True),      # two cats is enough
    ("0MMMM", False),
])
def test_at_least_two_cats(cards, ok):
    assert (cat_cards.set_problem(cards) is None) is ok
    assert can_form(cards, cards) is ok


def test_exactly_five_cards():
    assert cat_cards.set_problem("1111") is not None
    assert cat_cards.set_problem("111111") is not None
    st = position(["1111:", ":", ":"], piles=("2", "", ""))
    assert set_moves(st) == []                  # four orange cats are no set
    st = position(["111111:", ":", ":"], piles=("2", "", ""))
    assert set_moves(st) == ["11111"]           # six give one set of five
    for bad in ("1111", "111111"):
        with pytest.raises(InvalidMoveError):
            st.play(bad)


def test_every_distinct_set_once_as_a_multiset_of_types():
    # orange cats 1,1 and 3,5 plus one post: each distinct multiset of 5 is one move
    st = position(["1135P:", ":", ":"], piles=("2", "", ""))
    assert set_moves(st) == ["1135P"]
    st = position(["11355:", ":", ":"], piles=("2", "", ""))
    assert set_moves(st) == ["11355"]
    st = position(["113355:", ":", ":"], piles=("2", "", ""))
    assert set_moves(st) == ["11335", "11355", "13355"]


def test_the_set_table_is_exactly_the_rule():
    table = set(cat_cards.SET_TEXT)
    brute = {"".join(c) for c in itertools.combinations_with_replacement(ORDER, 5)
             if cat_cards.set_problem("".join(c)) is None}
    assert table == brute and len(table) == 5646
    assert catsearch.new_game(GAME, 3, seed=1).num_distinct_moves == 7 + 5646


def test_set_moves_match_brute_force_on_random_hands_and_come_in_order():
    rng = random.Random(8)
    deck = list(COMPOSITION.elements())
    sets = [(7 + i, tuple(collections.Counter(s).items())) for i, s in enumerate(cat_cards.SET_TEXT)]
    for _ in range(150):
        hand = rng.sample(deck, rng.randint(0, 28))
        split = rng.randint(0, min(3, len(hand)))
        st = position([srt(hand[split:]) + ":" + srt(hand[:split]), ":", ":"], step="final",
                      finals=3, deck="", dump=1)    # 3 final turns: the deck and piles empty
        raw = cat_cards._raw_legal_moves(st)
        assert raw == sorted(set(raw)), "legal_moves_c must write increasing moves"
        held = collections.Counter(hand)
        assert [m for m in raw if m >= 7] == [m for m, need in sets if all(held[c] >= k for c, k in need)]


def test_big_hands_stay_fast():
    import time
    rng = random.Random(2)
    hand = srt(rng.sample(list(COMPOSITION.elements()), 30))
    st = position([hand + ":", ":", ":"], piles=("1", "", ""))
    t = time.perf_counter()
    for _ in range(200):
        n = len(cat_cards._raw_legal_moves(st))
    assert n > 100
    assert (time.perf_counter() - t) / 200 < 0.002


def test_a_set_scores_its_cats_values_and_leaves_the_hand():
    st = position(["11SSP:3", ":", ":"], piles=("2", "", ""))
    st.play("11SSP")
    assert st.scores() == [3 + 3 + 1 + 1, 0, 0]
    assert st.cards()["sets0"] == "11SSP"
    assert st.cards()["hand0.public"] == "" and st.cards()["hand0.private"] == "3"
    st = position(["0S:00S", ":", ":"], piles=("2", "", ""))
    st.play("000SS")
    assert st.scores() == [4 * 3 + 1 * 2, 0, 0]


def test_a_set_uses_public_cards_before_private_ones():
    # seat 0 holds a public orange cat and a private one: after the set, the private one stays
    st = position(["1111:12S", ":", ":"], piles=("2", "", ""))
    st.play("11111")
    assert st.cards()["hand0.public"] == ""
    assert st.cards()["hand0.private"] == "2S"
    st = position(["111:111", ":", ":"], piles=("2", "", ""))
    st.play("11111")
    assert st.cards()["hand0.private"] == "1"


# -- the turn -------------------------------------------------------------------------------

def test_step_one_puts_the_revealed_card_on_any_pile_with_room():
    st = position([":", ":", ":"], piles=("1111", "22", "3"), step="1", revealed="4")
    assert moves(st) == ["put1", "put2"]
    with pytest.raises(IllegalMoveError):
        st.play("put0")
    with pytest.raises(IllegalMoveError):
        st.play("take1")                        # step 1 first: it is compulsory
    st.play("put2")
    assert st.cards()["pile2"] == "34" and st.cards()["revealed"] == ""
    assert st.current_player == 0 and "step=2" in st.to_text()


def test_step_one_is_skipped_when_every_pile_is_full():
    st = position(["1:", "2:", "3:"], piles=("1111", "2222", "3333"), step="2", turn=2)
    deck_before = len(st.cards()["deck"])
    st.play("take0")                            # seat 2 picks up; pile 0 refilled
    assert st.current_player == 0
    # seat 0's turn: pile 0 has one card, so step 1 happens
    assert moves(st) == ["put0"] and len(st.cards()["revealed"]) == 1
    assert len(st.cards()["deck"]) == deck_before - 2
    st = position([":", ":", "11111:"], piles=("4444", "2222", "3333"), step="2", turn=2)
    st.play("11111")                            # a set: no pile changes
    assert st.current_player == 0 and "step=2" in st.to_text() and st.cards()["revealed"] == ""
    assert moves(st) == ["take0", "take1", "take2"]


def test_step_one_is_skipped_when_the_deck_is_empty():
    st = position([":", ":", ":"], piles=("1", "2", "3"), deck="", turn=2, dump=2)
    st.play("take2")                            # the deck is empty: no refill
    assert st.cards()["pile2"] == ""
    assert st.current_player == 0 and "step=2" in st.to_text()
    assert moves(st)[:2] == ["take0", "take1"]


def test_picking_up_moves_the_pile_into_the_hand_publicly_and_refills_it():
    st = position([":123", ":", ":"], piles=("45", "6", "7"))
    top = st.cards()["deck"][0]
    st.play("take0")
    cards = st.cards()
    assert cards["hand0.public"] == "45" and cards["hand0.private"] == "123"
    assert cards["pile0"] == top
    # everyone sees the picked-up cards; the setup cards stay hidden
    view = st.view(1)
    assert view.cards()["hand0.public"] == "45"
    assert view.cards()["hand0.private"] == "???"


def test_there_is_no_voluntary_pass_in_a_normal_turn():
    st = position([":", ":", ":"], piles=("1", "", ""))
    assert moves(st) == ["take0"]
    with pytest.raises(IllegalMoveError):
        st.play("pass")


# -- the end --------------------------------------------------------------------------------

FOUR_SETS = ["22222", "44444", "88888", "000SS"]
OTHER_FOUR = ["66666", "99999", "aaaaa", "ccccc"]


def test_the_fifth_set_gives_each_other_player_one_final_turn_in_seat_order():
    st = position(["111SS:", "3333:", "5555:"], sets=[FOUR_SETS, [], []], piles=("6", "9", "a"),
                  turn=0)
    st.play("111SS")
    assert st.scores()[0] > 0
    # seat 1, then seat 2: form a set or pass; no pick-up, no step 1
    assert st.current_player == 1 and "step=final finals=2" in st.to_text()
    assert moves(st) == ["pass"]
    with pytest.raises(IllegalMoveError):
        st.play("take0")
    st.play("pass")
    assert st.current_player == 2 and "finals=1" in st.to_text()
    st.play("pass")
    assert st.is_terminal() and st.current_player == -1


def test_a_final_turn_may_form_a_set_and_never_starts_more_final_turns():
    st = position(["111SS:", "33333:", "5555d:"], sets=[FOUR_SETS, OTHER_FOUR, []], turn=0,
                  piles=("7", "", ""))
    st.play("111SS")
    assert moves(st) == ["pass", "33333"]
    st.play("33333")                            # seat 1's fifth set, in a final turn
    assert st.current_player == 2 and "finals=1" in st.to_text()
    assert moves(st) == ["pass", "5555d"]
    st.play("5555d")
    assert st.is_terminal()


def test_the_fifth_set_by_the_last_seat_wraps_around():
    st = position([":", ":", "111SS:"], sets=[[], [], FOUR_SETS], turn=2, piles=("6", "", ""))
    st.play("111SS")
    assert st.current_player == 0
    st.play("pass")
    assert st.current_player == 1
    st.play("pass")
    assert st.is_terminal()


def test_deck_and_piles_empty_at_a_turn_start_make_final_turns():
    # seat 0 takes the last pile with the deck empty: seat 1's turn starts with nothing left
    st = position(["1:", "PPPPP:", "M:"], piles=("2", "", ""), deck="", turn=0, dump=0)
    st.play("take0")
    assert st.current_player == 1 and "step=final finals=3" in st.to_text()
    assert moves(st) == ["pass"]                # five posts are no set: a pass is the only move
    st.play("pass")
    assert st.current_player == 2 and moves(st) == ["pass"]
    st.play("pass")
    assert st.current_player == 0               # seat 0 too: each other player
    assert moves(st)[0] == "pass" and len(moves(st)) > 1    # seat 0 holds the rest of the cards
    st.play("pass")
    assert st.is_terminal()


def test_deck_empty_but_piles_not_is_no_end():
    st = position(["1:", "2:", "3:"], piles=("4", "5", ""), deck="", turn=0, dump=0)
    st.play("take0")
    assert st.current_player == 1 and "step=2" in st.to_text()
    assert moves(st) == ["take1"]


def test_deck_exhaustion_final_turn_forming_a_fifth_set_ends_nothing_early():
    st = position(["1:", "11111:", "M:"], sets=[[], FOUR_SETS, []],
                  piles=("2", "", ""), deck="", turn=0, dump=0)
    st.play("take0")
    assert st.current_player == 1 and "finals=3" in st.to_text()
    st.play("11111")                            # seat 1's fifth set in a final turn
    assert st.current_player == 2 and "finals=2" in st.to_text()
    st.play("pass")
    st.play("pass")
    assert st.is_terminal()


# -- scoring --------------------------------------------------------------------------------

def terminal(hands, sets, deck="rest", values=None):
    return position(hands, sets=sets, deck=deck, turn="-", step="-", values=values)


def test_toy_majorities_score_15_and_ties_score_nothing():
    st = terminal([":", ":", ":"], [["111PP", "222MM"], ["444PP", "888MM"], ["11LLL"]])
    # posts tie 2-2 (nobody), mice tie 2-2 (nobody), lasers: seat 2 alone
    bd = st.score_breakdown()
    assert [b["toy_bonus"] for b in bd] == [0, 0, 15]
    st = terminal([":", ":", ":"], [["111PP", "222PP"], ["444PP"], []])
    assert [b["toy_bonus"] for b in st.score_breakdown()] == [15, 0, 0]
    st = terminal([":", ":", ":"], [["11111"], ["22222"], ["44444"]])
    assert [b["toy_bonus"] for b in st.score_breakdown()] == [0, 0, 0]   # all zero: nobody
    assert st.scores() == [15, 15, 15]


def test_only_toys_in_sets_count_for_majorities():
    st = terminal(["PPPPP:", ":", ":"], [[], ["111PP"], []])
    assert [b["toy_bonus"] for b in st.score_breakdown()] == [0, 15, 0]


def test_the_hand_penalty_is_the_cats_values_plus_two_per_toy():
    # seat 0: 1 (3) 3 (2) 7 (1) 0 (4) S (1) and two toys = 11 + 4
    st = terminal(["137P:0SM", ":", ":"], [[], ["22222"], []])
    assert st.score_breakdown()[0]["hand_penalty"] == 15
    assert st.scores() == [-15, 15, 0]
    # the same with optioned values (one, two, three, Sphynx, Siamese) = (5, 0, 2, 1, 7)
    st = terminal(["137P:0SM", ":", ":"], [[], ["22222"], []], values=(5, 0, 2, 1, 7))
    assert st.score_breakdown()[0]["hand_penalty"] == 5 + 0 + 2 + 1 + 7 + 4
    assert st.score_breakdown()[1]["sets"] == 25
    assert st.scores() == [-19, 25, 0]


def test_final_score_combines_sets_bonus_and_penalty_and_the_best_wins():
    st = terminal(["1:", "LL:", ":"], [["111PP"], ["33333"], ["44444"]])
    # seat 0: 9 + 15 - 3 = 21; seat 1: 10 - 4 = 6; seat 2: 15
    assert st.scores() == [21, 6, 15]
    assert st.returns() == [1.0, 0.0, 0.0]


def test_ties_share_the_win():
    st = terminal([":", ":", ":"], [["11111"], ["44444"], ["33333"]])
    assert st.scores() == [15, 15, 10]
    assert st.returns() == [0.5, 0.5, 0.0]
    st = terminal([":", ":", ":", ":"], [["11111"], ["44444"], ["88888"], ["33333"]])
    assert st.returns() == [1 / 3, 1 / 3, 1 / 3, 0.0]
    st = terminal([":", ":"], [[], []])
    assert st.returns() == [0.5, 0.5]


# -- the values option ----------------------------------------------------------------------

def test_values_option_changes_set_points_and_appears_in_the_notation():
    st = catsearch.new_game(GAME, 3, seed=4, values=(5, 4, 3, 2, 1))
    assert "values=5,4,3,2,1" in st.to_text()
    assert st.values == (5, 4, 3, 2, 1)
    again = catsearch.from_text(GAME, st.to_text())
    assert again.values == (5, 4, 3, 2, 1) and again == st
    st = catsearch.new_game(GAME, 3, seed=4, values={"sphynx": 9})
    assert st.values == (3, 2, 1, 9, 1)
    st = catsearch.new_game(GAME, 3, seed=4, values="1,1,1,1,1")
    assert st.values == (1, 1, 1, 1, 1)
    import numpy as np
    st = catsearch.new_game(GAME, 3, seed=4, values=np.array([2, 2, 2, 2, 2]))
    assert st.values == (2, 2, 2, 2, 2)
    st = position(["13579:", ":", ":"], piles=("2", "", ""), values=(10, 20, 30, 0, 0))
    st.play("13579")
    assert st.scores()[0] == 10 + 20 + 20 + 30 + 20


def test_the_hash_covers_the_values_option():
    """Games that differ only in their values hash apart; the rulebook's values add nothing,
    so a game with them given explicitly hashes as one without the option."""
    plain = catsearch.new_game(GAME, 3, seed=4)
    assert catsearch.new_game(GAME, 3, seed=4, values=(3, 2, 1, 4, 1)).hash == plain.hash
    hashes = {plain.hash}
    for vals in [(3, 2, 1, 4, 2), (4, 2, 1, 4, 1), (1, 2, 3, 4, 5), (0, 0, 0, 0, 0)]:
        st = catsearch.new_game(GAME, 3, seed=4, values=vals)
        assert st.hash == st.recompute_hash() and st.hash not in hashes
        hashes.add(st.hash)
        st.play(st.legal_moves()[0])
        assert st.hash == st.recompute_hash()


@pytest.mark.parametrize("bad", [(1, 2, 3), (1, 2, 3, 4, 5, 6), (1, 2, 3, 4, -1), (1, 2, 3, 4, 100),
                                 {"bogus": 1}, "1,2,x,4,5"])
def test_values_option_is_validated(bad):
    with pytest.raises(ValueError) as e:
        catsearch.new_game(GAME, 3, seed=1, values=bad)
    assert "values" in str(e.value)


@pytest.mark.parametrize("bad", [(1, 2, 3, 4, 1.5), (1, 2, 3, 4, True), 7])
def test_values_of_the_wrong_type_are_a_type_error(bad):
    with pytest.raises(TypeError) as e:
        catsearch.new_game(GAME, 3, seed=1, values=bad)
    assert "values" in str(e.value)


def test_unknown_option_names_the_valid_one():
    with pytest.raises(ValueError) as e:
        catsearch.new_game(GAME, 3, seed=1, value=(1, 2, 3, 4, 5))
    assert "value" in str(e.value) and "values" in str(e.value)


# -- hidden information ---------------------------------------------------------------------

def test_views_hide_setup_cards_and_the_deck_but_not_picked_up_cards():
    st = position(["45:123", "6:789", ":abc"], piles=("d", "e", "0"))
    for seat in range(3):
        v = st.view(seat)
        c = v.cards()
        for p in range(3):
            assert c[f"hand{p}.public"] == st.cards()[f"hand{p}.public"]
            assert c[f"hand{p}.private"] == (st.cards()[f"hand{p}.private"] if p == seat else "???")
        assert set(c["deck"]) == {"?"}
        assert "rng=?" in v.to_text() and f"view={seat}" in v.to_text()


def test_determinize_keeps_an_opponents_known_cards_and_redeals_only_unknown_ones():
    st = position(["45:123", "6SS:789", ":abc"], piles=("d", "e", "0"))
    seen = collections.Counter()
    for seed in range(300):
        d = st.determinize(0, seed=seed)
        c = d.cards()
        assert c["hand1.public"] == "6SS" and c["hand0.private"] == "123"
        assert len(c["hand1.private"]) == 3 and len(c["hand2.private"]) == 3
        seen.update(c["hand1.private"])
    # seat 0 has seen 1 2 3 4 5 6 S S d e 0: those can only be elsewhere when copies remain
    pool = COMPOSITION - collections.Counter("123456SSde0")
    assert set(seen) <= set(pool)
    assert seen["7"] > 0 and seen["L"] > 0


def test_chance_outcomes_reveal_the_movers_unknown_cards_in_a_view():
    st = position([":", ":123", ":"], piles=("d", "e", "0"), turn=1)
    view = st.view(0)
    ch = dict(view.chance_outcomes())
    pool = COMPOSITION - collections.Counter("de0")
    assert set(ch) == {ORDER.index(c) for c in pool}
    assert abs(ch[ORDER.index("S")] - 10 / sum(pool.values())) < 1e-12
    view.apply_chance(ORDER.index("S"))
    assert view.cards()["hand1.private"] == "S??"
    assert st.view(1).chance_outcomes() == []     # the mover's own view knows its cards


def test_playing_on_in_a_view_turns_drawn_cards_into_chance_points():
    st = position(["1:", ":", ":"], piles=("d", "e", "0"), turn=0)
    view = st.view(0)
    view.play("take0")                          # the refill comes from the unknown deck
    assert view.cards()["pile0"] == "?"
    assert view.cards()["revealed"] == "?"      # seat 1's revealed card: unknown too
    ch = view.chance_outcomes()
    assert ch and abs(sum(w for _, w in ch) - 1) < 1e-12
    view.apply_chance(ch[0][0])
    assert view.cards()["revealed"] == ORDER[ch[0][0]]
    assert view.hash == view.recompute_hash()


def test_views_offer_every_move_the_hidden_cards_could_allow():
    st = position(["11:", "11:1SS", ":"], piles=("d", "e", "0"), turn=1)
    view = st.view(0)
    vm = set(moves(view))
    assert set(moves(st)) <= vm
    assert "111SS" in vm                        # seat 1 might hold them, seen from seat 0


# -- text -----------------------------------------------------------------------------------

def test_move_text_round_trips_and_rejects_non_moves():
    st = position(["113355P:", ":", ":"], piles=("2", "", ""))
    for m in st.legal_moves():
        assert st.str_to_move(st.move_to_str(m)) == m
    assert st.str_to_move("53311") == st.str_to_move("11335")    # any order
    assert st.str_to_move("A2222") == st.str_to_move("2222a")       # upper-case hex too
    for bad in ("put3", "take", "1234S", "11PPM", "set", "pass0", "xxxxx", "111"):
        with pytest.raises(InvalidMoveError) as e:
            st.str_to_move(bad)
        assert repr(bad) in str(e.value)


@pytest.mark.parametrize("edit,why", [
    (("hands=-:-/", "hands=-:-/-:-/"), "hands"),
    (("sets=-/-/-", "sets=12345/-/-"), "not a valid set"),
    (("step=2", "step=3"), "step"),
    (("finals=0", "finals=1"), "finals"),
    (("revealed=-", "revealed=1"), "revealed"),
    (("rng=0000000000000000", "rng=zz"), "rng"),
    (("values=3,2,1,4,1", "values=3,2,1"), "values"),
])
def test_bad_notation_names_the_problem(edit, why):
    st = position([":", ":", ":"], piles=("1", "", ""))
    text = st.to_text()
    assert edit[0] in text
    with pytest.raises(NotationError) as e:
        catsearch.from_text(GAME, text.replace(*edit, 1))
    assert why in str(e.value)


def test_notation_must_account_for_every_card():
    st = position([":", ":", ":"], piles=("1", "", ""))
    text = st.to_text()
    with pytest.raises(NotationError):
        catsearch.from_text(GAME, text.replace("piles=1,", "piles=11,", 1))
    with pytest.raises(NotationError):
        catsearch.from_text(GAME, text.replace("piles=1,", "piles=?,", 1))   # ? only in views


def test_notation_checks_the_step():
    with pytest.raises(NotationError):
        position([":", ":", ":"], piles=("1111", "2222", "3333"), step="1", revealed="4")
    with pytest.raises(NotationError):
        position([":", ":", ":"], piles=("1", "", ""), step="1")              # nothing revealed
    with pytest.raises(NotationError):
        position([":", ":", ":"], deck="", dump=1, step="2")                  # no move at all


def test_notation_refuses_a_fifth_set_outside_the_end():
    five = FOUR_SETS + ["11111"]
    with pytest.raises(NotationError) as e:
        position([":", ":", ":"], sets=[five, [], []], piles=("3", "", ""), turn=1)
    assert "5 sets" in str(e.value)
    with pytest.raises(NotationError):           # the fifth set's player has no final turn
        position([":", ":", ":"], sets=[five, [], []], turn=0, step="final", finals=2)
    st = position([":", ":", ":"], sets=[five, [], []], turn=1, step="final", finals=2)
    assert moves(st) == ["pass"]


def _play_reads_back(st):
    """Every state of a random play-out from ``st`` reads back (issue 33, item 3)."""
    rng = random.Random(5)
    while True:
        assert catsearch.from_text(GAME, st.to_text()) == st
        if st.is_terminal():
            return
        st.apply(rng.choice(st.legal_moves()))


def test_final_turns_left_must_belong_to_seats_that_can_still_play():
    # issue 33, item 3: seat 2 holds 5 sets but would play the second of 2 final turns left
    five = FOUR_SETS + ["11111"]
    with pytest.raises(NotationError) as e:
        position([":", ":", ":", ":"], sets=[[], [], five, []], turn=1, step="final", finals=2)
    assert "sets" in str(e.value) and "seat 2 has 5 sets" in str(e.value)
    # the same turn with the fifth set formed by seat 3 (the seat after the last final turn)
    st = position([":", ":", ":", ":"], sets=[[], [], [], five], turn=1, step="final", finals=2)
    st.play("pass")
    assert "turn=2 step=final finals=1" in st.to_text()
    _play_reads_back(st)


@pytest.mark.parametrize("players,turn,finals,five_at,exhausted,ok", [
    (3, 0, 3, None, True, True),     # the deck and the piles ran out: every seat, in order
    (3, 0, 3, None, False, False),   # 3 final turns only after exhaustion
    (3, 1, 2, 0, False, True),       # seat 0's fifth set: seats 1 and 2 play one each
    (3, 2, 1, 0, False, True),
    (3, 1, 1, 0, False, False),      # seat 2 would be the fifth set's seat: it has none
    (3, 1, 2, None, False, False),   # nobody has 5 sets and the deck has cards
    (3, 1, 2, None, True, True),     # a deck-exhaustion round, seat 0 has played its turn
    (4, 3, 2, 1, False, True),       # seat 1's fifth set: seats 3 and 0 are left
    (4, 3, 2, 0, False, False),      # seat 0 still to play but holds 5 sets
])
def test_notation_checks_whose_final_turns_are_left(players, turn, finals, five_at, exhausted,
                                                    ok):
    five = FOUR_SETS + ["11111"]
    sets = [five if p == five_at else [] for p in range(players)]
    hands = [":"] * players
    kw = dict(deck="", dump=turn) if exhausted else dict(piles=("3", "3", "3"))
    try:
        st = position(hands, sets=sets, turn=turn, step="final", finals=finals, **kw)
    except NotationError as e:
        assert not ok, e
        assert "finals" in str(e) or "sets" in str(e)
        return
    assert ok, st.to_text()
    _play_reads_back(st)


def test_normal_turns_need_a_pile():
    for step, rev in (("1", "4"), ("2", "")):
        with pytest.raises(NotationError) as e:
            position(["11111:", ":", ":"], step=step, revealed=rev, deck="3", dump=1)
        assert "piles" in str(e.value)


VIEW = ("players=3 turn=0 step=1 finals=0 revealed=M piles=5,L,M hands=-:???/-:aLL/-:??? "
        "deck=" + "?" * 107 + " sets=-/-/- values=3,2,1,4,1 rng=? view=1")


@pytest.mark.parametrize("edit,field", [
    (("hands=-:???/", "hands=-:0??/"), "hands"),          # another seat's setup card
    (("hands=-:???/", "hands=-:12d/"), "hands"),
    (("-:aLL/", "-:a?L/"), "hands"),                        # its own card as ?
    (("-:aLL/-:???", "-:aLL/-:????"), "hands"),             # 4 setup cards ...
    (("deck=??", "deck=1?"), "deck"),                       # a deck card
])
def test_a_view_holds_exactly_what_its_seat_can_know(edit, field):
    from catsearch.testing.notations import check_accepted
    check_accepted(catsearch.from_text(GAME, VIEW))
    text = VIEW.replace(*edit, 1)
    if edit[1].endswith("????"):
        text = text.replace("deck=??", "deck=?", 1)       # ... with the counts kept
    with pytest.raises(NotationError) as e:
        catsearch.from_text(GAME, text)
    assert str(e.value).startswith(field), str(e.value)


def test_a_view_with_a_known_card_of_another_seat_is_refused():
    # the fuzz case of issue 33: seat 1's setup card 0 in seat 0's view
    text = ("players=2 turn=0 step=1 finals=0 revealed=d piles=a,4,S hands=-:23L/-:0?? deck="
            + "?" * 110 + " sets=-/- values=3,2,1,4,1 rng=? view=0")
    with pytest.raises(NotationError) as e:
        catsearch.from_text(GAME, text)
    assert "hands" in str(e.value)


def test_views_played_on_read_back_and_their_worlds_too():
    # a view played on draws unknown cards onto the table, and a seat that picks them up holds
    # them as ?: such views read back, and a world drawn from one deals those cards as public
    rng = random.Random(3)
    for players in (2, 3, 4):
        v = catsearch.new_game(GAME, players, seed=players).view(0)
        for ply in range(40):
            if v.is_terminal():
                break
            assert catsearch.from_text(GAME, v.to_text()) == v
            w = v.determinize(0, seed=ply)
            assert catsearch.from_text(GAME, w.to_text()) == w
            v.apply(rng.choice(v.legal_moves()))


def test_str_shows_piles_hands_and_sets():
    st = position(["45:123", "6:789", ":abc"], piles=("d", "e", "0"), sets=[["11111"], [], []])
    s = str(st)
    assert "[0] d" in s and "11111" in s and "points 15" in s and "private 1 2 3" in s
    v = str(st.view(1))
    assert "private ? ? ?" in v and "private 7 8 9" in v
    end = terminal(["1:", ":", ":"], [["111PP"], [], []])
    assert "final score 21" in str(end)


# -- a reference model ----------------------------------------------------------------------

class Ref:
    """The rules again, in plain Python, over the notation: an independent check of the
    engine's transitions, legal moves and scores."""

    def __init__(self, text):
        f = dict(tok.split("=", 1) for tok in text.split())
        self.n = int(f["players"])
        self.turn = None if f["turn"] == "-" else int(f["turn"])
        self.step = f["step"]
        self.finals = int(f["finals"])
        self.revealed = "" if f["revealed"] == "-" else f["revealed"]
        self.piles = ["" if p == "-" else p for p in f["piles"].split(",")]
        hands = [h.split(":") for h in f["hands"].split("/")]
        self.pub = ["" if a == "-" else a for a, _ in hands]
        self.priv = ["" if b == "-" else b for _, b in hands]
        self.deck = "" if f["deck"] == "-" else f["deck"]
        self.sets = [[] if s == "-" else s.split(",") for s in f["sets"].split("/")]
        self.values = tuple(int(x) for x in f["values"].split(","))
        self.rng = f["rng"]

    def text(self):
        def part(x):
            return srt(x) or "-"
        return " ".join([
            f"players={self.n}", f"turn={'-' if self.turn is None else self.turn}",
            f"step={self.step}", f"finals={self.finals}", f"revealed={self.revealed or '-'}",
            "piles=" + ",".join(part(p) for p in self.piles),
            "hands=" + "/".join(f"{part(a)}:{part(b)}" for a, b in zip(self.pub, self.priv)),
            f"deck={self.deck or '-'}",
            "sets=" + "/".join(",".join(sorted(s, key=lambda x: [ORDER.index(c) for c in x])) or "-"
                               for s in self.sets),
            "values=" + ",".join(map(str, self.values)), f"rng={self.rng}"])

    def value(self, c):
        t = ORDER.index(c)
        if t == 0:
            return self.values[3]
        if t < 15:
            return self.values[bin(t).count("1") - 1]
        return self.values[4] if t == 15 else 0

    @staticmethod
    def valid(s):
        cats = [c for c in s if c not in "PML"]
        if len(s) != 5 or len(cats) < 2 or len(set(s) & set("PML")) > 1:
            return False
        if s.count("S") not in (0, 2):
            return False
        colours = {"orange", "white", "black", "blue", "colourless"}
        for c in cats:
            if c == "0":
                colours &= {"colourless"}
            elif c != "S":
                t = ORDER.index(c)
                colours &= {name for b, name in enumerate(("orange", "white", "black", "blue"))
                            if t >> b & 1}
        return bool(colours)

    def possible_sets(self, p):
        hand = collections.Counter(self.pub[p] + self.priv[p])
        if len(hand) > 8:
            return {s for s, need in REF_SETS if all(hand[c] >= k for c, k in need)}
        out = set()
        for combo in itertools.combinations_with_replacement(sorted(hand, key=ORDER.index), 5):
            if not collections.Counter(combo) - hand and self.valid(combo):
                out.add("".join(combo))
        return out

    def legal(self):
        p = self.turn
        if self.step == "1":
            return {f"put{k}" for k in range(3) if len(self.piles[k]) < 4}
        if self.step == "2":
            return {f"take{k}" for k in range(3) if self.piles[k]} | self.possible_sets(p)
        if self.step == "final":
            return {"pass"} | self.possible_sets(p)
        return set()

    def start_turn(self, p):
        self.turn = p
        if not self.deck and not any(self.piles):
            self.step, self.finals = "final", self.n
        elif self.deck and any(len(x) < 4 for x in self.piles):
            self.revealed, self.deck = self.deck[0], self.deck[1:]
            self.step = "1"
        else:
            self.step = "2"

    def end_final(self):
        if self.finals == 1:
            self.turn, self.step, self.finals = None, "-", 0
        else:
            self.finals -= 1
            self.turn = (self.turn + 1) % self.n

    def play(self, m):
        p = self.turn
        if m.startswith("put"):
            k = int(m[3])
            self.piles[k] += self.revealed
            self.revealed = ""
            self.step = "2"
        elif m.startswith("take"):
            k = int(m[4])
            self.pub[p] += self.piles[k]
            self.piles[k] = self.deck[:1]
            self.deck = self.deck[1:]
            self.start_turn((p + 1) % self.n)
        elif m == "pass":
            self.end_final()
        else:
            for c in m:
                if c in self.pub[p]:
                    self.pub[p] = self.pub[p].replace(c, "", 1)
                else:
                    self.priv[p] = self.priv[p].replace(c, "", 1)
            self.sets[p].append(m)
            if self.step == "final":
                self.end_final()
            elif len(self.sets[p]) == 5:
                self.step, self.finals = "final", self.n - 1
                self.turn = (p + 1) % self.n
            else:
                self.start_turn((p + 1) % self.n)

    def scores(self):
        pts = [sum(self.value(c) for s in self.sets[p] for c in s) for p in range(self.n)]
        for toy in "PML":
            have = [sum(s.count(toy) for s in self.sets[p]) for p in range(self.n)]
            best = max(have)
            if best > 0 and have.count(best) == 1:
                pts[have.index(best)] += 15
        for p in range(self.n):
            for c in self.pub[p] + self.priv[p]:
                pts[p] -= 2 if c in "PML" else self.value(c)
        return pts


REF_SETS = [("".join(c), tuple(collections.Counter(c).items()))
            for c in itertools.combinations_with_replacement(ORDER, 5) if Ref.valid(c)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_engine_matches_the_reference_model_along_random_games(players):
    rng = random.Random(players)
    ends = 0
    for g in range(5):
        values = None if g % 3 else tuple(rng.randint(0, 9) for _ in range(5))
        st = catsearch.new_game(GAME, players, seed=rng.randrange(2**64),
                                **({"values": values} if values else {}))
        ref = Ref(st.to_text())
        assert ref.text() == st.to_text()
        while not st.is_terminal():
            legal = st.legal_moves()
            assert set(legal) == {move_int(m) for m in ref.legal()}, st.to_text()
            m = policy(legal, rng, g)
            ref.play(st.move_to_str(m))
            st.apply(m)
            assert st.to_text() == ref.text()
        assert ref.step == "-"
        assert st.scores() == ref.scores()
        best = max(ref.scores())
        winners = [p for p in range(players) if ref.scores()[p] == best]
        assert st.returns() == [1 / len(winners) if p in winners else 0.0 for p in range(players)]
        ends += 1
    assert ends == 5


SET_INDEX = {text: i for i, text in enumerate(cat_cards.SET_TEXT)}


def move_int(text):
    """The move number of a move text, from the documented numbering."""
    for i, base in enumerate(("put", "take")):
        if text.startswith(base):
            return 3 * i + int(text[len(base):])
    return 6 if text == "pass" else 7 + SET_INDEX[text]


def policy(legal, rng, g):
    """Random moves; in every third game sets are avoided while anything else is legal (so
    the deck runs out), otherwise they are preferred half of the time."""
    sets = [m for m in legal if m >= 7]
    others = [m for m in legal if m < 7]
    if g % 3 == 0:
        return rng.choice(others or legal)
    return rng.choice(sets) if sets and rng.random() < 0.5 else rng.choice(legal)


def test_the_policies_above_reach_both_ends():
    ends = collections.Counter()
    for g in range(6):
        st = catsearch.new_game(GAME, 3, seed=g)
        rng = random.Random(g)
        end = None
        while not st.is_terminal():
            t = st.to_text()
            if end is None and "step=final" in t:
                end = "exhausted" if "deck=- " in t and "piles=-,-,-" in t else "fifth set"
            st.play(policy(st.legal_moves(), rng, g))
        ends[end] += 1
    assert ends["exhausted"] > 0 and ends["fifth set"] > 0


# -- the evaluation -------------------------------------------------------------------------

def _with_toys_in_hand(state, seat: int, toy: str, k: int):
    """``state`` with ``k`` copies of ``toy`` moved from the deck into ``seat``'s public
    hand (the rest unchanged)."""
    fields = dict(kv.split("=", 1) for kv in state.to_text().split())
    deck = fields["deck"]
    assert deck.count(toy) >= k
    for _ in range(k):
        i = deck.index(toy)
        deck = deck[:i] + deck[i + 1:]
    hands = fields["hands"].split("/")
    pub, priv = hands[seat].split(":")
    pub = "".join(sorted((pub if pub != "-" else "") + toy * k, key=cat_cards.LETTERS.index))
    hands[seat] = f"{pub}:{priv}"
    fields["hands"] = "/".join(hands)
    fields["deck"] = deck
    return catsearch.from_text("cat-cards", " ".join(f"{k}={v}" for k, v in fields.items()))


def test_toys_in_hand_early_are_worth_majorities_not_only_their_penalty():
    """The cause of expectimax losing Cat Cards to a random player: the old evaluation
    counted a toy in hand only as its end-of-game penalty, so a search threw toys away and
    never formed the toy-heavy sets that win the three 15-point majorities. Early in the
    game, three toys of one kind in hand must raise the holder's evaluation."""
    for seed in range(5):
        state = catsearch.new_game("cat-cards", players=2, seed=seed)
        toy = next(t for t in "PML" if state.to_text().split("deck=")[1].count(t) >= 3)
        richer = _with_toys_in_hand(state, 0, toy, 3)
        assert richer.evaluate()[0] > state.evaluate()[0], (seed, richer.to_text())


def test_expectimax_beats_random_on_cat_cards():
    """Expectimax at depth 2 scored 0.16-0.21 against random on the old evaluation."""
    from catsearch.arena import run_match
    result = run_match("cat-cards", ["expectimax:depth=2", "random"], groups=10, seed=3)
    score = result.summary["players"][0]["score"]
    assert score["value"] >= 0.8 and score["low"] > 0.5, score


# -- observations (a live game) -------------------------------------------------------------

from catsearch import ObservationError  # noqa: E402
from catsearch.testing import check_observations  # noqa: E402


def observe(st, move):
    """Play ``move`` on the full state ``st``; return every seat's observation of it, after
    checking that each seat's view follows it to exactly ``st.view(seat)``."""
    m = st.str_to_move(move)
    views = [st.view(s) for s in range(st.players)]
    texts = [st.observation(s, m) for s in range(st.players)]
    st.apply(m)
    for s, (view, text) in enumerate(zip(views, texts)):
        assert view.play_observation(text) == m == st.observe_move(m, s)
        want = st.view(s)
        assert view.to_text() == want.to_text()
        assert view.hash == want.hash == view.recompute_hash()
    return texts


def same_for_all(texts):
    assert len(set(texts)) == 1, texts
    return texts[0]


def refused(view, text, why):
    before = (view.to_text(), view.hash)
    with pytest.raises(ObservationError) as e:
        view.play_observation(text)
    assert why in str(e.value) and repr(text[:100]) in str(e.value)
    assert view.to_text() in str(e.value)          # the message names the state
    assert (view.to_text(), view.hash) == before


def test_observing_a_put_is_the_move_itself():
    st = position([":123", ":456", ":789"], piles=("d", "e", "0"), step="1", revealed="S")
    assert same_for_all(observe(st, "put1")) == "put1"
    assert st.cards()["pile1"] == "eS"


def test_observing_a_pick_up_shows_the_refill_and_the_next_revealed_card():
    st = position([":123", ":456", "5:789"], piles=("d", "e", "0"), deck="S2P", dump=2)
    text = same_for_all(observe(st, "take0"))
    assert text == "take0,refill=S,reveal=2"
    # everyone now sees seat 0's picked-up card as public, its setup cards as private
    assert st.view(1).cards()["hand0.public"] == "d"
    assert st.view(1).cards()["hand0.private"] == "???"
    st.play("put0")
    assert same_for_all(observe(st, "take1")) == "take1,refill=P"   # the deck is empty now
    assert same_for_all(observe(st, "take0")) == "take0"            # nothing to refill


def test_observing_a_set_shows_it_and_the_next_revealed_card():
    # seat 0's set needs one of its private orange cats and its two private Siamese
    st = position(["11:1SS", ":456", ":789"], piles=("d", "e", "0"), deck="S2P", dump=2)
    view1 = st.view(1)
    text = same_for_all(observe(st, "111SS"))
    assert text == "111SS,reveal=S"
    view1.play_observation(text)
    assert view1.cards()["hand0.public"] == "" and view1.cards()["hand0.private"] == ""
    assert view1.cards()["sets0"] == "111SS"
    # every pile full: no card is revealed after a set
    st = position([":", ":", "11111:"], piles=("4444", "2222", "3333"), turn=2)
    assert same_for_all(observe(st, "11111")) == "11111"


def test_observing_final_turns_a_fifth_set_and_a_pass():
    sets = [["11111", "22222", "44444", "88888"], [], []]
    st = position(["1SS3P:", ":", "2SS6P:"], piles=("0", "", ""), sets=sets, turn=0)
    assert same_for_all(observe(st, "13SSP")) == "13SSP"     # the fifth set: final turns
    assert "step=final" in st.to_text()
    assert same_for_all(observe(st, "pass")) == "pass"
    assert same_for_all(observe(st, "26SSP")) == "26SSP"
    assert st.is_terminal()


def test_play_observation_returns_the_move():
    st = position([":123", ":456", ":789"], piles=("d", "e", "0"), deck="S2P", dump=2)
    view = st.view(1)
    assert view.play_observation(st.observation(1, "take2")) == st.str_to_move("take2")


@pytest.mark.parametrize("text, why", [
    ("take0,refill", "not a part of an observation"),
    ("take0,refill=", "is not a card"),
    ("take0,refill=X,reveal=2", "is not a card"),
    ("take0,refill=SS,reveal=2", "is not a card"),
    ("take0,reveal=2,refill=S", "refill first"),
    ("take0,refill=S,refill=S", "at most once"),
    ("take0,drawn=S", "not a part of an observation"),
    ("take0 refill=S", "not one token"),
    ("take3,refill=S,reveal=2", "not a cat-cards move"),
    ("12345", "not a cat-cards move"),
    ("put0", "is not legal for seat 0"),
    ("pass", "is not legal for seat 0"),
    ("take0", "must say with what"),
    ("take0,refill=S", "must say which"),
    ("take0,refill=d,reveal=2", "every copy of it is accounted for"),
    ("take0,refill=S,reveal=d", "every copy of it is accounted for"),
])
def test_bad_observations_are_refused_and_leave_the_view_unchanged(text, why):
    # every orange/black/blue cat (d) is in sight of seat 1: no d can come from the deck
    st = position(["d:123", ":456", "dd:789"], piles=("d", "e", "0"))
    refused(st.view(1), text, why)
    assert st.view(1).play_observation("take0,refill=S,reveal=2") == 3


def test_observations_the_view_cannot_fit_are_refused():
    st = position([":", ":", "5:"], piles=("1", "2", "3"), deck="4", dump=2, step="1",
                  revealed="6")
    refused(st.view(0), "put0,reveal=4", "no card is revealed after this move")
    st.play("put0")
    refused(st.view(0), "take1,refill=4,reveal=S", "no card is revealed after this move")
    st.play("take1")                                  # the deck is empty now
    refused(st.view(0), "take0,refill=4", "no pile is refilled here")
    refused(st.view(2), "take2,refill=4,reveal=5", "no pile is refilled here")


def test_a_set_the_seat_knows_the_mover_cannot_hold_is_refused():
    # seat 1 holds three orange cats itself: seen from seat 1, only 2 more can be unseen,
    # so seat 0 (two public ones and 3 setup cards) cannot form 11111; seat 2 cannot tell
    st = position(["11:SS2", ":111", ":456"], piles=("d", "e", "0"))
    refused(st.view(1), "11111,reveal=0", "'11111' is not legal for seat 0")
    assert "11111" in moves(st.view(2))


def test_a_view_played_on_without_observations_refuses_them():
    st = position(["1:", ":", ":"], piles=("d", "e", "0"))
    view = st.view(0)
    view.play("take0")                                # drew unknown cards, as a search does
    refused(view, "put0", "played on without observations")
    with pytest.raises(ObservationError):
        st.play_observation("take0")                  # a full state follows no observation


def test_what_a_seat_sees_does_not_depend_on_the_others_hidden_cards():
    """Two tables that differ only in the setup cards of seats 1 and 2: seat 0 gets the
    same observations, follows them to the same views, and its determinizations match."""
    a = position([":123", "4:567", ":89a"], piles=("d", "e", "0"), deck="SPMLbc", dump=1)
    b = position([":123", "4:a98", ":765"], piles=("d", "e", "0"), deck="SPMLbc", dump=1)
    va, vb = a.view(0), b.view(0)
    assert va.to_text() == vb.to_text()
    for move in ["take0", "put1", "take1", "put2", "take2", "put0"]:
        ta, tb = a.observation(0, move), b.observation(0, move)
        assert ta == tb
        va.play_observation(ta)
        vb.play_observation(tb)
        a.play(move)
        b.play(move)
        assert va.to_text() == vb.to_text() == a.view_text(0) == b.view_text(0)
        assert a.info_key(0) == b.info_key(0)
        assert va.determinize(0, seed=5) == vb.determinize(0, seed=5) == \
            a.determinize(0, seed=5) == b.determinize(0, seed=5)


def test_determinizing_a_followed_view_keeps_every_card_the_seat_saw():
    rng = random.Random(4)
    st = catsearch.new_game(GAME, 3, seed=11)
    view = st.view(0)
    while st.ply < 40 or not st.to_text().split("sets=")[1].replace("-", "").strip("/"):
        m = policy(st.legal_moves(), rng, 1)
        view.play_observation(st.observation(0, m))
        st.apply(m)
        assert not st.is_terminal()
    assert view == st.view(0)
    seen = view.cards()
    public = [k for k in seen if k != "deck" and not k.endswith(".private")] + ["hand0.private"]
    unseen_pool = COMPOSITION - collections.Counter(
        "".join(seen[k] for k in public))
    for seed in range(50):
        d = view.determinize(0, seed=seed)
        c = d.cards()
        assert all(c[k] == seen[k] for k in public)   # picked-up cards, sets, piles, own hand
        dealt = c["hand1.private"] + c["hand2.private"] + c["deck"]
        assert len(c["hand1.private"]) == len(seen["hand1.private"])
        assert collections.Counter(dealt) == unseen_pool
        assert d.view(0) == view


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_law_of_observations(players):
    report = check_observations(GAME, players, games=3, seed=players)
    assert report["moves"] > 100 and report["leak_checks"] > 0
    check_observations(GAME, players, games=1, seed=10 + players,
                       options={"values": (5, 4, 3, 2, 1)})


def test_observations_follow_games_to_both_ends():
    """Games that end by a fifth set and by an exhausted deck, every seat following them."""
    for g in range(3):
        st = catsearch.new_game(GAME, 3, seed=100 + g)
        rng = random.Random(g)
        views = [st.view(s) for s in range(3)]
        while not st.is_terminal():
            m = policy(st.legal_moves(), rng, g)
            texts = {st.observation(s, m) for s in range(3)}
            assert len(texts) == 1                      # everything after setup is public
            text = texts.pop()
            for v in views:
                assert v.play_observation(text) == m
            st.apply(m)
        assert all(v == st.view(s) for s, v in enumerate(views))


# -- tensors (docs/rules/cat-cards.rst, "Tensors") ------------------------------------------

import numpy as np                                           # noqa: E402


def tensor_parts(st, seat, kind="observation"):
    t = (st.observation_tensor(seat) if kind == "observation"
         else st.information_state_tensor(seat))
    return {p.name: t[p.start:p.stop] for p in st.tensor_layout(kind)}


def counts(cards, unknown=0):
    """A 20-element hand part: ``cards`` per type out of the copies, then ``unknown`` / 3."""
    out = np.zeros(20)
    for ch in cards:
        out[ORDER.index(ch)] += 1 / COUNTS[ORDER.index(ch)]
    out[19] = min(unknown, 3) / 3
    return out


def test_the_tensor_layouts_per_player_count():
    obs = ["turn", "step", "finals", "revealed", "piles", "deck", "hand", "hand_sizes", "sets",
           "points"]
    for n in (2, 3, 4):
        st = catsearch.new_game(GAME, n, seed=1)
        assert [p.name for p in st.tensor_layout("observation")] == obs
        assert [p.name for p in st.tensor_layout("information_state")] == obs + [
            "others", "private", "unseen", "values"]
        assert st.tensor_shape("observation") == (106 + 98 * n,)
        assert st.tensor_shape("information_state") == (110 + 138 * n,)


def test_the_tensors_of_a_hand_made_position_by_value():
    st = position(["45S:123", "6P:789", ":abc"], piles=("dd", "e", "0"), sets=[["11111"], [], []],
                  turn=1)
    for view in (st, st.view(1)):
        t = tensor_parts(view, 1)
        assert t["turn"].tolist() == [1, 0, 0]                        # seat 1 is to move
        assert t["step"].tolist() == [0, 0, 1, 0] and t["finals"].tolist() == [0]
        assert not t["revealed"].any()
        piles = t["piles"].reshape(3, 20)
        assert piles[0, ORDER.index("d")] == 0.5 and piles[0].sum() == 0.5
        assert piles[1, ORDER.index("e")] == 0.25 and piles[1].sum() == 0.25
        assert piles[2, 0] == 0.25 and piles[2].sum() == 0.25
        assert np.isclose(t["deck"][0], (120 - 14 - 5 - 4) / 108)
        assert np.allclose(t["hand"], counts("6P789"))                # public and private
        assert np.allclose(t["hand_sizes"] * 120, [5, 3, 6])          # seats 1, 2, 0
        sets = t["sets"].reshape(3, 5, 19)
        assert sets[2, 0, 1] == 1.0 and sets.sum() == 1.0             # seat 0's 11111
        assert np.allclose(t["points"], [0, 0, 15 / 100])             # 25 cats x value 4
        i = tensor_parts(view, 1, "information_state")
        for name in t:
            assert np.array_equal(i[name], t[name])
        others = i["others"].reshape(2, 20)                           # seats 2, 0
        assert np.allclose(others[0], counts("", 3))
        assert np.allclose(others[1], counts("45S", 3))              # 123 never shows
        private = i["private"].reshape(3, 20)                         # seats 1, 2, 0
        assert np.allclose(private[0], counts("789"))
        assert np.allclose(private[1], counts("", 3)) and np.allclose(private[2], counts("", 3))
        seen = collections.Counter("11111" + "6P789" + "45S" + "dde0")
        assert np.allclose(i["unseen"], [(COUNTS[t] - seen[ORDER[t]]) / COUNTS[t]
                                         for t in range(19)])
        assert np.allclose(i["values"] * 99, DEFAULT_VALUES)
    t = tensor_parts(st, 0)                                           # seat 0 sees its hand
    assert t["turn"].tolist() == [0, 1, 0]
    assert np.allclose(t["hand"], counts("45S123"))
    assert t["sets"].reshape(3, 5, 19)[0, 0, 1] == 1.0


def test_the_revealed_card_a_final_turn_and_the_values_show():
    st = position([":123", ":", ":"], piles=("d", "e", ""), revealed="S", step="1")
    t = tensor_parts(st, 2)
    assert t["turn"].tolist() == [0, 1, 0] and t["step"].tolist() == [0, 1, 0, 0]
    assert t["revealed"][15] == 1.0 and t["revealed"].sum() == 1.0
    st = position(["11SS:3", ":", ":"], deck="", sets=[[], [], []], turn=1, step="final",
                  finals=2, values=(5, 2, 1, 6, 0), dump=2)
    t = tensor_parts(st, 1, "information_state")
    assert t["step"].tolist() == [0, 0, 0, 1] and np.isclose(t["finals"][0], 2 / 3)
    assert np.allclose(t["values"] * 99, [5, 2, 1, 6, 0])
    assert t["deck"][0] == 0.0


def test_another_seats_private_cards_never_show_in_the_tensors():
    a = position(["45:123", "6:789", ":abc"], piles=("d", "e", "0"))
    b = position(["45:SPL", "6:789", ":abc"], piles=("d", "e", "0"))   # deck: the rest
    assert a.info_key(1) == b.info_key(1) and a.info_key(2) == b.info_key(2)
    for kind in ("observation", "information_state"):
        fa, fb = (st.observation_tensor if kind == "observation" else
                  st.information_state_tensor for st in (a, b))
        assert np.array_equal(fa(1), fb(1)) and np.array_equal(fa(2), fb(2))
        assert not np.array_equal(fa(0), fb(0))
    # once seat 0 picks up a pile, the cards in it are known to everybody
    a.play("take0")
    t = tensor_parts(a, 1, "information_state")["others"].reshape(2, 20)[1]
    assert np.allclose(t, counts("45d", 3))
