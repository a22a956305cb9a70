# cython: language_level=3
"""Herding Cats (``herding-cats``): rules in ``docs/rules/herding-cats.rst``.

Cards are types ``0..9``: cats ``o p b g`` (orange, purple, blue, green), cowdogs ``O P B G``,
Stampede ``S`` and Wild Cat Lady ``W``; ``?`` is an unknown card in a seat's view (``*`` in
the view's own hand: a card it drew in a view a search played on, until chance reveals it).

Moves (ints ``0..38``), with their text:

=========  ==================================  ========
int        move                                text
=========  ==================================  ========
0-3        play the cowdog of colour c          ``O``
4-15       play a cat onto herd k (k = m-4)     ``o@k``
16-27      play a Wild Cat Lady onto herd k     ``W@k``
28         play a Stampede                      ``S``
29-38      discard a card of type t (t = m-29)  ``xo``
=========  ==================================  ========

Herds are numbered from 0 in the order they were started (oldest first).

Observations (what a live game's master sends each seat): the move's text, then ``+`` and the
card drawn at the end of the turn, its letter for the drawer and ``?`` for the others
(``o@0+W``, ``o@0+?``); no suffix once the deck is empty. Everything else is public, so a
seat's view already holds all it knows (its hand and the table).
"""
import re

from libc.math cimport exp, sqrt
from libc.stdint cimport uint64_t
from libc.string cimport memcpy, memset

from catsearch._core.cards cimport (card_in, card_out, chance_from_counts, count_unseen,
                                    determinize_hands_deck,
                                    draw_top, hand_chance_outcomes, hide_hands_deck,
                                    pass_to_holder, put_on_top, redeal_unseen, reveal_unknown,
                                    shuffled_deck, unseen_fn)
from catsearch._core.observing cimport put_turn
from catsearch._core.rng cimport (Pick, Rng, fill_tables, mix64, pick_offer, pick_start,
                                  rng_below)
from catsearch._core.state cimport (NO_SEAT, Header, State, fill_weights, heuristic_moves,
                                    heuristic_weights, next_seat, normalize, restart,
                                    scores_from)
from catsearch._core.text cimport (CardLetters, TextFields, TextOut, card_letters, check_counts,
                                   dash_if_empty, put_c, put_counted_or_dash, put_hands,
                                   put_int, put_ints, put_run_or_dash, put_turn_or_dash,
                                   read_deck, read_hands, read_turn, write_text)
from catsearch._core.zobrist cimport count_down, count_key, count_up, turn_key

from catsearch._core.draws import draw_observation, read_draw
from catsearch._core.game import GameSpec, register
from catsearch._core.notation import with_article
from catsearch._core.options import Option
from catsearch.errors import IllegalMoveError, InvalidMoveError, NotationError

LETTERS = "opbgOPBGSW?"
# the view's own hand: ``*`` is a card its seat drew in a view a search played on, unknown
# until chance reveals it (``?``, a card the seat cannot know, never appears there)
LETTERS_OWN = "opbgOPBGSW*"
COLOURS = ("orange", "purple", "blue", "green")
CARD_NAMES = ("orange cat", "purple cat", "blue cat", "green cat", "orange cowdog",
              "purple cowdog", "blue cowdog", "green cowdog", "Stampede", "Wild Cat Lady")
_A_CARD = tuple(with_article(name) for name in CARD_NAMES)     # "an orange cat" ...
# the letters as the C reader and writers use them (_L.table, _L.chars)
cdef CardLetters _L, _L_OWN
card_letters(&_L, LETTERS)
card_letters(&_L_OWN, LETTERS_OWN)

cdef enum:
    DOG = 4
    STAMP = 8
    WCL = 9
    M_DOG = 0
    M_CAT = 4
    M_WCL = 16
    M_STAMP = 28
    M_DISC = 29

# The evaluation's weights (see evaluate_c), in herds: a herd one card short of complete,
# a Wild Cat Lady, a Stampede, a Stampede per herd it would complete now (up to 2), a
# cowdog, a cat of a colour without a herd; and the sharpness of the softmax. Fitted by
# logistic regression on 180000 positions of 2-player games between the heuristic and
# random players (log-loss on held-out positions 0.492, against 0.503 for herds alone).
cdef double HC_W[6]
HC_W[:] = [0.56, 0.12, 0.025, 0.72, -0.156, -0.146]
cdef double HC_EVAL_SHARPNESS = 2.0

# The deck: per type, how many copies.
cdef unsigned char COMP[10]
COMP[:] = [10, 10, 10, 10, 3, 3, 3, 3, 4, 4]

# Zobrist keys, drawn once at import from a fixed seed.
cdef uint64_t Z_HAND[4][11][4]       # seat, type (or unknown), count before adding
cdef uint64_t Z_DECK[60][11]         # position, type (or unknown)
cdef uint64_t Z_HERD[12][4][3][3]    # slot, colour, cats, wild cat ladies
cdef uint64_t Z_DISC[10][11]         # type, count before adding
cdef uint64_t Z_OUT[10][11]
cdef uint64_t Z_WON[4][16]
cdef uint64_t Z_TURN[5]              # seat to move; [4]: nobody (game over)
cdef uint64_t* _TABLES[7]
cdef Py_ssize_t _BYTES[7]
_TABLES[:] = [&Z_HAND[0][0][0], &Z_DECK[0][0], &Z_HERD[0][0][0][0], &Z_DISC[0][0], &Z_OUT[0][0],
              &Z_WON[0][0], &Z_TURN[0]]
_BYTES[:] = [sizeof(Z_HAND), sizeof(Z_DECK), sizeof(Z_HERD), sizeof(Z_DISC), sizeof(Z_OUT),
             sizeof(Z_WON), sizeof(Z_TURN)]
fill_tables(_TABLES, _BYTES, 7, 0x4843_0001)


# -- small mutators that keep the hash in step -------------------------------------------

cdef inline uint64_t herd_key(HCData* d, int k) noexcept nogil:
    return Z_HERD[k][d.herd_col[k]][d.herd_cats[k]][d.herd_wcl[k]]

cdef inline void hand_add(HCData* d, int p, int t) noexcept nogil:
    card_in(&d.h.hash, &Z_HAND[p][0][0], 4, d.hand[p], &d.hand_size[p], t)

cdef inline void hand_take(HCData* d, int p, int t) noexcept nogil:
    """Seat p plays a card of type t (in a view, an unknown one if it holds no known t)."""
    card_out(&d.h.hash, &Z_HAND[p][0][0], 4, d.hand[p], &d.hand_size[p], t, HC_UNK)

cdef inline void disc_add(HCData* d, int t) noexcept nogil:
    count_up(&d.h.hash, Z_DISC[t], &d.discard[t])

cdef inline void out_add(HCData* d, int t, int n) noexcept nogil:
    cdef int i
    for i in range(n):
        count_up(&d.h.hash, Z_OUT[t], &d.out[t])

cdef void add_to_herd(HCData* d, int k, bint wild, int p) noexcept nogil:
    """Put a cat (or a Wild Cat Lady) on herd k; on its third card the herd goes to p."""
    cdef int j, col
    d.h.hash ^= herd_key(d, k)
    if wild:
        d.herd_wcl[k] += 1
    else:
        d.herd_cats[k] += 1
    if d.herd_cats[k] + d.herd_wcl[k] < 3:
        d.h.hash ^= herd_key(d, k)
        return
    col = d.herd_col[k]
    out_add(d, DOG + col, 1)
    out_add(d, col, d.herd_cats[k])
    out_add(d, WCL, d.herd_wcl[k])
    count_up(&d.h.hash, Z_WON[p], &d.won[p])
    # the herd leaves the table: later herds move down one slot
    for j in range(k + 1, d.nherds):
        d.h.hash ^= herd_key(d, j)
        d.herd_col[j - 1] = d.herd_col[j]
        d.herd_cats[j - 1] = d.herd_cats[j]
        d.herd_wcl[j - 1] = d.herd_wcl[j]
        d.h.hash ^= herd_key(d, j - 1)
    d.nherds -= 1

