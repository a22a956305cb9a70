# cython: language_level=3
"""Cat Cards (``cat-cards``): rules in ``docs/rules/cat-cards.rst``.

Card types ``0..18``, each written as one character:

* a cat with colours is written as the hexadecimal digit of its colour mask, orange 1, white
  2, black 4, blue 8: ``1 2 4 8`` are the one-colour cats, ``3 5 9 6 a c`` the two-colour cats
  (``3`` is orange/white) and ``7 b d e`` the three-colour cats; its type is that number;
* ``0`` Sphynx (no colour: type 0), ``S`` Siamese (15);
* toys ``P`` Scratching Post (16), ``M`` Toy Mouse (17), ``L`` Laser Pointer (18);
* ``?`` an unknown card, in a seat's view.

Moves (ints ``0..5652``), with their text:

==========  =============================================  ===================
int         move                                           text
==========  =============================================  ===================
0-2         step 1: put the revealed card on pile k        ``put0`` .. ``put2``
3-5         step 2: pick up pile k (k = m-3)               ``take0`` .. ``take2``
6           pass (final turns only)                        ``pass``
7-5652      form set s (s = m-7), a 5-card multiset        ``113SS``, ``000SS``
==========  =============================================  ===================

A set is written as its five cards in type order; ``str_to_move`` accepts any order.
"""
from libc.stdint cimport uint64_t
from libc.string cimport memset, memcpy
from libc.math cimport exp

from catsearch._core.rng cimport Rng, Pick, pick_start, pick_offer, rng_shuffle_u8, fill_tables
from catsearch._core.state cimport (State, Header, NO_SEAT, restart, scores_from, as_view, as_full,
                                    next_seat, heuristic_weights, fill_weights)
from catsearch._core.observing cimport put_turn
from catsearch._core.zobrist cimport count_up, count_down, count_key, set_turn, turn_key
from catsearch._core.cards cimport (shuffled_deck, shuffled_pool, chance_from_counts,
                                    redeal_run, card_in, card_out)

import operator
import re
from collections.abc import Mapping

from catsearch._core.game import GameSpec, notation_fields, register
from catsearch._core.notation import with_article
from catsearch._core.text cimport (TextFields, TextOut, CardLetters, card_letters, write_text,
                                   check_counts,
                                   put_c, put_s, put_int, put_turn_or_dash, put_counted,
                                   put_run, dash_if_empty)
from catsearch._core.options import Option, as_int, check_int, parse_int
from catsearch.errors import IllegalMoveError, InvalidMoveError, NotationError

LETTERS = "0123456789abcdeSPML?"
_COLOUR_NAMES = ("orange", "white", "black", "blue")


def card_name(t) -> str:
    """The name of card type ``t``, 0 to 19 (``"orange/white cat"``, ``"Sphynx"``, ...)."""
    t = check_int(t, "t", 0, 19)
    if t == 0:
        return "Sphynx"
    if t < 15:
        return "/".join(_COLOUR_NAMES[b] for b in range(4) if t >> b & 1) + " cat"
    return ("Siamese", "Scratching Post", "Toy Mouse", "Laser Pointer", "unknown card")[t - 15]


CARD_NAMES = tuple(card_name(t) for t in range(19))
VALUE_KEYS = ("one", "two", "three", "sphynx", "siamese")
DEFAULT_VALUES = (3, 2, 1, 4, 1)
MAX_VALUE = 99

cdef enum:
    SPHYNX = 0
    SIAMESE = 15
    POST = 16
    MOUSE = 17
    LASER = 18
    M_PUT = 0
    M_TAKE = 3
    M_PASS = 6
    M_SET = 7
    STEP_OVER = 0
    STEP_PLACE = 1
    STEP_ACT = 2
    STEP_FINAL = 3
    NRANK = 33649      # C(23, 5): 5-card multisets over 19 types
    MAJORITY = 15
    TOY_PENALTY = 2

# The deck: per type, how many copies.
cdef unsigned char COMP[19]
COMP[:] = [6, 7, 7, 5, 7, 5, 5, 4, 7, 5, 5, 4, 5, 4, 4, 10, 10, 10, 10]

# Colour mask for the shared-colour rule: bits 0-3 the four colours, bit 4 "colourless".
cdef int CM[19]
CM[0] = 0x10
for _t in range(1, 19):
    CM[_t] = _t if _t < 15 else 0

# The same colours packed 8 bits per colour bit, to count a hand's cats per colour at once.
cdef uint64_t COLPACK[19]
for _t in range(19):
    COLPACK[_t] = sum(1 << (8 * _b) for _b in range(5) if CM[_t] >> _b & 1)

# -- the set table ------------------------------------------------------------------------
# Every valid set as a sorted 5-tuple of card types, in lexicographic order (the move order).
cdef unsigned char SET_CARDS[CC_NSETS][5]
# colex rank of a sorted 5-multiset -> set index (or -1 when the multiset is not a valid set)
cdef short RANK_TO_SET[NRANK]
# RK[pos][t][c]: the rank contribution of c copies of type t placed from position pos on
cdef int RK[6][19][6]

cdef long binom(int n, int k) noexcept nogil:
    cdef long r = 1
    cdef int i
    if k < 0 or k > n:
        return 0
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r

cdef bint valid_set(const int* a) noexcept nogil:
    """The RULINGS' set rule for a sorted 5-tuple of card types."""
    cdef int i, t, cats = 0, siamese = 0, toy = -1, am = 0x1F
    for i in range(5):
        t = a[i]
        if t < SIAMESE:
            cats += 1
            am &= CM[t]
        elif t == SIAMESE:
            cats += 1
            siamese += 1
        else:
            if toy >= 0 and toy != t:
                return False
            toy = t
    return cats >= 2 and (siamese == 0 or siamese == 2) and am != 0

cdef int build_tables() noexcept nogil:
    cdef int a[5]
    cdef int cnt[19]
    cdef int n = 0, i, pos, t, c, rank, ok
    for pos in range(6):
        for t in range(19):
            for c in range(6):
                rank = 0
                for i in range(pos, pos + c):
                    if i < 5:
                        rank += binom(t + i, i + 1)
                RK[pos][t][c] = rank
    for i in range(NRANK):
        RANK_TO_SET[i] = -1
    for a[0] in range(19):
        for a[1] in range(a[0], 19):
            for a[2] in range(a[1], 19):
                for a[3] in range(a[2], 19):
                    for a[4] in range(a[3], 19):
                        memset(cnt, 0, sizeof(cnt))
                        ok = 1
                        for i in range(5):
                            cnt[a[i]] += 1
                            if cnt[a[i]] > COMP[a[i]]:
                                ok = 0
                        if not ok or not valid_set(a):
                            continue
                        rank = 0
                        for i in range(5):
                            rank += binom(a[i] + i, i + 1)
                            SET_CARDS[n][i] = a[i]
                        RANK_TO_SET[rank] = n
                        n += 1
    return n

if build_tables() != CC_NSETS:
    raise RuntimeError("cat-cards: the set table does not hold the expected number of sets")

SET_TEXT = tuple("".join(LETTERS[SET_CARDS[_s][_i]] for _i in range(5)) for _s in range(CC_NSETS))
_TEXT_TO_SET = {text: s for s, text in enumerate(SET_TEXT)}

# Zobrist keys, drawn once at import from fixed seeds.
cdef uint64_t Z_HAND[4][20][121]      # seat, type (or unknown), count before adding
cdef uint64_t Z_PRIV[4][20][121]
cdef uint64_t Z_DECK[120][20]         # position, type (or unknown)
cdef uint64_t Z_PILE[3][4][20]        # pile, slot, type
cdef uint64_t Z_REV[21]               # revealed card + 1 (0: none)
cdef uint64_t Z_TURN[5]               # seat to move; [4]: nobody
cdef uint64_t Z_STEP[4]
cdef uint64_t Z_FINALS[5]
# the `values` option: per card type and value; a type at its rulebook value adds nothing
# (its two keys cancel), so the games of the rulebook keep their hashes
cdef uint64_t Z_VAL[19][100]
cdef unsigned char DEFAULT_VAL[19]
cdef uint64_t* _TABLES[9]
cdef Py_ssize_t _BYTES[9]
_TABLES[:] = [&Z_HAND[0][0][0], &Z_PRIV[0][0][0], &Z_DECK[0][0], &Z_PILE[0][0][0], &Z_REV[0],
              &Z_TURN[0], &Z_STEP[0], &Z_FINALS[0], &Z_VAL[0][0]]
_BYTES[:] = [sizeof(Z_HAND), sizeof(Z_PRIV), sizeof(Z_DECK), sizeof(Z_PILE), sizeof(Z_REV),
             sizeof(Z_TURN), sizeof(Z_STEP), sizeof(Z_FINALS), sizeof(Z_VAL)]
fill_tables(_TABLES, _BYTES, 9, 0x4343_0001)


cdef inline uint64_t set_key(int p, int s, int occ) noexcept nogil:
    """The key of seat p's (occ+1)-th copy of set s (a splitmix64 finalizer, no table)."""
    cdef uint64_t z = (<uint64_t>((p * 8 + occ) * 8192 + s)) * <uint64_t>0x9E3779B97F4A7C15 \
        + <uint64_t>0x4343_0009
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


# -- small mutators that keep the hash in step -------------------------------------------

cdef inline void hand_inc(CCData* d, int p, int t) noexcept nogil:
    card_in(&d.h.hash, &Z_HAND[p][0][0], 121, d.hand[p], &d.hsize[p], t)

