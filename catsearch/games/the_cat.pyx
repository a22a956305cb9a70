# cython: language_level=3
"""The Cat (``the-cat``): rules in ``docs/rules/the-cat.rst``.

The real-time game is played in *ticks*. In every tick each seat chooses one action, one seat
after another in seat order (``current_player`` walks 0, 1, ..), each choice hidden from the
others; when the last seat has chosen, the tick resolves in priority order starting with seat
``tick mod players``.

Cards are moods ``0..12``, written ``1 2 .. 9 a b c d`` (moods 1-13); ``?`` is a card a seat's
view does not know. With 2 players only moods 1-9 are used.

Moves (ints ``0..21``), with their text:

======  ===========================================  ===========
int     move                                         text
======  ===========================================  ===========
0       do nothing this tick                         ``wait``
1       call Stop                                    ``stop``
2-5     pick up own pile k (k = m-2)                 ``pick<k>``
6-21    swap: card i of the held pile <-> centre j   ``swap<i><j>``
        (m = 6 + 4*i + j)
======  ===========================================  ===========

``observe_move`` returns the move itself to the seat that chose it and ``22`` (``TC_HIDDEN``,
"this seat chose something you cannot see") to every other seat: a choice is secret until the
tick resolves, and its effects are then public in the state itself.

Observations (a live game, ``observation`` / ``play_observation``; the notation is on the
rules page, "Observations"): the seat that chooses sees its move (``pick1``), the others
``hidden``; the last choice of a tick adds what the tick did as each seat sees it, e.g.
``hidden:swap30=9,pick3`` (``pick3=8889`` for the seat that picked), or at the end of a round
``wait:scored=5,2:centre=6281`` (with ``:piles=...`` when the game ends).
"""
from libc.stdint cimport uint64_t
from libc.string cimport memset, memcpy
from libc.math cimport exp

from catsearch._core.rng cimport Rng, rng_below, rng_shuffle_u8, fill_tables
from catsearch._core.state cimport (State, Header, NO_SEAT, restart, scores_from, normalize,
                                    as_view, as_full, heuristic_weights, fill_weights)
from catsearch._core.observing cimport put_turn
from catsearch._core.zobrist cimport set_turn, turn_key
from catsearch._core.cards cimport shuffled_pool, chance_from_counts

import operator
import re

from catsearch._core.game import GameSpec, notation_fields, register
from catsearch._core.notation import words_for
from catsearch._core.options import Option, check_int
from catsearch.errors import IllegalMoveError, InvalidMoveError, NotationError
from catsearch._core.text cimport (TextFields, TextOut, write_text, put_c, put_s, put_int,
                                   put_turn_or_dash, put_ints, CardLetters, card_letters)

MOODS = "123456789abcd"
CARD_CHARS = MOODS + "?"
TARGETS = (20, 12)
KNOWN_CHARS = "-o*"     # a pile card known to nobody, to its owner only, to everyone
OBS_HIDDEN = "hidden"   # an observation of another seat's choice, hidden until the tick resolves

cdef enum:
    M_WAIT = 0
    M_STOP = 1
    M_PICK = 2
    M_SWAP = 6

# Zobrist keys, drawn once at import from fixed seeds.
cdef uint64_t Z_CENTRE[4][14]
cdef uint64_t Z_PILE[4][4][4][14]
cdef uint64_t Z_KNOWN[4][4][4][16]
cdef uint64_t Z_HELD[4][5]          # pile held + 1 (0: none)
cdef uint64_t Z_PEND[4][24]         # pending + 1 (0: not chosen, 23: hidden)
cdef uint64_t Z_SCORE[4][64]
cdef uint64_t Z_TURN[5]             # current + 1 (0: nobody)
cdef uint64_t Z_PRIO[4]             # tick mod players: the seat with priority
cdef uint64_t Z_RTICK[201]
cdef uint64_t Z_ROUND[51]
cdef uint64_t Z_PHASE[16]
cdef uint64_t Z_TARGET12[1]
cdef uint64_t* _TABLES[12]
cdef Py_ssize_t _BYTES[12]
_TABLES[:] = [&Z_CENTRE[0][0], &Z_PILE[0][0][0][0], &Z_KNOWN[0][0][0][0], &Z_HELD[0][0],
              &Z_PEND[0][0], &Z_SCORE[0][0], &Z_TURN[0], &Z_PRIO[0], &Z_RTICK[0], &Z_ROUND[0],
              &Z_PHASE[0], &Z_TARGET12[0]]
_BYTES[:] = [sizeof(Z_CENTRE), sizeof(Z_PILE), sizeof(Z_KNOWN), sizeof(Z_HELD), sizeof(Z_PEND),
             sizeof(Z_SCORE), sizeof(Z_TURN), sizeof(Z_PRIO), sizeof(Z_RTICK), sizeof(Z_ROUND),
             sizeof(Z_PHASE), sizeof(Z_TARGET12)]
fill_tables(_TABLES, _BYTES, 12, 0x5443_0001)
# Z_TURN by seat, as zobrist.turn_key reads it (nobody last)
cdef uint64_t Z_TURN_AT[5]
Z_TURN_AT[:] = [Z_TURN[1], Z_TURN[2], Z_TURN[3], Z_TURN[4], Z_TURN[0]]


# -- small mutators that keep the hash in step -------------------------------------------

cdef inline void set_pending(TCData* d, int p, int m) noexcept nogil:
    d.h.hash ^= Z_PEND[p][d.pending[p] + 1] ^ Z_PEND[p][m + 1]
    d.pending[p] = <signed char>m

cdef inline void set_held(TCData* d, int p, int k) noexcept nogil:
    d.h.hash ^= Z_HELD[p][d.held[p] + 1] ^ Z_HELD[p][k + 1]
    d.held[p] = <signed char>k

cdef inline void set_known(TCData* d, int p, int k, int i, int mask) noexcept nogil:
    d.h.hash ^= Z_KNOWN[p][k][i][d.known[p][k][i]] ^ Z_KNOWN[p][k][i][mask]
    d.known[p][k][i] = <unsigned char>mask

cdef inline void set_pile(TCData* d, int p, int k, int i, int c) noexcept nogil:
    d.h.hash ^= Z_PILE[p][k][i][d.pile[p][k][i]] ^ Z_PILE[p][k][i][c]
    d.pile[p][k][i] = <unsigned char>c

cdef inline void set_centre(TCData* d, int j, int c) noexcept nogil:
    d.h.hash ^= Z_CENTRE[j][d.centre[j]] ^ Z_CENTRE[j][c]
    d.centre[j] = <unsigned char>c

cdef inline int phase_index(TCData* d) noexcept nogil:
    if d.phase == 2:
        return 10 + d.caller + 1
    return d.phase * 5

cdef inline void set_phase(TCData* d, int phase, int caller) noexcept nogil:
    d.h.hash ^= Z_PHASE[phase_index(d)]
    d.phase = phase
    d.caller = caller
    d.h.hash ^= Z_PHASE[phase_index(d)]

cdef inline int everyone(TCData* d) noexcept nogil:
    return (1 << d.h.players) - 1


cdef uint64_t full_hash(TCData* d) noexcept nogil:
    cdef uint64_t z = 0
    cdef int p, k, i, j, n = d.h.players
    for p in range(n):
        z ^= Z_SCORE[p][d.score[p]]
        z ^= Z_HELD[p][d.held[p] + 1]
        z ^= Z_PEND[p][d.pending[p] + 1]
        for k in range(d.npiles):
            for i in range(4):
                z ^= Z_PILE[p][k][i][d.pile[p][k][i]]
                z ^= Z_KNOWN[p][k][i][d.known[p][k][i]]
    for j in range(4):
        z ^= Z_CENTRE[j][d.centre[j]]
    z ^= turn_key(Z_TURN_AT, d.h.current)
    z ^= Z_PRIO[d.tick % n]
    z ^= Z_RTICK[d.rtick]
    z ^= Z_ROUND[d.rnd]
    z ^= Z_PHASE[phase_index(d)]
    if d.target == 12:
        z ^= Z_TARGET12[0]
    return z


cdef inline int legal_for(TCData* d, int p, int* out) noexcept nogil:
    """The legal actions of seat p this tick (they depend only on the pile it holds)."""
    cdef int n = 2, k, s
    cdef int hk = d.held[p]
    out[0] = M_WAIT
    out[1] = M_STOP
    for k in range(d.npiles):
        if k != hk:
            out[n] = M_PICK + k
            n += 1
    if hk >= 0:
        for s in range(16):
            out[n] = M_SWAP + s
            n += 1
    return n


cdef void deal(TCData* d) noexcept nogil:
    """A new round: shuffle and deal from the state's generator (unknown cards in a view,
    whose generator is hidden); nobody holds a pile, nobody has seen a pile."""
    cdef unsigned char deck[52]
    cdef int ncards = d.nmoods * 4
    cdef int p, k, i, c = 0
    if d.h.rng_known:
        for i in range(ncards):
            deck[i] = <unsigned char>(i >> 2)
        rng_shuffle_u8(&d.h.rng, deck, ncards)
    else:
        memset(deck, TC_UNK, sizeof(deck))
    for p in range(d.h.players):
        d.held[p] = -1
        d.pending[p] = TC_NOT_CHOSEN
        for k in range(d.npiles):
            for i in range(4):
                d.pile[p][k][i] = deck[c]
                d.known[p][k][i] = 0
                c += 1
    for i in range(4):
        d.centre[i] = deck[c]
        c += 1