cdef inline int stampede_target(HCData* d, int col) noexcept nogil:
    """The herd a Stampede puts a cat of colour col on: most cards, then oldest; -1: none."""
    cdef int k, best = -1, most = -1, n
    for k in range(d.nherds):
        if d.herd_col[k] == col:
            n = d.herd_cats[k] + d.herd_wcl[k]
            if n > most:
                most = n
                best = k
    return best

cdef int stampede_herds(HCData* d) noexcept nogil:
    """The herds a Stampede now would complete (``stampede`` without playing it): per colour,
    the discarded cats go to the herd with most cards until it is complete, then to the next,
    so the herds complete fewest missing cards first while the discarded cats last."""
    cdef int col, k, i, j, left, nneed, total = 0
    cdef int need[12]
    for col in range(4):
        left = d.discard[col]
        nneed = 0
        for k in range(d.nherds):
            if d.herd_col[k] == col:
                need[nneed] = 3 - d.herd_cats[k] - d.herd_wcl[k]
                j = nneed
                while j > 0 and need[j - 1] > need[j]:     # insertion: fewest missing first
                    need[j - 1], need[j] = need[j], need[j - 1]
                    j -= 1
                nneed += 1
        for i in range(nneed):
            if left < need[i]:
                break
            left -= need[i]
            total += 1
    return total

cdef void stampede(HCData* d, int p) noexcept nogil:
    cdef int col, k
    for col in range(4):
        while d.discard[col] > 0:
            k = stampede_target(d, col)
            if k < 0:
                break
            count_down(&d.h.hash, Z_DISC[col], &d.discard[col])
            add_to_herd(d, k, False, p)

cdef void end_turn(HCData* d, int p) noexcept nogil:
    """Draw back up (if the deck has cards), then pass to the next seat holding cards."""
    if d.deck_top < d.deck_len:
        if d.ncfg[p]:
            d.h.hash ^= cfg_key(d, p)
            cfg_draw(d, p)
            hand_add(d, p, draw_top(&d.h.hash, &Z_DECK[0][0], 11, d.deck, &d.deck_top))
            d.h.hash ^= cfg_key(d, p)
        else:
            hand_add(d, p, draw_top(&d.h.hash, &Z_DECK[0][0], 11, d.deck, &d.deck_top))
    pass_to_holder(&d.h, Z_TURN, d.hand_size)

cdef void unseen_counts(HCData* d, int seat, int* cnt) noexcept nogil:
    """cnt[t]: the cards of type t that `seat` has not seen (seat < 0: that nobody has seen
    in this view state, i.e. every unknown card)."""
    cdef int t, i
    count_unseen(cnt, COMP, HC_TYPES, &d.hand[0][0], 11, d.h.players, seat,
                 d.deck + d.deck_top, d.deck_len - d.deck_top)
    for t in range(HC_TYPES):
        cnt[t] -= d.discard[t] + d.out[t]
    for i in range(d.nherds):
        cnt[DOG + d.herd_col[i]] -= 1
        cnt[d.herd_col[i]] -= d.herd_cats[i]
        cnt[WCL] -= d.herd_wcl[i]


# -- what the moves revealed (docs/rules/herding-cats.rst, "Inference") ----------------------
# A seat discards only when it holds nothing playable, so a discard tells every seat what the
# discarder's other cards are not. Which card a later play took from that hand is not seen, so
# each seat keeps every configuration of its hand still possible (``HCData.cfg``): per card
# held, the types it cannot be. A drawn card is a new, unconstrained one.

cdef enum:
    HC_TRIES = 4096     # rejection attempts of determinize_c before its fallback

# counters for measurement (inference_counts()): worlds dealt under constraints, attempts,
# fallbacks (a world kept after HC_TRIES rejections), configurations cut at HC_CFG
cdef unsigned long long _N_WORLDS = 0, _N_TRIES = 0, _N_FALLBACKS = 0, _N_CUT = 0


cdef inline unsigned short playable_mask(HCData* d) noexcept nogil:
    """The card types playable on the table as it is: a cowdog and a Stampede always, a cat
    of a colour with a herd, a Wild Cat Lady when there is a herd."""
    cdef unsigned short m = (1 << STAMP) | (0xF << DOG)
    cdef int k
    for k in range(d.nherds):
        m |= 1 << d.herd_col[k]
    if d.nherds:
        m |= 1 << WCL
    return m


cdef bint fits(const int* cards, const unsigned short* masks, int n, int i, int used) noexcept nogil:
    """Can ``cards[i:n]`` go one each to the masks not in ``used``, none to a mask that
    forbids its type?"""
    cdef int j
    if i == n:
        return True
    for j in range(n):
        if not (used >> j) & 1 and not (masks[j] >> cards[i]) & 1:
            if fits(cards, masks, n, i + 1, used | (1 << j)):
                return True
    return False


cdef bint looser(const unsigned short* b, const unsigned short* a, int n, int i,
                 int used) noexcept nogil:
    """Does configuration ``b`` allow every hand ``a`` allows (its masks matched one to one
    to ``a[i:n]``, each a subset of its partner)?"""
    cdef int j
    if i == n:
        return True
    for j in range(n):
        if not (used >> j) & 1 and (b[j] & ~a[i]) == 0:
            if looser(b, a, n, i + 1, used | (1 << j)):
                return True
    return False


cdef void keep_configs(HCData* d, int p, unsigned short* cand, int count, int n) noexcept nogil:
    """Store the candidate configurations (``n`` masks each) as seat ``p``'s: each sorted,
    without duplicates or one that another allows more than; none at all when one of them
    allows anything (nothing is known)."""
    global _N_CUT
    cdef int c, e, i, j, kept = 0
    cdef unsigned short t
    cdef unsigned short* a
    cdef bint drop, any_mask
    for c in range(count):
        a = cand + 3 * c
        for i in range(1, n):           # insertion sort, n <= 3
            t = a[i]
            j = i - 1
            while j >= 0 and a[j] > t:
                a[j + 1] = a[j]
                j -= 1
            a[j + 1] = t
        any_mask = False
        for i in range(n):
            any_mask = any_mask or a[i] != 0
        if not any_mask:
            d.ncfg[p] = 0               # this configuration allows every hand
            return
    for c in range(count):
        a = cand + 3 * c
        drop = False
        for e in range(count):
            if e != c and looser(cand + 3 * e, a, n, 0, 0):
                # e allows all a allows: drop a (of two equal ones, the later)
                if not looser(a, cand + 3 * e, n, 0, 0) or e < c:
                    drop = True
                    break
        if drop:
            continue
        if kept == HC_CFG:
            _N_CUT += 1                 # the rest are left out (documented; never seen)
            break
        for i in range(n):
            d.cfg[p][kept][i] = a[i]
        kept += 1
    d.ncfg[p] = kept