cdef inline void hand_dec(CCData* d, int p, int t) noexcept nogil:
    card_out(&d.h.hash, &Z_HAND[p][0][0], 121, d.hand[p], &d.hsize[p], t, t)

cdef inline void priv_inc(CCData* d, int p, int t) noexcept nogil:
    count_up(&d.h.hash, Z_PRIV[p][t], &d.priv[p][t])

cdef inline void priv_dec(CCData* d, int p, int t) noexcept nogil:
    count_down(&d.h.hash, Z_PRIV[p][t], &d.priv[p][t])

cdef inline uint64_t pile_key(CCData* d, int k) noexcept nogil:
    cdef uint64_t z = 0
    cdef int i
    for i in range(d.pile_n[k]):
        z ^= Z_PILE[k][i][d.pile[k][i]]
    return z

cdef inline void pile_insert(CCData* d, int k, int t) noexcept nogil:
    """Add card t to pile k, keeping the pile sorted."""
    cdef int i
    d.h.hash ^= pile_key(d, k)
    i = d.pile_n[k]
    while i > 0 and d.pile[k][i - 1] > t:
        d.pile[k][i] = d.pile[k][i - 1]
        i -= 1
    d.pile[k][i] = t
    d.pile_n[k] += 1
    d.h.hash ^= pile_key(d, k)

cdef inline int draw(CCData* d) noexcept nogil:
    """Take the top card of the deck (which must not be empty)."""
    cdef int t = d.deck[d.deck_top]
    d.h.hash ^= Z_DECK[d.deck_top][t]
    d.deck_top += 1
    return t

cdef inline void set_revealed(CCData* d, int t) noexcept nogil:
    d.h.hash ^= Z_REV[d.revealed + 1]
    d.revealed = t
    d.h.hash ^= Z_REV[t + 1]

cdef inline void set_step(CCData* d, int step, int finals) noexcept nogil:
    d.h.hash ^= Z_STEP[d.step] ^ Z_FINALS[d.finals]
    d.step = step
    d.finals = finals
    d.h.hash ^= Z_STEP[step] ^ Z_FINALS[finals]

cdef void start_turn(CCData* d, int p) noexcept nogil:
    """Seat p's turn begins: the deck-exhaustion end, else step 1 (reveal) or step 2."""
    cdef int k
    set_turn(&d.h, Z_TURN, p)
    if d.deck_top == CC_CARDS and d.pile_n[0] == 0 and d.pile_n[1] == 0 and d.pile_n[2] == 0:
        set_step(d, STEP_FINAL, d.h.players)        # this turn and one of each other seat
        return
    if d.deck_top < CC_CARDS:
        for k in range(CC_PILES):
            if d.pile_n[k] < CC_PILE_MAX:
                set_revealed(d, draw(d))
                set_step(d, STEP_PLACE, 0)
                return
    # step 1 is skipped: the deck is empty or every pile is full. Some pile holds a card
    # (else the deck-exhaustion end above), so step 2 always offers a pick-up.
    set_step(d, STEP_ACT, 0)

cdef void end_final_turn(CCData* d, int p) noexcept nogil:
    if d.finals <= 1:
        set_turn(&d.h, Z_TURN, NO_SEAT)
        set_step(d, STEP_OVER, 0)
        d.h.terminal = 1
    else:
        set_step(d, STEP_FINAL, d.finals - 1)
        set_turn(&d.h, Z_TURN, next_seat(p, d.h.players))

cdef void take_pile(CCData* d, int p, int k) noexcept nogil:
    """Pick up pile k (its cards join p's hand, publicly); refill it from the deck."""
    cdef int i, t
    d.h.hash ^= pile_key(d, k)
    for i in range(d.pile_n[k]):
        t = d.pile[k][i]
        hand_inc(d, p, t)
        if t == CC_UNK:             # only in a view played on: a card nobody here has seen
            priv_inc(d, p, t)
    d.pile_n[k] = 0
    if d.deck_top < CC_CARDS:
        pile_insert(d, k, draw(d))

cdef void form_set(CCData* d, int p, int s) noexcept nogil:
    """Seat p lays down set s: known public cards first, then private ones."""
    cdef int i, t, j, occ = 0
    for i in range(5):
        t = SET_CARDS[s][i]
        if d.hand[p][t] > d.priv[p][t]:
            hand_dec(d, p, t)
        elif d.priv[p][t] > 0:
            hand_dec(d, p, t)
            priv_dec(d, p, t)
        else:                       # a view: one of the cards it holds as unknown
            hand_dec(d, p, CC_UNK)
            priv_dec(d, p, CC_UNK)
        d.setcards[p][t] += 1
        d.points[p] += d.val[t]
    j = d.nsets[p]
    while j > 0 and d.sets[p][j - 1] >= s:
        if d.sets[p][j - 1] == s:
            occ += 1
        d.sets[p][j] = d.sets[p][j - 1]
        j -= 1
    d.sets[p][j] = s
    d.nsets[p] += 1
    d.h.hash ^= set_key(p, s, occ)

cdef int unseen_counts(CCData* d, int seat, int* cnt) noexcept nogil:
    """cnt[t] = the cards of type t that `seat` has not seen; return their total.

    seat < 0: the cards nobody has seen in this (view) state, i.e. every unknown card.
    """
    cdef int t, p, i, k, total = 0
    for t in range(CC_TYPES):
        cnt[t] = COMP[t]
    for p in range(d.h.players):
        for t in range(CC_TYPES):
            cnt[t] -= d.setcards[p][t]
            if seat < 0 or p == seat:
                cnt[t] -= d.hand[p][t]
            else:
                cnt[t] -= d.hand[p][t] - d.priv[p][t]
    for k in range(CC_PILES):
        for i in range(d.pile_n[k]):
            if d.pile[k][i] != CC_UNK:
                cnt[d.pile[k][i]] -= 1
    if d.revealed >= 0 and d.revealed != CC_UNK:
        cnt[d.revealed] -= 1
    if seat < 0:
        for i in range(d.deck_top, CC_CARDS):
            if d.deck[i] != CC_UNK:
                cnt[d.deck[i]] -= 1
    for t in range(CC_TYPES):
        if cnt[t] < 0:          # cannot happen in a consistent state; stay safe
            cnt[t] = 0
        total += cnt[t]
    return total


# -- set generation from card-type counts -------------------------------------------------

ctypedef struct SetGen:
    const unsigned char* have   # cards of each type the mover is known to hold
    const unsigned char* avail  # how many of each a set may use (unknown cards included)
    int unk                     # unknown cards the mover holds (0 in a full state)
    int types[15]               # the cat types (not Siamese) that a set may use, increasing
    int nt
    int suf[16]                 # suf[j]: cards of types[j:] a set could still take (<= 5 each)
    int tail                    # most cards Siamese and one toy type could add after the cats
    int* out
    int n

cdef inline void emit(SetGen* g, int rank) noexcept nogil:
    cdef int s = RANK_TO_SET[rank]
    if s >= 0:
        g.out[g.n] = M_SET + s
        g.n += 1

cdef inline int short_of(SetGen* g, int t, int c) noexcept nogil:
    return c - g.have[t] if c > g.have[t] else 0

cdef void gen_toys(SetGen* g, int r, int rank, int pos, int deficit) noexcept nogil:
    """Fill the last r (1..3) cards with copies of one toy type."""
    cdef int t
    for t in range(POST, LASER + 1):
        if g.avail[t] >= r and deficit + short_of(g, t, r) <= g.unk:
            emit(g, rank + RK[pos][t][r])

cdef void gen_finish(SetGen* g, int r, int rank, int pos, int deficit) noexcept nogil:
    """After `pos` non-Siamese cats sharing a colour: 2 Siamese or none, then toys."""
    cdef int dd
    if r >= 2 and g.avail[SIAMESE] >= 2:
        dd = deficit + short_of(g, SIAMESE, 2)
        if dd <= g.unk:
            if r == 2:
                emit(g, rank + RK[pos][SIAMESE][2])
            else:
                gen_toys(g, r - 2, rank + RK[pos][SIAMESE][2], pos + 2, dd)
    if pos >= 2:
        gen_toys(g, r, rank, pos, deficit)

cdef void gen_cats(SetGen* g, int j, int r, int am, int rank, int pos, int deficit) noexcept nogil:
    """Choose the non-Siamese cats in increasing type order, each type's count from high to
    low: sets come out in increasing move order without any sorting. A branch is cut as
    soon as the cards left could not fill the set (suf, tail)."""
    cdef int jj, t, c, nm, dd
    for jj in range(j, g.nt):
        if g.suf[jj] + g.tail < r:
            break
        t = g.types[jj]
        nm = am & CM[t]
        if nm == 0:
            continue
        c = g.avail[t] if g.avail[t] < r else r
        while c >= 1:
            if c < r and g.suf[jj + 1] + g.tail < r - c:
                break                   # fewer copies of t leave even more to fill
            dd = deficit + short_of(g, t, c)
            if dd <= g.unk:
                if c == r:
                    emit(g, rank + RK[pos][t][c])
                else:
                    gen_cats(g, jj + 1, r - c, nm, rank + RK[pos][t][c], pos + c, dd)
            c -= 1
    if g.tail >= r:
        gen_finish(g, r, rank, pos, deficit)