cdef inline bint pile_complete(TCData* d, int p, int k) noexcept nogil:
    cdef unsigned char* c = d.pile[p][k]
    return c[0] != TC_UNK and c[0] == c[1] and c[0] == c[2] and c[0] == c[3]


cdef void finish_round(TCData* d, int caller) noexcept nogil:
    """Score the round (caller -1: the round cap, nobody called), then end the game or deal
    the next round."""
    cdef int p, k, i, c, pts, n = d.h.players
    cdef bint over = False
    for p in range(n):
        c = 0
        for k in range(d.npiles):
            if pile_complete(d, p, k):
                c += 1
        if p == caller:
            pts = c + 1 if c == d.npiles else 0
        else:
            pts = c
        d.score[p] += pts
        if d.score[p] >= d.target:
            over = True
    d.phase = 0
    d.caller = -1
    for p in range(n):
        d.pending[p] = TC_NOT_CHOSEN
    if over or d.rnd >= TC_MAX_ROUNDS:
        # the game is over: every pile has been turned over for scoring, none is held
        d.h.terminal = 1
        d.h.current = NO_SEAT
        for p in range(n):
            d.held[p] = -1
            for k in range(d.npiles):
                for i in range(4):
                    d.known[p][k][i] = <unsigned char>everyone(d)
    else:
        d.rnd += 1
        d.rtick = 0
        deal(d)
        d.h.current = 0
    d.h.hash = full_hash(d)


cdef int scoring_slot(TCData* d) noexcept nogil:
    """In a view at the end of a round: the first unknown pile card that scoring needs (in a
    pile that could still be four of a kind), as p*16 + k*4 + i; -1 if none."""
    cdef int p, k, i, first, mood, c
    cdef bint ok
    for p in range(d.h.players):
        for k in range(d.npiles):
            first = -1
            mood = -1
            ok = True
            for i in range(4):
                c = d.pile[p][k][i]
                if c == TC_UNK:
                    if first < 0:
                        first = i
                elif mood < 0:
                    mood = c
                elif c != mood:
                    ok = False
            if ok and first >= 0:
                return p * 16 + k * 4 + first
    return -1


cdef int reveal_slot(TCData* d) noexcept nogil:
    """In a view during play: the first card the view's seat now sees but holds as unknown
    (a centre card, or a card of a pile it has looked at); 64 + j for centre slot j, else
    p*16 + k*4 + i; -1 if none."""
    cdef int p, k, i, j
    cdef int bit = 1 << d.h.view_seat
    for j in range(4):
        if d.centre[j] == TC_UNK:
            return 64 + j
    for p in range(d.h.players):
        for k in range(d.npiles):
            for i in range(4):
                if d.pile[p][k][i] == TC_UNK and d.known[p][k][i] & bit:
                    return p * 16 + k * 4 + i
    return -1


cdef void end_round(TCData* d, int caller) noexcept nogil:
    if d.h.view_seat >= 0 and scoring_slot(d) >= 0:
        # a view cannot score piles it has not seen: chance reveals them first
        set_phase(d, 2, caller)
        set_turn(&d.h, Z_TURN_AT, NO_SEAT)
        return
    finish_round(d, caller)


cdef void resolve(TCData* d) noexcept nogil:
    """Resolve the tick: every seat's choice in priority order from seat tick mod n; a swap
    fails if an earlier action of the tick already swapped its centre slot; Stop ends the
    round at once, voiding the actions after it."""
    cdef int n = d.h.players
    cdef int first = d.tick % n
    cdef int touched = 0, caller = -1
    cdef int r, p, m, s, i, j, k, c
    for r in range(n):
        p = first + r
        if p >= n:
            p -= n
        m = d.pending[p]
        if m == M_STOP:
            caller = p
            break
        if m >= M_SWAP:
            s = m - M_SWAP
            i = s >> 2
            j = s & 3
            if touched & (1 << j):
                continue          # first touch: somebody took centre slot j this tick
            touched |= 1 << j
            k = d.held[p]
            c = d.pile[p][k][i]
            set_pile(d, p, k, i, d.centre[j])
            set_centre(d, j, c)
            set_known(d, p, k, i, everyone(d))
        elif m >= M_PICK:
            k = m - M_PICK
            set_held(d, p, k)
            for i in range(4):
                set_known(d, p, k, i, d.known[p][k][i] | (1 << p))
    for p in range(n):
        set_pending(d, p, TC_NOT_CHOSEN)
    d.h.hash ^= Z_PRIO[d.tick % n] ^ Z_RTICK[d.rtick]
    d.tick += 1
    d.rtick += 1
    d.h.hash ^= Z_PRIO[d.tick % n] ^ Z_RTICK[d.rtick]
    if caller >= 0:
        end_round(d, caller)
    elif d.rtick >= TC_ROUND_TICKS:
        end_round(d, -1)
    else:
        set_turn(&d.h, Z_TURN_AT, 0)


cdef int unseen_counts(TCData* d, int seat, int* counts) noexcept nogil:
    """Per mood, how many cards are not in a place ``seat`` knows (seat < 0: in a view, the
    cards not shown anywhere); return the total."""
    cdef int t, p, k, i, c, total = 0
    cdef int bit = (1 << seat) if seat >= 0 else 0
    for t in range(13):
        counts[t] = 4 if t < d.nmoods else 0
    for i in range(4):
        if d.centre[i] != TC_UNK:
            counts[d.centre[i]] -= 1
    for p in range(d.h.players):
        for k in range(d.npiles):
            for i in range(4):
                c = d.pile[p][k][i]
                if c != TC_UNK and (seat < 0 or d.known[p][k][i] & bit):
                    counts[c] -= 1
    for t in range(13):
        total += counts[t]
    return total


cdef inline bint pile_looked(TCData* d, int p, int k, int bit) noexcept nogil:
    cdef int i
    for i in range(4):
        if d.pile[p][k][i] == TC_UNK or not (d.known[p][k][i] & bit):
            return False
    return True


cdef int best_swap(TCData* d, int p, int k, int* gain, int* move) noexcept nogil:
    """For seat p's pile k (all four cards known): the swap with the centre that most raises
    the sum of squared mood counts (gain = how much; ties: the lowest move), and the pile's
    largest mood count, which is returned."""
    cdef int cnt[14]
    cdef int i, j, x, m, g, top = 0
    memset(cnt, 0, sizeof(cnt))
    for i in range(4):
        cnt[d.pile[p][k][i]] += 1
    for i in range(13):
        if cnt[i] > top:
            top = cnt[i]
    gain[0] = -1
    move[0] = -1
    if top == 4:
        return top
    for i in range(4):
        x = d.pile[p][k][i]
        for j in range(4):
            m = d.centre[j]
            if m == x or m == TC_UNK:
                continue
            g = 2 * (cnt[m] - cnt[x] + 1)
            if g > gain[0]:
                gain[0] = g
                move[0] = M_SWAP + 4 * i + j
    return top


def _target(value):
    """The ``target`` option: 20 or 12."""
    if isinstance(value, str):
        value = int(value) if value.isascii() and value.isdigit() else value
    if isinstance(value, bool) or isinstance(value, str):
        raise TypeError("target is a whole number: 20 (the default) or 12")
    value = operator.index(value)
    if value not in TARGETS:
        raise ValueError("target is 20 (the default) or 12")
    return value


# The heuristic's weights (see heuristic_move_c); a player sets them as weights.NAME=value,
# in this order in HW
cdef enum:
    HW_NEUTRAL_SWAP_EVERY, HW_N
cdef double HW[HW_N]


# -- the observations in plain words (GameSpec.gloss) ------------------------------------

# a choice's text -> its words (notation.words_for)
_CHOICE_WORDS = (("wait", "waited"), ("stop", "called Stop"),
                 (r"pick(\d)", r"picked up pile \1"),
                 (r"swap(\d)(\d)", r"swapped card \1 of the pile in hand with centre card \2"),
                 ("hidden", "chose something you cannot see"))


def gloss(text: str, seat: int | None = None) -> str | None:
    """A The Cat observation in plain words (see ``GameSpec.gloss``)."""
    head, _, tick = text.partition(":")
    words = words_for(head, _CHOICE_WORDS)
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


def max_game_length(int players) -> int:
    """50 rounds of at most 200 ticks, a move a seat each (GameSpec.max_game_length)."""
    return 50 * 200 * players