cdef void cfg_take(HCData* d, int p, int x, unsigned short add) noexcept nogil:
    """Seat ``p`` plays or discards a card of type ``x``; ``add``: the types the rest of
    its hand is now known not to be (a discard: everything playable), else 0."""
    cdef unsigned short cand[HC_CFG * HC_HAND * 3]
    cdef int n = d.hand_size[p], c, i, j, k, count = 0
    cdef unsigned short* m
    if d.ncfg[p] == 0:
        if add == 0 or n <= 1:
            return
        d.ncfg[p] = 1
        memset(d.cfg[p][0], 0, sizeof(d.cfg[p][0]))
    for c in range(d.ncfg[p]):
        m = d.cfg[p][c]
        for i in range(n):
            if (m[i] >> x) & 1 or (i > 0 and m[i] == m[i - 1]):
                continue                # that card is not an x / the same choice again
            k = 0
            for j in range(n):
                if j != i:
                    cand[3 * count + k] = m[j] | add
                    k += 1
            count += 1
    if count == 0 or n <= 1:
        # no configuration had an x (a move a search played in a view, in a world the moves
        # exclude), or the hand is now empty: nothing more is known
        d.ncfg[p] = 0
        return
    keep_configs(d, p, cand, count, n - 1)


cdef inline void cfg_draw(HCData* d, int p) noexcept nogil:
    """Seat ``p`` draws a card (``hand_size`` not yet counting it): a card of any type."""
    cdef int c, i, n = d.hand_size[p]
    for c in range(d.ncfg[p]):
        for i in range(n, 0, -1):
            d.cfg[p][c][i] = d.cfg[p][c][i - 1]
        d.cfg[p][c][0] = 0


cdef bint hand_allowed(HCData* d, int p, HCData* w) noexcept nogil:
    """Is seat ``p``'s hand in ``w`` (every card known) one that its configurations in
    ``d`` allow?"""
    cdef int cards[HC_HAND]
    cdef int t, i, c, n = 0
    if d.ncfg[p] == 0:
        return True
    for t in range(HC_TYPES):
        for i in range(w.hand[p][t]):
            if n < HC_HAND:
                cards[n] = t
            n += 1
    if n != d.hand_size[p] or w.hand[p][HC_UNK]:
        return True                     # unknown cards: not a world, nothing to check
    for c in range(d.ncfg[p]):
        if fits(cards, d.cfg[p][c], n, 0, 0):
            return True
    return False


cdef bint type_allowed(HCData* d, int p, int t) noexcept nogil:
    """Can seat ``p`` hold a card of type ``t``, by its configurations?"""
    cdef int c, i
    if d.ncfg[p] == 0:
        return True
    for c in range(d.ncfg[p]):
        for i in range(d.hand_size[p]):
            if not (d.cfg[p][c][i] >> t) & 1:
                return True
    return False


cdef uint64_t cfg_key(HCData* d, int p, int delta=0) noexcept nogil:
    """The hash key of seat ``p``'s configurations (0 when it has none), each of
    ``hand_size[p] + delta`` masks: what the discards revealed is part of what a seat knows,
    so of its information set's key too."""
    cdef uint64_t z
    cdef int c, i
    if d.ncfg[p] == 0:
        return 0
    z = mix64(<uint64_t>(0x4843_0100 + p))
    for c in range(d.ncfg[p]):
        for i in range(d.hand_size[p] + delta):
            z = mix64(z ^ d.cfg[p][c][i])
        z = mix64(z ^ <uint64_t>0xFFFF0000)     # the end of a configuration
    return z


def inference_counts() -> dict:
    """How determinize has dealt under what the moves revealed, since import: ``worlds``
    dealt where some seat's cards were constrained, ``attempts`` (deals tried for them),
    ``fallbacks`` (a world kept after 4096 rejected deals) and ``cut`` (configurations
    left out past the 16 a seat keeps). For measurement (benchmarks/inference.py)."""
    return {"worlds": _N_WORLDS, "attempts": _N_TRIES, "fallbacks": _N_FALLBACKS,
            "cut": _N_CUT}


cdef inline int play_moves(HCData* d, const unsigned char* have, int* out) noexcept nogil:
    """Write the plays (no discard) of a mover holding the card types ``have`` marks, in
    move order; return how many."""
    cdef int n = 0, c, k
    # branch-free: whether a card is in hand is a coin toss to the branch predictor, so each
    # move is written and kept (``n`` moves on) only if it is legal
    for c in range(4):
        out[n] = M_DOG + c
        n += have[DOG + c] != 0
    for k in range(d.nherds):
        out[n] = M_CAT + k
        n += have[d.herd_col[k]] != 0
    if have[WCL]:
        for k in range(d.nherds):
            out[n] = M_WCL + k
            n += 1
    if have[STAMP]:
        out[n] = M_STAMP
        n += 1
    return n


cdef int view_moves(HCData* d, int* out) noexcept nogil:
    """The moves of a view whose mover holds unknown cards: every move legal in some world
    the view cannot tell from this one (its unknown cards dealt from the cards nobody in
    the view has seen). A card type is possible when the mover holds one or one is unseen;
    a discard only where the mover can hold nothing playable."""
    cdef unsigned char* hand = d.hand[d.h.current]
    cdef int pool[HC_TYPES]
    cdef unsigned char can[HC_TYPES]
    cdef bint playable[HC_TYPES]
    cdef int has_herd[4]
    cdef int n, k, t, dead = 0
    cdef bint known_playable = False
    unseen_counts(d, NO_SEAT, pool)
    memset(has_herd, 0, sizeof(has_herd))
    for k in range(d.nherds):
        has_herd[d.herd_col[k]] = 1
    for t in range(HC_TYPES):
        can[t] = hand[t] > 0 or pool[t] > 0
        if t < DOG:
            playable[t] = has_herd[t]
        elif t == WCL:
            playable[t] = d.nherds > 0
        else:
            playable[t] = True      # a cowdog, a Stampede: always
        if playable[t]:
            known_playable = known_playable or hand[t] > 0
        elif pool[t] > 0:
            dead += pool[t]
    n = play_moves(d, can, out)
    # a discard: in a world where every card the mover holds is unplayable
    if not known_playable and dead >= hand[HC_UNK]:
        for t in range(HC_TYPES):
            if not playable[t] and can[t]:
                out[n] = M_DISC + t
                n += 1
    return n


cdef str cards_str(const unsigned char* counts, int ntypes):
    """Cards by type as letters in type order, ``-`` for none."""
    cdef int t
    s = "".join([LETTERS[t] * counts[t] for t in range(ntypes)])
    return s or "-"


# The heuristic's weights: the score of each kind of move (the best score is played, scores
# within 0.5 tie); a player sets them as weights.NAME=value, in this order in HW
cdef enum:
    HW_COWDOG_HELD, HW_COWDOG, HW_COMPLETE, HW_START, HW_ADD, HW_COMPLETE_WCL, HW_WCL, \
        HW_STAMPEDE, HW_STAMPEDE_KEEP, HW_DISCARD_WCL, HW_N
cdef double HW[HW_N]


# -- the observations in plain words (GameSpec.gloss) ------------------------------------

_COLOUR_NAMES = {"o": "orange", "p": "purple", "b": "blue", "g": "green"}


def _hc_card(c: str) -> str:
    if c in _COLOUR_NAMES:
        return with_article(f"{_COLOUR_NAMES[c]} cat")
    if c.lower() in _COLOUR_NAMES:
        return with_article(f"{_COLOUR_NAMES[c.lower()]} cowdog")
    return {"S": "a Stampede", "W": "a Wild Cat Lady", "?": "a card"}.get(c, repr(c))


def gloss(text: str, seat: int | None = None) -> str | None:
    """A Herding Cats observation in plain words (see ``GameSpec.gloss``)."""
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


def max_game_length(int players) -> int:
    """Every turn plays or discards one of the 60 cards (GameSpec.max_game_length)."""
    return 60