cdef int gen_sets(CCData* d, int p, int* out) noexcept nogil:
    """Write every distinct set seat p can form (move ints, increasing); return how many."""
    cdef SetGen g
    cdef int t, j, c, u = d.hand[p][CC_UNK], sia, toy, ok
    cdef int cnt[19]
    cdef uint64_t packed
    cdef unsigned char avail[19]
    cdef const unsigned char* h = d.hand[p]
    if d.hsize[p] < 5:
        return 0
    g.unk = u
    g.out = out
    g.n = 0
    g.nt = 0
    g.have = h
    if u == 0:
        g.avail = h
        # which colours X could carry a set: cats with X, a Siamese pair and one toy type
        # must make 5 with at least 2 cats; a cat type with no such colour is never used
        packed = 0
        for t in range(SIAMESE):
            packed += h[t] * COLPACK[t]
        sia = 2 if h[SIAMESE] >= 2 else 0
        toy = h[POST]
        if h[MOUSE] > toy:
            toy = h[MOUSE]
        if h[LASER] > toy:
            toy = h[LASER]
        if toy > 3:
            toy = 3
        ok = 0
        for j in range(5):
            c = (packed >> (8 * j)) & 0xFF
            if c > 5:
                c = 5
            if (c >= 2 and c + toy >= 5) or (sia and c + toy >= 3):
                ok |= 1 << j
        if ok == 0:
            return 0
        for t in range(SIAMESE):
            if h[t] and CM[t] & ok:
                g.types[g.nt] = t
                g.nt += 1
    else:
        # a view whose mover holds unknown cards: every set those cards could complete
        unseen_counts(d, NO_SEAT, cnt)
        for t in range(CC_TYPES):
            avail[t] = h[t] + (cnt[t] if cnt[t] < u else u)
        g.avail = avail
        for t in range(SIAMESE):
            if avail[t]:
                g.types[g.nt] = t
                g.nt += 1
    g.suf[g.nt] = 0
    j = g.nt - 1
    while j >= 0:
        c = g.avail[g.types[j]]
        g.suf[j] = g.suf[j + 1] + (c if c < 5 else 5)
        j -= 1
    c = 0
    for t in range(POST, LASER + 1):
        if g.avail[t] > c:
            c = g.avail[t]
    g.tail = (2 if g.avail[SIAMESE] >= 2 else 0) + (c if c < 3 else 3)
    gen_cats(&g, 0, 5, 0x1F, 0, 0, 0)
    return g.n


# -- scoring and evaluation ---------------------------------------------------------------

cdef double unknown_penalty(CCData* d) noexcept nogil:
    """The expected hand penalty of one unknown card (a view): the unseen cards' average."""
    cdef int cnt[19]
    cdef int t, n
    cdef double s = 0.0
    n = unseen_counts(d, NO_SEAT, cnt)
    if n == 0:
        return 0.0
    for t in range(CC_TYPES):
        s += cnt[t] * (TOY_PENALTY if t >= POST else d.val[t])
    return s / n

cdef int hand_penalty(CCData* d, int p) noexcept nogil:
    """The cats' values plus 2 per toy, over the known cards of p's hand."""
    cdef int t, s = 0
    for t in range(POST):
        s += d.hand[p][t] * d.val[t]
    return s + TOY_PENALTY * (d.hand[p][POST] + d.hand[p][MOUSE] + d.hand[p][LASER])

cdef void toy_bonus(CCData* d, int* bonus) noexcept nogil:
    """+15 per toy type to the sole player with the most of it among their sets."""
    cdef int p, t, best, k, who
    for p in range(d.h.players):
        bonus[p] = 0
    for t in range(POST, LASER + 1):
        best = 0
        k = 0
        who = -1
        for p in range(d.h.players):
            if d.setcards[p][t] > best:
                best = d.setcards[p][t]
                k = 1
                who = p
            elif d.setcards[p][t] == best:
                k += 1
        if best > 0 and k == 1:
            bonus[who] += MAJORITY

cdef void final_scores(CCData* d, double* out) noexcept nogil:
    cdef int bonus[4]
    cdef int p
    cdef double unk = 0.0
    toy_bonus(d, bonus)
    for p in range(d.h.players):
        if d.hand[p][CC_UNK]:
            unk = unknown_penalty(d)
            break
    for p in range(d.h.players):
        out[p] = d.points[p] + bonus[p] - hand_penalty(d, p) - unk * d.hand[p][CC_UNK]

# The heuristic's weights (see card_worth and heuristic_move_c); a player sets them as
# weights.NAME=value, in this order in HW
cdef enum:
    HW_WANT, HW_TOY_PAIR, HW_SIAMESE_PAIR, HW_SIAMESE_FIRST, HW_SHARE_CAP, HW_N
cdef double HW[HW_N]


cdef double card_worth(CCData* d, const double* w, int p, int t) noexcept nogil:
    """How much a beginner at seat p wants card t: a cat's value plus one per cat held that
    shares a colour with it (at most ``share_cap``); a Siamese more when it makes a pair
    (``siamese_pair``) or is the first (``siamese_first``); a toy of a kind already held
    ``toy_pair`` (the weights ``w``)."""
    cdef int u, share = 0
    if t == CC_UNK:         # only in a view played on (a search's)
        return 2.0
    if t >= POST:
        return w[HW_TOY_PAIR] if d.hand[p][t] else 0.0
    if t == SIAMESE:
        return d.val[t] + (w[HW_SIAMESE_PAIR] if d.hand[p][SIAMESE] == 1 else
                           (w[HW_SIAMESE_FIRST] if d.hand[p][SIAMESE] == 0 else 0.0))
    for u in range(SIAMESE):
        if CM[u] & CM[t]:
            share += d.hand[p][u]
    return d.val[t] + (share if share < w[HW_SHARE_CAP] else w[HW_SHARE_CAP])

cdef double pile_worth(CCData* d, const double* w, int p, int k) noexcept nogil:
    cdef int i
    cdef double s = 0.0
    for i in range(d.pile_n[k]):
        s += card_worth(d, w, p, d.pile[k][i])
    return s


# The evaluation's constants, fitted to the outcomes of 600 games of mixed heuristic and
# random play, 2-4 players (``python benchmarks/fit_cat_cards_evaluation.py --games 200``);
# how well each game's evaluation predicts results: ``docs/evaluation.rst``.
cdef double EV_HAND_TOY = 2.53     # a toy in hand counts this many set toys for majorities, at start
cdef double EV_SOFT0 = 3.13       # majority softness (in toys) at the start ...
cdef double EV_SOFT1 = 0.05       # ... and at the end
cdef double EV_HAND_CAT = 1.28     # a cat in hand is worth this times its value at the start
cdef double EV_TEMP0 = 11.41      # win-chance temperature (points per factor e) at the start
cdef double EV_TEMP1 = 9.02       # ... and at the end


cdef double expected_scores(CCData* d, double* est) noexcept nogil:
    """Each seat's expected final score in ``est``; return the game's progress in [0, 1]
    (the larger of the share of the deck dealt and the most sets any seat has over 5; 1
    in final turns).

    The estimate: the points of its sets; per toy type, 15 times a soft chance of being
    the sole leader, from its lead in that toy over the best other seat (toys in hand count
    ``EV_HAND_TOY * (1 - progress)`` each, the softness shrinks from ``EV_SOFT0`` to
    ``EV_SOFT1``); each cat in hand ``EV_HAND_CAT * (1 - progress) - progress`` times its
    value, each toy in hand ``-2 * progress``. An unknown card in hand counts as the
    average card nobody has seen."""
    cdef double eff[4][3]
    cdef double prog, x, lead, other, soft, unk_val = 0.0
    cdef double unk_toy[3]
    cdef int cnt[19]
    cdef int p, q, t, k, n = d.h.players, unseen = 0
    prog = d.deck_top / <double>CC_CARDS
    for p in range(n):
        x = d.nsets[p] / <double>CC_MAX_SETS
        if x > prog:
            prog = x
    if d.step == STEP_FINAL or prog > 1.0:
        prog = 1.0
    unk_toy[0] = unk_toy[1] = unk_toy[2] = 0.0
    for p in range(n):
        if d.hand[p][CC_UNK]:
            unseen = unseen_counts(d, NO_SEAT, cnt)
            break
    if unseen > 0:
        for t in range(POST):
            unk_val += cnt[t] * d.val[t]
        unk_val /= unseen
        for k in range(3):
            unk_toy[k] = cnt[POST + k] / <double>unseen
    for p in range(n):
        x = 0.0
        for t in range(POST):
            x += d.hand[p][t] * d.val[t]
        x += d.hand[p][CC_UNK] * unk_val
        est[p] = d.points[p] + x * (EV_HAND_CAT * (1.0 - prog) - prog)
        for k in range(3):
            x = d.hand[p][POST + k] + d.hand[p][CC_UNK] * unk_toy[k]
            est[p] -= TOY_PENALTY * prog * x
            eff[p][k] = d.setcards[p][POST + k] + EV_HAND_TOY * (1.0 - prog) * x
    soft = EV_SOFT0 * (1.0 - prog) + EV_SOFT1 * prog
    for p in range(n):
        for k in range(3):
            other = -1.0
            for q in range(n):
                if q != p and eff[q][k] > other:
                    other = eff[q][k]
            lead = (eff[p][k] - other - 0.5) / soft
            if lead > 30.0:
                est[p] += MAJORITY
            elif lead > -30.0:
                est[p] += MAJORITY / (1.0 + exp(-lead))
    return prog


