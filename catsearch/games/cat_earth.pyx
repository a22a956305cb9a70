# cython: language_level=3
"""Cat Earth (``cat-earth``): rules in ``docs/rules/cat-earth.rst``.

The board has 49 squares, ``a1 = 0, b1 = 1, ..., g1 = 6, a2 = 7, ..., g7 = 48``; d4 (24) is
the paw square. Cards are types ``0..11``, written as one character each in the notation:

====  ======  ======  ====  ======  ======
char  card    copies  char  card    copies
====  ======  ======  ====  ======  ======
1     F       4       7     FFL     2
2     FF      6       8     FRL     2
3     FFF     4       9     FLR     2
4     FR      3       T     TP      4 (Teleport)
5     FL      3       N     CN      4 (Cat Nip)
6     FFR     2       S     HS      4 (House Swap)
====  ======  ======  ====  ======  ======

``?`` is an unknown card in a seat's view; ``*`` (views a search played on only) a card
the view's seat would know but nobody in the view does (``CARD_OWN``).

Moves (ints ``0..1630``), with their text:

===========  ===============================================  ================
int          move                                             text
===========  ===============================================  ================
0-48         place a house on square s                        ``H:c5``
49-97        place a tree on square s                         ``T:a7``
98-241       path card c on cat k, first direction d          ``FFR:d4N``
242-437      Teleport cat k to square s                       ``TP:d4-a7``
438-441      Cat Nip cat k                                    ``CN:c5``
442-1617     House Swap squares a < b                         ``HS:c5-e3``
1618-1629    discard a card of type t                         ``x:FR``
1630         end the card plays of this turn                  ``end``
===========  ===============================================  ================

Cat ``k`` is the k-th cat in square order (a1 first); in text it is named by its square.
"""
import re

from libc.math cimport pow
from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memset, memcpy

from catsearch._core.rng cimport (Rng, Pick, pick_start, pick_offer, rng_below, rng_shuffle_u8,
                                  fill_tables)
from catsearch._core.state cimport (State, Header, NO_SEAT, restart, scores_from, normalize,
                                    as_full, share_returns, next_seat, heuristic_weights,
                                    fill_weights)
from catsearch._core.observing cimport put_turn
from catsearch._core.zobrist cimport count_up, count_down, count_key, set_value, set_turn, turn_key
from catsearch._core.cards cimport (shuffled_deck, shuffled_pool, chance_from_counts,
                                    redeal_hand, redeal_hands, redeal_run, card_in, card_out,
                                    hide_cards)

from catsearch._core.game import GameSpec, notation_fields, register
from catsearch._core.notation import words_for
from catsearch._core.text cimport (TextFields, TextOut, CardLetters, card_letters, write_text,
                                   card_table, check_counts,
                                   put_c, put_s, put_int, put_turn_or_dash, put_counted,
                                   put_run, dash_if_empty)
from catsearch._core.options import Option
from catsearch.errors import IllegalMoveError, InvalidMoveError, NotationError

CARD_CHARS = "123456789TNS?"
# In a view, ``*`` is a card the view's seat would have seen but that nobody in the view
# knows: one it drew (its hand, its draws since the reshuffle), or one that went face up
# (the discard pile, the reshuffled pile), in a view a search played moves on. ``?`` (a card
# the seat cannot know) never appears there; ``*`` never in a view a seat holds in a game.
CARD_OWN = "123456789TNS*"
CARD_NAMES = ("F", "FF", "FFF", "FR", "FL", "FFR", "FFL", "FRL", "FLR", "TP", "CN", "HS")
CARD_LONG = ("F", "FF", "FFF", "FR", "FL", "FFR", "FFL", "FRL", "FLR", "Teleport", "Cat Nip",
             "House Swap")