def moves_left(st) -> int:
    """The seat to move's decisions to come (GameSpec.moves_left), estimated: a decision a
    tick; the rounds still needed to reach the target at the leader's pace so far (about a
    fifth of the target a round before any round ended), each as many ticks as the rounds so
    far took (50 before the first ended), the current round's ticks done taken off."""
    f = notation_fields(st)
    target, rnd = int(f["target"]), max(1, int(f["round"]))
    tick, rtick = int(f["tick"]), int(f["rtick"])
    lead = max(int(s) for s in f["scores"].split(","))
    done = rnd - 1
    pace = max(1.0, lead / done) if done and lead else max(1.0, target / 5)
    rounds = min(50 - done, max(1, -(-(target - lead) // int(round(pace)))))
    ticks = (tick - rtick) / done if done else 50.0
    return max(1, int(rounds * ticks - min(rtick, 0.75 * ticks)))


SPEC = GameSpec(
    id="the-cat", name="The Cat", size=sizeof(TCData), moves=TC_MOVES,
    notation=("players", "target", "round", "tick", "rtick", "scores", "turn", "chosen",
              "held", "centre", "piles", "known", "rng", "phase?", "view?"),
    options=(Option("target", int, 20, convert=_target,
                    doc="the points that end the game: 20 (the default) or 12"),),
    view_hides_rng=True,
    heuristic_weights=(
        Option("neutral_swap_every", float, 4.0, 0.0, 1e6,
               doc="with nothing better to do, a swap that leaves the held pile no worse is "
                   "made one time in this many (its whole part; 0: never)"),
    ),
    max_game_length=max_game_length, search_defaults=(("cutoff", 8), ("particles", 128)), gloss=gloss,
    render="the-cat", moves_left=moves_left,
    hidden_moves=True)     # the simultaneous actions are hidden from the other seats
fill_weights(HW, HW_N, SPEC)


cdef class TheCat(State):
    """A state of The Cat (see the module docstring for cards, moves and ticks)."""

    spec = SPEC

    # -- the hot contract ---------------------------------------------------------------
    cdef int legal_moves_c(self, int* out) noexcept nogil:
        cdef TCData* d = &self.d
        if d.h.current < 0:
            return 0
        return legal_for(d, d.h.current, out)

    cdef void apply_c(self, int m) noexcept nogil:
        cdef TCData* d = &self.d
        cdef int p = d.h.current
        cdef int q
        set_pending(d, p, m)
        d.h.ply += 1
        if p + 1 < d.h.players:
            set_turn(&d.h, Z_TURN_AT, p + 1)
            return
        if d.h.view_seat >= 0:
            for q in range(d.h.players):
                if d.pending[q] == TC_PEND_UNK:
                    # a view cannot resolve choices it does not know: chance reveals them
                    set_phase(d, 1, -1)
                    set_turn(&d.h, Z_TURN_AT, NO_SEAT)
                    return
        resolve(d)

    cdef uint64_t compute_hash_c(self) noexcept nogil:
        return full_hash(&self.d)

    cdef void scores_c(self, double* out) noexcept nogil:
        """Points per seat."""
        scores_from(out, self.d.score, self.d.h.players)

    cdef void reset_c(self, uint64_t seed) noexcept nogil:
        cdef TCData* d = &self.d
        cdef int target = d.target
        restart(self, seed)
        d.target = target
        d.nmoods = 9 if d.h.players == 2 else 13
        d.npiles = 3 if d.h.players == 4 else 4
        d.rnd = 1
        d.caller = -1
        deal(d)
        d.h.current = 0
        d.h.hash = full_hash(d)

    cdef void hide_c(self, int seat) noexcept nogil:
        cdef TCData* d = &self.d
        cdef int p, k, i
        # a view that shows every hand: every pile card some seat has seen (the others' hidden
        # choices of this tick stay hidden: they are not held, they are being made)
        cdef int bit = (1 << d.h.players) - 1 if d.h.show_hands else 1 << seat
        for p in range(d.h.players):
            for k in range(d.npiles):
                for i in range(4):
                    if not (d.known[p][k][i] & bit):
                        d.pile[p][k][i] = TC_UNK
            if p != seat and d.pending[p] != TC_NOT_CHOSEN:
                d.pending[p] = TC_PEND_UNK
        as_view(&d.h, seat)
        d.h.hash = full_hash(d)

    cdef void determinize_c(self, int seat, Rng* rng) noexcept nogil:
        cdef TCData* d = &self.d
        cdef int counts[13]
        cdef unsigned char pool[52]
        cdef unsigned char* places[52]
        cdef int acts[TC_MOVES]
        cdef int t, p, k, i, c, np = 0, nplaces = 0, na
        cdef int bit = (1 << d.h.players) - 1 if d.h.show_hands else 1 << seat
        # the cards `seat` has not seen, dealt at random into the places it cannot see (a view
        # that shows every hand: the cards no seat has seen)
        for t in range(13):
            counts[t] = 4 if t < d.nmoods else 0
        for i in range(4):
            if d.centre[i] == TC_UNK:
                places[nplaces] = &d.centre[i]
                nplaces += 1
            else:
                counts[d.centre[i]] -= 1
        for p in range(d.h.players):
            for k in range(d.npiles):
                for i in range(4):
                    c = d.pile[p][k][i]
                    if c == TC_UNK or not (d.known[p][k][i] & bit):
                        places[nplaces] = &d.pile[p][k][i]
                        nplaces += 1
                    else:
                        counts[c] -= 1
        np = shuffled_pool(counts, 13, pool, rng)
        for i in range(nplaces):
            places[i][0] = pool[i]
        # the others' choices in this tick: drawn uniformly from their legal actions
        for p in range(d.h.players):
            if p != seat and d.pending[p] != TC_NOT_CHOSEN:
                na = legal_for(d, p, acts)
                d.pending[p] = <signed char>acts[rng_below(rng, na)]
        as_full(&d.h, rng)
        d.h.hash = full_hash(d)
        if d.phase == 1:
            set_phase(d, 0, -1)
            resolve(d)
        elif d.phase == 2:
            finish_round(d, d.caller)

    cdef int observe_move_c(self, int move, int seat) noexcept nogil:
        """The seat that chooses sees its move; every other seat only sees that it chose
        (``TC_HIDDEN``); what the choices did is public once the tick resolves."""
        if seat == self.d.h.current:
            return move
        return TC_HIDDEN

    cdef int apply_hidden_c(self) noexcept nogil:
        """In a view, another seat's choice of this tick is hidden from the view's seat until
        the tick resolves: record it as unknown (``?``) and pass the turn on; chance
        (``chance_outcomes_c``) reveals it when the tick resolves."""
        cdef TCData* d = &self.d
        if (d.h.terminal or d.h.view_seat < 0 or d.h.current < 0
                or d.h.current == d.h.view_seat or d.phase != 0):
            return 0
        self.apply_c(TC_PEND_UNK)
        return 1

    cdef int heuristic_move_c(self, Rng* rng, int* buf, int n) noexcept nogil:
        """A beginner's play, from what the seat to move knows (its looked-at piles and the
        centre): call Stop when every own pile is four of a kind; holding a pile that a centre
        card improves, make the best such swap; else pick up a pile not looked at yet, or one
        the centre improves; else, now and then, make a swap that leaves the held pile no
        worse (it moves the centre on: one time in ``neutral_swap_every``, a weight of the
        spec's ``heuristic_weights``); else keep an unfinished pile in hand, or wait.

        A swap of a pile card of mood x (c_x copies in the pile) for a centre card of mood m
        (c_m copies) improves the pile when c_m >= c_x: the sum of squared mood counts grows
        by 2 (c_m - c_x + 1); it is neutral when c_m = c_x - 1."""
        cdef TCData* d = &self.d
        cdef int p = d.h.current
        cdef int bit = 1 << p
        cdef int hk = d.held[p]
        cdef int gain[4]
        cdef int move[4]
        cdef bint looked[4]
        cdef int have[4]
        cdef int k, i, best, nbest, every
        cdef bint all_done = True
        if p < 0:
            return M_WAIT       # a view waiting for chance: nobody decides
        for k in range(d.npiles):
            looked[k] = pile_looked(d, p, k, bit)
            have[k] = 0
            gain[k] = -1
            move[k] = -1
            if looked[k]:
                have[k] = best_swap(d, p, k, &gain[k], &move[k])
            if have[k] < 4:
                all_done = False
        if all_done:
            return M_STOP
        if hk >= 0 and gain[hk] > 0:
            return move[hk]
        # pick up a pile: unlooked first, then one the centre improves
        nbest = 0
        best = -1
        for k in range(d.npiles):
            if k != hk and not looked[k]:
                nbest += 1
                if rng_below(rng, nbest) == 0:
                    best = k
        if best >= 0:
            return M_PICK + best
        for k in range(d.npiles):
            if k != hk and gain[k] > 0:
                nbest += 1
                if rng_below(rng, nbest) == 0:
                    best = k
        if best >= 0:
            return M_PICK + best
        every = <int>heuristic_weights(&d.h, HW)[HW_NEUTRAL_SWAP_EVERY]
        if (hk >= 0 and have[hk] < 4 and gain[hk] == 0 and every > 0
                and rng_below(rng, every) == 0):
            return move[hk]
        if hk < 0 or have[hk] == 4:
            # hold the unfinished pile closest to done, ready for the centre to change
            for k in range(d.npiles):
                if k != hk and have[k] < 4 and (best < 0 or have[k] > have[best]):
                    best = k
            if best >= 0:
                return M_PICK + best
        return M_WAIT

    cdef void evaluate_c(self, double* out) noexcept nogil:
        """Points so far plus this round's prospects: per pile 1 for four of a kind, 0.4 for
        three, 0.1 for two of one mood (known cards only), and the caller's bonus point when
        every pile is done; turned into win chances by a softmax (temperature 1/0.6)."""
        cdef TCData* d = &self.d
        cdef double s[4]
        cdef double x[4]
        cdef double top = -1e9, v
        cdef int cnt[14]
        cdef int p, k, i, t, m, done, n = d.h.players
        if d.h.terminal:
            self.returns_c(out)
            return
        for p in range(n):
            v = d.score[p]
            done = 0
            for k in range(d.npiles):
                memset(cnt, 0, sizeof(cnt))
                for i in range(4):
                    cnt[d.pile[p][k][i]] += 1
                m = 0
                for t in range(13):
                    if cnt[t] > m:
                        m = cnt[t]
                if m == 4:
                    v += 1.0
                    done += 1
                elif m == 3:
                    v += 0.4
                elif m == 2:
                    v += 0.1
            if done == d.npiles:
                v += 1.0
            x[p] = v
            if v > top:
                top = v
        for p in range(n):
            s[p] = exp(0.6 * (x[p] - top))
        normalize(out, s, n)

    cdef int chance_outcomes_c(self, int* outcomes, double* weights) noexcept nogil:
        """In a view only. Phase 1 (a tick waits on hidden choices): the first hidden choice,
        each legal action of that seat equally likely (outcome ``TC_CH_ACTION + move``).
        Else a card the view must now see but holds as unknown (a centre card, a pile card
        the seat looked at, or at the end of a round a pile card that scoring needs): the
        moods, weighted by how many of each the seat has not seen."""
        cdef TCData* d = &self.d
        cdef int acts[TC_MOVES]
        cdef int counts[13]
        cdef int p, na, i
        if d.h.terminal or d.h.view_seat < 0:
            return 0
        if d.phase == 1:
            for p in range(d.h.players):
                if d.pending[p] == TC_PEND_UNK:
                    na = legal_for(d, p, acts)
                    for i in range(na):
                        outcomes[i] = TC_CH_ACTION + acts[i]
                        weights[i] = 1.0 / na
                    return na
            return 0
        if (scoring_slot(d) if d.phase == 2 else reveal_slot(d)) < 0:
            return 0
        unseen_counts(d, -1, counts)
        return chance_from_counts(counts, 13, outcomes, weights)

    cdef void apply_chance_c(self, int outcome) noexcept nogil:
        cdef TCData* d = &self.d
        cdef int p, slot
        cdef bint more = False
        if d.phase == 1:
            for p in range(d.h.players):
                if d.pending[p] == TC_PEND_UNK:
                    if not more:
                        set_pending(d, p, outcome - TC_CH_ACTION)
                        more = True
                    else:
                        return
            set_phase(d, 0, -1)
            resolve(d)
            return
        if d.phase == 2:
            slot = scoring_slot(d)
            p = slot >> 4
            set_pile(d, p, (slot >> 2) & 3, slot & 3, outcome)
            set_known(d, p, (slot >> 2) & 3, slot & 3, everyone(d))
            if scoring_slot(d) < 0:
                finish_round(d, d.caller)
            return
        slot = reveal_slot(d)
        if slot >= 64:
            set_centre(d, slot - 64, outcome)
        elif slot >= 0:
            set_pile(d, slot >> 4, (slot >> 2) & 3, slot & 3, outcome)

    def _set_options(self, dict options):
        """``target``: the points that end the game, 20 (the default) or 12."""
        self.d.target = options["target"]

    # -- Python API: what the table shows -----------------------------------------------
    @property
    def target(self) -> int:
        """The points that end the game (20, or 12 as an option)."""
        return self.d.target

    def pile(self, seat, k) -> str:
        """The four cards of ``seat``'s pile ``k``, position 0 first (``?``: unknown here)."""
        cdef int s, j
        s, j = self._check_pile(seat, k)
        return "".join(CARD_CHARS[self.d.pile[s][j][i]] for i in range(4))

    @property
    def round(self) -> int:
        """The round being played (the last one once the game is over), from 1."""
        return self.d.rnd

    def chosen(self) -> list:
        """This tick's choice per seat: ``None`` (not chosen yet), ``"?"`` (hidden in this
        view) or the move's text."""
        out = []
        for p in range(self.d.h.players):
            m = self.d.pending[p]
            out.append(None if m == TC_NOT_CHOSEN else "?" if m == TC_PEND_UNK else self._move_to_str(m))
        return out

    @property
    def tick(self) -> int:
        """Ticks resolved since the start of the game; seat ``tick % players`` has priority
        in the next one."""
        return self.d.tick

    @property
    def held(self) -> list:
        """The pile each seat holds (``None``: no pile)."""
        return [None if self.d.held[p] < 0 else self.d.held[p] for p in range(self.d.h.players)]

    @property
    def round_tick(self) -> int:
        """Ticks resolved in the current round (a round ends after 200)."""
        return self.d.rtick

    @property
    def centre(self) -> str:
        """The four centre cards, slot 0 first."""
        return "".join(CARD_CHARS[self.d.centre[j]] for j in range(4))

    def _check_pile(self, seat, k):
        s = self._check_seat(seat, False)
        k = check_int(k, "pile", 0, self.d.npiles - 1)
        return s, k

    # -- Python API: text ---------------------------------------------------------------
    def _move_to_str(self, int m) -> str:
        return _MOVE_TEXT[m]

    def _str_to_move(self, str s) -> int:
        m = _read_move(s)
        if m is None:
            raise InvalidMoveError(
                f"{s!r} is not a the-cat move: write wait, stop, pick<k> for own pile k "
                f"(pick0 .. pick{self.d.npiles - 1}), or swap<i><j> to swap card i of the held "
                f"pile with centre card j (i, j from 0 to 3, e.g. swap13)")
        return m

    # -- observations (a live game: see docs/rules/the-cat.rst, "Observations") ----------
    def _observation(self, int seat, int move) -> str:
        """What ``seat`` sees of ``move`` chosen by the seat to move: its own choice in clear,
        another seat's as ``hidden``; the last choice of a tick adds, after ``:``, what the
        tick did as ``seat`` sees it: each seat's visible effect (``-``, ``pick<k>`` with the
        cards for ``seat``'s own pick, ``swap<i><j>=<card put in the centre>``), or at the end
        of a round the points scored and the new centre (the final piles if the game ends).
        The part after ``:`` depends only on ``seat``'s views before and after the move."""
        cdef TCData* d = &self.d
        cdef int n = d.h.players
        cdef int p = d.h.current
        cdef TheCat a
        head = _MOVE_TEXT[move] if seat == p else OBS_HIDDEN
        if p + 1 < n:
            return head
        a = <TheCat>self.clone_c()
        a.apply_c(move)
        if a.d.h.terminal or a.d.rtick == 0:
            text = (f"{head}:scored=" + ",".join(str(a.d.score[q] - d.score[q]) for q in range(n))
                    + f":centre={a.centre}")
            if a.d.h.terminal:
                text += ":piles=" + "/".join(",".join(a.pile(q, k) for k in range(d.npiles))
                                             for q in range(n))
            return text
        return f"{head}:" + ",".join(self._tick_effects(a, seat, move))

    def _tick_effects(self, TheCat a, int seat, int move) -> list:
        """Per seat, what ``seat`` sees that its action did in the tick that ``move`` resolves
        here (``a``: the state after it, the round going on)."""
        cdef TCData* d = &self.d
        cdef int n = d.h.players, everybody = everyone(d)
        cdef int first = d.tick % n, touched = 0
        cdef int r, q, m, i, j, k
        pend = [d.pending[q] for q in range(n)]
        pend[d.h.current] = move
        out = ["-"] * n
        swaps = {}                       # seat -> (i, real slot, incoming card)
        for r in range(n):
            q = (first + r) % n
            m = pend[q]
            if m >= M_SWAP:
                i, j = (m - M_SWAP) >> 2, (m - M_SWAP) & 3
                if touched >> j & 1:
                    continue
                touched |= 1 << j
                k = d.held[q]
                if d.known[q][k][i] == everybody and d.pile[q][k][i] == d.centre[j]:
                    continue             # nothing changed that anyone can see
                swaps[q] = (i, j, d.centre[j])
            elif m >= M_PICK:
                k = m - M_PICK
                out[q] = f"pick{k}" + (f"={a.pile(q, k)}" if q == seat else "")
        if swaps:
            # the slots as seat sees them: a visible swap took a card of the incoming mood from
            # a slot that now shows the card put in (known to seat or not); the first such
            # assignment in seat order and slot order (seat's own swap keeps its slot)
            seats = sorted(swaps)
            old = [d.centre[j] for j in range(4)]
            new = [a.d.centre[j] for j in range(4)]
            options = []
            for q in seats:
                i, j, c = swaps[q]
                k = d.held[q]
                if q == seat:
                    options.append([j])
                else:
                    options.append([x for x in range(4) if old[x] == c and (
                        not d.known[q][k][i] >> seat & 1 or new[x] == d.pile[q][k][i])])
            changed = {x for x in range(4) if old[x] != new[x]}
            slots = _first_assignment(options, changed)
            for q, x in zip(seats, slots):
                out[q] = f"swap{swaps[q][0]}{x}={CARD_CHARS[new[x]]}"
        return out

    def _play_observation(self, str text) -> int:
        """Follow one observation on this view (see :meth:`_observation`)."""
        cdef TCData* d = &self.d
        cdef int n = d.h.players, s = d.h.view_seat, cur = d.h.current
        cdef int m = -1, code, own
        if cur < 0:
            raise ValueError("this view waits for chance (phase="
                             f"{'resolve' if d.phase == 1 else 'score'}); it cannot follow "
                             "observations")
        head, sep, rest = text.partition(":")
        if cur == s:
            m = _MOVE_INDEX.get(head, -1)
            if m < 0:
                if head == OBS_HIDDEN:
                    raise ValueError(f"seat {s} is to choose: its own choice is shown in clear "
                                     f"(wait, stop, pick<k>, swap<i><j>), not as {OBS_HIDDEN}")
                raise ValueError(f"{head!r} is not a choice of seat {s} (wait, stop, pick<k>, "
                                 "swap<i><j>)")
            if m not in _legal_list(d, s):
                raise ValueError(f"{head} is not legal for seat {s} (legal: "
                                 f"{' '.join(_MOVE_TEXT[x] for x in _legal_list(d, s))})")
            code = m
        else:
            if head != OBS_HIDDEN:
                if head in _MOVE_INDEX:
                    raise ValueError(f"{head!r} shows seat {cur}'s choice in clear: it is hidden "
                                     f"from seat {s} (written {OBS_HIDDEN})")
                raise ValueError(f"seat {cur} is to choose, hidden from seat {s}: expected "
                                 f"{OBS_HIDDEN!r}, not {head!r}")
            code = TC_HIDDEN
        if cur + 1 < n:
            if sep:
                raise ValueError(f"seat {cur}'s choice does not resolve the tick (seat "
                                 f"{cur + 1} chooses next): nothing follows {head!r}")
            if cur == s:
                self.apply_c(m)
            else:
                self.apply_hidden_c()
            return code
        if not sep or not rest:
            raise ValueError(f"seat {cur}'s choice resolves the tick: expected "
                             f"{head}:<what the tick did>")
        set_pending(d, cur, m if cur == s else TC_PEND_UNK)
        d.h.ply += 1
        own = d.pending[s]
        if rest.startswith("scored="):
            self._obs_round_end(rest, own)
        else:
            self._obs_tick(rest, own)
        d.h.hash = full_hash(d)
        return code

    def _obs_tick(self, str rest, int own):
        """The tick resolved and the round goes on: apply each seat's visible effect."""
        cdef TCData* d = &self.d
        cdef int n = d.h.players, s = d.h.view_seat, everybody = everyone(d)
        cdef int q, k, i, j, c, t
        parts = rest.split(",")
        if len(parts) != n:
            raise ValueError(f"expected {n} effects (one per seat, separated by ,), got "
                             f"{len(parts)} in {rest!r}")
        if own == M_STOP:
            raise ValueError(f"seat {s} called stop: the round ends, so the observation gives "
                             "scored=... (a stop is voided only by an earlier one)")
        if d.rtick + 1 >= TC_ROUND_TICKS:
            raise ValueError(f"this is tick {TC_ROUND_TICKS} of the round: the round ends, so "
                             "the observation gives scored=...")
        first = d.tick % n
        prio = [(q - first) % n for q in range(n)]
        picks = []
        swaps = []
        used = set()
        for q, e in enumerate(parts):
            if e == "-":
                if q == s and M_PICK <= own < M_SWAP:
                    raise ValueError(f"seat {s} chose {_MOVE_TEXT[own]}: a pick always happens "
                                     f"when no stop ends the tick, but seat {s}'s effect is -")
                if q == s and own >= M_SWAP:
                    i, j = (own - M_SWAP) >> 2, (own - M_SWAP) & 3
                    k = d.held[s]
                    if not (d.known[s][k][i] == everybody and d.pile[s][k][i] == d.centre[j]) \
                            and not any(prio[x] < prio[s] and d.held[x] >= 0 for x in range(n)):
                        raise ValueError(f"seat {s}'s {_MOVE_TEXT[own]} cannot have failed: no "
                                         "seat before it in priority holds a pile")
                continue
            if e.startswith("pick"):
                body, eq, cards = e[4:].partition("=")
                if len(body) != 1 or body not in "0123"[:d.npiles]:
                    raise ValueError(f"{e!r}: seat {q} has piles 0 to {d.npiles - 1}")
                k = int(body)
                if k == d.held[q]:
                    raise ValueError(f"{e!r}: seat {q} already holds pile {k}")
                if q == s:
                    if own != M_PICK + k:
                        raise ValueError(f"{e!r}: seat {s} chose {_MOVE_TEXT[own]}")
                    if not eq:
                        raise ValueError(f"{e!r}: seat {s} sees the cards of the pile it picks "
                                         f"up: expected pick{k}=<4 cards>")
                    cards = self._obs_cards(cards, 4, e)
                    for i in range(4):
                        if d.pile[s][k][i] != TC_UNK and d.pile[s][k][i] != cards[i]:
                            raise ValueError(f"{e!r}: card {i} of seat {s}'s pile {k} is "
                                             f"{CARD_CHARS[d.pile[s][k][i]]}")
                elif eq:
                    raise ValueError(f"{e!r} shows the cards of seat {q}'s pile {k}: only seat "
                                     f"{q} sees them, not seat {s}")
                else:
                    cards = None
                picks.append((q, k, cards))
            elif e.startswith("swap"):
                body, eq, card = e[4:].partition("=")
                if len(body) != 2 or body[0] not in "0123" or body[1] not in "0123" or not eq:
                    raise ValueError(f"{e!r}: expected swap<i><j>=<card put in the centre>")
                i, j = int(body[0]), int(body[1])
                k = d.held[q]
                if k < 0:
                    raise ValueError(f"{e!r}: seat {q} holds no pile")
                if q == s and own != M_SWAP + 4 * i + j:
                    raise ValueError(f"{e!r}: seat {s} chose {_MOVE_TEXT[own]}")
                if j in used:
                    raise ValueError(f"{e!r}: centre slot {j} was already swapped in this tick "
                                     "(first touch)")
                used.add(j)
                c = self._obs_cards(card, 1, e)[0]
                if d.pile[q][k][i] != TC_UNK and d.pile[q][k][i] != c:
                    raise ValueError(f"{e!r}: card {i} of seat {q}'s pile {k} is "
                                     f"{CARD_CHARS[d.pile[q][k][i]]}, not {card}")
                swaps.append((q, k, i, j, c))
            else:
                raise ValueError(f"{e!r} is not an effect: -, pick<k>, swap<i><j>=<card>")
        old = [d.centre[j] for j in range(4)]
        if swaps:
            # the slots must be the ones the master writes for this seat (see _tick_effects):
            # the first assignment, in seat order and slot order, that gives the same centre
            after = old[:]
            for q, k, i, j, c in swaps:
                after[j] = c
            options = [[j] if q == s else
                       [x for x in range(4) if old[x] == old[j] and (
                           d.pile[q][k][i] == TC_UNK or after[x] == d.pile[q][k][i])]
                       for q, k, i, j, c in swaps]
            slots = _first_assignment(options, {x for x in range(4) if old[x] != after[x]})
            if slots != [j for q, k, i, j, c in swaps]:
                raise ValueError(f"{rest!r}: seat {s} cannot tell which of the centre slots of the "
                                 "same card were swapped; its observation names the first ones "
                                 "in seat order: " + ",".join(
                                     f"swap{i}{x}" for (q, k, i, j, c), x in zip(swaps, slots or [])))
        for q, k, cards in picks:
            set_held(d, q, k)
            for i in range(4):
                set_known(d, q, k, i, d.known[q][k][i] | (1 << q))
                if cards is not None:
                    set_pile(d, q, k, i, cards[i])
        for q, k, i, j, c in swaps:
            set_pile(d, q, k, i, old[j])
            set_known(d, q, k, i, everybody)
            set_centre(d, j, c)
        self._obs_check_counts(rest)
        for q in range(n):
            set_pending(d, q, TC_NOT_CHOSEN)
        d.tick += 1
        d.rtick += 1
        d.h.current = 0

    def _obs_round_end(self, str rest, int own):
        """The tick ended the round: ``scored=<points>:centre=<new centre>``, and
        ``:piles=<final piles>`` when the game ends."""
        cdef TCData* d = &self.d
        cdef int n = d.h.players, s = d.h.view_seat, np = d.npiles
        cdef int q, k, i
        fields = rest.split(":")
        if not 2 <= len(fields) <= 3 or not fields[1].startswith("centre=") or (
                len(fields) == 3 and not fields[2].startswith("piles=")):
            raise ValueError(f"{rest!r}: expected scored=<points>:centre=<4 cards>"
                             "[:piles=<the final piles>]")
        pts = fields[0][7:].split(",")
        if len(pts) != n or not all(x.isascii() and x.isdigit() and len(x) == 1 for x in pts):
            raise ValueError(f"{fields[0]!r}: expected the points each of the {n} seats scored "
                             "this round, separated by ,")
        pts = [int(x) for x in pts]
        centre = self._obs_cards(fields[1][7:], 4, fields[1])
        first = d.tick % n
        prio = [(q - first) % n for q in range(n)]
        callers = [q for q in range(n) if q != s or own == M_STOP]
        if own == M_STOP:
            callers = [q for q in callers if prio[q] <= prio[s]]
        if d.rtick + 1 >= TC_ROUND_TICKS and own != M_STOP:
            callers.append(-1)
        if not callers:
            raise ValueError(f"nobody can have called stop (seat {s} chose "
                             f"{_MOVE_TEXT[own]}) and the round is not at its cap")
        over = any(d.score[q] + pts[q] >= d.target for q in range(n)) or d.rnd >= TC_MAX_ROUNDS
        if over != (len(fields) == 3):
            raise ValueError("the game ends with this round: the observation shows the final "
                             "piles (:piles=...)" if over else
                             "the game goes on: a new round is dealt (no :piles=)")
        # which piles can change in this tick: the held ones, by one card (a swap)
        def can_change(q, k):
            return k == d.held[q] and (q != s or own >= M_SWAP)
        if over:
            pv = fields[2][6:].split("/")
            if len(pv) != n or any(len(x.split(",")) != np for x in pv):
                raise ValueError(f"{fields[2]!r}: expected {n} seats (/) of {np} piles (,)")
            final = [[self._obs_cards(pl, 4, fields[2]) for pl in x.split(",")] for x in pv]
            counts = [0] * 13
            for c in centre:
                counts[c] += 1
            for q in range(n):
                for k in range(np):
                    diff = 0
                    for i in range(4):
                        counts[final[q][k][i]] += 1
                        if d.pile[q][k][i] != TC_UNK and d.pile[q][k][i] != final[q][k][i]:
                            diff += 1
                    if diff > (1 if can_change(q, k) else 0):
                        raise ValueError(f"{fields[2]!r}: seat {q}'s pile {k} is "
                                         f"{self.pile(q, k)} in seat {s}'s view")
            if any(counts[t] != (4 if t < d.nmoods else 0) for t in range(13)):
                raise ValueError(f"{fields[2]!r}: the centre and piles must hold the whole deck, "
                                 f"4 cards of each of the {d.nmoods} moods")
            done = [sum(len(set(final[q][k])) == 1 for k in range(np)) for q in range(n)]
            lo = hi = done
        else:
            lo, hi = [], []
            for q in range(n):
                a = b = 0
                for k in range(np):
                    known = [d.pile[q][k][i] for i in range(4) if d.pile[q][k][i] != TC_UNK]
                    top = max((known.count(c) for c in known), default=0)
                    if can_change(q, k):
                        b += len(known) - top <= 1
                    else:
                        b += len(known) == top
                        a += len(known) == 4 and top == 4
                lo.append(a)
                hi.append(b)
        def fits(c):
            for q in range(n):
                if q == c:
                    if not ((pts[q] == 0 and lo[q] < np) or (pts[q] == np + 1 and hi[q] == np)):
                        return False
                elif not lo[q] <= pts[q] <= hi[q]:
                    return False
            return True
        if not any(fits(c) for c in callers):
            raise ValueError(f"{fields[0]!r}: these points cannot be scored from the piles as "
                             f"seat {s} knows them")
        for q in range(n):
            d.score[q] += pts[q]
            d.pending[q] = TC_NOT_CHOSEN
        d.tick += 1
        d.rtick += 1
        d.phase = 0
        d.caller = -1
        if over:
            d.h.terminal = 1
            d.h.current = NO_SEAT
            for q in range(n):
                d.held[q] = -1
                for k in range(np):
                    for i in range(4):
                        d.pile[q][k][i] = final[q][k][i]
                        d.known[q][k][i] = <unsigned char>everyone(d)
            for i in range(4):
                d.centre[i] = centre[i]
        else:
            d.rnd += 1
            d.rtick = 0
            deal(d)
            for i in range(4):
                d.centre[i] = centre[i]
            d.h.current = 0

    def _obs_cards(self, str cards, int count, str where) -> list:
        """``count`` card characters of the moods in play, as moods."""
        moods = MOODS[:self.d.nmoods]
        if len(cards) != count or any(ch not in moods for ch in cards):
            raise ValueError(f"{where!r}: expected {count} card(s) of {moods}, got {cards!r}")
        return [moods.index(ch) for ch in cards]

    def _obs_check_counts(self, str where):
        """No mood shows more than its 4 cards in this view."""
        cdef TCData* d = &self.d
        cdef int counts[13]
        unseen_counts(d, -1, counts)
        for t in range(13):
            if counts[t] < 0:
                raise ValueError(f"{where!r} shows {4 - counts[t]} cards of mood {MOODS[t]}; "
                                 "there are 4")

    # -- tensors (see docs/rules/the-cat.rst, "Tensors") ----------------------------------
    def _tensor_layout(self, int kind) -> list:
        """The tensor parts for this player count: the observation's, then (information
        state) the choices, piles and knowledge the view remembers."""
        cdef int n = self.d.h.players
        cdef int npiles = 3 if n == 4 else 4
        cdef int nmoods = 9 if n == 2 else 13
        parts = [("turn", n), ("priority", n), ("chosen", n), ("own_choice", TC_MOVES),
                 ("held", n * npiles), ("centre", 4 * nmoods), ("hand", 4 * nmoods),
                 ("scores", n), ("round", 1), ("round_tick", 1), ("short_game", 1),
                 ("phase", 2), ("stop_caller", n)]
        if kind == 1:
            parts += [("others_choices", (n - 1) * TC_MOVES),
                      ("piles", n * npiles * 4 * nmoods), ("known", n * npiles * 4 * n)]
        return parts

    cdef void tensor_c(self, int kind, float* out) noexcept nogil:
        """The view's tensor, seats relative to the view's seat (itself first, then in seat
        order); laid out as ``_tensor_layout`` says."""
        cdef TCData* d = &self.d
        cdef int n = d.h.players, s = d.h.view_seat
        cdef int npiles = d.npiles, nm = d.nmoods
        cdef int o = 0, r, p, k, i, j, c, q, m, mask, slot
        cdef float top = d.target + npiles
        # the observation
        o = put_turn(out, o, &d.h)
        out[o + (d.tick % n - s + n) % n] = 1.0
        o += n
        for r in range(n):
            p = (s + r) % n
            if d.pending[p] != TC_NOT_CHOSEN:
                out[o + r] = 1.0
        o += n
        m = d.pending[s]
        if 0 <= m < TC_MOVES:
            out[o + m] = 1.0
        o += TC_MOVES
        for r in range(n):
            p = (s + r) % n
            if d.held[p] >= 0:
                out[o + r * npiles + d.held[p]] = 1.0
        o += n * npiles
        for j in range(4):
            c = d.centre[j]
            if c < nm:
                out[o + j * nm + c] = 1.0
        o += 4 * nm
        k = d.held[s]
        if k >= 0:
            for i in range(4):
                c = d.pile[s][k][i]
                if c < nm:
                    out[o + i * nm + c] = 1.0
        o += 4 * nm
        for r in range(n):
            out[o + r] = d.score[(s + r) % n] / top
        o += n
        out[o] = d.rnd / <float>TC_MAX_ROUNDS
        out[o + 1] = d.rtick / <float>TC_ROUND_TICKS
        out[o + 2] = 1.0 if d.target == 12 else 0.0
        o += 3
        if d.phase == 1:
            out[o] = 1.0
        elif d.phase == 2:
            out[o + 1] = 1.0
        o += 2
        if d.phase == 2 and d.caller >= 0:
            out[o + (d.caller - s + n) % n] = 1.0
        o += n
        if kind == 0:
            return
        # the information state: what the view knows beyond what it sees now
        for r in range(1, n):
            m = d.pending[(s + r) % n]
            if 0 <= m < TC_MOVES:
                out[o + (r - 1) * TC_MOVES + m] = 1.0
        o += (n - 1) * TC_MOVES
        for r in range(n):
            p = (s + r) % n
            for k in range(npiles):
                for i in range(4):
                    c = d.pile[p][k][i]
                    if c < nm:
                        out[o + ((r * npiles + k) * 4 + i) * nm + c] = 1.0
        o += n * npiles * 4 * nm
        for r in range(n):
            p = (s + r) % n
            for k in range(npiles):
                for i in range(4):
                    mask = d.known[p][k][i]
                    slot = o + ((r * npiles + k) * 4 + i) * n
                    for q in range(n):
                        if mask >> q & 1:
                            out[slot + (q - s + n) % n] = 1.0

    def cards(self) -> dict:
        """Every card slot: ``centre.<j>`` and ``pile<seat>.<k>.<i>`` (one card each)."""
        d = &self.d
        out = {f"centre.{j}": CARD_CHARS[d.centre[j]] for j in range(4)}
        for p in range(d.h.players):
            for k in range(d.npiles):
                for i in range(4):
                    out[f"pile{p}.{k}.{i}"] = CARD_CHARS[d.pile[p][k][i]]
        return out

    def knowledge(self) -> dict:
        """Per card slot (as in :meth:`cards`), the seats that know it: the centre is public;
        a pile card is known to its owner once the pile was picked up, and to everyone once
        a swap put it there (or the round was scored)."""
        d = &self.d
        n = d.h.players
        sets = [frozenset(p for p in range(n) if mask >> p & 1) for mask in range(16)]
        out = {f"centre.{j}": sets[(1 << n) - 1] for j in range(4)}
        for p in range(n):
            for k in range(d.npiles):
                for i in range(4):
                    out[f"pile{p}.{k}.{i}"] = sets[d.known[p][k][i]]
        return out

    def __str__(self):
        d = &self.d
        n = d.h.players
        if d.h.terminal:
            status = "game over"
        elif d.phase == 1:
            status = "the tick waits for its hidden choices"
        elif d.phase == 2:
            status = "scoring waits for hidden piles"
        else:
            status = f"seat {d.h.current} to choose"
        lines = [f"The Cat, {n} players, target {d.target}, round {d.rnd}, tick {d.tick} "
                 f"(tick {d.rtick} of this round, seat {d.tick % n} has priority), {status}"
                 + (f" (seat {d.h.view_seat}'s view)" if d.h.view_seat >= 0 else "")]
        lines.append(f"  centre   {' '.join(self.centre)}")
        for p in range(n):
            mark = ">" if p == d.h.current else " "
            piles = []
            for k in range(d.npiles):
                cards = self.pile(p, k)
                piles.append(f"[{cards}]" if d.held[p] == k else f" {cards} ")
            c = self.chosen()[p]
            chose = "" if c is None else f"  chose {c}"
            lines.append(f"{mark} seat {p}   {' '.join(piles)}   score {d.score[p]}{chose}")
        lines.append("  ([....] is the pile in hand; ? a card not known here)")
        return "\n".join(lines)

    def _check_can_move(self):
        if self.d.h.current < 0 and not self.d.h.terminal:
            raise IllegalMoveError(
                f"nobody can move: this view waits for chance to reveal "
                f"{'hidden choices' if self.d.phase == 1 else 'cards for scoring'} "
                f"(see chance_outcomes) in {self.to_text()!r}")

    def _read(self, TextFields f):
        cdef TCData* d = &self.d
        cdef int n = d.h.players
        cdef int np, allb, view, target, p, k, i, j, c, t, nchosen, m, a, cur, nl, total
        cdef int scores[4]
        cdef int counts[14]
        cdef int starts[8]
        cdef int ends[8]
        cdef int legal[TC_MOVES]
        cdef bint over
        text = f.text
        d.nmoods = 9 if n == 2 else 13
        d.npiles = 3 if n == 4 else 4
        np = d.npiles
        allb = (1 << n) - 1
        view = d.h.view_seat
        target = f.int_c("target", 1, 99)
        if target != TARGETS[0] and target != TARGETS[1]:
            raise f.error(f["target"], f"{target} is not a target; the target is 20 or 12")
        d.target = target
        d.rnd = f.int_c("round", 1, TC_MAX_ROUNDS)
        d.tick = f.int_c("tick", 0, TC_MAX_ROUNDS * TC_ROUND_TICKS)
        d.rtick = f.int_c("rtick", 0, TC_ROUND_TICKS)
        if not d.rtick + d.rnd - 1 <= d.tick <= d.rtick + TC_ROUND_TICKS * (d.rnd - 1):
            raise f.error(f["tick"], f"{d.tick} ticks cannot hold {d.rnd - 1} finished round(s) of "
                          f"1 to {TC_ROUND_TICKS} ticks and {d.rtick} tick(s) of this one")
        f.ints_c("scores", n, 0, 63, scores)
        for p in range(n):
            d.score[p] = scores[p]
        memset(counts, 0, sizeof(counts))
        a = f.key("centre")
        if f.vend[a] - f.vstart[a] != 4:
            raise f.error(f["centre"], f"the centre holds 4 cards, not {f.vend[a] - f.vstart[a]}")
        for j in range(4):
            d.centre[j] = _card(f, d, "centre", f.vstart[a] + j, j, counts)
        if not _piles_fast(f, d, counts, view):
            for p, k, pl, off in _shape(f, "piles", n, np):
                for i in range(4):
                    d.pile[p][k][i] = _card(f, d, "piles", f.vstart[f.key("piles")] + off + i,
                                            off + i, counts)
        if not _known_fast(f, d):
            for p, k, pl, off in _shape(f, "known", n, np):
                for i, ch in enumerate(pl):
                    if ch not in KNOWN_CHARS:
                        raise f.error(f["known"], f"{ch!r}: write - (nobody knows the card), o "
                                      f"(its owner does) or * (everyone does)", off + i, 1)
                    d.known[p][k][i] = (0, 1 << p, allb)[KNOWN_CHARS.index(ch)]
                    _check_known(f, d, p, k, i, off + i)
        else:
            for p in range(n):
                for k in range(np):
                    for i in range(4):
                        _check_known(f, d, p, k, i, (p * np + k) * 5 + i)
        for t in range(d.nmoods):
            if counts[t] > 4:
                raise NotationError(f"{counts[t]} cards of mood {MOODS[t]}; there are 4 of each",
                                    text)
        # held piles
        f.split_c("held", n, c',', "entries (a pile number or -)", starts, ends, 8)
        a = f.vstart[f.key("held")]
        for p in range(n):
            c = f.at(starts[p]) if ends[p] - starts[p] == 1 else 0
            if c == c'-':
                d.held[p] = -1
            elif c'0' <= c < c'0' + np:
                k = c - c'0'
                d.held[p] = k
                for i in range(4):
                    if not d.known[p][k][i] >> p & 1:
                        raise f.error(f["held"], f"seat {p} holds pile {k}, so it knows its "
                                      f"cards: known must show o or * for them", starts[p] - a, 1)
            else:
                raise f.error(f["held"], f"{f.text[starts[p]:ends[p]]!r}: a pile number 0 to "
                              f"{np - 1}, or - for none", starts[p] - a,
                              (ends[p] - starts[p]) or 1)
        # this tick's choices
        f.split_c("chosen", n, c',', "entries (a move, - or ?)", starts, ends, 8)
        a = f.vstart[f.key("chosen")]
        for p in range(n):
            c = f.at(starts[p]) if ends[p] - starts[p] == 1 else 0
            if c == c'-':
                d.pending[p] = TC_NOT_CHOSEN
            elif c == c'?':
                if view < 0 or view == p:
                    raise f.error(f["chosen"], "? (a hidden choice) appears only in a view, for "
                                  "another seat", starts[p] - a, 1)
                d.pending[p] = TC_PEND_UNK
            else:
                part = f.text[starts[p]:ends[p]]
                mv = _MOVE_INDEX.get(part)
                if mv is None:
                    raise f.error(f["chosen"], f"{part!r} is not a move: wait, stop, pick<k>, "
                                  f"swap<i><j>, or - (not chosen yet), ? (hidden)", starts[p] - a,
                                  len(part) or 1)
                m = mv
                nl = legal_for(d, p, legal)
                for j in range(nl):
                    if legal[j] == m:
                        break
                else:
                    raise f.error(f["chosen"], f"{part!r} is not legal for seat {p} (legal: "
                                  f"{' '.join([_MOVE_TEXT[legal[j]] for j in range(nl)])})",
                                  starts[p] - a, len(part))
                d.pending[p] = m
        # phase (views only)
        d.phase = 0
        reveal = False
        d.caller = -1
        if f.has("phase"):
            pf = f["phase"]
            if view < 0:
                raise f.error(pf, "only a seat's view waits for chance (phase=...)")
            if pf.value == "resolve":
                d.phase = 1
            elif pf.value == "reveal":
                reveal = True
            elif pf.value.startswith("score:") and (pf.value[6:] == "-" or (
                    len(pf.value) == 7 and pf.value[6].isascii() and pf.value[6].isdigit()
                    and int(pf.value[6]) < n)):
                d.phase = 2
                d.caller = -1 if pf.value[6:] == "-" else int(pf.value[6])
            else:
                raise f.error(pf, "write phase=resolve, phase=score:<seat or -> or "
                              "phase=reveal")
        if view >= 0:
            _check_seen(f, d, reveal)
        # the seat to choose
        nchosen = 0
        while nchosen < n and d.pending[nchosen] != TC_NOT_CHOSEN:
            nchosen += 1
        for p in range(nchosen, n):
            if d.pending[p] != TC_NOT_CHOSEN:
                raise f.error(f["chosen"], "seats choose in seat order: after a - every seat "
                              "shows -")
        over = d.rnd == TC_MAX_ROUNDS
        for p in range(n):
            over = over or scores[p] >= target
        if f.is_("turn", b"-"):
            if d.phase == 1:
                c = 0
                for p in range(n):
                    c = c or d.pending[p] == TC_PEND_UNK
                if nchosen != n or not c:
                    raise f.error(f["phase"], "phase=resolve waits for hidden choices (?) once "
                                  "every seat has chosen")
            elif d.phase == 2:
                if nchosen != 0:
                    raise f.error(f["chosen"], "a round waiting to be scored has no choices "
                                  "pending")
                if d.rtick == 0 or scoring_slot(d) < 0:
                    raise f.error(f["phase"], "phase=score waits for unknown pile cards that "
                                  "scoring needs; there are none")
            else:
                if not over:
                    raise f.error(f["turn"], f"the game is not over (no score reaches {target} "
                                  f"and round {d.rnd} is not the last): turn must be a seat")
                c = nchosen != 0
                for p in range(n):
                    c = c or d.held[p] >= 0
                if c:
                    raise f.error(f["turn"], "once the game is over nobody chooses or holds a "
                                  "pile")
                for p in range(n):
                    for k in range(np):
                        for i in range(4):
                            if d.known[p][k][i] != allb:
                                raise f.error(f["known"], "once the game is over every pile has "
                                              "been turned over for scoring: every card is known "
                                              "to everyone (*)")
                d.h.terminal = 1
            d.h.current = NO_SEAT
        else:
            cur = f.int_c("turn", 0, n - 1)
            if d.phase != 0:
                raise f.error(f["turn"], "while a view waits for chance (phase=...) turn is -")
            for p in range(n):
                if scores[p] >= target:
                    raise f.error(f["turn"], f"a score has reached the target {target}: the game "
                                  f"is over and turn must be -")
            if d.rtick >= TC_ROUND_TICKS:
                raise f.error(f["rtick"], f"a round ends after {TC_ROUND_TICKS} ticks")
            if cur != nchosen:
                raise f.error(f["turn"], f"seat {nchosen} is the next to choose in this tick "
                              f"(chosen={f.value('chosen')})")
            d.h.current = cur
        total = 0
        for t in range(14):
            total += counts[t]
        if view < 0 and total != 4 * d.nmoods:
            raise NotationError(f"the notation holds {total} cards; with {n} players the "
                                f"game has {4 * d.nmoods}", text)

    def _write_text(self):
        return write_text(self, _put_field)


register(TheCat)


cdef int _card(TextFields f, TCData* d, str key, int col, int off, int* counts) except -1:
    """The card at column ``col`` (``off`` into field ``key``'s value), counted in ``counts``
    (the unknown card is not counted)."""
    cdef int c = f.at(col), view = d.h.view_seat, t
    t = _CARDS.table[c] if c < 128 else -1
    if t == TC_UNK:
        if view < 0:
            raise f.error(f[key], "? (an unknown card) appears only in a seat's view, which "
                          "has view=<seat>", off, 1)
        return TC_UNK
    if t < 0 or t >= d.nmoods:
        raise f.error(f[key], f"{chr(c)!r} is not a card; with {d.h.players} players the moods "
                      f"are {' '.join(MOODS[:d.nmoods])}"
                      + (" (and ? in a view)" if view >= 0 else ""), off, 1)
    counts[t] += 1
    return t


def _shape(TextFields f, key, int n, int np):
    """The value as seats (/) of piles (,) of 4 characters, with each one's offset."""
    fv = f[key]
    seats = fv.value.split("/")
    if len(seats) != n:
        raise f.error(fv, f"expected {n} seats separated by /, got {len(seats)}")
    out = []
    off = 0
    for p, part in enumerate(seats):
        piles = part.split(",")
        if len(piles) != np:
            raise f.error(fv, f"seat {p} has {len(piles)} piles; with {n} players each has "
                          f"{np}, separated by ,", off, len(part) or 1)
        for k, pl in enumerate(piles):
            if len(pl) != 4:
                raise f.error(fv, f"pile {k} of seat {p} has {len(pl)} cards; a pile has 4",
                              off, len(pl) or 1)
            out.append((p, k, pl, off))
            off += len(pl) + 1
    return out


cdef int _check_known(TextFields f, TCData* d, int p, int k, int i, int off) except -1:
    """A view shows only the pile cards its seat knows (``off``: the card's offset in
    ``known``)."""
    cdef int view = d.h.view_seat, mask = d.known[p][k][i]
    if view >= 0 and d.pile[p][k][i] != TC_UNK and not mask >> view & 1:
        raise f.error(f["piles"], f"seat {view}'s view shows card {i} of seat {p}'s pile "
                      f"{k}, which seat {view} does not know "
                      f"(known={_known_char(mask, p, d.h.players)})", off, 1)
    return 0


cdef int _check_seen(TextFields f, TCData* d, bint reveal) except -1:
    """A view shows every card its seat knows (the centre, and the pile cards ``known``
    gives it), except in a view a search played on that waits for chance to reveal them:
    ``phase=reveal`` (or ``resolve``, ``score``); ``phase=reveal`` only there."""
    cdef int slot = reveal_slot(d), view = d.h.view_seat, p, k, i
    if slot < 0:
        if reveal:
            raise f.error(f["phase"], f"phase=reveal waits for cards seat {view} now sees but "
                          f"its view holds as unknown (?); there are none")
        return 0
    if reveal or d.phase != 0:
        return 0
    if slot >= 64:
        raise f.error(f["centre"], f"the centre is public: seat {view}'s view shows its cards "
                      f"(? only in a view waiting to reveal them, phase=reveal)", slot - 64, 1)
    p, k, i = slot >> 4, (slot >> 2) & 3, slot & 3
    raise f.error(f["piles"], f"seat {view} knows card {i} of seat {p}'s pile {k} "
                  f"(known={_known_char(d.known[p][k][i], p, d.h.players)}): its view shows "
                  f"it, not ? (? only in a view waiting to reveal it, phase=reveal)",
                  (p * d.npiles + k) * 5 + i, 1)


cdef bint _known_fast(TextFields f, TCData* d) except -1:
    """The ``known`` field read in C where it is well formed (every seat's piles of 4 of
    ``-o*``): return 1; else 0, and ``_read`` reads it the precise way."""
    cdef int key = f.key("known"), a, b, p, q, i, c, x, n = d.h.players, np = d.npiles
    if not f.fast:
        return 0
    a = f.vstart[key]
    b = f.vend[key]
    if b - a != n * (np * 5) - 1:
        return 0
    for p in range(n):
        for q in range(np):
            x = a + (p * np + q) * 5
            for i in range(4):
                c = f.s[x + i]
                d.known[p][q][i] = (0 if c == c'-' else 1 << p if c == c'o'
                                    else (1 << n) - 1 if c == c'*' else 255)
                if d.known[p][q][i] == 255:
                    return 0
            if x + 4 < b and f.s[x + 4] != (c'/' if q == np - 1 else c','):
                return 0
    return 1


cdef bint _piles_fast(TextFields f, TCData* d, int* counts, int view) except -1:
    """The ``piles`` field read in C where it is well formed (every seat's piles of 4 known
    cards, or ``?`` in a view): return 1; else 0, and ``_read`` reads it the precise way."""
    cdef int k = f.key("piles"), a, b, p, q, i, j, c, n = d.h.players, nm = d.nmoods
    cdef int cnt[14]
    if not f.fast:
        return 0
    a = f.vstart[k]
    b = f.vend[k]
    if b - a != n * (d.npiles * 5) - 1:
        return 0
    memset(cnt, 0, sizeof(cnt))
    for p in range(n):
        for q in range(d.npiles):
            for i in range(5):
                j = a + (p * d.npiles + q) * 5 + i
                c = f.s[j] if j < b else 0
                if i == 4:
                    if c != (c'/' if q == d.npiles - 1 else c','):
                        if not (c == 0 and p == n - 1 and q == d.npiles - 1):
                            return 0
                    continue
                c = _CARDS.table[c & 0x7f]
                if c < 0 or c >= nm and c != TC_UNK or (c == TC_UNK and view < 0):
                    return 0
                d.pile[p][q][i] = c
                if c != TC_UNK:
                    cnt[c] += 1
    for c in range(nm):
        counts[c] += cnt[c]
    return 1


cdef CardLetters _CARDS            # letters: reader .table, writer .chars
card_letters(&_CARDS, CARD_CHARS)
cdef tuple _MOVES_B = None


cdef int _put_field(State st, TextOut* o, int j) except -1:
    """The value of notation field ``j`` (``SPEC.notation[j]``)."""
    global _MOVES_B
    cdef TCData* d = &(<TheCat>st).d
    cdef int p, k, i, m, mask, n = d.h.players, allb = (1 << d.h.players) - 1
    if j == 1:
        put_int(o, d.target)
    elif j == 2:
        put_int(o, d.rnd)
    elif j == 3:
        put_int(o, d.tick)
    elif j == 4:
        put_int(o, d.rtick)
    elif j == 5:                                # scores
        put_ints(o, d.score, n)
    elif j == 6:
        put_turn_or_dash(o, d.h.current)
    elif j == 7:                                # chosen
        if _MOVES_B is None:
            _MOVES_B = tuple(t.encode("ascii") for t in _MOVE_TEXT)
        for p in range(n):
            if p:
                put_c(o, c',')
            m = d.pending[p]
            if m == TC_NOT_CHOSEN:
                put_c(o, c'-')
            elif m == TC_PEND_UNK:
                put_c(o, c'?')
            else:
                put_s(o, <bytes>_MOVES_B[m])
    elif j == 8:                                # held
        for p in range(n):
            if p:
                put_c(o, c',')
            put_turn_or_dash(o, d.held[p])
    elif j == 9:                                # centre
        for i in range(4):
            put_c(o, _CARDS.chars[d.centre[i]])
    elif j == 10 or j == 11:                    # piles, known
        for p in range(n):
            if p:
                put_c(o, c'/')
            for k in range(d.npiles):
                if k:
                    put_c(o, c',')
                for i in range(4):
                    if j == 10:
                        put_c(o, _CARDS.chars[d.pile[p][k][i]])
                    else:
                        mask = d.known[p][k][i]
                        put_c(o, c'-' if mask == 0 else c'*' if mask == allb else c'o')
    elif j == 13:                               # phase
        if d.phase == 1:
            put_s(o, b"resolve")
        elif d.phase == 2:
            put_s(o, b"score:")
            put_turn_or_dash(o, d.caller)
        elif d.h.view_seat >= 0 and reveal_slot(d) >= 0:
            put_s(o, b"reveal")     # cards the seat sees, unknown until chance reveals them
        else:
            return 0
    else:
        raise ValueError(f"no notation field {j}")
    return 1


_MOVE_TEXT = (["wait", "stop"] + [f"pick{k}" for k in range(4)]
              + [f"swap{i}{j}" for i in range(4) for j in range(4)])
_MOVE_INDEX = {t: m for m, t in enumerate(_MOVE_TEXT)}


def _read_move(str s):
    """The int of a move's text (``pick 2`` and ``swap 1 3`` are read too), or None."""
    parts = s.split()
    if len(parts) == 2 and parts[0] == "pick" or len(parts) == 3 and parts[0] == "swap":
        if all(len(x) == 1 for x in parts[1:]):
            return _MOVE_INDEX.get("".join(parts))
        return None
    if len(parts) == 1:
        return _MOVE_INDEX.get(parts[0])
    return None


cdef str _known_char(int mask, int owner, int n):
    if mask == 0:
        return "-"
    if mask == (1 << n) - 1:
        return "*"
    return "o"


cdef list _legal_list(TCData* d, int p):
    cdef int buf[TC_MOVES]
    cdef int k = legal_for(d, p, buf)
    return [buf[i] for i in range(k)]


def _first_assignment(options, changed):
    """The first choice of one slot per entry of ``options`` (each a list of slots, in
    order), all different, that covers every slot in ``changed``; None if there is none."""
    def walk(idx, taken):
        if idx == len(options):
            return [] if changed <= taken else None
        for x in options[idx]:
            if x not in taken:
                rest = walk(idx + 1, taken | {x})
                if rest is not None:
                    return [x] + rest
        return None
    return walk(0, frozenset())