def _values_option(v):
    """The ``values`` option as a 5-tuple (one-, two-, three-colour, Sphynx, Siamese), from
    a sequence of 5 whole numbers, a text ``"3,2,1,4,1"`` or a mapping with some of the keys
    ``one two three sphynx siamese`` (the others keep the rulebook's values).

    :raises TypeError: not a sequence, text or mapping, or a value that is not a whole number.
    :raises ValueError: not 5 numbers, a number out of 0..99, or an unknown key.
    """
    how = (f"give 5 whole numbers from 0 to {MAX_VALUE} (one-colour, two-colour, "
           f"three-colour, Sphynx, Siamese) as a sequence, a text like '3,2,1,4,1', or a "
           f"mapping with keys {', '.join(VALUE_KEYS)}")
    if isinstance(v, str):
        try:
            v = [parse_int(x, "values") for x in v.split(",")]
        except ValueError:
            raise ValueError(f"{how}; got {v!r}") from None
    if isinstance(v, Mapping):
        bad = [k for k in v if k not in VALUE_KEYS]
        if bad:
            raise ValueError(f"{how}; unknown key(s) {', '.join(map(repr, bad))}")
        v = [v.get(k, DEFAULT_VALUES[i]) for i, k in enumerate(VALUE_KEYS)]
    try:
        v = list(v)
    except TypeError:
        raise TypeError(f"{how}; got {type(v).__name__} {v!r}") from None
    if len(v) != 5:
        raise ValueError(f"{how}; got {len(v)} numbers")
    out = []
    for x in v:
        if isinstance(x, bool) or not hasattr(x, "__index__"):
            raise TypeError(f"{how}; {x!r} is not a whole number")
        i = operator.index(x)
        if not 0 <= i <= MAX_VALUE:
            raise ValueError(f"{how}; {x!r} is out of range")
        out.append(i)
    return tuple(out)


# -- the observations in plain words (GameSpec.gloss) ------------------------------------

def gloss(text: str, seat: int | None = None) -> str | None:
    """A Cat Cards observation in plain words (see ``GameSpec.gloss``)."""
    def name(c: str) -> str:
        i = LETTERS.find(c) if c in LETTERS else LETTERS.find(c.lower())
        return c if i < 0 or i >= len(CARD_NAMES) else with_article(CARD_NAMES[i])

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


def max_game_length(int players) -> int:
    """Every put takes a deck card and every pick-up a pile's cards for good, a set takes 5
    cards; then one final turn each (GameSpec.max_game_length)."""
    cards = sum(len(c.replace(",", "").replace("/", ""))
                for c in CatCards.new(players, seed=0).cards().values())
    return 2 * cards + cards // 5 + players