SPEC = GameSpec(
    id="herding-cats", name="Herding Cats", size=sizeof(HCData), moves=HC_MOVES,
    notation=("players", "turn", "hands", "deck", "herds", "discard", "out", "won", "cannot?",
              "rng", "view?"),
    heuristic_weights=(
        Option("cowdog_held", float, 40.0, doc="a cowdog of a colour with a cat in hand"),
        Option("cowdog", float, 30.0, doc="any other cowdog"),
        Option("complete", float, 100.0, doc="a cat that completes a herd"),
        Option("start", float, 35.0, doc="a cat on a herd of no card yet"),
        Option("add", float, 10.0, doc="a cat that leaves a herd one short"),
        Option("complete_wcl", float, 90.0, doc="a Wild Cat Lady that completes a herd"),
        Option("wcl", float, 5.0, doc="any other Wild Cat Lady on a herd"),
        Option("stampede", float, 95.0, doc="a Stampede that completes a herd"),
        Option("stampede_keep", float, 8.0, doc="a Stampede that completes none"),
        Option("discard_wcl", float, -50.0,
               doc="discarding a Wild Cat Lady (a cat: minus the cowdogs of its colour to "
                   "come)"),
    ),
    max_game_length=max_game_length, gloss=gloss, render="herding-cats",
    moves_left=lambda st: -(-sum(len(v) for k, v in st.cards().items()    # a turn a card
                                 if k[:4] in ("deck", "hand")) // st.players),
    hidden_moves=False,    # every move is seen as it was made
    history=("cannot",))   # what the discards revealed (docs/rules/herding-cats.rst)
fill_weights(HW, HW_N, SPEC)


cdef inline int hc_legal_moves(HCData* d, int* out) noexcept nogil:
    """``legal_moves_c``: the moves of the seat to move, in move order."""
    cdef unsigned char* hand = d.hand[d.h.current]
    cdef int n, t
    if hand[HC_UNK] > 0:
        return view_moves(d, out)
    n = play_moves(d, hand, out)
    if n == 0:      # a discard only when nothing is playable (branch-free, as above)
        for t in range(HC_TYPES):
            out[n] = M_DISC + t
            n += hand[t] != 0
    return n


cdef inline void hc_apply(HCData* d, int m) noexcept nogil:
    """``apply_c``."""
    cdef int p = d.h.current
    cdef int k
    if d.ncfg[p]:
        # what seat p's cards were known not to be, kept through its play
        d.h.hash ^= cfg_key(d, p)
        cfg_take(d, p, DOG + m if m < M_CAT else d.herd_col[m - M_CAT] if m < M_WCL
                 else WCL if m < M_STAMP else STAMP if m == M_STAMP else m - M_DISC,
                 playable_mask(d) if m >= M_DISC else 0)
        d.h.hash ^= cfg_key(d, p, -1)
    elif m >= M_DISC and not d.h.scratch:
        cfg_take(d, p, m - M_DISC, playable_mask(d))     # a discard reveals
        d.h.hash ^= cfg_key(d, p, -1)
    if m < M_CAT:
        hand_take(d, p, DOG + m)
        k = d.nherds
        d.nherds += 1
        d.herd_col[k] = m
        d.herd_cats[k] = 0
        d.herd_wcl[k] = 0
        d.h.hash ^= herd_key(d, k)
    elif m < M_WCL:
        k = m - M_CAT
        hand_take(d, p, d.herd_col[k])
        add_to_herd(d, k, False, p)
    elif m < M_STAMP:
        hand_take(d, p, WCL)
        add_to_herd(d, m - M_WCL, True, p)
    elif m == M_STAMP:
        hand_take(d, p, STAMP)
        disc_add(d, STAMP)
        stampede(d, p)
    else:
        hand_take(d, p, m - M_DISC)
        disc_add(d, m - M_DISC)
    end_turn(d, p)


# -- the playout's own apply: the rules of hc_apply without the hash ---------------------
# A random playout below a search's tree is read for its returns (and its ply) only, never
# for its hash nor for what the discards revealed (``State.playout_c``): these play the same
# moves to the same scores without keeping either (tests/core/test_playout.py holds them to
# hc_apply, move for move).

cdef inline void nh_take(HCData* d, int p, int t) noexcept nogil:
    if d.hand[p][t] == 0:
        t = HC_UNK
    d.hand[p][t] -= 1
    d.hand_size[p] -= 1

cdef void nh_add_to_herd(HCData* d, int k, bint wild, int p) noexcept nogil:
    cdef int j, col
    if wild:
        d.herd_wcl[k] += 1
    else:
        d.herd_cats[k] += 1
    if d.herd_cats[k] + d.herd_wcl[k] < 3:
        return
    col = d.herd_col[k]
    d.out[DOG + col] += 1
    d.out[col] += d.herd_cats[k]
    d.out[WCL] += d.herd_wcl[k]
    d.won[p] += 1
    for j in range(k + 1, d.nherds):
        d.herd_col[j - 1] = d.herd_col[j]
        d.herd_cats[j - 1] = d.herd_cats[j]
        d.herd_wcl[j - 1] = d.herd_wcl[j]
    d.nherds -= 1

cdef inline void nh_apply(HCData* d, int m) noexcept nogil:
    """``hc_apply`` without the hash and the record of what discards reveal."""
    cdef int p = d.h.current, k, col, i, q
    if m < M_CAT:
        nh_take(d, p, DOG + m)
        k = d.nherds
        d.nherds += 1
        d.herd_col[k] = m
        d.herd_cats[k] = 0
        d.herd_wcl[k] = 0
    elif m < M_WCL:
        k = m - M_CAT
        nh_take(d, p, d.herd_col[k])
        nh_add_to_herd(d, k, False, p)
    elif m < M_STAMP:
        nh_take(d, p, WCL)
        nh_add_to_herd(d, m - M_WCL, True, p)
    elif m == M_STAMP:
        nh_take(d, p, STAMP)
        d.discard[STAMP] += 1
        for col in range(4):
            while d.discard[col] > 0:
                k = stampede_target(d, col)
                if k < 0:
                    break
                d.discard[col] -= 1
                nh_add_to_herd(d, k, False, p)
    else:
        nh_take(d, p, m - M_DISC)
        d.discard[m - M_DISC] += 1
    # end_turn: draw back up, then the next seat holding cards (pass_to_holder)
    if d.deck_top < d.deck_len:
        d.hand[p][d.deck[d.deck_top]] += 1
        d.hand_size[p] += 1
        d.deck_top += 1
    d.h.ply += 1
    q = p
    for i in range(d.h.players):
        q = next_seat(q, d.h.players)
        if d.hand_size[q] > 0:
            d.h.current = q
            return
    d.h.current = NO_SEAT
    d.h.terminal = 1


cdef class HerdingCats(State):
    """A state of Herding Cats (see the module docstring for cards, moves and notation)."""

    spec = SPEC

    # -- the hot contract ---------------------------------------------------------------
    cdef int legal_moves_c(self, int* out) noexcept nogil:
        return hc_legal_moves(&self.d, out)

    cdef void apply_c(self, int m) noexcept nogil:
        hc_apply(&self.d, m)

    cdef int playout_c(self, Rng* rng, int* buf) noexcept nogil:
        """The contract's random playout over this module's functions (no virtual call a
        move), its generator in a local (kept in registers across the moves), without the
        hash (``nh_apply``)."""
        cdef HCData* d = &self.d
        cdef Rng r = rng[0]
        cdef int n = 0
        while not d.h.terminal:
            nh_apply(d, buf[rng_below(&r, hc_legal_moves(d, buf))])
            n += 1
        rng[0] = r
        return n

    cdef bint allows_c(self, State world, int seat) noexcept nogil:
        """Every other seat's hand in ``world`` is one its discards allow."""
        cdef HCData* d = &self.d
        cdef int p
        for p in range(d.h.players):
            if p != seat and not hand_allowed(d, p, &(<HerdingCats>world).d):
                return False
        return True

    cdef uint64_t compute_hash_c(self) noexcept nogil:
        cdef HCData* d = &self.d
        cdef uint64_t z = turn_key(Z_TURN, d.h.current)
        cdef int p, t, k, i
        for p in range(d.h.players):
            for t in range(11):
                z ^= count_key(Z_HAND[p][t], d.hand[p][t])
            z ^= count_key(Z_WON[p], d.won[p]) ^ cfg_key(d, p)
        for i in range(d.deck_top, d.deck_len):
            z ^= Z_DECK[i][d.deck[i]]
        for k in range(d.nherds):
            z ^= herd_key(d, k)
        for t in range(HC_TYPES):
            z ^= count_key(Z_DISC[t], d.discard[t]) ^ count_key(Z_OUT[t], d.out[t])
        return z

    cdef void scores_c(self, double* out) noexcept nogil:
        """Herds collected per seat."""
        scores_from(out, self.d.won, self.d.h.players)

    cdef void reset_c(self, uint64_t seed) noexcept nogil:
        cdef HCData* d = &self.d
        cdef int i, p
        restart(self, seed)
        d.deck_len = shuffled_deck(d.deck, COMP, HC_TYPES, &d.h.rng)
        for p in range(d.h.players):
            for i in range(HC_HAND):
                hand_add(d, p, d.deck[d.deck_top])
                d.deck_top += 1
        d.h.current = 0
        # the hash (compute_hash_c's, without recounting): the hands are in already (hand_add
        # keeps it), then the seat to move and the deck; nothing else is on the table yet
        d.h.hash ^= turn_key(Z_TURN, 0)
        for i in range(d.deck_top, d.deck_len):
            d.h.hash ^= Z_DECK[i][d.deck[i]]

    cdef void determinize_c(self, int seat, Rng* rng) noexcept nogil:
        global _N_WORLDS, _N_TRIES, _N_FALLBACKS
        cdef HCData* d = &self.d
        cdef unsigned char hands[4][11]
        cdef int cnt[HC_TYPES]
        cdef int p, tries = 0
        cdef bint constrained = False, ok
        if not d.h.no_inference and not d.h.show_hands:     # shown hands: nothing to infer
            for p in range(d.h.players):
                constrained = constrained or (p != seat and d.ncfg[p] > 0)
        if not constrained:
            # everything `seat` has not seen, dealt at random into the places it cannot see
            determinize_hands_deck(self, seat, rng, <unseen_fn>unseen_counts, HC_TYPES,
                                   &d.hand[0][0], 11, d.hand_size, HC_UNK,
                                   d.deck + d.deck_top, d.deck_len - d.deck_top)
            return
        # with inference: dealt again until every other seat's hand is one its discards allow
        # (rejection: the worlds kept are uniform among those allowed); the world keeps what
        # the game so far revealed, public, the same in every world
        unseen_counts(d, seat, cnt)
        memcpy(hands, d.hand, sizeof(hands))
        _N_WORLDS += 1
        while True:
            redeal_unseen(&d.h, seat, cnt, HC_TYPES, &d.hand[0][0], 11, d.hand_size, HC_UNK,
                          d.deck + d.deck_top, d.deck_len - d.deck_top, rng)
            tries += 1
            ok = True
            for p in range(d.h.players):
                if p != seat and not hand_allowed(d, p, d):
                    ok = False
                    break
            if ok:
                break
            if tries == HC_TRIES:
                _N_FALLBACKS += 1       # documented fallback: keep this world
                break
            memcpy(d.hand, hands, sizeof(hands))
        _N_TRIES += tries
        d.h.hash = self.compute_hash_c()

    cdef void hide_c(self, int seat) noexcept nogil:
        hide_hands_deck(self, seat, &self.d.hand[0][0], 11, HC_TYPES, HC_UNK,
                        self.d.deck + self.d.deck_top, self.d.deck_len - self.d.deck_top)

    cdef int heuristic_move_c(self, Rng* rng, int* buf, int n) noexcept nogil:
        """A beginner's play: complete a herd (with a cat before a Wild Cat Lady); a Stampede
        that completes one; start a herd for a cat held; add a cat that leaves a herd one
        short of nobody; keep Wild Cat Ladies and Stampedes for later; discard the cat of the
        colour least likely to find a herd. Each kind of move scores its weight (HW, the
        spec's ``heuristic_weights``)."""
        cdef HCData* d = &self.d
        cdef const double* w = heuristic_weights(&d.h, HW)
        cdef int p = d.h.current
        cdef int i, m, k
        cdef double score
        cdef Pick pick
        n = heuristic_moves(self, buf, n)
        pick_start(&pick, buf[0])
        for i in range(n):
            m = buf[i]
            if m < M_CAT:                                   # a cowdog for a cat we hold
                score = w[HW_COWDOG_HELD] if d.hand[p][m] else w[HW_COWDOG]
            elif m < M_WCL:                         # 1 card gives the next seat a chance
                k = d.herd_cats[m - M_CAT] + d.herd_wcl[m - M_CAT]
                score = w[HW_COMPLETE] if k == 2 else (w[HW_START] if k == 0 else w[HW_ADD])
            elif m < M_STAMP:
                k = d.herd_cats[m - M_WCL] + d.herd_wcl[m - M_WCL]
                score = w[HW_COMPLETE_WCL] if k == 2 else w[HW_WCL]
            elif m == M_STAMP:
                score = w[HW_STAMPEDE] if stampede_herds(d) > 0 else w[HW_STAMPEDE_KEEP]
            else:
                k = m - M_DISC      # only cats and Wild Cat Ladies can be unplayable
                if k < DOG:         # the colour with the fewest cowdogs still to come
                    score = -(COMP[DOG + k] - d.out[DOG + k] - d.discard[DOG + k])
                else:
                    score = w[HW_DISCARD_WCL]
            pick_offer(&pick, rng, m, score, 0.5)
        return pick.choice

    cdef void evaluate_c(self, double* out) noexcept nogil:
        """Win chances from an estimate of each seat's herds: the herds it collected, plus
        the herds one card short of complete that it will likely complete (seats in turn
        order from the one to move, each taking what the seats before it left with the
        chance that it holds a cat of the herd's colour, a Wild Cat Lady, or a Stampede
        while the discard pile holds a cat of that colour), plus what its hand promises:
        Wild Cat Ladies, Stampedes (more when one would complete herds now), minus cowdogs
        and cats of a colour without a herd on the table. Unknown cards (in a view) count
        by the chance that the unseen cards give. The estimates become win chances by a
        softmax whose sharpness falls with the herds still to be played for. The weights
        were fitted by logistic regression on positions of 2-player games."""
        cdef HCData* d = &self.d
        cdef double x[4]
        cdef double rest, q, beta, miss, u, stamp_gain = 0.0
        cdef int p, k, i, j, t, n = d.h.players, col, left
        cdef int order[4]
        cdef int norder = 0, unseen = 0, good, dead_unk = 0, dogs_unk
        cdef int unk[10]
        cdef int has_herd[4]
        if d.h.terminal:
            self.returns_c(out)
            return
        # the cards nobody knows in this state (none in a full state)
        unseen_counts(d, NO_SEAT, unk)
        memset(has_herd, 0, sizeof(has_herd))
        for k in range(d.nherds):
            has_herd[d.herd_col[k]] = 1
        for t in range(HC_TYPES):
            unseen += unk[t]
        for col in range(4):
            if not has_herd[col]:
                dead_unk += unk[col]
        dogs_unk = unk[DOG] + unk[DOG + 1] + unk[DOG + 2] + unk[DOG + 3]
        for i in range(n):
            p = (d.h.current + i) % n
            if d.hand_size[p] > 0:
                order[norder] = p
                norder += 1
        # herds a Stampede would complete now
        if unk[STAMP] or d.hand[0][STAMP] or d.hand[1][STAMP] or d.hand[2][STAMP] or d.hand[3][STAMP]:
            stamp_gain = stampede_herds(d)
            if stamp_gain > 2.0:
                stamp_gain = 2.0
        for p in range(n):
            x[p] = d.won[p]
            u = d.hand[p][HC_UNK] / <double>unseen if unseen > 0 else 0.0
            x[p] += HC_W[1] * (d.hand[p][WCL] + u * unk[WCL])
            x[p] += (HC_W[2] + HC_W[3] * stamp_gain) * (d.hand[p][STAMP] + u * unk[STAMP])
            x[p] += HC_W[4] * (d.hand[p][DOG] + d.hand[p][DOG + 1] + d.hand[p][DOG + 2]
                               + d.hand[p][DOG + 3] + u * dogs_unk)
            for col in range(4):
                if not has_herd[col]:
                    x[p] += HC_W[5] * d.hand[p][col]
            x[p] += HC_W[5] * u * dead_unk
        for k in range(d.nherds):
            if d.herd_cats[k] + d.herd_wcl[k] != 2:
                continue
            col = d.herd_col[k]
            good = unk[col] + unk[WCL] + (unk[STAMP] if d.discard[col] else 0)
            rest = 1.0
            for j in range(norder):
                p = order[j]
                if d.hand[p][col] or d.hand[p][WCL] or (d.hand[p][STAMP] and d.discard[col]):
                    q = 1.0
                else:
                    miss = 1.0      # no unknown card of p completes it
                    for i in range(d.hand[p][HC_UNK]):
                        if unseen - good - i <= 0:
                            miss = 0.0
                            break
                        miss *= (unseen - good - i) / <double>(unseen - i)
                    q = 1.0 - miss
                x[p] += HC_W[0] * rest * q
                rest *= 1.0 - q
        # herds still to be played for: every cowdog not yet in a collected herd
        left = 12 - (d.out[DOG] + d.out[DOG + 1] + d.out[DOG + 2] + d.out[DOG + 3])
        beta = HC_EVAL_SHARPNESS / sqrt(1.0 + left)
        for p in range(n):
            x[p] = exp(beta * x[p])
        normalize(out, x, n)

    cdef void tensor_c(self, int kind, float* out) noexcept nogil:
        """The seat's view, laid out as ``_tensor_layout`` says (see the rules page,
        "Tensors"): seats relative to the view's seat, counts scaled by their maximum."""
        cdef HCData* d = &self.d
        cdef int n = d.h.players, seat = d.h.view_seat
        cdef int i, t, k, p, o = 0
        cdef int cnt[HC_TYPES]
        if seat < 0:
            seat = 0
        # turn: the seat to move, relative (none once the game is over)
        o = put_turn(out, o, &d.h)
        # hand: the seat's own cards by type (and unknown), out of 3
        for t in range(HC_TYPES + 1):
            out[o + t] = d.hand[seat][t] / <float>HC_HAND
        o += HC_TYPES + 1
        # hand_sizes: cards held per seat, relative, out of 3
        for i in range(n):
            out[o + i] = d.hand_size[(seat + i) % n] / <float>HC_HAND
        o += n
        # deck: the cards left in the deck, out of those after the deal
        out[o] = (d.deck_len - d.deck_top) / <float>(HC_CARDS - HC_HAND * n)
        o += 1
        # herds: 12 slots, oldest first: colour (4), cats 0/1/2 (3), WCLs 0/1/2 (3)
        for k in range(d.nherds):
            out[o + 10 * k + d.herd_col[k]] = 1.0
            out[o + 10 * k + 4 + d.herd_cats[k]] = 1.0
            out[o + 10 * k + 7 + d.herd_wcl[k]] = 1.0
        o += 10 * HC_MAX_HERDS
        # discard and collected (the cards of collected herds): by type, out of the copies
        for t in range(HC_TYPES):
            out[o + t] = d.discard[t] / <float>COMP[t]
            out[o + HC_TYPES + t] = d.out[t] / <float>COMP[t]
        o += 2 * HC_TYPES
        # won: herds collected per seat, relative, out of the 12 cowdogs
        for i in range(n):
            out[o + i] = d.won[(seat + i) % n] / <float>HC_MAX_HERDS
        o += n
        if kind == 0:
            return
        # others: each other seat's cards as this view knows them (unknown in a view made by
        # hide_c; a search's chance outcomes may name some), by type and unknown, out of 3
        for i in range(1, n):
            p = (seat + i) % n
            for t in range(HC_TYPES + 1):
                out[o + t] = d.hand[p][t] / <float>HC_HAND
            o += HC_TYPES + 1
        # unseen: the cards of each type the seat has not seen, out of the copies
        unseen_counts(d, seat, cnt)
        for t in range(HC_TYPES):
            out[o + t] = (cnt[t] if cnt[t] > 0 else 0) / <float>COMP[t]

    def _tensor_layout(self, int kind) -> list:
        """The tensor parts (see the rules page, "Tensors")."""
        n = self.d.h.players
        parts = [("turn", n), ("hand", HC_TYPES + 1), ("hand_sizes", n), ("deck", 1),
                 ("herds", 10 * HC_MAX_HERDS), ("discard", HC_TYPES), ("collected", HC_TYPES),
                 ("won", n)]
        if kind == 1:
            parts += [("others", (n - 1) * (HC_TYPES + 1)), ("unseen", HC_TYPES)]
        return parts

    cdef int chance_outcomes_c(self, int* outcomes, double* weights) noexcept nogil:
        cdef int cnt[HC_TYPES]
        cdef int t, left = 0
        cdef int p = self.d.h.current
        if self.d.h.no_inference or self.d.ncfg[p] == 0 or self.d.h.terminal \
                or self.d.hand[p][HC_UNK] == 0:
            return hand_chance_outcomes(self, <unseen_fn>unseen_counts, HC_TYPES,
                                        &self.d.hand[0][0], 11, HC_UNK, outcomes, weights)
        # a type none of the mover's cards can be (its discards showed) is not drawn
        unseen_counts(&self.d, NO_SEAT, cnt)
        for t in range(HC_TYPES):
            if cnt[t] > 0 and not type_allowed(&self.d, p, t):
                cnt[t] = 0
            left += cnt[t] if cnt[t] > 0 else 0
        if left == 0:
            unseen_counts(&self.d, NO_SEAT, cnt)
        return chance_from_counts(cnt, HC_TYPES, outcomes, weights)

    cdef void apply_chance_c(self, int t) noexcept nogil:
        cdef HCData* d = &self.d
        reveal_unknown(&d.h.hash, &Z_HAND[d.h.current][0][0], 4, d.hand[d.h.current],
                       &d.hand_size[d.h.current], HC_UNK, t)

    # -- Python API: text ---------------------------------------------------------------
    def _move_to_str(self, int m) -> str:
        if m < M_CAT:
            return LETTERS[DOG + m]
        if m < M_WCL:
            k = m - M_CAT
            col = LETTERS[self.d.herd_col[k]] if k < self.d.nherds else "cat"
            return f"{col}@{k}"
        if m < M_STAMP:
            return f"W@{m - M_WCL}"
        if m == M_STAMP:
            return "S"
        return "x" + LETTERS[m - M_DISC]

    def _str_to_move(self, str s) -> int:
        bad = InvalidMoveError(
            f"{s!r} is not a herding-cats move: write a cowdog (O P B G), a cat or W onto a herd "
            f"(o@0, W@1), S for Stampede, or x and a card to discard (xo, xS)")
        if len(s) == 1 and s in "OPBG":
            return M_DOG + "OPBG".index(s)
        if s == "S":
            return M_STAMP
        if len(s) == 2 and s[0] == "x" and s[1] in LETTERS[:10]:
            return M_DISC + LETTERS.index(s[1])
        card, at, herd = s.partition("@")
        if not at or not (herd.isascii() and herd.isdigit()) or card not in ("o", "p", "b", "g", "W", "cat"):
            raise bad
        k = int(herd)
        if k >= HC_MAX_HERDS:
            raise InvalidMoveError(f"{s!r}: herds are numbered 0 to {HC_MAX_HERDS - 1}")
        if card == "W":
            return M_WCL + k
        if card != "cat" and k < self.d.nherds and "opbg".index(card) != self.d.herd_col[k]:
            raise IllegalMoveError(
                f"illegal move {s!r}: herd {k} is {COLOURS[self.d.herd_col[k]]}, "
                f"not {COLOURS['opbg'.index(card)]}, in {self.to_text()!r}")
        return M_CAT + k

    # -- Python API: observations (docs/rules/herding-cats.rst, "Observations") -------------
    def _observation(self, int seat, int move) -> str:
        """The move's text, then ``+`` and the card drawn at the end of the turn: its letter
        for the mover, ``?`` for every other seat; no suffix when the deck is empty
        (:mod:`catsearch._core.draws`)."""
        cdef HCData* d = &self.d
        return draw_observation(self._move_to_str(move), seat=seat, mover=d.h.current,
                                drawn=LETTERS[d.deck[d.deck_top]] if d.deck_top < d.deck_len
                                else None)

    def _play_observation(self, str text) -> int:
        cdef HCData* d = &self.d
        cdef int seat = d.h.view_seat
        cdef int p = d.h.current
        cdef int cnt[HC_TYPES]
        cdef int m, t, drawn
        move_text = text.partition("+")[0]      # the move is checked first, then the draw
        try:
            m = self._str_to_move(move_text)
        except InvalidMoveError:
            raise ValueError(
                f"{move_text!r} is not a herding-cats move: an observation is the move (O, o@0, "
                f"W@1, S, xo), then +<card drawn> (+o, +W) or +? for another seat's draw") from None
        except IllegalMoveError:
            raise ValueError(f"{move_text!r} puts a cat on a herd of another colour") from None
        if self._move_to_str(m) != move_text:
            raise ValueError(f"write the move {move_text!r} as {self._move_to_str(m)!r} in an "
                             "observation")
        if m not in self.legal_moves():
            raise ValueError(f"{move_text!r} is not a legal move for seat {p} here; legal: "
                             + " ".join(self._move_to_str(x) for x in self.legal_moves()))
        t = self._move_card(m)
        unseen_counts(d, seat, cnt)
        if not d.hand[p][t] and cnt[t] < 1:
            # a card seat p holds unknown to this view: some copy must be unseen
            raise ValueError(f"seat {p} cannot play {_A_CARD[t]} ({move_text!r}): "
                             f"seat {seat} has seen all {COMP[t]} of them")
        if not type_allowed(d, p, t):
            raise ValueError(f"seat {p} cannot play {_A_CARD[t]} ({move_text!r}): its "
                             f"discards showed it holds none")
        move_text, drawn = read_draw(text, seat=seat, mover=p,
                                     deck_left=d.deck_top < d.deck_len, letters=LETTERS[:10])
        if drawn >= 0 and cnt[drawn] < 1:
            raise ValueError(f"seat {seat} cannot draw {_A_CARD[drawn]} ({LETTERS[drawn]!r}): "
                             f"it has seen all {COMP[drawn]} of them")
        if drawn >= 0:          # the view's top card becomes the one the seat drew
            put_on_top(&d.h.hash, &Z_DECK[0][0], 11, d.deck, d.deck_top, drawn)
        self.apply_c(m)
        return m

    def _move_card(self, int m) -> int:
        """The type of the card that move ``m`` takes from the mover's hand."""
        if m < M_CAT:
            return DOG + m
        if m < M_WCL:
            return self.d.herd_col[m - M_CAT]
        if m < M_STAMP:
            return WCL
        if m == M_STAMP:
            return STAMP
        return m - M_DISC

    def _herd_str(self, int k):
        c = self.d.herd_col[k]
        return LETTERS[DOG + c] + LETTERS[c] * self.d.herd_cats[k] + "W" * self.d.herd_wcl[k]

    def cards(self) -> dict:
        d = &self.d
        out = {f"hand{p}": cards_str(d.hand[p], 11).strip("-") for p in range(d.h.players)}
        out["deck"] = "".join(LETTERS[d.deck[i]] for i in range(d.deck_top, d.deck_len))
        out["herds"] = "".join(self._herd_str(k) for k in range(d.nherds))
        out["discard"] = cards_str(d.discard, HC_TYPES).strip("-")
        out["out"] = cards_str(d.out, HC_TYPES).strip("-")
        return out

    def knowledge(self) -> dict:
        everyone = frozenset(range(self.d.h.players))
        out = {f"hand{p}": frozenset([p]) for p in range(self.d.h.players)}
        out.update(deck=frozenset(), herds=everyone, discard=everyone, out=everyone)
        return out

    def __str__(self):
        d = &self.d
        lines = [f"Herding Cats, {d.h.players} players, ply {d.h.ply}"
                 + (f", seat {d.h.current} to move" if d.h.current >= 0 else ", game over")
                 + (f" (seat {d.h.view_seat}'s view)" if d.h.view_seat >= 0 else "")]
        lines.append(f"  deck     {d.deck_len - d.deck_top} cards")
        herds = "  ".join(f"[{k}] {self._herd_str(k)}" for k in range(d.nherds))
        lines.append(f"  herds    {herds or '(none)'}")
        lines.append(f"  discard  {' '.join(cards_str(d.discard, HC_TYPES).strip('-')) or '(empty)'}")
        for p in range(d.h.players):
            mark = ">" if p == d.h.current else " "
            hand = " ".join(cards_str(d.hand[p], 11).strip("-")) or "(empty)"
            lines.append(f"{mark} seat {p}   {hand:<8} herds won: {d.won[p]}")
        return "\n".join(lines)

    def _read(self, TextFields f):
        cdef HCData* d = &self.d
        cdef int n = d.h.players
        cdef int counts[11]
        cdef int starts[64]
        cdef int ends[64]
        cdef unsigned char cards[64]
        cdef int won[4]
        cdef int p, k, m, i, c, ncat, nw, off, nwon, a
        memset(counts, 0, sizeof(counts))
        read_hands(f, "hands", n, d.h.view_seat, HC_HAND, _L.table, LETTERS, _L_OWN.table,
                   LETTERS_OWN, _A_CARD, counts, &d.hand[0][0], 11, d.hand_size)
        d.deck_len = HC_CARDS
        read_deck(f, "deck", _L.table, LETTERS, counts, d.h.view_seat, _A_CARD, d.deck, HC_CARDS,
                  HC_CARDS - n * HC_HAND, &d.deck_top)
        if not f.is_("herds", b"-"):
            m = f.split_c("herds", -1, c',', "herds", starts, ends, 64)
            a = f.vstart[f.key("herds")]
            for k in range(m):
                off = starts[k] - a
                part = f.text[starts[k]:ends[k]]
                if len(part) == 0 or part[0] not in "OPBG":
                    raise f.error(f["herds"], "a herd starts with its cowdog (O P B G)",
                                  off, len(part) or 1)
                c = "OPBG".index(part[0])
                rest = part[1:]
                ncat = rest.count("opbg"[c])
                nw = rest.count("W")
                if ncat + nw != len(rest) or rest != "opbg"[c] * ncat + "W" * nw:
                    raise f.error(f["herds"], f"a {COLOURS[c]} herd holds {COLOURS[c]} cats, then Wild "
                                  f"Cat Ladies", off, len(part))
                if ncat + nw > 2:
                    raise f.error(f["herds"], "a herd with 3 cards is complete and leaves the table",
                                  off, len(part))
                if d.nherds == HC_MAX_HERDS:
                    raise f.error(f["herds"], "more herds than cowdogs", off, len(part))
                i = d.nherds
                d.herd_col[i], d.herd_cats[i], d.herd_wcl[i] = c, ncat, nw
                d.nherds += 1
                counts[DOG + c] += 1
                counts[c] += ncat
                counts[WCL] += nw
        a = f.key("discard")
        k = f.cards_c("discard", f.vstart[a], f.vend[a], _L.table, LETTERS, counts, False, "",
                      cards, 64)
        for i in range(min(k, 64)):
            d.discard[cards[i]] += 1
        a = f.key("out")
        k = f.cards_c("out", f.vstart[a], f.vend[a], _L.table, LETTERS, counts, False, "",
                      cards, 64)
        for i in range(min(k, 64)):
            d.out[cards[i]] += 1
        f.ints_c("won", n, 0, 15, won)
        nwon = 0
        for p in range(n):
            d.won[p] = won[p]
            nwon += won[p]
        text = f.text
        check_counts(text, counts, COMP, 10, CARD_NAMES, SPEC.name, d.h.view_seat >= 0)
        for i in range(4):
            if d.out[i] > 3 * d.out[DOG + i]:
                raise f.error(f["out"], f"{d.out[i]} {CARD_NAMES[i]}s cannot be in "
                              f"{d.out[DOG + i]} collected {COLOURS[i]} herd(s) of 3 cards each")
        if d.out[STAMP]:
            raise f.error(f["out"], "a collected herd holds a cowdog and 3 cats or Wild Cat "
                          "Ladies, never a Stampede")
        c = 0
        k = 0
        for i in range(HC_TYPES):
            k += d.out[i]
            if DOG <= i < DOG + 4:
                c += d.out[i]
        if c != nwon or k != 4 * nwon:
            raise NotationError(f"out holds the cards of {nwon} collected herds: 4 each, one a "
                                f"cowdog", text)
        c = 1                   # every hand holds 3 / every hand is empty
        k = 1
        for p in range(n):
            c = c and d.hand_size[p] == HC_HAND
            k = k and d.hand_size[p] == 0
        if d.deck_top < d.deck_len and not c:
            raise NotationError("while the deck has cards every hand holds 3", text)
        read_turn(f, &d.h, d.hand_size, d.deck_top == d.deck_len and k, "deck and hands empty")
        if f.has("cannot"):
            self._read_cannot(f)

    def _read_cannot(self, TextFields f):
        """``cannot=1:OPBGS.OPBGSW|...,2:...``: per seat whose cards the moves constrain, its
        configurations (``|``), each the types every card held cannot be (``.`` between
        cards, ``-`` for none), as :meth:`_write_text` writes them."""
        cdef HCData* d = &self.d
        cdef unsigned short cand[HC_CFG * 3]
        cdef int p, n, c, i, count, last = -1
        text = f.value("cannot")
        off = 0
        for part in text.split(","):
            seat, colon, configs = part.partition(":")
            if not colon or not (seat.isascii() and seat.isdigit()) or len(seat) > 1:
                raise f.error(f["cannot"], "write each seat as <seat>:<configurations>, e.g. "
                              "1:OPBGS.OPBGSW", off, len(part) or 1)
            p = int(seat)
            if p >= d.h.players or p <= last:
                raise f.error(f["cannot"], f"seat {p}: seats are 0 to {d.h.players - 1}, each "
                              f"once, in order", off, len(seat))
            last = p
            n = d.hand_size[p]
            groups = configs.split("|")
            if len(groups) > HC_CFG:
                raise f.error(f["cannot"], f"seat {p}: at most {HC_CFG} configurations",
                              off, len(part))
            count = 0
            for g in groups:
                masks = g.split(".")
                if len(masks) != n:
                    raise f.error(f["cannot"], f"seat {p} holds {n} card(s): each "
                                  f"configuration gives {n} mask(s), {g!r} gives {len(masks)}",
                                  off, len(part))
                for i, m in enumerate(masks):
                    bits = 0
                    if m != "-":
                        for ch in m:
                            if ch not in LETTERS[:HC_TYPES] or (bits >> LETTERS.index(ch)) & 1:
                                raise f.error(f["cannot"], f"seat {p}: {m!r} is not a set of "
                                              f"card letters ({LETTERS[:HC_TYPES]}, each once; "
                                              f"- for none)", off, len(part))
                            bits |= 1 << LETTERS.index(ch)
                        if not m:
                            raise f.error(f["cannot"], f"seat {p}: an empty mask is written -",
                                          off, len(part))
                    cand[3 * count + i] = bits
                count += 1
            if n:
                keep_configs(d, p, cand, count, n)
            if (p == d.h.view_seat or d.h.view_seat < 0) and not hand_allowed(d, p, d):
                raise f.error(f["cannot"], f"seat {p}'s hand "
                              f"{cards_str(d.hand[p], 11).strip('-')!r} is not one its "
                              f"configurations allow", off, len(part))
            off += len(part) + 1

    def _write_text(self):
        return write_text(self, _put_field)


cdef int _put_field(State st, TextOut* o, int j) except -1:
    """The value of notation field ``j`` (``SPEC.notation[j]``)."""
    cdef HCData* d = &(<HerdingCats>st).d
    cdef int p, k, mark, c, i
    if j == 1:                                  # turn
        put_turn_or_dash(o, d.h.current)
    elif j == 2:                                # hands
        put_hands(o, &d.hand[0][0], 11, d.h.players, d.h.view_seat, _L.chars, _L_OWN.chars)
    elif j == 3:                                # deck
        put_run_or_dash(o, d.deck + d.deck_top, d.deck_len - d.deck_top, _L.chars)
    elif j == 4:                                # herds
        mark = o.n
        for k in range(d.nherds):
            if k:
                put_c(o, c',')
            c = d.herd_col[k]
            put_c(o, _L.chars[DOG + c])
            for p in range(d.herd_cats[k]):
                put_c(o, _L.chars[c])
            for p in range(d.herd_wcl[k]):
                put_c(o, c'W')
        dash_if_empty(o, mark)
    elif j == 5 or j == 6:                      # discard, out
        put_counted_or_dash(o, <unsigned char*>d.discard if j == 5 else <unsigned char*>d.out,
                            HC_TYPES, _L.chars)
    elif j == 7:                                # won
        put_ints(o, d.won, d.h.players)
    elif j == 8:                                # cannot: what the discards revealed
        mark = o.n
        for p in range(d.h.players):
            if not d.ncfg[p]:
                continue
            if o.n > mark:
                put_c(o, c',')
            put_int(o, p)
            put_c(o, c':')
            for k in range(d.ncfg[p]):
                if k:
                    put_c(o, c'|')
                for i in range(d.hand_size[p]):
                    if i:
                        put_c(o, c'.')
                    if d.cfg[p][k][i] == 0:
                        put_c(o, c'-')
                    for c in range(HC_TYPES):
                        if (d.cfg[p][k][i] >> c) & 1:
                            put_c(o, _L.chars[c])
        return o.n > mark
    else:
        raise ValueError(f"no notation field {j}")
    return 1


register(HerdingCats)