PATH_NAMES = CARD_NAMES[:9]
PHASES = ("house", "tree", "play", "discard", "over")
DIRS = "NESW"
FILES = "abcdefg"
SQ_NAMES = tuple(FILES[s % 7] + str(s // 7 + 1) for s in range(49))
SQ_INDEX = {name: s for s, name in enumerate(SQ_NAMES)}
BOARD_CHARS = ".0123TC"
SETUPS = ("moves", "random")

# Starting squares by the player count marked on them (C is d4), rank 7 first.
START_DIAGRAM = (
    "..424..",
    ".22222.",
    "423.324",
    "22.C.22",
    "423.324",
    ".22222.",
    "..424..",
)
HOUSES_EACH = (0, 0, 10, 7, 6)
TREES_EACH = (0, 0, 2, 1, 1)

cdef enum:
    EMPTY = 0
    TREE = 5
    CAT = 6
    D4 = 24
    PH_HOUSE = 0
    PH_TREE = 1
    PH_PLAY = 2
    PH_DISCARD = 3
    PH_OVER = 4
    TP = 9
    CN = 10
    HS = 11
    M_HOUSE = 0
    M_TREE = 49
    M_PATH = 98
    M_TELE = 242
    M_NIP = 438
    M_SWAP = 442
    M_DISC = 1618
    M_END = 1630
    MAX_ROUNDS = 100
    HAND_LIMIT = 4
    MAX_PLAYS = 4
    NPAIRS = 1176

# The deck: per type, how many copies.
cdef unsigned char COMP[12]
COMP[:] = [4, 6, 4, 3, 3, 2, 2, 2, 2, 4, 4, 4]
# Path cards: number of steps and the turn before each step (0 forward, 1 right, 3 left).
cdef int PATH_LEN[9]
PATH_LEN[:] = [1, 2, 3, 2, 2, 3, 3, 3, 3]
cdef int PATH_TURN[9][3]
PATH_TURN[:] = [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 1, 0], [0, 3, 0], [0, 0, 1], [0, 0, 3],
                [0, 1, 3], [0, 3, 1]]
cdef int HOUSES_EACH_C[5]
HOUSES_EACH_C[:] = [0, 0, 10, 7, 6]
cdef int TREES_EACH_C[5]
TREES_EACH_C[:] = [0, 0, 2, 1, 1]
# Discard preference of the heuristic (lower is discarded first).
cdef int CARD_VALUE[12]
CARD_VALUE[:] = [1, 3, 4, 3, 3, 5, 5, 4, 4, 6, 5, 5]

# The evaluation's constants, per player count (index 2, 3, 4), fitted to the outcomes of
# self-play by benchmarks/fit_cat_earth_evaluation.py (docs/evaluation.rst, "Cat Earth"):
# a seat's strength is s = houses - EV_THREAT * threatened houses - EV_EDGE * houses on an
# edge square + EV_HAND * cards in hand (at least EV_MIN_STRENGTH), its chance to win is
# proportional to s^beta with beta = EV_BETA0 + EV_BETA1 * progress, + EV_BETA2 once two
# seats of 3 or 4 are left (progress: the share of the houses that left the board).
cdef double EV_BETA0[5]
EV_BETA0[:] = [0.0, 0.0, 5.05, 2.24, 0.699]
cdef double EV_BETA1[5]
EV_BETA1[:] = [0.0, 0.0, -4.25, -1.72, -0.00478]
cdef double EV_BETA2[5]
EV_BETA2[:] = [0.0, 0.0, 0.0, 1.13, 0.891]
cdef double EV_THREAT[5]
EV_THREAT[:] = [0.0, 0.0, 0.256, 0.343, 0.237]
cdef double EV_EDGE[5]
EV_EDGE[:] = [0.0, 0.0, 0.197, 0.0294, 0.212]
cdef double EV_HAND[5]
EV_HAND[:] = [0.0, 0.0, 0.284, 0.339, 0.225]
cdef double EV_MIN_STRENGTH = 0.5

cdef int NEIGH[49][4]              # the square one step N, E, S, W, or -1 off the board
cdef unsigned char START[5][49]    # 1 where a house may start, per player count
cdef unsigned char NEAR_D4[49]     # d4 and its 8 neighbours
cdef unsigned char EDGE_DIST[49]   # steps to the nearest edge square (0 on the edge)
cdef short PAIR[49][49]            # index of the unordered square pair (a < b)
cdef unsigned char PAIR_A[1176]
cdef unsigned char PAIR_B[1176]


def _init_tables():
    cdef int s, r, f, a, b, k, n
    for s in range(49):
        r, f = s // 7, s % 7
        NEIGH[s][0] = s + 7 if r < 6 else -1
        NEIGH[s][1] = s + 1 if f < 6 else -1
        NEIGH[s][2] = s - 7 if r > 0 else -1
        NEIGH[s][3] = s - 1 if f > 0 else -1
        NEAR_D4[s] = 1 if abs(r - 3) <= 1 and abs(f - 3) <= 1 else 0
        EDGE_DIST[s] = min(r, f, 6 - r, 6 - f)
        ch = START_DIAGRAM[6 - r][f]
        for n in range(5):
            START[n][s] = 1 if ch.isdigit() and int(ch) <= n else 0
    k = 0
    for a in range(49):
        for b in range(49):
            PAIR[a][b] = -1
    for a in range(49):
        for b in range(a + 1, 49):
            PAIR[a][b] = k
            PAIR[b][a] = k
            PAIR_A[k] = a
            PAIR_B[k] = b
            k += 1


_init_tables()

# Zobrist keys, drawn once at import from fixed seeds.
cdef uint64_t Z_SQ[49][7]           # square, content (empty has key 0)
cdef uint64_t Z_HAND[4][13][8]      # seat, type (or unknown), count before adding
cdef uint64_t Z_DECK[40][13]        # position, type (or unknown)
cdef uint64_t Z_DISC[13][41]        # type (or unknown), count before adding
cdef uint64_t Z_TURN[5]             # seat to move; [4]: nobody (game over)
cdef uint64_t Z_PHASE[5]
cdef uint64_t Z_PLAYED[5]
cdef uint64_t Z_PEND[4]
cdef uint64_t Z_ROUND[102]
cdef uint64_t Z_WIN[16]
cdef uint64_t* _TABLES[10]
cdef Py_ssize_t _BYTES[10]
_TABLES[:] = [&Z_SQ[0][0], &Z_HAND[0][0][0], &Z_DECK[0][0], &Z_DISC[0][0], &Z_TURN[0], &Z_PHASE[0],
              &Z_PLAYED[0], &Z_PEND[0], &Z_ROUND[0], &Z_WIN[0]]
_BYTES[:] = [sizeof(Z_SQ), sizeof(Z_HAND), sizeof(Z_DECK), sizeof(Z_DISC), sizeof(Z_TURN),
             sizeof(Z_PHASE), sizeof(Z_PLAYED), sizeof(Z_PEND), sizeof(Z_ROUND), sizeof(Z_WIN)]
fill_tables(_TABLES, _BYTES, 10, 0x4345_0001)
for _s in range(49):
    Z_SQ[_s][0] = 0
Z_PEND[0] = 0
Z_WIN[0] = 0
# Keys of what a view remembers of the last reshuffle (hashed in views only).
cdef uint64_t Z_PILE[13][41]        # type (or unknown), count before adding
cdef uint64_t Z_FRESH[4][13][41]    # seat, type (or unknown), count before adding
cdef uint64_t* _KTABLES[2]
cdef Py_ssize_t _KBYTES[2]
_KTABLES[:] = [&Z_PILE[0][0], &Z_FRESH[0][0][0]]
_KBYTES[:] = [sizeof(Z_PILE), sizeof(Z_FRESH)]
fill_tables(_KTABLES, _KBYTES, 2, 0x4345_0101)


# -- small mutators that keep the hash in step -------------------------------------------

cdef inline bint is_house(int v) noexcept nogil:
    return 1 <= v <= 4

cdef inline void set_sq(CEData* d, int sq, int v) noexcept nogil:
    d.h.hash ^= Z_SQ[sq][d.board[sq]] ^ Z_SQ[sq][v]
    d.board[sq] = v

cdef inline void hand_add(CEData* d, int p, int t) noexcept nogil:
    card_in(&d.h.hash, &Z_HAND[p][0][0], 8, d.hand[p], &d.hand_size[p], t)

cdef inline void discard_card(CEData* d, int p, int t) noexcept nogil:
    """Seat p's card of type t goes to the discard pile (in a view, an unknown one if it
    holds no known t: the discard shows what was played)."""
    card_out(&d.h.hash, &Z_HAND[p][0][0], 8, d.hand[p], &d.hand_size[p], t, CE_UNK)
    count_up(&d.h.hash, Z_DISC[t], &d.discard[t])

cdef inline void know_up(CEData* d, const uint64_t* keys, unsigned char* count) noexcept nogil:
    """One more in a counter of the reshuffle memory (hashed only in a view)."""
    if d.h.view_seat >= 0:
        count_up(&d.h.hash, keys, count)
    else:
        count[0] += 1

cdef inline void know_down(CEData* d, const uint64_t* keys, unsigned char* count) noexcept nogil:
    if d.h.view_seat >= 0:
        count_down(&d.h.hash, keys, count)
    else:
        count[0] -= 1

cdef inline void set_phase(CEData* d, int ph) noexcept nogil:
    set_value(&d.h.hash, Z_PHASE, &d.phase, ph)

cdef inline void sort_cats(CEData* d) noexcept nogil:
    cdef int i, j
    cdef unsigned char t
    for i in range(1, d.ncats):
        t = d.cat_sq[i]
        j = i - 1
        while j >= 0 and d.cat_sq[j] > t:
            d.cat_sq[j + 1] = d.cat_sq[j]
            j -= 1
        d.cat_sq[j + 1] = t

cdef inline void add_cat_d4(CEData* d) noexcept nogil:
    set_sq(d, D4, CAT)
    d.cat_sq[d.ncats] = D4
    d.ncats += 1
    sort_cats(d)


# -- the board ---------------------------------------------------------------------------

cdef int step(unsigned char* b, int pos, int dir, int* dropped) noexcept nogil:
    """Move the cat on ``pos`` one square towards ``dir`` on board ``b``, pushing the unbroken
    line of houses in front of it. Return the cat's new square, or -1 if the step is illegal
    (off the board, onto a tree or a cat, or a house pushed onto a tree or a cat); ``b`` is
    then left half-done. ``dropped``: 1 + the owner of a house pushed off the edge, else 0."""
    cdef int y = NEIGH[pos][dir]
    cdef int z, nz, m, j, v
    cdef int line[8]
    dropped[0] = 0
    if y < 0:
        return -1
    v = b[y]
    if v != EMPTY:
        if v >= TREE:
            return -1
        m = 0
        z = y
        while True:
            line[m] = z
            m += 1
            nz = NEIGH[z][dir]
            if nz < 0:
                break
            v = b[nz]
            if v == EMPTY:
                break
            if v >= TREE:
                return -1
            z = nz
        if nz >= 0:
            b[nz] = b[z]
        else:
            dropped[0] = b[z]
        j = m - 1
        while j > 0:
            b[line[j]] = b[line[j - 1]]
            j -= 1
    b[y] = CAT
    b[pos] = EMPTY
    return y


cdef inline int run_path(unsigned char* b, int pos, int dir, int card) noexcept nogil:
    """Play path card ``card`` on the cat at ``pos``, first direction ``dir``, on board ``b``;
    return the cat's last square, or -1 if the path is illegal."""
    cdef int i, dropped
    for i in range(PATH_LEN[card]):
        dir = (dir + PATH_TURN[card][i]) & 3
        pos = step(b, pos, dir, &dropped)
        if pos < 0:
            return -1
    return pos


cdef int step_apply(CEData* d, int pos, int dir) noexcept nogil:
    """``step`` on the state itself (the step is known to be legal), keeping the hash and the
    house counts in step."""
    cdef int y = NEIGH[pos][dir]
    cdef int z, nz = -1, m = 0, j
    cdef int line[8]
    if d.board[y] != EMPTY:
        z = y
        while True:
            line[m] = z
            m += 1
            nz = NEIGH[z][dir]
            if nz < 0 or d.board[nz] == EMPTY:
                break
            z = nz
        if nz >= 0:
            set_sq(d, nz, d.board[z])
        else:
            d.houses[d.board[z] - 1] -= 1
        j = m - 1
        while j > 0:
            set_sq(d, line[j], d.board[line[j - 1]])
            j -= 1
    set_sq(d, y, CAT)
    set_sq(d, pos, EMPTY)
    return y


cdef inline bint path_ok(const unsigned char* board, int pos, int dir, int card) noexcept nogil:
    cdef unsigned char b[49]
    cdef int y = NEIGH[pos][dir]
    if y < 0 or board[y] >= TREE:
        return False
    if PATH_LEN[card] == 1 and board[y] == EMPTY:
        return True
    memcpy(b, board, 49)
    return run_path(b, pos, dir, card) >= 0


cdef inline bint tree_ok(CEData* d, int sq) noexcept nogil:
    """A tree may go on an empty square that is not d4, not next to d4 (diagonals count) and
    not next to another tree."""
    cdef int r, f, dr, df, rr, ff
    if d.board[sq] != EMPTY or NEAR_D4[sq]:
        return False
    r = sq // 7
    f = sq % 7
    for dr in range(-1, 2):
        rr = r + dr
        if rr < 0 or rr > 6:
            continue
        for df in range(-1, 2):
            ff = f + df
            if 0 <= ff <= 6 and d.board[rr * 7 + ff] == TREE:
                return False
    return True


# The straight moves of the cats that ``threats`` reads, ray by ray (ray ``4 k + dir``: cat
# ``k``'s, direction ``dir``): the squares each one read and the houses of each seat it would
# push off the board (byte p of ``lost``: seat p's). A change to a square no ray read leaves
# them all as they are; ``value_after_shift`` scans again only the rays a teleport, nip or
# swap touches.
ctypedef struct Rays:
    uint64_t read[16]
    uint32_t lost[16]


# The rays a cat would have from each square of ``done``, on the board of a ``Rays``: filled
# by ``value_after_shift`` as teleports to a square ask for them, for any cat to share.
ctypedef struct RaysAt:
    uint64_t done
    uint64_t read[49][4]
    uint32_t lost[49][4]


cdef inline uint64_t ray_scan(const unsigned char* board, int sq, int dir,
                              uint32_t* lost) noexcept nogil:
    """One cat's straight move of 1 to 3 squares from ``sq`` in direction ``dir``: the houses
    of seat p it would push off the board, in byte p of ``lost``, and the squares read (the
    result depends on nothing else).

    Along the cat's ray a step moves the cat onto an empty square, or pushes the line of
    houses ahead of it one square on, into the empty square beyond it (a tree or a cat there
    stops the move); only a line that reaches the edge loses a house, the one at the edge.
    So every step uses up one empty square of the ray until none is left, and each step
    after that pushes the edge's house off: with ``e`` empty squares and no tree or cat on
    the ray, the last ``3 - e`` houses before the edge fall (none if a tree or a cat is on
    it). ``tests/games/test_cat_earth.py`` checks this against playing the steps out."""
    cdef unsigned char line[7]
    cdef uint64_t read = 0
    cdef int v, e = 0, nh = 0, i
    lost[0] = 0
    sq = NEIGH[sq][dir]
    while sq >= 0:
        read |= (<uint64_t>1) << sq
        v = board[sq]
        if v >= TREE:
            return read
        if v == EMPTY:
            e += 1
            if e >= 3:
                return read
        else:
            line[nh] = v
            nh += 1
        sq = NEIGH[sq][dir]
    for i in range(nh - 1, max(nh - (3 - e), 0) - 1, -1):
        lost[0] += (<uint32_t>1) << (8 * (line[i] - 1))
    return read


cdef inline void take_most(uint32_t lost, int* thr) noexcept nogil:
    """thr[p] = max(thr[p], byte p of ``lost``) for the four seats."""
    cdef int p, c
    if lost == 0:               # most rays push nothing off
        return
    for p in range(4):
        c = lost >> (8 * p) & 0xff
        if c > thr[p]:
            thr[p] = c


cdef void scan_rays(CEData* d, Rays* rays) noexcept nogil:
    """Every cat's four rays (see ``Rays``)."""
    cdef int k, dir
    for k in range(d.ncats):
        for dir in range(4):
            rays.read[4 * k + dir] = ray_scan(d.board, d.cat_sq[k], dir,
                                              &rays.lost[4 * k + dir])


cdef inline void rays_threats(const Rays* rays, int ncats, int* thr) noexcept nogil:
    """thr[p]: the most houses of seat p that one of the ``ncats`` cats' rays pushes off."""
    cdef int r
    thr[0] = thr[1] = thr[2] = thr[3] = 0
    for r in range(4 * ncats):
        take_most(rays.lost[r], thr)


cdef void threats(CEData* d, int* thr) noexcept nogil:
    """thr[p]: the most houses of seat p that one straight move of 1 to 3 squares by one cat
    would push off the board (whatever cards are held; see ``ray_scan``)."""
    cdef Rays rays
    scan_rays(d, &rays)
    rays_threats(&rays, d.ncats, thr)


cdef void threats_by_steps(CEData* d, int* thr) noexcept nogil:
    """thr[p]: the most houses of seat p that one straight move of 1 to 3 squares by one cat
    would push off the board (whatever cards are held). A straight move only touches the
    squares on the cat's ray, so it is played out on a copy of that ray."""
    cdef unsigned char ray[7]
    cdef int k, dir, i, n, sq, c, nxt, z, j, p
    cdef int cnt[5]
    for p in range(d.h.players):
        thr[p] = 0
    for k in range(d.ncats):
        for dir in range(4):
            n = 0
            sq = NEIGH[d.cat_sq[k]][dir]
            while sq >= 0:
                ray[n] = d.board[sq]
                n += 1
                sq = NEIGH[sq][dir]
            c = -1
            memset(cnt, 0, sizeof(cnt))
            for i in range(3):
                nxt = c + 1
                if nxt >= n or ray[nxt] >= TREE:
                    break
                if ray[nxt] != EMPTY:
                    z = nxt
                    while z + 1 < n and is_house(ray[z + 1]):
                        z += 1
                    if z + 1 >= n:
                        p = ray[z]
                        cnt[p] += 1
                        if cnt[p] > thr[p - 1]:
                            thr[p - 1] = cnt[p]
                    elif ray[z + 1] == EMPTY:
                        ray[z + 1] = ray[z]
                    else:
                        break
                    j = z
                    while j > nxt:
                        ray[j] = ray[j - 1]
                        j -= 1
                ray[nxt] = CAT
                c = nxt


def _threats_both_ways(CatEarth st):
    """``threats`` and ``threats_by_steps`` of ``st``, per seat (the test compares them)."""
    cdef int a[4]
    cdef int b[4]
    threats(&st.d, a)
    threats_by_steps(&st.d, b)
    return [a[i] for i in range(st.d.h.players)], [b[i] for i in range(st.d.h.players)]


def _shift_values_both_ways(CatEarth st):
    """``[(move, in place, played)]``: the heuristic's value of each legal teleport, nip and
    swap by ``value_after_shift`` and by playing it on a copy (the test compares them);
    empty where ``shifts_in_place`` does not hold."""
    cdef CEData tmp
    cdef Rays rays
    cdef RaysAt at
    cdef int thr[4]
    cdef int buf[CE_MOVES + 1]
    cdef int n, i, m, p = st.d.h.current
    out = []
    if st.d.h.terminal or not shifts_in_place(&st.d, p):
        return out
    scan_rays(&st.d, &rays)
    at.done = 0
    n = gen_moves(&st.d, buf)
    for i in range(n):
        m = buf[i]
        if M_TELE <= m < M_DISC:
            memcpy(&tmp, &st.d, sizeof(CEData))
            do_move(&tmp, m)
            out.append((m, value_after_shift(&st.d, &rays, &at, m, p, thr, 0.5),
                        pos_value(&tmp, p, thr, 0.5)))
    return out


# -- turns -------------------------------------------------------------------------------

cdef void game_over(CEData* d, int winners) noexcept nogil:
    set_turn(&d.h, Z_TURN, NO_SEAT)
    set_phase(d, PH_OVER)
    set_value(&d.h.hash, Z_PLAYED, &d.played, 0)
    d.h.hash ^= Z_WIN[d.winners] ^ Z_WIN[winners]
    d.winners = winners
    d.h.terminal = 1


cdef void reshuffle(CEData* d) noexcept nogil:
    """The deck is empty: the discard pile becomes the new deck, shuffled with the state's
    generator (in a view its order is unknown), and a cat joins if fewer than 4 are about."""
    cdef int t, c, m = 0, i
    for t in range(CE_UNK + 1):
        m += d.discard[t]
    if m == 0:
        return
    # the memory of the reshuffle: this pile (public), nobody has drawn from it yet
    for t in range(CE_UNK + 1):
        while d.pile[t] > 0:
            know_down(d, Z_PILE[t], &d.pile[t])
        for c in range(d.h.players):
            while d.fresh[c][t] > 0:
                know_down(d, Z_FRESH[c][t], &d.fresh[c][t])
        for c in range(d.discard[t]):
            know_up(d, Z_PILE[t], &d.pile[t])
    d.pile_total = m
    i = CE_CARDS - m
    for t in range(CE_UNK + 1):
        for c in range(d.discard[t]):
            d.deck[i] = CE_UNK if d.h.view_seat >= 0 else t
            i += 1
        while d.discard[t] > 0:
            count_down(&d.h.hash, Z_DISC[t], &d.discard[t])
    d.deck_top = CE_CARDS - m
    if d.h.view_seat < 0:
        rng_shuffle_u8(&d.h.rng, d.deck + d.deck_top, m)
    for i in range(d.deck_top, CE_CARDS):
        d.h.hash ^= Z_DECK[i][d.deck[i]]
    if d.ncats + d.pending < 4:
        if d.board[D4] == EMPTY:
            add_cat_d4(d)
        else:
            set_value(&d.h.hash, Z_PEND, &d.pending, d.pending + 1)


cdef inline void draw(CEData* d, int p) noexcept nogil:
    cdef int card
    if d.deck_top >= CE_CARDS:
        return
    card = d.deck[d.deck_top]
    d.h.hash ^= Z_DECK[d.deck_top][card]
    d.deck_top += 1
    hand_add(d, p, card)
    if d.pile_total:
        know_up(d, Z_FRESH[p][card], &d.fresh[p][card])
    if d.deck_top == CE_CARDS:
        reshuffle(d)


cdef void begin_turn(CEData* d, int p) noexcept nogil:
    set_turn(&d.h, Z_TURN, p)
    set_phase(d, PH_PLAY)
    set_value(&d.h.hash, Z_PLAYED, &d.played, 0)
    draw(d, p)


cdef void next_turn(CEData* d, int p) noexcept nogil:
    """Seat p's turn is over: the next seat still in takes its turn (a new round when the
    order wraps; after round 100 the most houses win)."""
    cdef int i, q = p, n = d.h.players, best = -1, w = 0
    for i in range(n):
        q = next_seat(q, n)
        if d.alive >> q & 1:
            break
    if q <= p:
        if d.round >= MAX_ROUNDS:
            for i in range(n):
                if d.alive >> i & 1:
                    if d.houses[i] > best:
                        best = d.houses[i]
                        w = 0
                    if d.houses[i] == best:
                        w |= 1 << i
            game_over(d, w)
            return
        set_value(&d.h.hash, Z_ROUND, &d.round, d.round + 1)
    begin_turn(d, q)


cdef void end_play(CEData* d, int p) noexcept nogil:
    if d.hand_size[p] > HAND_LIMIT:
        set_phase(d, PH_DISCARD)
        set_value(&d.h.hash, Z_PLAYED, &d.played, 0)
    else:
        next_turn(d, p)


cdef void start_play(CEData* d) noexcept nogil:
    """Setup is over: deal 2 cards to each seat, and seat 0 takes the first turn."""
    cdef int r, q
    for r in range(2):
        for q in range(d.h.players):
            draw(d, q)
    set_value(&d.h.hash, Z_ROUND, &d.round, 1)
    begin_turn(d, 0)


cdef void after_card(CEData* d, int p) noexcept nogil:
    """What follows every card: a waiting cat enters an empty d4, players without houses are
    out (their hands go to the discard pile), the game or the turn may end."""
    cdef int q, t, mask = 0, newly, n = d.h.players
    set_value(&d.h.hash, Z_PLAYED, &d.played, d.played + 1)
    if d.pending > 0 and d.board[D4] == EMPTY:
        set_value(&d.h.hash, Z_PEND, &d.pending, d.pending - 1)
        add_cat_d4(d)
    for q in range(n):
        if d.houses[q] > 0:
            mask |= 1 << q
    newly = d.alive & ~mask
    if newly:
        for q in range(n):
            if newly >> q & 1:
                for t in range(CE_UNK + 1):
                    while d.hand[q][t] > 0:
                        discard_card(d, q, t)
        d.alive &= mask
        if d.alive == 0:
            game_over(d, newly)
            return
        if (d.alive & (d.alive - 1)) == 0:
            game_over(d, d.alive)
            return
        if not (d.alive >> p & 1):
            next_turn(d, p)
            return
    if d.played >= MAX_PLAYS or d.hand_size[p] == 0:
        end_play(d, p)


cdef int possible_types(CEData* d) noexcept nogil:
    """In a view, the card types (a bit mask) an unknown card of the seat to move can be in
    at least one world the view's seat cannot tell from this one: a type of which some copy
    is unseen (not in the discard pile, not a known card in a hand or the deck) and, after a
    reshuffle, such that the deck can still be dealt from the pile without that card (the
    deck holds only pile cards the seat has not drawn itself: ``deck_bound``)."""
    cdef int cnt[CE_TYPES]
    cdef int t, u, kk, total, k = CE_CARDS - d.deck_top, s = d.h.view_seat, mask = 0
    unseen_counts(d, NO_SEAT, cnt)
    for t in range(CE_TYPES):
        if cnt[t] <= 0:
            continue
        if s >= 0 and d.pile_total and not d.pile[CE_UNK]:
            total = 0
            for u in range(CE_TYPES):
                kk = d.pile[u] - d.fresh[s][u]
                if kk < 0:
                    kk = 0
                if kk > cnt[u] - (u == t):
                    kk = cnt[u] - (u == t)
                if kk > 0:
                    total += kk
            if total < k:
                continue
        mask |= 1 << t
    return mask


# -- moves -------------------------------------------------------------------------------

cdef int gen_moves(CEData* d, int* out) noexcept nogil:
    cdef int p = d.h.current
    cdef int n = 0, sq, c, k, dir, a, b, i, j, ne, nh, pos
    cdef unsigned char* hand
    cdef bint unk
    cdef int poss = 0
    cdef unsigned char empties[49]
    cdef unsigned char hs[49]
    cdef unsigned char own[49]
    cdef const short* pair
    if d.h.terminal:
        return 0
    if d.phase == PH_HOUSE:
        for sq in range(49):
            if START[d.h.players][sq] and d.board[sq] == EMPTY:
                out[n] = M_HOUSE + sq
                n += 1
        return n
    if d.phase == PH_TREE:
        for sq in range(49):
            if tree_ok(d, sq):
                out[n] = M_TREE + sq
                n += 1
        return n
    hand = d.hand[p]
    unk = hand[CE_UNK] > 0
    if unk:     # a view: the types an unknown card of the mover can be in some world
        poss = possible_types(d)
    if d.phase == PH_DISCARD:
        for c in range(CE_TYPES):
            if hand[c] or (unk and poss >> c & 1):
                out[n] = M_DISC + c
                n += 1
        return n
    # play
    for c in range(9):
        if hand[c] or (unk and poss >> c & 1):
            for k in range(d.ncats):
                pos = d.cat_sq[k]
                for dir in range(4):
                    if path_ok(d.board, pos, dir, c):
                        out[n] = M_PATH + (c * 4 + k) * 4 + dir
                        n += 1
    if hand[TP] or (unk and poss >> TP & 1):
        ne = 0
        for sq in range(49):        # branch-free: which squares are empty is a coin toss
            empties[ne] = sq
            ne += d.board[sq] == EMPTY
        for k in range(d.ncats):
            for i in range(ne):
                out[n] = M_TELE + k * 49 + empties[i]
                n += 1
    if (hand[CN] or (unk and poss >> CN & 1)) and d.board[D4] == EMPTY:
        for k in range(d.ncats):
            out[n] = M_NIP + k
            n += 1
    if hand[HS] or (unk and poss >> HS & 1):
        nh = 0
        for sq in range(49):        # branch-free, as the teleports
            hs[nh] = sq
            own[nh] = d.board[sq]
            nh += is_house(d.board[sq])
        for i in range(nh):
            pair = PAIR[hs[i]]
            for j in range(i + 1, nh):
                out[n] = M_SWAP + pair[hs[j]]
                n += own[i] != own[j]
    out[n] = M_END
    return n + 1


cdef void do_move(CEData* d, int m) noexcept nogil:
    cdef int p = d.h.current
    cdef int n = d.h.players
    cdef int c, k, dir, sq, a, b, va, vb, t, pos, i
    d.h.ply += 1
    if m < M_TREE:
        set_sq(d, m - M_HOUSE, p + 1)
        d.houses[p] += 1
        d.placed += 1
        if d.placed == n * HOUSES_EACH_C[n]:
            set_phase(d, PH_TREE)
            set_turn(&d.h, Z_TURN, n - 1)
        else:
            set_turn(&d.h, Z_TURN, d.placed % n)
        return
    if m < M_PATH:
        set_sq(d, m - M_TREE, TREE)
        d.placed += 1
        t = d.placed - n * HOUSES_EACH_C[n]
        if t == n * TREES_EACH_C[n]:
            start_play(d)
        else:
            set_turn(&d.h, Z_TURN, ((n - 1 - t) % n + n) % n)
        return
    if m >= M_DISC:
        if m == M_END:
            end_play(d, p)
            return
        t = m - M_DISC
        discard_card(d, p, t)
        if d.hand_size[p] <= HAND_LIMIT:
            next_turn(d, p)
        return
    # a card play
    if m < M_TELE:
        c = (m - M_PATH) >> 4
        k = ((m - M_PATH) >> 2) & 3
        dir = (m - M_PATH) & 3
        discard_card(d, p, c)
        pos = d.cat_sq[k]
        for i in range(PATH_LEN[c]):
            dir = (dir + PATH_TURN[c][i]) & 3
            pos = step_apply(d, pos, dir)
        d.cat_sq[k] = pos
        sort_cats(d)
    elif m < M_NIP:
        k = (m - M_TELE) // 49
        sq = (m - M_TELE) % 49
        discard_card(d, p, TP)
        set_sq(d, d.cat_sq[k], EMPTY)
        set_sq(d, sq, CAT)
        d.cat_sq[k] = sq
        sort_cats(d)
    elif m < M_SWAP:
        k = m - M_NIP
        discard_card(d, p, CN)
        set_sq(d, d.cat_sq[k], EMPTY)
        set_sq(d, D4, CAT)
        d.cat_sq[k] = D4
        sort_cats(d)
    else:
        a = PAIR_A[m - M_SWAP]
        b = PAIR_B[m - M_SWAP]
        discard_card(d, p, HS)
        va = d.board[a]
        vb = d.board[b]
        set_sq(d, a, vb)
        set_sq(d, b, va)
    after_card(d, p)


cdef void unseen_counts(CEData* d, int seat, int* cnt) noexcept nogil:
    """cnt[t]: the cards of type t that ``seat`` has not seen (seat < 0: every card whose
    type this view state does not show)."""
    cdef int t, p, i
    for t in range(CE_TYPES):
        cnt[t] = COMP[t] - d.discard[t]
        if seat >= 0:
            cnt[t] -= d.hand[seat][t]
        else:
            for p in range(d.h.players):
                cnt[t] -= d.hand[p][t]
            for i in range(d.deck_top, CE_CARDS):
                if d.deck[i] == t:
                    cnt[t] -= 1


cdef bint deck_bound(CEData* d, int seat, const int* cnt, int* m, int g) noexcept nogil:
    """After a reshuffle: m[t] = the cards of type t that may be in the deck for ``seat``
    (those of the pile it has not drawn itself, at most its unseen ``cnt[t]``). True when
    that bounds the deck (some m[t] < cnt[t]) and ``g`` cards fit in it; False when the
    deck is just unseen cards (no reshuffle yet, or nothing to tell)."""
    cdef int t, kk, total = 0
    cdef bint bound = False
    if not d.pile_total or d.pile[CE_UNK]:
        return False
    for t in range(CE_TYPES):
        kk = d.pile[t] - d.fresh[seat][t]
        if kk < 0:
            kk = 0
        m[t] = kk if kk < cnt[t] else cnt[t]
        if m[t] < cnt[t]:
            bound = True
        total += m[t]
    return bound and total >= g


cdef void redeal_fresh(CEData* d, int seat, Rng* rng) noexcept nogil:
    """A determinization's other seats' draws since the reshuffle: the pile's cards that are
    neither in the (dealt) deck nor drawn by ``seat``, in the counts each seat drew. If the
    memory cannot be made whole (unknown cards in it: a view searched forward), it is
    forgotten."""
    cdef int f[CE_TYPES]
    cdef unsigned char pool[40]
    cdef int t, p, i, n, c, want = 0, have = 0
    cdef bint ok = d.pile[CE_UNK] == 0 and d.fresh[seat][CE_UNK] == 0
    for t in range(CE_TYPES):
        f[t] = d.pile[t] - d.fresh[seat][t]
    for i in range(d.deck_top, CE_CARDS):
        f[d.deck[i]] -= 1
    for t in range(CE_TYPES):
        if f[t] < 0:
            ok = False
        have += f[t]
    for p in range(d.h.players):
        if p != seat:
            for t in range(CE_UNK + 1):
                want += d.fresh[p][t]
    if not ok or want != have:
        memset(d.pile, 0, sizeof(d.pile))
        memset(d.fresh, 0, sizeof(d.fresh))
        d.pile_total = 0
        return
    n = shuffled_pool(f, CE_TYPES, pool, rng)
    i = 0
    for p in range(d.h.players):
        if p != seat:
            c = 0
            for t in range(CE_UNK + 1):
                c += d.fresh[p][t]
                d.fresh[p][t] = 0
            while c > 0 and i < n:
                d.fresh[p][pool[i]] += 1
                i += 1
                c -= 1


cdef void reveal_card(CEData* d, int p, int t) noexcept nogil:
    """In a view: one unknown card of seat p is of type t (a chance outcome, or the seat's
    own draw told by an observation); if it is the view seat's own unknown draw since the
    reshuffle, the memory of its draws learns it too."""
    card_out(&d.h.hash, &Z_HAND[p][0][0], 8, d.hand[p], &d.hand_size[p], CE_UNK, CE_UNK)
    hand_add(d, p, t)
    if p == d.h.view_seat and d.fresh[p][CE_UNK] > 0:
        know_down(d, Z_FRESH[p][CE_UNK], &d.fresh[p][CE_UNK])
        know_up(d, Z_FRESH[p][t], &d.fresh[p][t])


cdef double value_with_threats(CEData* d, int p, const int* thr, double threat) noexcept nogil:
    """The heuristic's view of a position for seat p: its houses minus ``threat`` (a half)
    per threatened house (``thr``, from ``threats``; not read once the game is over or p is
    out), against the mean of the other seats still in; a win or a loss dominates."""
    cdef int q, k = 0
    cdef double own, other = 0.0
    if d.h.terminal:
        if d.winners >> p & 1:
            for q in range(d.h.players):
                k += d.winners >> q & 1
            return 1000.0 / k
        return -1000.0
    if not (d.alive >> p & 1):
        return -1000.0
    own = d.houses[p] - threat * thr[p]
    for q in range(d.h.players):
        if q != p and (d.alive >> q & 1):
            other += d.houses[q] - threat * thr[q]
            k += 1
    if k:
        other /= k
    return own - other


cdef double pos_value(CEData* d, int p, int* thr, double threat) noexcept nogil:
    """``value_with_threats`` of the position as it is (``thr``: scratch)."""
    if not d.h.terminal and (d.alive >> p & 1):
        threats(d, thr)
    return value_with_threats(d, p, thr, threat)


cdef inline bint shifts_in_place(CEData* d, int p) noexcept nogil:
    """Whether ``value_after_shift`` may value seat p's teleports, nips and swaps now: in
    play, no cat waiting to enter d4 (``pending``), and nothing after the card that changes
    what ``pos_value`` reads. A card that leaves seat p playing cannot; one that ends the
    turn can in two ways, which are ruled out: the round wraps past the last (the game
    ends), or the next seat's draw empties the deck and its reshuffle brings a cat in."""
    if d.phase != PH_PLAY or d.pending != 0:
        return False
    if d.played + 1 < MAX_PLAYS and d.hand_size[p] > 1:
        return True
    return d.round < MAX_ROUNDS and (d.ncats >= 4 or d.deck_top + 1 < CE_CARDS)


cdef double value_after_shift(CEData* d, const Rays* rays, RaysAt* at, int m, int p,
                              int* thr, double threat) noexcept nogil:
    """``pos_value`` after the teleport, nip or house swap ``m``, without playing it: these
    change the board only by moving a cat to an empty square or swapping two houses, which
    ``pos_value`` sees through ``threats`` alone (no house leaves, no seat is out). The move
    is made on the board in place and taken back, and of the rays of the board before it
    (``rays``, from ``scan_rays``) only those that read a square it changes are scanned
    again. The moved cat's rays from its new square are scanned once for all cats (the
    board's rays from that square, kept in ``at``; its ``done`` 0 for a new board), and
    again only for a cat whose old square they read. Only where ``shifts_in_place``, so
    that the rest of the card's effects cannot matter."""
    cdef uint32_t lost
    cdef uint64_t changed
    cdef int k = -1, old = 0, sq = 0, a = 0, b = 0, r
    cdef unsigned char va = 0
    if m < M_SWAP:                  # a teleport, or a nip to the empty d4
        if m < M_NIP:
            k = (m - M_TELE) // 49
            sq = (m - M_TELE) % 49
        else:
            k = m - M_NIP
            sq = D4
        old = d.cat_sq[k]
        if not (at.done >> sq & 1):
            at.done |= (<uint64_t>1) << sq
            for r in range(4):
                at.read[sq][r] = ray_scan(d.board, sq, r, &at.lost[sq][r])
        d.board[old] = EMPTY
        d.board[sq] = CAT
        changed = (<uint64_t>1) << old | (<uint64_t>1) << sq
    else:
        a = PAIR_A[m - M_SWAP]
        b = PAIR_B[m - M_SWAP]
        va = d.board[a]
        d.board[a] = d.board[b]
        d.board[b] = va
        changed = (<uint64_t>1) << a | (<uint64_t>1) << b
    thr[0] = thr[1] = thr[2] = thr[3] = 0
    for r in range(4 * d.ncats):
        lost = rays.lost[r]
        if r >> 2 == k:
            lost = at.lost[sq][r & 3]
            if at.read[sq][r & 3] >> old & 1:
                ray_scan(d.board, sq, r & 3, &lost)
        elif rays.read[r] & changed:
            ray_scan(d.board, d.cat_sq[r >> 2], r & 3, &lost)
        take_most(lost, thr)
    if m < M_SWAP:
        d.board[sq] = EMPTY
        d.board[old] = CAT
    else:
        d.board[b] = d.board[a]
        d.board[a] = va
    return value_with_threats(d, p, thr, threat)


cdef void seat_strengths(CEData* d, double* s) noexcept nogil:
    """s[p]: the evaluation's strength of seat p (0 for a seat that is out): its houses, less
    ``EV_THREAT`` per house that one straight cat move could push off the board and
    ``EV_EDGE`` per house on an edge square, plus ``EV_HAND`` per card in hand (hand sizes
    are public, so a view gets the same), at least ``EV_MIN_STRENGTH``."""
    cdef int thr[4]
    cdef int edge[4]
    cdef int p, sq, n = d.h.players
    threats(d, thr)
    memset(edge, 0, sizeof(edge))
    for sq in range(49):
        if EDGE_DIST[sq] == 0 and is_house(d.board[sq]):
            edge[d.board[sq] - 1] += 1
    for p in range(n):
        if d.alive >> p & 1:
            s[p] = (d.houses[p] - EV_THREAT[n] * thr[p] - EV_EDGE[n] * edge[p]
                    + EV_HAND[n] * d.hand_size[p])
            if s[p] < EV_MIN_STRENGTH:
                s[p] = EV_MIN_STRENGTH
        else:
            s[p] = 0.0


# The heuristic's weights (see heuristic_move_c); a player sets them as weights.NAME=value,
# in this order in HW
cdef enum:
    HW_EDGE, HW_NEAR_CAT, HW_BESIDE_OWN, HW_GUARD_OWN, HW_GUARD_OTHER, HW_THREAT, \
        HW_DISCARD_HELD, HW_N
cdef double HW[HW_N]


# -- the observations in plain words (GameSpec.gloss) ------------------------------------

def gloss(text: str, seat: int | None = None) -> str | None:
    """A Cat Earth observation in plain words (see ``GameSpec.gloss``)."""
    got = re.fullmatch(r"([^!+]+)(![^+]*)?((?:\+\d[^+]*)*)", text)
    if got is None:
        return None
    words = words_for(got[1], _MOVE_WORDS)
    if words is None:
        return None

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


# a move's text -> its words (notation.words_for)
_MOVE_WORDS = (
    (r"end", r"ended the turn"),
    (r"H:([a-g][1-7])", r"built a house on \1"),
    (r"T:([a-g][1-7])", r"planted a tree on \1"),
    (r"TP:([a-g][1-7])-([a-g][1-7])", r"teleported the cat on \1 to \2"),
    (r"CN:([a-g][1-7])", r"gave the cat on \1 Cat Nip"),
    (r"HS:([a-g][1-7])-([a-g][1-7])", r"swapped the houses on \1 and \2"),
    (r"x:(\w+)", r"discarded a \1 card"),
    (r"([FLR]+):([a-g][1-7])([NESW])", r"played path card \1 with the cat on \2, heading \3"),
)


def max_game_length(int players) -> int:
    """Setup: at most 24 houses and 4 trees; then at most 100 rounds of a turn a seat, each
    at most 4 plays or plays and end, or end and a discard, 5 moves allowing for all
    (GameSpec.max_game_length)."""
    return 30 + 100 * players * 5


def moves_left(st) -> int:
    """The seat to move's decisions to come (GameSpec.moves_left), estimated: its houses and
    trees still to place in the setup, then two decisions a round (a card or two and an end)
    for the rounds left, at most until round 100: 10 rounds, and 8 for each house of the
    seat with the second most (the game ends when one seat is left with houses)."""
    f = notation_fields(st)
    n = st.players
    rnd = int(f["round"])
    board = f["board"]
    houses = sorted((board.count(str(p)) for p in range(n)), reverse=True)
    second = houses[1] if n > 1 else houses[0]
    setup = 0
    if f["phase"] in ("house", "tree"):
        setup = max(1, -(-(24 + 4 - sum(houses) - board.count("T")) // n))
        second = max(second, 24 // n)
    rounds = max(1, min(MAX_ROUNDS - rnd + 1, 10 + 8 * second))
    return setup + 2 * rounds


SPEC = GameSpec(
    id="cat-earth", name="Cat Earth", size=sizeof(CEData), moves=CE_MOVES,
    notation=("players", "phase", "turn", "round", "played", "pending", "board", "hands",
              "deck", "discard", "winners", "rng", "setup?", "pile?", "fresh?", "view?"),
    options=(Option("setup", SETUPS, "moves",
                    doc="moves: houses and trees are placed by moves; random: at random"),),
    heuristic_weights=(
        Option("edge", float, 2.0, doc="a house: per square between it and the edge"),
        Option("near_cat", float, -3.0, doc="a house beside the cat's start (d4)"),
        Option("beside_own", float, 0.5, doc="a house: per own house beside it"),
        Option("guard_own", float, 1.0, doc="a tree: per own house it guards from a push"),
        Option("guard_other", float, -0.5, doc="a tree: per other seat's house it guards"),
        Option("threat", float, 0.5,
               doc="play: a threatened house counts as this many houses lost"),
        Option("discard_held", float, 0.1,
               doc="a discard: per card of the type held (the type's value counts -1)"),
    ),
    max_game_length=max_game_length, search_defaults=(("cutoff", 10),), gloss=gloss,
    render="cat-earth", moves_left=moves_left,
    # strength levels, measured here (docs/play.rst): a random move is far weaker in this
    # game than a few iterations' draw, so the low levels soften the draw (temperature)
    # rather than cut the search; the common ladder's level 2 is 359 Elo below its level 1
    ladder=((20, 100.0), (20, 4.0), (20, 2.0), (20, 1.4), (20, 1.0), (30, 0.7), (60, 0.5),
            (120, 0.35), (400, 0.2), (8000, 0.0)),
    hidden_moves=False)    # every move is seen as it was made
fill_weights(HW, HW_N, SPEC)


cdef class CatEarth(State):
    """A state of Cat Earth (see the module docstring for squares, cards, moves; its struct,
    ``CEData``, in ``cat_earth.pxd``)."""

    spec = SPEC

    # -- the hot contract ---------------------------------------------------------------
    cdef int legal_moves_c(self, int* out) noexcept nogil:
        return gen_moves(&self.d, out)

    cdef void apply_c(self, int m) noexcept nogil:
        do_move(&self.d, m)

    cdef int playout_c(self, Rng* rng, int* buf) noexcept nogil:
        """The contract's random playout over this module's functions (no virtual call a
        move), its generator in a local."""
        cdef CEData* d = &self.d
        cdef Rng r = rng[0]
        cdef int n = 0
        while not d.h.terminal:
            do_move(d, buf[rng_below(&r, gen_moves(d, buf))])
            n += 1
        rng[0] = r
        return n

    cdef void returns_c(self, double* out) noexcept nogil:
        """The winners (the last seat with houses, or the most houses after round 100)
        share 1."""
        cdef double won[4]
        cdef int p
        for p in range(self.d.h.players):
            won[p] = self.d.winners >> p & 1
            out[p] = 0.0
        if self.d.h.terminal and self.d.winners:
            share_returns(out, won, self.d.h.players)

    cdef uint64_t compute_hash_c(self) noexcept nogil:
        cdef CEData* d = &self.d
        cdef uint64_t z = turn_key(Z_TURN, d.h.current)
        cdef int p, t, i
        for i in range(49):
            z ^= Z_SQ[i][d.board[i]]
        for p in range(d.h.players):
            for t in range(CE_UNK + 1):
                z ^= count_key(Z_HAND[p][t], d.hand[p][t])
        for i in range(d.deck_top, CE_CARDS):
            z ^= Z_DECK[i][d.deck[i]]
        for t in range(CE_UNK + 1):
            z ^= count_key(Z_DISC[t], d.discard[t])
        z ^= Z_PHASE[d.phase] ^ Z_PLAYED[d.played] ^ Z_PEND[d.pending] ^ Z_ROUND[d.round]
        if d.h.view_seat >= 0:
            for t in range(CE_UNK + 1):
                z ^= count_key(Z_PILE[t], d.pile[t])
                for p in range(d.h.players):
                    z ^= count_key(Z_FRESH[p][t], d.fresh[p][t])
        return z ^ Z_WIN[d.winners]

    cdef void scores_c(self, double* out) noexcept nogil:
        """Houses on the board per seat."""
        scores_from(out, self.d.houses, self.d.h.players)

    cdef void reset_c(self, uint64_t seed) noexcept nogil:
        cdef CEData* d = &self.d
        cdef int setup_random = d.setup_random
        cdef int n
        cdef int buf[64]
        restart(self, seed)
        d.setup_random = setup_random
        shuffled_deck(d.deck, COMP, CE_TYPES, &d.h.rng)
        d.board[D4] = CAT
        d.cat_sq[0] = D4
        d.ncats = 1
        d.alive = (1 << d.h.players) - 1
        d.phase = PH_HOUSE
        d.h.current = 0
        d.h.hash = self.compute_hash_c()
        if setup_random:
            while d.phase < PH_PLAY:
                n = gen_moves(d, buf)
                do_move(d, buf[rng_below(&d.h.rng, n)])
            d.h.ply = 0

    cdef void hide_c(self, int seat) noexcept nogil:
        cdef CEData* d = &self.d
        cdef int p, t
        hide_cards(&d.h, seat, &d.hand[0][0], CE_UNK + 1, CE_TYPES, CE_UNK, d.deck + d.deck_top,
                   CE_CARDS - d.deck_top)
        # of the reshuffle, the seat remembers the pile and its own draws since; it saw how
        # many cards each other seat drew, not which
        for p in range(d.h.players):
            if p != seat and not d.h.show_hands:      # a view that shows every hand: all known
                for t in range(CE_TYPES):
                    d.fresh[p][CE_UNK] += d.fresh[p][t]
                    d.fresh[p][t] = 0
        d.h.hash = self.compute_hash_c()

    cdef void determinize_c(self, int seat, Rng* rng) noexcept nogil:
        cdef CEData* d = &self.d
        cdef unsigned char pool[40]
        cdef unsigned char size
        cdef int cnt[CE_TYPES]
        cdef int m[CE_TYPES]
        cdef int n, i, j, t, k = CE_CARDS - d.deck_top
        # everything `seat` has not seen (a view that shows every hand: what nobody there has
        # seen, the deck alone; each seat's draws since a reshuffle are known, so the deck is
        # what is left of the pile: no bound to keep)
        unseen_counts(d, NO_SEAT if d.h.show_hands else seat, cnt)
        if not d.h.show_hands and deck_bound(d, seat, cnt, m, k):
            # after a reshuffle: the deck is k cards of the pile the seat has not drawn
            # itself (and has not seen elsewhere), the other places get the rest
            n = shuffled_pool(m, CE_TYPES, pool, rng)
            for j in range(k):
                d.deck[d.deck_top + j] = pool[j]
                cnt[pool[j]] -= 1
            n = shuffled_pool(cnt, CE_TYPES, pool, rng)
            i = redeal_hands(&d.hand[0][0], CE_UNK + 1, d.hand_size, d.h.players, seat, CE_UNK,
                             pool, 0, n, d.h.show_hands)
            size = d.discard[CE_UNK]
            i = redeal_hand(d.discard, &size, CE_UNK + 1, CE_UNK, True, pool, i, n)
        else:
            # dealt at random into the places it cannot see
            n = shuffled_pool(cnt, CE_TYPES, pool, rng)
            i = redeal_hands(&d.hand[0][0], CE_UNK + 1, d.hand_size, d.h.players, seat, CE_UNK,
                             pool, 0, n, d.h.show_hands)
            # unknown cards in the discard pile (a view played on): the pile as a hand of its own
            size = d.discard[CE_UNK]
            i = redeal_hand(d.discard, &size, CE_UNK + 1, CE_UNK, True, pool, i, n)
            redeal_run(d.deck + d.deck_top, CE_CARDS - d.deck_top, pool, i, n)
        if d.pile_total and not d.h.show_hands:
            redeal_fresh(d, seat, rng)
        as_full(&d.h, rng)
        d.h.hash = self.compute_hash_c()

    cdef int heuristic_move_c(self, Rng* rng, int* buf, int n) noexcept nogil:
        """A beginner's play. Setup: houses as far from the edge as possible, beside own
        houses; trees where they guard the most own houses from a push (a house with a tree
        behind it cannot be pushed that way). Play: try every card and keep the one that most
        improves (own houses - half the threatened ones) against the other seats' mean; if
        none improves on playing nothing, ``end``. Discard: the least useful card type. The
        numbers are the weights HW (the spec's ``heuristic_weights``)."""
        cdef CEData* d = &self.d
        cdef const double* w = heuristic_weights(&d.h, HW)
        cdef CEData tmp
        cdef Rays rays
        cdef RaysAt at
        cdef int p = d.h.current
        cdef int i, m, sq, dir, nb, v
        cdef double score, base = 0.0
        cdef Pick pick
        cdef int thr[4]
        cdef bint shift_only = False
        if n == 0:
            n = gen_moves(d, buf)
        if n == 1:
            return buf[0]
        if d.phase == PH_PLAY:
            scan_rays(d, &rays)     # the board's threats, kept for value_after_shift
            at.done = 0
            rays_threats(&rays, d.ncats, thr)
            base = value_with_threats(d, p, thr, w[HW_THREAT])
            shift_only = shifts_in_place(d, p)
        pick_start(&pick, buf[0])
        for i in range(n):
            m = buf[i]
            if d.phase == PH_HOUSE:
                sq = m - M_HOUSE
                score = w[HW_EDGE] * EDGE_DIST[sq] + (w[HW_NEAR_CAT] if NEAR_D4[sq] else 0.0)
                for dir in range(4):
                    nb = NEIGH[sq][dir]
                    if nb >= 0 and d.board[nb] == p + 1:
                        score += w[HW_BESIDE_OWN]
            elif d.phase == PH_TREE:
                sq = m - M_TREE
                score = 0.0
                for dir in range(4):   # the line of houses that has this tree behind it
                    nb = NEIGH[sq][dir]
                    while nb >= 0 and is_house(d.board[nb]):
                        score += w[HW_GUARD_OWN] if d.board[nb] == p + 1 else w[HW_GUARD_OTHER]
                        nb = NEIGH[nb][dir]
            elif d.phase == PH_DISCARD:
                v = m - M_DISC
                score = -CARD_VALUE[v] + w[HW_DISCARD_HELD] * d.hand[p][v]
            elif m == M_END:
                score = base + 1e-6
            elif m >= M_TELE and shift_only:     # a teleport, a nip or a swap, in place
                score = value_after_shift(d, &rays, &at, m, p, thr, w[HW_THREAT])
            else:
                memcpy(&tmp, d, sizeof(CEData))
                do_move(&tmp, m)
                score = pos_value(&tmp, p, thr, w[HW_THREAT])
            pick_offer(&pick, rng, m, score, 1e-9)
        return pick.choice

    cdef void evaluate_c(self, double* out) noexcept nogil:
        """Per seat still in, a chance proportional to ``seat_strength^beta`` (seats that are
        out get 0), with ``beta = EV_BETA0 + EV_BETA1 * progress (+ EV_BETA2 once two seats of
        3 or 4 are left)``, progress the share of the houses that left the board. During
        setup every seat gets 1/n; once the game is over, the returns."""
        cdef CEData* d = &self.d
        cdef double s[4]
        cdef double beta, progress
        cdef int p, n = d.h.players, left = 0, houses = 0
        if d.h.terminal:
            self.returns_c(out)
            return
        if d.phase < PH_PLAY:
            for p in range(n):
                out[p] = 1.0 / n
            return
        seat_strengths(d, s)
        for p in range(n):
            houses += d.houses[p]
            left += d.alive >> p & 1
        progress = 1.0 - houses / <double>(n * HOUSES_EACH_C[n])
        if progress < 0.0:
            progress = 0.0
        beta = EV_BETA0[n] + EV_BETA1[n] * progress
        if n > 2 and left == 2:
            beta += EV_BETA2[n]
        for p in range(n):
            s[p] = pow(s[p], beta) if s[p] > 0.0 else 0.0
        normalize(out, s, n)

    cdef int chance_outcomes_c(self, int* outcomes, double* weights) noexcept nogil:
        cdef CEData* d = &self.d
        cdef int cnt[CE_TYPES]
        cdef int m[CE_TYPES]
        cdef int s = d.h.view_seat, g, t, k = 0, msum = 0
        cdef long long num, den = 0
        if d.h.terminal or d.phase < PH_PLAY or d.hand[d.h.current][CE_UNK] == 0:
            return 0
        unseen_counts(d, NO_SEAT, cnt)
        if s >= 0 and d.pile_total:
            # after a reshuffle, the deck and the seat's own unknown draws since are cards of
            # the pile the seat has not drawn; the other unknown cards are the rest
            g = CE_CARDS - d.deck_top + d.fresh[s][CE_UNK]
            if deck_bound(d, s, cnt, m, g):
                for t in range(CE_TYPES):
                    msum += m[t]
                if d.h.current == s and d.fresh[s][CE_UNK] > 0:
                    return chance_from_counts(m, CE_TYPES, outcomes, weights)
                for t in range(CE_TYPES):
                    den += <long long>cnt[t] * msum - <long long>g * m[t]
                if den > 0:
                    for t in range(CE_TYPES):
                        num = <long long>cnt[t] * msum - <long long>g * m[t]
                        if num > 0:
                            outcomes[k] = t
                            weights[k] = num / <double>den
                            k += 1
                    return k
        return chance_from_counts(cnt, CE_TYPES, outcomes, weights)

    cdef void apply_chance_c(self, int t) noexcept nogil:
        cdef CEData* d = &self.d
        cdef int p = d.h.current
        reveal_card(d, p, t)

    def _set_options(self, dict options):
        """``setup``: ``"moves"`` (default): houses and trees are placed by moves; ``"random"``:
        they are placed at random, legally, from the state's generator, and the game starts
        with seat 0's first turn."""
        self.d.setup_random = options["setup"] == "random"

    def dealt_from(self, seat) -> dict:
        """The locations that :meth:`determinize` for ``seat`` deals from fewer cards than
        the seat has not seen, each with those cards (type order). After a reshuffle the deck
        is dealt, uniformly, from the cards of the reshuffled pile that the seat has not
        drawn itself and has not seen elsewhere; before, nothing is narrower (``{}``)."""
        cdef int s = self._check_seat(seat)
        cdef CEData* d = &self.d
        cdef int cnt[CE_TYPES]
        cdef int m[CE_TYPES]
        unseen_counts(d, s, cnt)
        if not deck_bound(d, s, cnt, m, CE_CARDS - d.deck_top):
            return {}
        return {"deck": "".join(CARD_CHARS[t] * m[t] for t in range(CE_TYPES))}

    # -- observations (see docs/rules/cat-earth.rst, "Observations") ---------------------
    def _hands(self):
        d = &self.d
        return [[d.hand[p][t] for t in range(CE_UNK + 1)] for p in range(d.h.players)]

    def _effects(self, int move):
        """What ``move`` does that a seat may see: ``(after, out, dumped, drawn)``: the state
        after it, the seats it puts out, the cards of theirs that go face up (type counts,
        CE_UNK for unknown ones) and, per seat, the cards drawn (type counts)."""
        cdef CatEarth after = <CatEarth>self.clone_c()
        cdef CEData* d = &self.d
        cdef int p = d.h.current
        before = self._hands()
        played = -1
        if M_PATH <= move < M_DISC:
            played = ((move - M_PATH) >> 4 if move < M_TELE else TP if move < M_NIP
                      else CN if move < M_SWAP else HS)
        elif M_DISC <= move < M_END:
            played = move - M_DISC
        if played >= 0:   # the card leaves the hand as card_out takes it
            before[p][played if before[p][played] else CE_UNK] -= 1
        after.apply_c(move)
        out = [q for q in range(d.h.players) if d.alive >> q & 1 and not after.d.alive >> q & 1]
        dumped = [0] * 13
        for q in out:
            for t in range(CE_UNK + 1):
                dumped[t] += before[q][t]
        now = after._hands()
        drawn = [[0] * 13 if q in out else [now[q][t] - before[q][t] for t in range(13)]
                 for q in range(d.h.players)]
        return after, out, dumped, drawn

    def _observation(self, int seat, int move) -> str:
        """``<move>`` ``!<cards>`` (the hands of players put out, face up) ``+<seat><cards>``
        per seat that drew (its own cards for ``seat``, ``?`` for another seat's)."""
        after, out, dumped, drawn = self._effects(move)
        text = self._move_to_str(move)
        if sum(dumped):
            text += "!" + "".join(CARD_CHARS[t] * dumped[t] for t in range(CE_TYPES))
        for q in range(self.d.h.players):
            k = sum(drawn[q])
            if k:
                text += f"+{q}" + ("".join(CARD_CHARS[t] * drawn[q][t] for t in range(CE_TYPES))
                                   if q == seat else "?" * k)
        return text

    def _play_observation(self, str text) -> int:
        cdef CEData* d = &self.d
        cdef int s = d.h.view_seat, n = d.h.players, p = d.h.current
        cdef int cnt[CE_TYPES]
        cdef int m[CE_TYPES]
        cdef int t, q, k
        got = _OBSERVATION.fullmatch(text)
        if got is None:
            raise ValueError(f"{text!r} is no cat-earth observation: expected <move>, then "
                             f"!<cards> for the hands of players put out, then +<seat><cards> "
                             f"per seat that drew (cards {CARD_CHARS[:CE_TYPES]}, ? for another "
                             f"seat's card), e.g. FF:d4N, end+1?, end+0T")
        move = self._str_to_move(got.group(1))
        if move not in self.legal_moves():
            raise ValueError(f"{got.group(1)!r} is not a legal move for seat {p} here")
        after, out, dumped, drawn = self._effects(move)
        # the hands of players put out, face up
        shown = got.group(2)[1:] if got.group(2) else ""
        if len(shown) != sum(dumped):
            raise ValueError(f"the move puts out seat(s) {out or 'none'}, whose "
                             f"{sum(dumped)} card(s) go face up; the observation shows "
                             f"{len(shown)}")
        seen = [0] * 13
        for ch in shown:
            seen[CARD_CHARS.index(ch)] += 1
        for t in range(CE_TYPES):
            if seen[t] < dumped[t]:
                raise ValueError(f"seat {s} knows that a {CARD_LONG[t]} goes face up here; "
                                 f"the observation shows {shown!r}")
        # each seat's draws: its own in clear, another's unknown
        groups = {}
        for g in re.findall(r"\+([0-3])([^+]*)", got.group(3)):
            q = int(g[0])
            if q in groups or q >= n:
                raise ValueError(f"seat {q}'s draw is given twice or does not exist")
            groups[q] = g[1]
        for q in range(n):
            k = sum(drawn[q])
            cards = groups.get(q, "")
            if len(cards) != k:
                raise ValueError(f"seat {q} draws {k} card(s) on this move; the observation "
                                 f"gives {len(cards)}")
            if k and q == s and "?" in cards:
                raise ValueError(f"seat {s} sees the card(s) it draws; the observation gives "
                                 f"{cards!r}")
            if k and q != s and cards != "?" * k:
                raise ValueError(f"seat {q}'s draw {cards!r} is not for seat {s} to see (this "
                                 f"is seat {q}'s observation)")
        # the cards put out become known before they go face up: the mover's card first
        rest = [seen[t] - dumped[t] for t in range(CE_TYPES)]
        for q in out:
            if q == p and M_PATH <= move < M_END and move < M_DISC:
                t = ((move - M_PATH) >> 4 if move < M_TELE else TP if move < M_NIP
                     else CN if move < M_SWAP else HS)
                if d.hand[p][t] == 0:
                    d.hand[p][CE_UNK] -= 1
                    d.hand[p][t] += 1
            for t in range(CE_TYPES):
                while d.hand[q][CE_UNK] and rest[t] and not (q == p and d.hand[q][CE_UNK] == 0):
                    d.hand[q][CE_UNK] -= 1
                    d.hand[q][t] += 1
                    rest[t] -= 1
        self.apply_c(move)
        mine = groups.get(s, "")
        if d.hand[s][CE_UNK] < len(mine):
            raise ValueError(f"seat {s} holds {d.hand[s][CE_UNK]} unknown card(s) after the "
                             f"move, not the {len(mine)} it drew")
        for ch in mine:
            reveal_card(d, s, CARD_CHARS.index(ch))
        # nothing shown may exceed the cards the seat has not seen
        unseen_counts(d, NO_SEAT, cnt)
        for t in range(CE_TYPES):
            if cnt[t] < 0:
                raise ValueError(f"more {CARD_LONG[t]} cards than the game has would be known "
                                 f"to seat {s}")
        if d.pile_total and not d.pile[CE_UNK]:
            for t in range(CE_TYPES):
                if d.fresh[s][t] > d.pile[t]:
                    raise ValueError(f"seat {s} cannot draw a {CARD_LONG[t]}: the deck was "
                                     f"reshuffled from a pile with {d.pile[t]}, all drawn")
            unseen_counts(d, s, cnt)
            k = 0
            for t in range(CE_TYPES):
                k += min(cnt[t], max(0, d.pile[t] - d.fresh[s][t]))
            if k < CE_CARDS - d.deck_top:
                raise ValueError(f"the deck's {CE_CARDS - d.deck_top} cards cannot come from "
                                 f"the reshuffled pile after these draws")
        d.h.hash = self.compute_hash_c()
        return move

    # -- tensors (see docs/rules/cat-earth.rst, "Tensors") --------------------------------
    def _tensor_layout(self, int kind) -> list:
        """The tensor parts for this player count: the observation's, then (information
        state) the other seats' cards the view knows and its memory of the last reshuffle."""
        cdef int n = self.d.h.players
        parts = [("houses", 49 * n), ("trees", 49), ("cats", 49), ("turn", n), ("phase", 5),
                 ("played", 1), ("round", 1), ("waiting_cats", 1), ("alive", n),
                 ("house_counts", n), ("hand", CE_TYPES), ("hand_sizes", n),
                 ("discard", CE_TYPES + 1), ("deck_size", 1), ("winners", n)]
        if kind == 1:
            parts += [("others_cards", (n - 1) * CE_TYPES), ("reshuffle_pile", CE_TYPES + 1),
                      ("draws_since_reshuffle", n * (CE_TYPES + 1))]
        return parts

    cdef void tensor_c(self, int kind, float* out) noexcept nogil:
        """The view's tensor, seats relative to the view's seat (itself first, then in seat
        order); laid out as ``_tensor_layout`` says."""
        cdef CEData* d = &self.d
        cdef int n = d.h.players, s = d.h.view_seat
        cdef int o = 0, sq, v, r, p, t
        # the observation: the board
        for sq in range(49):
            v = d.board[sq]
            if 1 <= v <= 4:
                out[o + ((v - 1 - s + n) % n) * 49 + sq] = 1.0
            elif v == TREE:
                out[o + n * 49 + sq] = 1.0
            elif v == CAT:
                out[o + (n + 1) * 49 + sq] = 1.0
        o += (n + 2) * 49
        o = put_turn(out, o, &d.h)
        out[o + d.phase] = 1.0
        o += 5
        out[o] = d.played / <float>MAX_PLAYS
        out[o + 1] = d.round / <float>MAX_ROUNDS
        out[o + 2] = d.pending / 3.0
        o += 3
        for r in range(n):
            p = (s + r) % n
            if d.alive >> p & 1:
                out[o + r] = 1.0
            out[o + n + r] = d.houses[p] / <float>HOUSES_EACH_C[n]
        o += 2 * n
        for t in range(CE_TYPES):
            out[o + t] = d.hand[s][t] / <float>COMP[t]
        o += CE_TYPES
        for r in range(n):
            out[o + r] = d.hand_size[(s + r) % n] / <float>(HAND_LIMIT + 1)
        o += n
        for t in range(CE_TYPES):
            out[o + t] = d.discard[t] / <float>COMP[t]
        out[o + CE_TYPES] = d.discard[CE_UNK] / <float>CE_CARDS
        o += CE_TYPES + 1
        out[o] = (CE_CARDS - d.deck_top) / <float>CE_CARDS
        o += 1
        if d.h.terminal:
            for r in range(n):
                if d.winners >> ((s + r) % n) & 1:
                    out[o + r] = 1.0
        o += n
        if kind == 0:
            return
        # the information state: another seat's cards the view knows (a view searched
        # forward), and the memory of the last reshuffle
        for r in range(1, n):
            p = (s + r) % n
            for t in range(CE_TYPES):
                out[o + (r - 1) * CE_TYPES + t] = d.hand[p][t] / <float>COMP[t]
        o += (n - 1) * CE_TYPES
        for t in range(CE_TYPES):
            out[o + t] = d.pile[t] / <float>COMP[t]
        out[o + CE_TYPES] = d.pile[CE_UNK] / <float>CE_CARDS
        o += CE_TYPES + 1
        for r in range(n):
            p = (s + r) % n
            for t in range(CE_TYPES):
                out[o + t] = d.fresh[p][t] / <float>COMP[t]
            out[o + CE_TYPES] = d.fresh[p][CE_UNK] / <float>CE_CARDS
            o += CE_TYPES + 1

    # -- Python API: text ---------------------------------------------------------------
    def _cat_ref(self, int k):
        return SQ_NAMES[self.d.cat_sq[k]] if k < self.d.ncats else f"cat{k}"

    def _move_to_str(self, int m) -> str:
        if m < M_TREE:
            return "H:" + SQ_NAMES[m - M_HOUSE]
        if m < M_PATH:
            return "T:" + SQ_NAMES[m - M_TREE]
        if m < M_TELE:
            x = m - M_PATH
            return f"{CARD_NAMES[x >> 4]}:{self._cat_ref((x >> 2) & 3)}{DIRS[x & 3]}"
        if m < M_NIP:
            x = m - M_TELE
            return f"TP:{self._cat_ref(x // 49)}-{SQ_NAMES[x % 49]}"
        if m < M_SWAP:
            return f"CN:{self._cat_ref(m - M_NIP)}"
        if m < M_DISC:
            x = m - M_SWAP
            return f"HS:{SQ_NAMES[PAIR_A[x]]}-{SQ_NAMES[PAIR_B[x]]}"
        if m < M_END:
            return "x:" + CARD_NAMES[m - M_DISC]
        return "end"

    def _bad_move(self, s):
        return InvalidMoveError(
            f"{s!r} is not a cat-earth move: write H:<square> or T:<square> in setup; a path "
            f"card, a cat's square and a first direction (FFR:d4N; cards "
            f"{' '.join(CARD_NAMES[:9])}; directions N E S W); TP:<cat>-<square>; CN:<cat>; "
            f"HS:<square>-<square>; x:<card> to discard (x:FR, x:TP); or end")

    def _cat_index(self, str s, str ref):
        if ref.startswith("cat") and len(ref) == 4 and ref[3] in "0123":
            return int(ref[3])
        sq = SQ_INDEX.get(ref)
        if sq is None:
            raise self._bad_move(s)
        for k in range(self.d.ncats):
            if self.d.cat_sq[k] == sq:
                return k
        raise IllegalMoveError(f"illegal move {s!r}: there is no cat on {ref} in {self.to_text()!r}")

    def _str_to_move(self, str s) -> int:
        if s == "end":
            return M_END
        card, colon, rest = s.partition(":")
        if not colon or not rest:
            raise self._bad_move(s)
        if card == "H" or card == "T":
            sq = SQ_INDEX.get(rest)
            if sq is None:
                raise self._bad_move(s)
            return (M_HOUSE if card == "H" else M_TREE) + sq
        if card == "x":
            if rest not in CARD_NAMES:
                raise self._bad_move(s)
            return M_DISC + CARD_NAMES.index(rest)
        if card == "CN":
            return M_NIP + self._cat_index(s, rest)
        if card == "TP" or card == "HS":
            a, dash, b = rest.partition("-")
            if not dash:
                raise self._bad_move(s)
            sb = SQ_INDEX.get(b)
            if sb is None:
                raise self._bad_move(s)
            if card == "TP":
                return M_TELE + 49 * self._cat_index(s, a) + sb
            sa = SQ_INDEX.get(a)
            if sa is None or sa == sb:
                raise self._bad_move(s)
            return M_SWAP + PAIR[sa][sb]
        last = rest[len(rest) - 1]
        if card in PATH_NAMES and len(rest) >= 2 and last in DIRS:
            c = CARD_NAMES.index(card)
            return M_PATH + (c * 4 + self._cat_index(s, rest[:len(rest) - 1])) * 4 + DIRS.index(last)
        raise self._bad_move(s)

    def _board_str(self):
        d = &self.d
        return "/".join("".join(BOARD_CHARS[d.board[r * 7 + f]] for f in range(7))
                        for r in range(6, -1, -1))

    def _hand_str(self, int p):
        d = &self.d
        return "".join(CARD_CHARS[t] * d.hand[p][t] for t in range(CE_UNK + 1))

    def cards(self) -> dict:
        d = &self.d
        out = {f"hand{p}": self._hand_str(p) for p in range(d.h.players)}
        out["deck"] = "".join(CARD_CHARS[d.deck[i]] for i in range(d.deck_top, CE_CARDS))
        out["discard"] = "".join(CARD_CHARS[t] * d.discard[t] for t in range(CE_UNK + 1))
        return out

    def knowledge(self) -> dict:
        everyone = frozenset(range(self.d.h.players))
        out = {f"hand{p}": frozenset([p]) for p in range(self.d.h.players)}
        out.update(deck=frozenset(), discard=everyone)
        return out

    def __str__(self):
        d = &self.d
        if d.h.terminal:
            who = ", ".join(f"seat {p}" for p in range(d.h.players) if d.winners >> p & 1)
            status = f"game over, won by {who}"
        else:
            status = f"seat {d.h.current} to move ({PHASES[d.phase]}"
            if d.phase == PH_PLAY:
                status += f", {d.played} card{'s' if d.played != 1 else ''} played"
            status += ")"
        lines = [f"Cat Earth, {d.h.players} players, "
                 + (f"round {d.round}, " if d.round else "setup, ") + status
                 + (f" (seat {d.h.view_seat}'s view)" if d.h.view_seat >= 0 else "")]
        lines.append("     a b c d e f g")
        for r in range(6, -1, -1):
            row = " ".join(BOARD_CHARS[d.board[r * 7 + f]] for f in range(7))
            lines.append(f"  {r + 1}  {row}  {r + 1}")
        lines.append("     a b c d e f g")
        lines.append("  digits: houses by seat, T: tree, C: cat"
                     + (f"; {d.pending} cat(s) waiting for d4" if d.pending else ""))
        lines.append(f"  deck     {CE_CARDS - d.deck_top} cards")
        disc = [CARD_LONG[t] for t in range(CE_TYPES) for _ in range(d.discard[t])]
        disc += ["?"] * d.discard[CE_UNK]
        lines.append(f"  discard  {', '.join(disc) or '(empty)'}")
        for p in range(d.h.players):
            mark = ">" if p == d.h.current else " "
            hand = [CARD_LONG[t] for t in range(CE_TYPES) for _ in range(d.hand[p][t])]
            hand += ["?"] * d.hand[p][CE_UNK]
            out = " (out)" if d.phase >= PH_PLAY and not (d.alive >> p & 1) else ""
            lines.append(f"{mark} seat {p}   houses {d.houses[p]}{out}   hand: "
                         f"{', '.join(hand) or '(empty)'}")
        return "\n".join(lines)

    def _read(self, TextFields f):
        cdef CEData* d = &self.d
        cdef int n = d.h.players
        cdef int sq, p, t, i, k, a, ndeck, pending, rnd, played, winners, per, total_houses
        cdef int counts[13]
        cdef int starts[8]
        cdef int ends[8]
        cdef unsigned char cards[64]
        cdef int turn, placed, cur
        cdef bint setup_cards
        cdef int s = d.h.view_seat
        text = f.text
        if f.has("setup"):
            if f["setup"].value not in SETUPS:
                raise f.err("setup", "expected moves or random")
            d.setup_random = f["setup"].value == "random"
        phv = f.value("phase")
        if phv not in PHASES:
            raise f.err("phase", f"expected one of {', '.join(PHASES)}")
        d.phase = PHASES.index(phv)
        memset(counts, 0, sizeof(counts))

        # the board
        ntrees = _board_fast(f, d, n)
        bf = f["board"] if ntrees < 0 else None
        rows = bf.value.split("/") if ntrees < 0 else ()
        if ntrees < 0 and len(rows) != 7:
            raise f.err("board", f"expected 7 ranks (7 to 1) separated by /, got {len(rows)}")
        off = 0
        if ntrees < 0:
            ntrees = 0
        valid = "." + "0123"[:n] + "TC"
        for ri, row in enumerate(rows):
            if len(row) != 7:
                raise f.err("board", f"rank {7 - ri} needs 7 squares (a to g), got {len(row)}",
                            off, len(row) or 1)
            for fi, ch in enumerate(row):
                if ch not in valid:
                    raise f.err("board", f"{ch!r} is not a square; squares are {' '.join(valid)}",
                                off + fi, 1)
                v = BOARD_CHARS.index(ch)
                if v == CAT and d.ncats == 4:
                    raise f.err("board", "more than 4 cats", off + fi, 1)
                ntrees += put_square(d, (6 - ri) * 7 + fi, v)
            off += len(row) + 1
        sort_cats(d)
        per = HOUSES_EACH[n]
        for p in range(n):
            if d.houses[p] > per:
                raise f.err("board", f"seat {p} has {d.houses[p]} houses; with {n} players "
                            f"each has {per}")
        if ntrees > n * TREES_EACH[n]:
            raise f.err("board", f"{ntrees} trees; with {n} players there are {n * TREES_EACH[n]}")
        for sq in range(49):
            if d.board[sq] == TREE and not _tree_placement_ok(d, sq):
                raise f.err("board", f"the tree on {SQ_NAMES[sq]} is on or next to d4 or next to "
                            f"another tree")
        if d.ncats == 0:
            raise f.err("board", "no cat on the board; the game starts with one on d4")
        pending = f.int_c("pending", 0, 3)
        if d.ncats + pending > 4:
            raise f.err("pending", f"{d.ncats} cats on the board and {pending} waiting: "
                          f"there are only 4 cats")
        d.pending = pending

        f.split_c("hands", n, c'/', "hands", starts, ends, 8)
        a = f.vstart[f.key("hands")]
        for p in range(n):
            if p == s:
                # the seat's own hand: its cards, and * for a card it drew in a view a search
                # played on (unknown to it); never ?
                if "?" in f.text[starts[p]:ends[p]]:
                    raise f.err("hands", f"seat {p} knows its own cards: its view shows them "
                                f"(* only for a card it drew in a view a search played on), "
                                f"never ?", starts[p] - a, (ends[p] - starts[p]) or 1)
                k = f.cards_c("hands", starts[p], ends[p], _CARD_OWN.table, CARD_OWN, counts, True,
                              "", cards, 64)
            else:
                k = f.cards_c("hands", starts[p], ends[p], _CARD.table, CARD_CHARS, counts, True, "",
                              cards, 64)
                if s >= 0 and f.text[starts[p]:ends[p]].strip("?-"):
                    raise f.err("hands", f"seat {s} cannot see seat {p}'s cards: in its view "
                                f"another seat's hand is all ? (or -)", starts[p] - a,
                                (ends[p] - starts[p]) or 1)
            if k > HAND_LIMIT + 1:
                raise f.err("hands", f"seat {p} holds {k} cards; a hand has at most 5",
                              starts[p] - a, (ends[p] - starts[p]) or 1)
            for i in range(k):
                d.hand[p][cards[i]] += 1
            d.hand_size[p] = k
        a = f.key("deck")
        ndeck = f.cards_c("deck", f.vstart[a], f.vend[a], _CARD.table, CARD_CHARS, counts, True, "",
                          cards, 64)
        if ndeck > CE_CARDS:
            raise f.err("deck", f"{ndeck} cards is more than the deck has")
        if s >= 0 and f.value("deck").strip("?-"):
            raise f.err("deck", f"seat {s} cannot see the deck's cards: in a view the deck is "
                        f"all ? (or -)")
        d.deck_top = CE_CARDS - ndeck
        for i in range(ndeck):
            d.deck[d.deck_top + i] = cards[i]
        a = f.key("discard")
        if s >= 0:
            # face up: every seat saw it (* only in a view a search played on, for a hand
            # that went face up unknown); never ?
            if "?" in f.value("discard"):
                raise f.err("discard", f"the discard pile is face up: seat {s} knows its cards "
                            f"(never ?)")
            k = f.cards_c("discard", f.vstart[a], f.vend[a], _CARD_OWN.table, CARD_OWN, counts, True,
                          "", cards, 64)
        else:
            k = f.cards_c("discard", f.vstart[a], f.vend[a], _CARD.table, CARD_CHARS, counts, True,
                          "", cards, 64)
        for i in range(min(k, 64)):
            d.discard[cards[i]] += 1
        check_counts(text, counts, COMP, CE_TYPES, CARD_LONG, SPEC.name, d.h.view_seat >= 0)

        rnd = f.int_c("round", 0, MAX_ROUNDS)
        played = f.int_c("played", 0, MAX_PLAYS - 1)
        d.round = rnd
        d.played = played
        winners = 0
        if not f.is_("winners", b"-"):
            wf = f["winners"]
            for part in wf.value.split(","):
                if not (part.isascii() and part.isdigit()) or int(part) >= n or (
                        winners >> int(part) & 1):
                    raise f.error(wf, f"expected - or distinct seats 0 to {n - 1} separated by ,")
                winners |= 1 << int(part)
        total_houses = 0
        setup_cards = ndeck == CE_CARDS
        for p in range(n):
            total_houses += d.houses[p]
            setup_cards = setup_cards and d.hand_size[p] == 0

        if d.phase <= PH_TREE:
            if not setup_cards:
                raise NotationError("during setup all 40 cards are in the deck", text)
            if d.ncats != 1 or d.board[D4] != CAT or pending:
                raise f.err("board", "during setup the only cat is on d4")
            if rnd != 0 or played != 0 or winners:
                raise NotationError("during setup round and played are 0 and winners is -", text)
            for sq in range(49):
                if is_house(d.board[sq]) and not START[n][sq]:
                    raise f.err("board", f"a house on {SQ_NAMES[sq]}, which is no starting square "
                                  f"for {n} players")
            if d.phase == PH_HOUSE:
                placed = total_houses
                if ntrees or placed >= n * per:
                    raise f.err("phase", "houses are placed before trees, until all are down")
                for p in range(n):
                    if d.houses[p] != placed // n + (1 if p < placed % n else 0):
                        raise f.err("board", "houses are placed one at a time from seat 0 "
                                    "clockwise")
                turn = placed % n
            else:
                if total_houses != n * per or any([d.houses[p] != per for p in range(n)]):
                    raise f.err("phase", f"trees come after all houses ({per} each) are placed")
                if ntrees >= n * TREES_EACH[n]:
                    raise f.err("phase", "all trees are placed; the game is in play")
                placed = n * per + ntrees
                turn = ((n - 1 - ntrees) % n + n) % n
            if f.int_c("turn", 0, n - 1) != turn:
                raise f.err("turn", f"seat {turn} places next")
            d.placed = placed
            d.alive = (1 << n) - 1
            d.h.current = turn
        else:
            d.placed = n * per + n * TREES_EACH[n]
            if ntrees != n * TREES_EACH[n]:
                raise f.err("board", f"the game is in play: all {n * TREES_EACH[n]} trees are "
                            f"placed")
            if rnd < 1:
                raise f.err("round", "in play, rounds count from 1")
            for p in range(n):
                if d.houses[p] > 0:
                    d.alive |= 1 << p
                elif d.hand_size[p] > 0:
                    raise f.err("hands", f"seat {p} is out (no houses) and holds no cards")
            if pending and d.board[D4] == EMPTY:
                raise f.err("pending", "a waiting cat enters as soon as d4 is empty")
            if d.phase == PH_OVER:
                if not f.is_("turn", b"-"):
                    raise f.err("turn", "the game is over: turn must be -")
                if winners == 0:
                    raise f.err("winners", "the game is over: name the winners")
                if d.alive:
                    best = max(d.houses[p] for p in range(n))
                    expect = sum(1 << p for p in range(n) if d.houses[p] == best)
                    if winners != expect:
                        raise f.err("winners", "the players with the most houses win")
                    if d.alive & (d.alive - 1) and rnd != MAX_ROUNDS:
                        raise f.err("round", "with two players still in, the game ends only "
                                      "after round 100")
                if played:
                    raise f.err("played", "the game is over: played is 0")
                d.h.current = NO_SEAT
                d.h.terminal = 1
                d.winners = winners
            else:
                if winners:
                    raise f.err("winners", "the game is not over: winners is -")
                if d.alive & (d.alive - 1) == 0:
                    raise f.err("board", "with fewer than two players holding houses the game "
                                "is over")
                cur = f.int_c("turn", 0, n - 1)
                if not d.alive >> cur & 1:
                    raise f.err("turn", f"seat {cur} is out and cannot be the seat to move")
                if CE_CARDS - d.deck_top == 0:
                    raise f.err("deck", "in play the deck is never empty (it is reshuffled "
                                  "the moment its last card is drawn)")
                for p in range(n):
                    if p != cur and d.hand_size[p] > HAND_LIMIT:
                        raise f.err("hands", f"seat {p} holds {d.hand_size[p]} cards; between "
                                    f"turns a hand has at most 4")
                if d.phase == PH_PLAY:
                    if d.hand_size[cur] == 0 or d.hand_size[cur] + played > HAND_LIMIT + 1:
                        raise f.err("hands", f"seat {cur} to play holds 1 to "
                                    f"{HAND_LIMIT + 1 - played} cards after playing {played}")
                else:
                    if d.hand_size[cur] <= HAND_LIMIT or played:
                        raise f.err("phase", "a player discards only when holding more than 4 "
                                    "cards after playing none")
                d.h.current = cur
        self._read_pile(f)

    def _read_pile(self, f):
        """The memory of the last reshuffle: ``pile`` and ``fresh`` (both or neither)."""
        cdef CEData* d = &self.d
        cdef int n = d.h.players, s = d.h.view_seat
        cdef int cnt[CE_TYPES]
        cdef int m[CE_TYPES]
        cdef int i
        if "pile" not in f and "fresh" not in f:
            return
        key = "pile" if "pile" in f else "fresh"
        if "pile" not in f or "fresh" not in f:
            raise f.error(f[key], "pile= and fresh= come together")
        if d.phase < PH_PLAY:
            raise f.error(f[key], "there is no reshuffle during setup")
        letters = CARD_OWN if s >= 0 else CARD_CHARS
        if len(f["pile"].value) > CE_CARDS:
            raise f.error(f["pile"], f"{len(f['pile'].value)} cards: the reshuffled pile holds "
                          f"at most {CE_CARDS}")
        if len(f["fresh"].value) > CE_CARDS + 2 * n:
            raise f.error(f["fresh"], f"too long: at most {CE_CARDS} cards were drawn since the "
                          f"reshuffle")
        if s >= 0 and "?" in f["pile"].value:
            raise f.error(f["pile"], f"the reshuffled pile was face up: seat {s} knows its "
                          f"cards (never ?)")
        counts = [0] * 13
        pile = f.cards("pile", f["pile"].value, 0, letters, counts, unknown=s >= 0)
        if not pile:
            raise f.error(f["pile"], "the reshuffled pile holds at least one card")
        for t in range(CE_UNK + 1):
            if t < CE_TYPES and counts[t] > COMP[t]:
                raise f.error(f["pile"], f"{counts[t]} {CARD_LONG[t]} cards, but the game has "
                              f"{COMP[t]}")
            d.pile[t] = counts[t]
        d.pile_total = len(pile)
        drawn = 0
        for p, (part, off) in enumerate(f.parts("fresh", n, "/", "seats")):
            counts = [0] * 13
            if p == s and "?" in part:
                raise f.error(f["fresh"], f"seat {s} saw its own draws since the reshuffle "
                              f"(* only for one in a view a search played on), never ?", off,
                              len(part) or 1)
            if s >= 0 and p != s and part.strip("?-"):
                raise f.error(f["fresh"], f"seat {s} cannot see seat {p}'s draws: in its view "
                              f"they are all ? (or -)", off, len(part) or 1)
            cards = f.cards("fresh", part, off, letters if p == s else CARD_CHARS, counts,
                            unknown=s >= 0)
            if len(cards) > CE_CARDS:
                raise f.error(f["fresh"], f"seat {p} drew {len(cards)} cards since the "
                              f"reshuffle; the pile had {d.pile_total}", off, len(part) or 1)
            for t in range(CE_UNK + 1):
                d.fresh[p][t] = counts[t]
                if t < CE_TYPES and counts[t] > d.pile[t] + d.pile[CE_UNK]:
                    raise f.error(f["fresh"], f"seat {p} drew {counts[t]} {CARD_LONG[t]} since the "
                                  f"reshuffle; the pile had {d.pile[t]}", off, len(part) or 1)
            drawn += len(cards)
        k = CE_CARDS - d.deck_top
        if drawn + k != d.pile_total:
            raise f.error(f["fresh"], f"{drawn} cards drawn since the reshuffle and {k} in the "
                          f"deck, but the pile had {d.pile_total}")
        if s < 0:
            for t in range(CE_TYPES):
                k = sum(d.fresh[p][t] for p in range(n))
                for i in range(d.deck_top, CE_CARDS):
                    k += d.deck[i] == t
                if k != d.pile[t]:
                    raise f.error(f["pile"], f"the pile had {d.pile[t]} {CARD_LONG[t]}, but the "
                                  f"deck and the draws since hold {k}")
            return
        k = CE_CARDS - d.deck_top
        unseen_counts(d, s, cnt)
        total = 0
        for t in range(CE_TYPES):
            kk = max(0, d.pile[t] - d.fresh[s][t]) if not d.pile[CE_UNK] else cnt[t]
            total += min(kk, cnt[t])
        if total < k:
            raise f.error(f["pile"], f"the deck's {k} cards cannot come from this pile: seat {s} "
                          f"has seen all but {total} of it")


    def _write_text(self):
        return write_text(self, _put_field)


register(CatEarth)


cdef int _board_fast(TextFields f, CEData* d, int n) except -2:
    """The ``board`` field read in C where it is well formed (7 ranks of 7 valid squares, at
    most 4 cats): return the number of trees; else -1 (nothing written), and ``_read``
    reads it the precise way."""
    cdef int k = f.key("board"), a, ri, fi, c, v, sq, ntrees = 0, ncats = 0
    if not f.fast:
        return -1
    a = f.vstart[k]
    if f.vend[k] - a != 55:
        return -1
    for ri in range(7):
        if ri and f.s[a + ri * 8 - 1] != c'/':
            return -1
        for fi in range(7):
            v = _SQUARE[f.s[a + ri * 8 + fi] & 0x7f]
            if v < 0 or (1 <= v <= 4 and v > n):
                return -1
            if v == CAT:
                ncats += 1
    if ncats > 4:
        return -1
    for ri in range(7):
        for fi in range(7):
            ntrees += put_square(d, (6 - ri) * 7 + fi, _SQUARE[f.s[a + ri * 8 + fi]])
    return ntrees


cdef inline int put_square(CEData* d, int sq, int v) noexcept:
    """A square of the notation's board read: ``v`` on ``sq``, counting the houses and the
    cats (at most 4, checked by the reader); returns 1 for a tree, else 0."""
    d.board[sq] = v
    if is_house(v):
        d.houses[v - 1] += 1
    elif v == CAT:
        d.cat_sq[d.ncats] = sq
        d.ncats += 1
    return v == TREE


cdef signed char _SQUARE[128]
card_table(BOARD_CHARS + "!", _SQUARE)
cdef CardLetters _CARD, _CARD_OWN  # letters: reader .table, writer .chars
card_letters(&_CARD, CARD_CHARS)
card_letters(&_CARD_OWN, CARD_OWN)


cdef bytes _BOARD_B = BOARD_CHARS.encode("ascii")
cdef const char* _BOARD = _BOARD_B
cdef tuple _PHASES_B = tuple(ph.encode("ascii") for ph in PHASES)


cdef int _put_field(State st, TextOut* o, int j) except -1:
    """The value of notation field ``j`` (``SPEC.notation[j]``)."""
    cdef CEData* d = &(<CatEarth>st).d
    cdef int p, r, f, mark, first
    if j == 1:                                  # phase
        put_s(o, <bytes>_PHASES_B[d.phase])
    elif j == 2:                                # turn
        put_turn_or_dash(o, d.h.current)
    elif 3 <= j <= 5:                           # round, played, pending
        put_int(o, d.round if j == 3 else d.played if j == 4 else d.pending)
    elif j == 6:                                # board, rank 7 first
        for r in range(6, -1, -1):
            if r != 6:
                put_c(o, c'/')
            for f in range(7):
                put_c(o, _BOARD[d.board[r * 7 + f]])
    elif j == 7 or j == 14:                     # hands, fresh
        if j == 14 and not d.pile_total:
            return 0
        for p in range(d.h.players):
            if p:
                put_c(o, c'/')
            mark = o.n
            put_counted(o, <unsigned char*>d.hand[p] if j == 7 else <unsigned char*>d.fresh[p],
                        CE_UNK + 1, <const char*>_CARD_OWN.chars if p == d.h.view_seat
                        else <const char*>_CARD.chars)
            dash_if_empty(o, mark)
    elif j == 8:                                # deck, top first
        mark = o.n
        put_run(o, d.deck + d.deck_top, CE_CARDS - d.deck_top, _CARD.chars)
        dash_if_empty(o, mark)
    elif j == 9:
        mark = o.n
        put_counted(o, d.discard, CE_UNK + 1, _CARD_OWN.chars)
        dash_if_empty(o, mark)
    elif j == 10:                               # winners
        first = 1
        for p in range(d.h.players):
            if d.winners >> p & 1:
                if not first:
                    put_c(o, c',')
                put_int(o, p)
                first = 0
        if first:
            put_c(o, c'-')
    elif j == 12:                               # setup
        if not d.setup_random:
            return 0
        put_s(o, b"random")
    elif j == 13:                               # pile
        if not d.pile_total:
            return 0
        put_counted(o, d.pile, CE_UNK + 1, _CARD_OWN.chars)
    else:
        raise ValueError(f"no notation field {j}")
    return 1

# <move>, then !<cards> (hands put out, face up), then +<seat><cards> per seat that drew
_OBSERVATION = re.compile(r"([A-Za-z0-9:\-]+)(![1-9TNS]+)?((?:\+[0-3][1-9TNS?]+)*)")


cdef bint _tree_placement_ok(CEData* d, int sq):
    """Trees on the board keep the placement rule (checked without the square itself)."""
    d.board[sq] = EMPTY
    ok = tree_ok(d, sq)
    d.board[sq] = TREE
    return ok