def moves_left(st) -> int:
    """The seat to move's decisions to come (GameSpec.moves_left), estimated: two a turn (a
    put and a pick-up or set), for as many turns as the deck lasts (about 2.3 cards a turn)
    or as the leader needs for its fifth set (3 turns a set), whichever is fewer; one in a
    final turn."""
    f = notation_fields(st)
    if int(f["finals"]):
        return 1
    n = st.players
    deck = 0 if f["deck"] == "-" else len(f["deck"])
    sets = max(0 if s == "-" else len(s.split(",")) for s in f["sets"].split("/"))
    turns = min(-(-deck * 10 // (23 * n)), 3 * (5 - sets))
    return max(1, 2 * max(1, turns) - (1 if f["step"] == "2" else 0))


SPEC = GameSpec(
    id="cat-cards", name="Cat Cards", size=sizeof(CCData), moves=CC_MOVES,
    notation=("players", "turn", "step", "finals", "revealed", "piles", "hands", "deck",
              "sets", "values?", "rng", "view?"),
    options=(Option("values", tuple, DEFAULT_VALUES, convert=_values_option,
                    doc=f"the cats' point values: 5 whole numbers from 0 to {MAX_VALUE} "
                        f"(one-colour, two-colour, three-colour, Sphynx, Siamese)"),),
    heuristic_weights=(      # tuned (SPSA, heuristic against heuristic): docs/search.rst
        Option("want", float, 0.0,
               doc="step 1: a card worth this much or more goes on the pile wanted most "
                   "(the others on the pile wanted least)"),
        Option("toy_pair", float, 5.4, doc="what a toy of a kind held is worth"),
        Option("siamese_pair", float, 3.5, doc="a Siamese that makes a pair: its value plus"),
        Option("siamese_first", float, 2.5, doc="a first Siamese: its value plus"),
        Option("share_cap", float, 4.4,
               doc="a cat: its value plus one per cat held sharing a colour, at most this"),
    ),
    max_game_length=max_game_length, search_defaults=(("exploration", 0.92), ("prior", 0.37)),
    gloss=gloss, render="cat-cards", moves_left=moves_left,
    # strength levels, measured here (docs/play.rst): the common ladder's first steps are
    # none in this game, its middle ones up to +215 Elo
    ladder=((4, 1.0), (25, 0.7), (60, 0.5), (130, 0.33), (250, 0.25), (400, 0.18),
            (700, 0.12), (1500, 0.05), (3000, 0.0), (8000, 0.0)),
    hidden_moves=False)    # every move is seen as it was made
fill_weights(HW, HW_N, SPEC)


cdef inline int _hand_tensor(const unsigned char* h, float* out, int o) noexcept nogil:
    """A hand's cards (counted by type, unknown last) for a tensor: each type out of its
    copies, the unknown ones out of 3 (at most 1); return the next offset."""
    cdef int t
    for t in range(CC_TYPES):
        out[o + t] = h[t] / <float>COMP[t]
    out[o + CC_TYPES] = (h[CC_UNK] if h[CC_UNK] < CC_SETUP_HAND else CC_SETUP_HAND) \
        / <float>CC_SETUP_HAND
    return o + CC_TYPES + 1


cdef class CatCards(State):
    """A state of Cat Cards (see the module docstring for cards, moves and notation)."""

    spec = SPEC

    # -- the hot contract ---------------------------------------------------------------
    cdef int legal_moves_c(self, int* out) noexcept nogil:
        cdef CCData* d = &self.d
        cdef int k, n = 0
        if d.step == STEP_PLACE:
            for k in range(CC_PILES):
                if d.pile_n[k] < CC_PILE_MAX:
                    out[n] = M_PUT + k
                    n += 1
            return n
        if d.step == STEP_ACT:
            for k in range(CC_PILES):
                if d.pile_n[k] > 0:
                    out[n] = M_TAKE + k
                    n += 1
        elif d.step == STEP_FINAL:
            out[0] = M_PASS
            n = 1
        else:
            return 0
        return n + gen_sets(d, d.h.current, out + n)

    cdef void apply_c(self, int m) noexcept nogil:
        cdef CCData* d = &self.d
        cdef int p = d.h.current
        d.h.ply += 1
        if m < M_TAKE:
            pile_insert(d, m, d.revealed)
            set_revealed(d, -1)
            set_step(d, STEP_ACT, 0)
        elif m < M_PASS:
            take_pile(d, p, m - M_TAKE)
            start_turn(d, next_seat(p, d.h.players))
        elif m == M_PASS:
            end_final_turn(d, p)
        else:
            form_set(d, p, m - M_SET)
            if d.step == STEP_FINAL:
                end_final_turn(d, p)
            elif d.nsets[p] >= CC_MAX_SETS:
                # the fifth set: each other seat gets one final turn, in seat order
                set_step(d, STEP_FINAL, d.h.players - 1)
                set_turn(&d.h, Z_TURN, next_seat(p, d.h.players))
            else:
                start_turn(d, next_seat(p, d.h.players))

    cdef uint64_t compute_hash_c(self) noexcept nogil:
        cdef CCData* d = &self.d
        cdef uint64_t z = turn_key(Z_TURN, d.h.current)
        cdef int p, t, k, i, occ
        for p in range(d.h.players):
            for t in range(20):
                z ^= count_key(Z_HAND[p][t], d.hand[p][t]) ^ count_key(Z_PRIV[p][t], d.priv[p][t])
            occ = 0
            for i in range(d.nsets[p]):
                occ = occ + 1 if i > 0 and d.sets[p][i] == d.sets[p][i - 1] else 0
                z ^= set_key(p, d.sets[p][i], occ)
        for i in range(d.deck_top, CC_CARDS):
            z ^= Z_DECK[i][d.deck[i]]
        for k in range(CC_PILES):
            z ^= pile_key(d, k)
        z ^= Z_REV[d.revealed + 1]
        z ^= Z_STEP[d.step] ^ Z_FINALS[d.finals]
        for t in range(CC_TYPES):
            z ^= Z_VAL[t][d.val[t]] ^ Z_VAL[t][DEFAULT_VAL[t]]
        return z

    cdef void scores_c(self, double* out) noexcept nogil:
        """The points of each seat's sets; once the game is over, the final scores (toy
        majorities and hand penalties included). In a view, an unknown card in hand counts
        the average penalty of the unseen cards."""
        if self.d.h.terminal:
            final_scores(&self.d, out)
        else:
            scores_from(out, self.d.points, self.d.h.players)

    cdef void reset_c(self, uint64_t seed) noexcept nogil:
        cdef CCData* d = &self.d
        cdef unsigned char val[19]
        cdef int t, i, p, k
        memcpy(val, d.val, sizeof(val))
        restart(self, seed)
        memcpy(d.val, val, sizeof(val))
        d.h.current = NO_SEAT
        d.revealed = -1
        shuffled_deck(d.deck, COMP, CC_TYPES, &d.h.rng)
        d.h.hash = self.compute_hash_c()
        for k in range(CC_PILES):
            pile_insert(d, k, draw(d))
        for p in range(d.h.players):
            for i in range(CC_SETUP_HAND):
                t = draw(d)
                hand_inc(d, p, t)
                priv_inc(d, p, t)
        start_turn(d, 0)

    cdef void hide_c(self, int seat) noexcept nogil:
        cdef CCData* d = &self.d
        cdef int p, t, c, i
        for p in range(d.h.players):
            if p != seat and not d.h.show_hands:      # a view that shows every hand keeps them
                for t in range(CC_TYPES):
                    c = d.priv[p][t]
                    d.hand[p][t] -= c
                    d.hand[p][CC_UNK] += c
                    d.priv[p][CC_UNK] += c
                    d.priv[p][t] = 0
        memset(d.deck + d.deck_top, CC_UNK, CC_CARDS - d.deck_top)
        as_view(&d.h, seat)
        d.h.hash = self.compute_hash_c()

    cdef void determinize_c(self, int seat, Rng* rng) noexcept nogil:
        cdef CCData* d = &self.d
        cdef int cnt[19]
        cdef unsigned char pool[120]
        cdef int n, i = 0, p, j, t, k, m, keep
        # everything `seat` has not seen, dealt at random into the places it cannot see (a
        # view that shows every hand: what nobody there has seen, every hand kept as its own)
        unseen_counts(d, NO_SEAT if d.h.show_hands else seat, cnt)
        n = shuffled_pool(cnt, CC_TYPES, pool, rng)
        for p in range(d.h.players):
            # the cards dealt to p: its unseen private cards, of which at most the 3 setup
            # cards stay private; in a view played on, the unknown cards a seat picked up from
            # the table (the seat's own, and another's beyond 3) are public cards
            if p == seat or d.h.show_hands:
                m = d.priv[p][CC_UNK]
                keep = 0
                d.hand[p][CC_UNK] = 0
                d.priv[p][CC_UNK] = 0
            else:
                m = 0
                for t in range(20):
                    m += d.priv[p][t]
                    d.hand[p][t] -= d.priv[p][t]
                    d.priv[p][t] = 0
                keep = m if m < CC_SETUP_HAND else CC_SETUP_HAND
            while m > 0 and i < n:
                d.hand[p][pool[i]] += 1
                if keep > 0:
                    d.priv[p][pool[i]] += 1
                    keep -= 1
                i += 1
                m -= 1
        if d.revealed == CC_UNK and i < n:
            d.revealed = pool[i]
            i += 1
        for k in range(CC_PILES):
            for j in range(d.pile_n[k]):
                if d.pile[k][j] == CC_UNK and i < n:
                    d.pile[k][j] = pool[i]
                    i += 1
            # keep the pile sorted
            for j in range(1, d.pile_n[k]):
                t = d.pile[k][j]
                m = j
                while m > 0 and d.pile[k][m - 1] > t:
                    d.pile[k][m] = d.pile[k][m - 1]
                    m -= 1
                d.pile[k][m] = t
        redeal_run(d.deck + d.deck_top, CC_CARDS - d.deck_top, pool, i, n)
        as_full(&d.h, rng)
        d.h.hash = self.compute_hash_c()

    cdef int heuristic_move_c(self, Rng* rng, int* buf, int n) noexcept nogil:
        """A beginner's play. Step 1: a card it wants (worth ``want`` or more, see card_worth;
        with the tuned ``want`` of 0, every card) goes on the pile it would most like to pick
        up, any other card on the pile it wants least.
        Step 2 and final turns: form the set worth most (cats' values plus 2 per toy it
        gets rid of); else pick up the pile worth most to it (a final turn passes). The
        numbers are the weights HW (the spec's ``heuristic_weights``)."""
        cdef CCData* d = &self.d
        cdef const double* w = heuristic_weights(&d.h, HW)
        cdef int p = d.h.current
        cdef int i, m, s, j
        cdef double score
        cdef int want = 0
        cdef Pick pick
        if n == 0:
            n = self.legal_moves_c(buf)
        pick_start(&pick, buf[0])
        if d.step == STEP_PLACE:
            want = card_worth(d, w, p, d.revealed) >= w[HW_WANT]
        for i in range(n):
            m = buf[i]
            if m < M_TAKE:
                score = pile_worth(d, w, p, m)
                if not want:
                    score = -score
            elif m < M_PASS:
                score = pile_worth(d, w, p, m - M_TAKE)
            elif m == M_PASS:
                score = -1
            else:
                s = m - M_SET
                score = 1000
                for j in range(5):
                    score += d.val[SET_CARDS[s][j]] if SET_CARDS[s][j] < POST else TOY_PENALTY
            pick_offer(&pick, rng, m, score, 0.5)
        return pick.choice

    cdef void evaluate_c(self, double* out) noexcept nogil:
        """Win chances from an estimate of each seat's final score (see ``expected_scores``
        and ``docs/rules/cat-cards.rst``, Evaluation): a softmax over seats whose
        temperature (points per factor e) goes from ``EV_TEMP0`` at the start to
        ``EV_TEMP1`` at the end."""
        cdef CCData* d = &self.d
        cdef double est[4]
        cdef double prog, total = 0.0, best, temp
        cdef int p, n = d.h.players
        if d.h.terminal:
            self.returns_c(out)
            return
        prog = expected_scores(d, est)
        temp = EV_TEMP0 * (1.0 - prog) + EV_TEMP1 * prog
        best = est[0]
        for p in range(1, n):
            if est[p] > best:
                best = est[p]
        for p in range(n):
            est[p] = exp((est[p] - best) / temp)
            total += est[p]
        for p in range(n):
            out[p] = est[p] / total

    cdef void tensor_c(self, int kind, float* out) noexcept nogil:
        """The seat's view, laid out as ``_tensor_layout`` says (see the rules page,
        "Tensors"): seats relative to the view's seat, counts scaled by their maximum; a
        count of unknown cards by 3 (the setup cards), at most 1 (more only in a view a
        search played on)."""
        cdef CCData* d = &self.d
        cdef int n = d.h.players, seat = d.h.view_seat
        cdef int i, j, t, k, p, s, o = 0, best = 0
        cdef int cnt[CC_TYPES]
        if seat < 0:
            seat = 0
        # turn: the seat to move, relative (none once the game is over)
        o = put_turn(out, o, &d.h)
        # step: over, place (step 1), act (step 2), final turn
        out[o + d.step] = 1.0
        o += 4
        # finals: final turns left, this one included, out of the player count
        out[o] = d.finals / <float>n
        o += 1
        # revealed: the card revealed for step 1 (type or unknown), none: all 0
        if d.revealed >= 0:
            out[o + d.revealed] = 1.0
        o += CC_TYPES + 1
        # piles: per pile its cards by type (and unknown), out of 4
        for k in range(CC_PILES):
            for i in range(d.pile_n[k]):
                out[o + d.pile[k][i]] += 0.25
            o += CC_TYPES + 1
        # deck: the cards left in the deck, out of those after the setup
        out[o] = (CC_CARDS - d.deck_top) / <float>(CC_CARDS - CC_PILES - CC_SETUP_HAND * n)
        o += 1
        # hand: the seat's own cards by type, out of the copies, and unknown
        o = _hand_tensor(d.hand[seat], out, o)
        # hand_sizes: cards held per seat, relative, out of the 120 cards
        for i in range(n):
            out[o + i] = d.hsize[(seat + i) % n] / <float>CC_CARDS
        o += n
        # sets: per seat, relative, 5 slots (its sets in move order): the set's cards by
        # type, out of 5
        for i in range(n):
            p = (seat + i) % n
            for j in range(d.nsets[p]):
                memset(cnt, 0, sizeof(cnt))
                s = d.sets[p][j]
                for k in range(5):
                    cnt[SET_CARDS[s][k]] += 1
                for t in range(CC_TYPES):
                    out[o + CC_TYPES * j + t] = cnt[t] / <float>5.0
            o += CC_TYPES * CC_MAX_SETS
        # points: the value of each seat's sets, relative, out of 25 cats at the top value
        for t in range(CC_TYPES):
            if d.val[t] > best:
                best = d.val[t]
        for i in range(n):
            if best > 0:
                out[o + i] = d.points[(seat + i) % n] / <float>(25 * best)
        o += n
        if kind == 0:
            return
        # others: each other seat's cards as this view knows them (picked up: by type;
        # setup cards: unknown)
        for i in range(1, n):
            o = _hand_tensor(d.hand[(seat + i) % n], out, o)
        # private: per seat, relative, which of its cards are setup cards still held (its
        # own by type; another's unknown)
        for i in range(n):
            o = _hand_tensor(d.priv[(seat + i) % n], out, o)
        # unseen: the cards of each type the seat has not seen, out of the copies
        unseen_counts(d, seat, cnt)
        for t in range(CC_TYPES):
            out[o + t] = cnt[t] / <float>COMP[t]
        o += CC_TYPES
        # values: the cats' values (one-, two-, three-colour, Sphynx, Siamese), out of 99
        out[o] = d.val[1] / <float>99.0
        out[o + 1] = d.val[3] / <float>99.0
        out[o + 2] = d.val[7] / <float>99.0
        out[o + 3] = d.val[SPHYNX] / <float>99.0
        out[o + 4] = d.val[SIAMESE] / <float>99.0

    def _tensor_layout(self, int kind) -> list:
        """The tensor parts (see the rules page, "Tensors")."""
        n = self.d.h.players
        w = CC_TYPES + 1
        parts = [("turn", n), ("step", 4), ("finals", 1), ("revealed", w), ("piles", CC_PILES * w),
                 ("deck", 1), ("hand", w), ("hand_sizes", n), ("sets", n * CC_MAX_SETS * CC_TYPES),
                 ("points", n)]
        if kind == 1:
            parts += [("others", (n - 1) * w), ("private", n * w), ("unseen", CC_TYPES),
                      ("values", 5)]
        return parts

    cdef int chance_outcomes_c(self, int* outcomes, double* weights) noexcept nogil:
        cdef int cnt[19]
        if self.d.h.terminal or not needs_chance(&self.d):
            return 0
        unseen_counts(&self.d, NO_SEAT, cnt)
        return chance_from_counts(cnt, CC_TYPES, outcomes, weights)

    cdef void apply_chance_c(self, int t) noexcept nogil:
        cdef CCData* d = &self.d
        cdef int p = d.h.current
        cdef int k, i
        if d.revealed == CC_UNK:
            set_revealed(d, t)
            return
        for k in range(CC_PILES):
            for i in range(d.pile_n[k]):
                if d.pile[k][i] == CC_UNK:
                    d.h.hash ^= pile_key(d, k)
                    d.pile_n[k] -= 1        # UNK sorts last: drop it, insert t
                    d.h.hash ^= pile_key(d, k)
                    pile_insert(d, k, t)
                    return
        hand_dec(d, p, CC_UNK)
        priv_dec(d, p, CC_UNK)
        hand_inc(d, p, t)
        priv_inc(d, p, t)

    def _set_options(self, dict options):
        """``values``: the cats' point values, one-colour, two-colour, three-colour, Sphynx,
        Siamese (see ``_values_option`` for the forms it takes)."""
        _set_values(&self.d, options["values"])

    # -- Python API: text ---------------------------------------------------------------
    def _move_to_str(self, int m) -> str:
        if m < M_TAKE:
            return f"put{m}"
        if m < M_PASS:
            return f"take{m - M_TAKE}"
        if m == M_PASS:
            return "pass"
        return SET_TEXT[m - M_SET]

    def _str_to_move(self, str s) -> int:
        forms = ("write put0-put2 (step 1: where the revealed card goes), take0-take2 (pick "
                 "up a pile), pass (final turns), or a set as its 5 cards (e.g. 113SS)")
        if len(s) == 4 and s[:3] == "put" and s[3] in "012":
            return M_PUT + int(s[3])
        if len(s) == 5 and s[:4] == "take" and s[4] in "012":
            return M_TAKE + int(s[4])
        if s == "pass":
            return M_PASS
        if len(s) == 5 and all(ch in LETTERS[:19] or ch in "ABCDE" for ch in s):
            cards = sorted(LETTERS.index(ch.lower() if ch in "ABCDE" else ch) for ch in s)
            text = "".join(LETTERS[t] for t in cards)
            if text in _TEXT_TO_SET:
                return M_SET + _TEXT_TO_SET[text]
            raise InvalidMoveError(f"{s!r} is not a cat-cards move: not a valid set "
                                   f"({set_problem(text)}); {forms}")
        raise InvalidMoveError(f"{s!r} is not a cat-cards move: {forms}")

    # -- a live game: observations (see "Observations" in docs/rules/cat-cards.rst) ------
    def _observation(self, int seat, int move) -> str:
        """What ``seat`` sees of ``move``: after setup everything is public, so every seat
        sees the same: the move's text, then the cards the deck shows by itself afterwards,
        ``,refill=<card>`` (the pile just picked up gets a new card) and ``,reveal=<card>``
        (the next turn's step 1)."""
        cdef CatCards after = <CatCards>self.clone_c()
        after.apply_c(move)
        text = self._move_to_str(move)
        if M_TAKE <= move < M_PASS and self.d.deck_top < CC_CARDS:
            text += ",refill=" + LETTERS[after.d.pile[move - M_TAKE][0]]
        if after.d.revealed >= 0:
            text += ",reveal=" + LETTERS[after.d.revealed]
        return text

    def _play_observation(self, str text) -> int:
        """Apply an observation (see :meth:`_observation`) to this view (a scratch copy)."""
        cdef CCData* d = &self.d
        cdef int cnt[19]
        cdef int k, i, t, m
        cdef bint refills
        forms = ("an observation is a move (put0-put2, take0-take2, pass or a set such as "
                 "113SS) followed by the cards the deck shows after it, ',refill=<card>' then "
                 "',reveal=<card>', e.g. 'take1,refill=3,reveal=S'")
        short = text if len(text) <= 40 else text[:40] + "..."
        if not text or not text.isprintable() or any(ch.isspace() for ch in text):
            raise ValueError(f"{short!r} is not one token; {forms}")
        if d.revealed == CC_UNK or any(d.pile[k][i] == CC_UNK for k in range(CC_PILES)
                                       for i in range(d.pile_n[k])):
            raise ValueError("this view holds table cards it has not seen (it was played on "
                             "without observations: apply_chance first); observations follow "
                             "a view from view(seat)")
        parts = text.split(",")
        try:
            m = self._str_to_move(parts[0])
        except InvalidMoveError:
            raise ValueError(f"{parts[0][:40]!r} is not a cat-cards move; {forms}") from None
        seen = {}
        for part in parts[1:]:
            key, eq, card = part.partition("=")
            if key not in ("refill", "reveal") or not eq:
                raise ValueError(f"{part[:40]!r} is not a part of an observation; {forms}")
            if key in seen or (key == "refill" and "reveal" in seen):
                raise ValueError(f"{part[:40]!r}: each of refill and reveal comes at most once, "
                                 f"refill first; {forms}")
            if len(card) != 1 or card not in LETTERS[:CC_TYPES]:
                raise ValueError(f"{part[:40]!r}: {card[:40]!r} is not a card (one of "
                                 f"0-9 a-e S P M L); {forms}")
            seen[key] = LETTERS.index(card)
        legal = self.legal_moves()
        if m not in legal:
            some = " ".join(self._move_to_str(x) for x in legal[:12])
            raise ValueError(f"{self._move_to_str(m)!r} is not legal for seat {d.h.current} "
                             f"here; legal: {some}{' ...' if len(legal) > 12 else ''}")
        refills = M_TAKE <= m < M_PASS and d.deck_top < CC_CARDS
        self.apply_c(m)
        if refills != ("refill" in seen):
            if refills:
                raise ValueError(f"picking up pile {m - M_TAKE} refills it from the deck: the "
                                 f"observation must say with what (',refill=<card>')")
            raise ValueError("no pile is refilled here (only a pick-up refills its pile, and "
                             "only from a deck that is not empty)")
        if refills:
            k = m - M_TAKE
            t = seen["refill"]
            if unseen_counts(d, NO_SEAT, cnt) == 0 or cnt[t] == 0:
                raise ValueError(f"the refill {LETTERS[t]} ({CARD_NAMES[t]}) cannot come from "
                                 f"the deck: every copy of it is accounted for")
            # the view drew an unknown card onto pile k (the only card there): make it t
            d.h.hash ^= pile_key(d, k)
            d.pile_n[k] = 0
            d.h.hash ^= pile_key(d, k)
            pile_insert(d, k, t)
        if (d.revealed == CC_UNK) != ("reveal" in seen):
            if d.revealed == CC_UNK:
                raise ValueError(f"seat {d.h.current}'s turn starts by revealing the top card "
                                 f"of the deck: the observation must say which "
                                 f"(',reveal=<card>')")
            raise ValueError(f"no card is revealed after this move (the deck is empty, every "
                             f"pile is full or the game is in its final turns)")
        if d.revealed == CC_UNK:
            t = seen["reveal"]
            if unseen_counts(d, NO_SEAT, cnt) == 0 or cnt[t] == 0:
                raise ValueError(f"the revealed card {LETTERS[t]} ({CARD_NAMES[t]}) cannot come "
                                 f"from the deck: every copy of it is accounted for")
            set_revealed(d, t)
        return m

    def _hand_parts(self, int p):
        """(public, private) cards of seat p as text, ``?`` for unknown ones."""
        d = &self.d
        pub = "".join(LETTERS[t] * (d.hand[p][t] - d.priv[p][t]) for t in range(CC_TYPES))
        priv = "".join(LETTERS[t] * d.priv[p][t] for t in range(20))
        return pub, priv

    def _pile_str(self, int k):
        return "".join(LETTERS[self.d.pile[k][i]] for i in range(self.d.pile_n[k]))

    def _sets_of(self, int p):
        return [SET_TEXT[self.d.sets[p][i]] for i in range(self.d.nsets[p])]

    @property
    def values(self) -> tuple:
        """The cats' point values: one-colour, two-colour, three-colour, Sphynx, Siamese."""
        return (self.d.val[1], self.d.val[3], self.d.val[7], self.d.val[SPHYNX], self.d.val[SIAMESE])

    def score_breakdown(self) -> list:
        """Per seat: ``{"sets", "toy_bonus", "hand_penalty", "total"}`` as final scoring
        would give them now (the hand penalty of the known cards only)."""
        cdef int bonus[4]
        toy_bonus(&self.d, bonus)
        out = []
        for p in range(self.d.h.players):
            pen = hand_penalty(&self.d, p)
            out.append({"sets": self.d.points[p], "toy_bonus": bonus[p], "hand_penalty": pen,
                        "total": self.d.points[p] + bonus[p] - pen})
        return out

    def cards(self) -> dict:
        d = &self.d
        out = {}
        for p in range(d.h.players):
            pub, priv = self._hand_parts(p)
            out[f"hand{p}.public"] = pub
            out[f"hand{p}.private"] = priv
            out[f"sets{p}"] = "".join(self._sets_of(p))
        out["deck"] = "".join(LETTERS[d.deck[i]] for i in range(d.deck_top, CC_CARDS))
        for k in range(CC_PILES):
            out[f"pile{k}"] = self._pile_str(k)
        out["revealed"] = "" if d.revealed < 0 else LETTERS[d.revealed]
        return out

    def knowledge(self) -> dict:
        everyone = frozenset(range(self.d.h.players))
        out = {}
        for p in range(self.d.h.players):
            out[f"hand{p}.public"] = everyone
            out[f"hand{p}.private"] = frozenset([p])
            out[f"sets{p}"] = everyone
        out["deck"] = frozenset()
        for k in range(CC_PILES):
            out[f"pile{k}"] = everyone
        out["revealed"] = everyone
        return out

    def __str__(self):
        d = &self.d
        n = d.h.players
        what = {STEP_PLACE: "step 1: put the revealed card on a pile",
                STEP_ACT: "step 2: pick up a pile or form a set",
                STEP_FINAL: f"final turn, {d.finals} to go: form a set or pass"}
        head = f"Cat Cards, {n} players, ply {d.h.ply}"
        if d.h.terminal:
            head += ", game over"
        else:
            head += f", seat {d.h.current} to move ({what[d.step]})"
        if d.h.view_seat >= 0:
            head += f" (seat {d.h.view_seat}'s view)"
        lines = [head, f"  deck      {CC_CARDS - d.deck_top} cards"]
        if d.revealed >= 0:
            lines.append(f"  revealed  {LETTERS[d.revealed]}  ({CARD_NAMES[d.revealed] if d.revealed < 19 else 'unknown'})")
        piles = "   ".join(f"[{k}] {' '.join(self._pile_str(k)) or '(empty)'}" for k in range(CC_PILES))
        lines.append(f"  piles     {piles}")
        cdef int bonus[4]
        toy_bonus(d, bonus)
        for p in range(n):
            mark = ">" if p == d.h.current else " "
            pub, priv = self._hand_parts(p)
            hand = " ".join(pub) or "-"
            if priv:
                hand += " | private " + " ".join(priv)
            sets = " ".join(self._sets_of(p)) or "-"
            lines.append(f"{mark} seat {p}  hand ({d.hsize[p]}) {hand}")
            line = f"          sets {sets}  points {d.points[p]}"
            if d.h.terminal:
                sc = self.scores()[p]
                line += (f"  toy bonus {bonus[p]}  hand penalty {hand_penalty(d, p)}"
                         f"  final score {sc}")
            lines.append(line)
        lines.append("  (cards: hex digit = cat colours, 1 orange 2 white 4 black 8 blue, e.g. 3 = "
                     "orange/white; 0 Sphynx, S Siamese, P post, M mouse, L laser)")
        return "\n".join(lines)

    def _read(self, TextFields f):
        cdef CCData* d = &self.d
        cdef int n = d.h.players
        cdef int buf[CC_MOVES + 1]
        cdef int counts[20]
        cdef int scnt[20]
        cdef int vals[5]
        cdef int starts[8]
        cdef int ends[8]
        cdef int sst[8]
        cdef int sen[8]
        cdef unsigned char cards[128]
        cdef unsigned char pcards[128]
        cdef int p, k, i, j, t, a, s0, e0, colon, ncolon, npub, npriv, ns, rank, pos, sid, x
        cdef int view = d.h.view_seat
        cdef str desc = "0-9 a-e S P M L"
        text = f.text
        d.revealed = -1
        if f.has("values"):
            f.ints_c("values", 5, 0, MAX_VALUE, vals)
            _set_values(d, (vals[0], vals[1], vals[2], vals[3], vals[4]))
        else:
            _set_values(d, DEFAULT_VALUES)
        memset(counts, 0, sizeof(counts))
        # hands: public:private per seat
        f.split_c("hands", n, c'/', "hands", starts, ends, 8)
        a = f.vstart[f.key("hands")]
        for p in range(n):
            s0 = starts[p]
            e0 = ends[p]
            ncolon = 0
            colon = e0
            for i in range(s0, e0):
                if f.at(i) == c':':
                    if ncolon == 0:
                        colon = i
                    ncolon += 1
            if ncolon != 1:
                raise f.error(f["hands"], "a hand is public:private (- for none), e.g. 35P:-",
                              s0 - a, (e0 - s0) or 1)
            npub = f.cards_c("hands", s0, colon, _L.table, LETTERS, counts, False, desc, pcards, 128)
            npriv = f.cards_c("hands", colon + 1, e0, _L.table, LETTERS, counts, True, desc, cards,
                              128)
            if view < 0 and npriv > CC_SETUP_HAND:
                raise f.error(f["hands"], f"seat {p} holds {npriv} private cards; at most the 3 "
                              f"of the setup", colon + 1 - a, e0 - colon - 1)
            if npub + npriv > CC_CARDS:
                raise f.error(f["hands"], "too many cards", s0 - a, e0 - s0)
            for i in range(npub):
                d.hand[p][pcards[i]] += 1
            for i in range(npriv):
                d.hand[p][cards[i]] += 1
                d.priv[p][cards[i]] += 1
            d.hsize[p] = npub + npriv
        # piles
        f.split_c("piles", CC_PILES, c',', "piles", starts, ends, 8)
        a = f.vstart[f.key("piles")]
        for k in range(CC_PILES):
            x = f.cards_c("piles", starts[k], ends[k], _L.table, LETTERS, counts, True, desc, cards,
                          128)
            if x > CC_PILE_MAX:
                raise f.error(f["piles"], f"pile {k} holds {x} cards; a pile holds at most 4",
                              starts[k] - a, ends[k] - starts[k])
            for i in range(x):              # sorted by card type
                t = cards[i]
                j = i
                while j > 0 and d.pile[k][j - 1] > t:
                    d.pile[k][j] = d.pile[k][j - 1]
                    j -= 1
                d.pile[k][j] = t
            d.pile_n[k] = x
        # the deck, top first
        a = f.key("deck")
        x = f.cards_c("deck", f.vstart[a], f.vend[a], _L.table, LETTERS, counts, True, desc, cards,
                      128)
        if x > CC_CARDS:
            raise f.error(f["deck"], f"{x} cards is more than the game has")
        d.deck_top = CC_CARDS - x
        for i in range(x):
            d.deck[d.deck_top + i] = cards[i]
        # the revealed card
        if not f.is_("revealed", b"-"):
            a = f.key("revealed")
            if f.vend[a] - f.vstart[a] != 1:
                raise f.error(f["revealed"], "expected one card or -")
            f.cards_c("revealed", f.vstart[a], f.vend[a], _L.table, LETTERS, counts, True, desc,
                      cards, 128)
            d.revealed = cards[0]
        # sets
        f.split_c("sets", n, c'/', "seats' sets", starts, ends, 8)
        a = f.vstart[f.key("sets")]
        for p in range(n):
            s0 = starts[p]
            e0 = ends[p]
            if e0 - s0 == 1 and f.at(s0) == c'-':
                continue
            ns = 0
            j = s0
            for i in range(s0, e0 + 1):
                if i == e0 or f.at(i) == c',':
                    if ns < 8:
                        sst[ns] = j
                        sen[ns] = i
                    ns += 1
                    j = i + 1
            if ns > CC_MAX_SETS:
                raise f.error(f["sets"], f"seat {p} has {ns} sets; the fifth ends the game",
                              s0 - a, e0 - s0)
            for j in range(ns):
                memset(scnt, 0, sizeof(scnt))
                x = f.cards_c("sets", sst[j], sen[j], _L.table, LETTERS, scnt, False, desc, cards,
                              128)
                sid = -1
                if x == 5:
                    rank = 0
                    pos = 0
                    for t in range(CC_TYPES):
                        if scnt[t]:
                            rank += RK[pos][t][scnt[t]]
                            pos += scnt[t]
                    sid = RANK_TO_SET[rank]
                if sid < 0:
                    stext = f.text[sst[j]:sen[j]]
                    ts = [] if stext == "-" else [LETTERS.find(ch) for ch in stext]
                    raise f.error(f["sets"], f"{stext!r} is not a valid set: {set_problem(ts)}",
                                  sst[j] - a, len(stext) or 1)
                for t in range(CC_TYPES):
                    counts[t] += scnt[t]
                    d.setcards[p][t] += scnt[t]
                    d.points[p] += scnt[t] * d.val[t]
                i = j                       # a seat's sets are kept in move order (sorted)
                while i > 0 and d.sets[p][i - 1] > sid:
                    d.sets[p][i] = d.sets[p][i - 1]
                    i -= 1
                d.sets[p][i] = sid
            d.nsets[p] = ns
        # whose turn, which step
        if f.is_("step", b"1"):
            d.step = STEP_PLACE
        elif f.is_("step", b"2"):
            d.step = STEP_ACT
        elif f.is_("step", b"final"):
            d.step = STEP_FINAL
        elif f.is_("step", b"-"):
            d.step = STEP_OVER
        else:
            raise f.error(f["step"], "expected 1, 2, final or -")
        if d.step == STEP_OVER:
            if not f.is_("turn", b"-"):
                raise f.error(f["turn"], "the game is over (step=-): turn must be -")
            d.h.current = NO_SEAT
            d.h.terminal = 1
        else:
            d.h.current = f.int_c("turn", 0, n - 1)
        if d.step == STEP_FINAL:
            d.finals = f.int_c("finals", 1, n)
        else:
            d.finals = f.int_c("finals", 0, 0)
        if d.step == STEP_PLACE:
            if d.revealed < 0:
                raise f.error(f["revealed"], "step 1 places the revealed card: it cannot be -")
            x = 1
            for k in range(CC_PILES):
                x = x and d.pile_n[k] >= CC_PILE_MAX
            if x:
                raise f.error(f["piles"], "step 1 needs a pile with fewer than 4 cards")
        elif d.revealed >= 0:
            raise f.error(f["revealed"], "a card is revealed only in step 1: expected -")
        check_counts(text, counts, COMP, CC_TYPES, CARD_NAMES, SPEC.name, view >= 0)
        self._check_view_fields(f)
        self._check_flow(f)
        if not d.h.terminal and self.legal_moves_c(buf) == 0:
            raise f.error(f["step"], f"seat {d.h.current} would have no move here (step 2 with "
                          f"no pile to pick up and no set)")

    def _check_view_fields(self, TextFields f):
        """A view holds exactly what its seat can know (see "State notation" in the rules).

        The deck and the other seats' setup cards (their private parts) are ``?``; every other
        card is known, except in a view that was played on (as a search does): its draws from
        the unknown deck are ``?`` on the table (revealed card, piles), and a seat that picked
        such a card up holds it as ``?``: the seat's own ``?`` cards and more than 3 of
        another seat's are possible only while a ``?`` is on the table or the deck is empty.
        """
        cdef CCData* d = &self.d
        cdef int v = d.h.view_seat, n = d.h.players, p, t, k, i, npriv
        cdef bint table_unk = d.revealed == CC_UNK
        if v < 0:
            return
        for i in range(d.deck_top, CC_CARDS):
            if d.deck[i] != CC_UNK:
                raise f.error(f["deck"], f"seat {v} cannot see the deck: write each of its "
                              f"cards as ?", i - d.deck_top, 1)
        for k in range(CC_PILES):
            for i in range(d.pile_n[k]):
                table_unk = table_unk or d.pile[k][i] == CC_UNK
        for p in range(n):
            npriv = 0
            for t in range(20):
                npriv += d.priv[p][t]
            if p != v:
                for t in range(CC_TYPES):
                    if d.priv[p][t]:
                        raise f.error(f["hands"], f"seat {p}'s private cards (its setup cards) "
                                      f"are hidden from seat {v}: write them as ?")
            if (d.priv[p][CC_UNK] if p == v else npriv - CC_SETUP_HAND) > 0 and not (
                    table_unk or d.deck_top == CC_CARDS):
                raise f.error(f["hands"], f"seat {p} holds {npriv} private cards, "
                              f"{d.priv[p][CC_UNK]} of them unknown to seat {v}: only the 3 "
                              f"setup cards are private, the seat's own are known to it (more "
                              f"only in a view played on, with a ? on the table or an empty "
                              f"deck)")
            if p == v and npriv - d.priv[p][CC_UNK] > CC_SETUP_HAND:
                raise f.error(f["hands"], f"seat {p} holds {npriv - d.priv[p][CC_UNK]} private "
                              f"cards; at most the 3 of the setup")

    def _check_flow(self, TextFields f):
        """The turn, step, finals, piles, deck and sets must be a position that play reaches
        (see "State notation" in the rules)."""
        cdef CCData* d = &self.d
        cdef int n = d.h.players, c = d.h.current, p, k, t, i, npriv, five = -1
        cdef int deck = CC_CARDS - d.deck_top
        cdef bint piles_empty = d.pile_n[0] == 0 and d.pile_n[1] == 0 and d.pile_n[2] == 0
        cdef bint exhausted = deck == 0 and piles_empty
        for p in range(n):
            if d.nsets[p] >= CC_MAX_SETS:
                five = p
        if d.step == STEP_PLACE or d.step == STEP_ACT:
            if five >= 0:
                raise f.error(f["sets"], f"seat {five} has 5 sets: the game is in its final "
                              f"turns or over")
            if piles_empty:
                raise f.error(f["piles"], "every pile is empty: a turn that starts with the deck "
                              "and the piles empty is a final turn")
        elif d.step == STEP_FINAL:
            for i in range(d.finals):
                p = (c + i) % n
                if d.nsets[p] >= CC_MAX_SETS:
                    raise f.error(f["sets"], f"seat {p} has 5 sets and so has no final turn "
                                  f"(seats {c} on have {d.finals} final turns to play)")
            if d.finals == n and not exhausted:
                raise f.error(f["finals"], f"{n} final turns start only when a turn starts "
                              f"with the deck and the piles empty")
            if d.finals < n and not exhausted and d.nsets[(c + d.finals) % n] < CC_MAX_SETS:
                raise f.error(f["finals"], f"{d.finals} final turns left from seat {c}: seat "
                              f"{(c + d.finals) % n} formed its fifth set (it has "
                              f"{d.nsets[(c + d.finals) % n]}), or the deck and the piles are "
                              f"empty")

    def _write_text(self):
        return write_text(self, _put_field)


register(CatCards)


cdef CardLetters _L                # letters: reader .table, writer .chars
card_letters(&_L, LETTERS)


cdef int _put_field(State st, TextOut* o, int j) except -1:
    """The value of notation field ``j`` (``SPEC.notation[j]``)."""
    cdef CCData* d = &(<CatCards>st).d
    cdef int p, k, t, c, mark, n = d.h.players
    if j == 1:                                  # turn
        put_turn_or_dash(o, d.h.current)
    elif j == 2:                                # step
        put_s(o, (b"-", b"1", b"2", b"final")[d.step])
    elif j == 3:
        put_int(o, d.finals)
    elif j == 4:                                # revealed
        if d.revealed < 0:
            put_c(o, c'-')
        else:
            put_c(o, _L.chars[d.revealed])
    elif j == 5:                                # piles
        for k in range(CC_PILES):
            if k:
                put_c(o, c',')
            mark = o.n
            put_run(o, d.pile[k], d.pile_n[k], _L.chars)
            dash_if_empty(o, mark)
    elif j == 6:                                # hands: public:private
        for p in range(n):
            if p:
                put_c(o, c'/')
            mark = o.n
            for t in range(CC_TYPES):
                for c in range(d.hand[p][t] - d.priv[p][t]):
                    put_c(o, _L.chars[t])
            dash_if_empty(o, mark)
            put_c(o, c':')
            mark = o.n
            put_counted(o, d.priv[p], 20, _L.chars)
            dash_if_empty(o, mark)
    elif j == 7:                                # deck, top first
        mark = o.n
        put_run(o, d.deck + d.deck_top, CC_CARDS - d.deck_top, _L.chars)
        dash_if_empty(o, mark)
    elif j == 8:                                # sets
        for p in range(n):
            if p:
                put_c(o, c'/')
            mark = o.n
            for k in range(d.nsets[p]):
                if k:
                    put_c(o, c',')
                put_run(o, SET_CARDS[d.sets[p][k]], 5, _L.chars)
            dash_if_empty(o, mark)
    elif j == 9:                                # values
        for k, v in enumerate((d.val[1], d.val[3], d.val[7], d.val[SPHYNX], d.val[SIAMESE])):
            if k:
                put_c(o, c',')
            put_int(o, v)
    else:
        raise ValueError(f"no notation field {j}")
    return 1


cdef bint needs_chance(CCData* d) noexcept nogil:
    """A view in which the next decision needs a card the view holds as unknown: the
    revealed card, a pile card (both only after playing on in a view), or the mover's hand."""
    cdef int k, i
    if d.revealed == CC_UNK or d.hand[d.h.current][CC_UNK] > 0:
        return True
    for k in range(CC_PILES):
        for i in range(d.pile_n[k]):
            if d.pile[k][i] == CC_UNK:
                return True
    return False


cdef void _set_values(CCData* d, vals):
    cdef int t, bits
    for t in range(CC_TYPES):
        if t == SPHYNX:
            d.val[t] = vals[3]
        elif t < SIAMESE:
            bits = (t & 1) + (t >> 1 & 1) + (t >> 2 & 1) + (t >> 3 & 1)
            d.val[t] = vals[bits - 1]
        elif t == SIAMESE:
            d.val[t] = vals[4]
        else:
            d.val[t] = 0


cdef CCData _rulebook
_set_values(&_rulebook, DEFAULT_VALUES)
for _t in range(CC_TYPES):
    DEFAULT_VAL[_t] = _rulebook.val[_t]


def set_problem(cards) -> str | None:
    """Why ``cards`` (card letters, or card types) is not a valid set, or ``None`` if it is.

    The rule (RULINGS): exactly 5 cards; at least 2 cats; toys of one type only; no Siamese or
    exactly 2; one colour X (white, black, orange, blue or colourless) that every cat other
    than a Siamese has (a Sphynx has only colourless; a Siamese takes X).
    """
    types = []
    for c in cards:
        if isinstance(c, str):
            if len(c) != 1 or c not in LETTERS:
                return "unknown cards"
            types.append(LETTERS.index(c))
        else:
            types.append(as_int(c, "card"))
    if any(not 0 <= t < 19 for t in types):
        return "unknown cards"
    if len(types) != 5:
        return f"a set has exactly 5 cards, not {len(types)}"
    cats = [t for t in types if t <= SIAMESE]
    if len(cats) < 2:
        return "a set needs at least 2 cats"
    if len({t for t in types if t > SIAMESE}) > 1:
        return "a set holds toys of one type only"
    siamese = types.count(SIAMESE)
    if siamese not in (0, 2):
        return f"a set holds no Siamese or exactly 2, not {siamese}"
    colours = {"colourless"} | set(_COLOUR_NAMES)
    for t in cats:
        if t == SPHYNX:
            colours &= {"colourless"}
        elif t < SIAMESE:
            colours &= {_COLOUR_NAMES[b] for b in range(4) if t >> b & 1}
    if not colours:
        return "its cats share no colour (a Sphynx goes only with Sphynxes and Siamese)"
    for t in range(19):
        if types.count(t) > COMP[t]:
            return f"the deck has only {COMP[t]} {CARD_NAMES[t]} cards"
    return None


def _raw_legal_moves(CatCards st) -> list:
    """The legal moves exactly as ``legal_moves_c`` writes them (for tests of their order)."""
    cdef int buf[CC_MOVES + 1]
    cdef int n = st.legal_moves_c(buf)
    return [buf[i] for i in range(n)]
