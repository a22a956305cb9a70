# cython: language_level=3
"""The example game ``toy-sum`` (rules in ``docs/rules/toy-sum.rst``): a hand and a deck.

The worked example of ``docs/contract.rst``, "Adding a game": the common case of a game with
hidden hands and a face-down deck, on the kit's fast C paths (the notation written by a C
field writer and read through :class:`~catsearch._core.text.TextFields`). It is a test game
(registered with ``listed=False`` when :mod:`catsearch.testing` is imported: ``new_game``
and ``from_text`` know it, :data:`catsearch.GAMES` does not list it).

Fifteen cards numbered 1 to 15, one of each; 2-4 players hold 3 hidden cards each, the rest
is the deck. On its turn a seat plays a card onto a running total (from 0): if the total
stays within the ``bound`` (an option, default 21) the seat scores the card's value, else the
total goes back to 0 and the card scores nothing; then the seat draws the deck's top card
while there is one. The game ends when every hand is empty; the most points wins.

Cards are types ``0..14`` (type ``t`` is the card ``t + 1``), written ``1``-``9``, ``A``-``F``
in the notation; ``?`` is an unknown card in a seat's view (``*`` in the view's own hand: a
card it drew in a view a search played on). Move ``m`` (``0..14``) plays the card ``m + 1``,
written as its number (``7``, ``12``).

Observations: the move's text, then ``+`` and the card drawn at the end of the turn, its
letter for the drawer and ``?`` for the others (``12+A``, ``12+?``); no suffix once the deck
is empty (:mod:`catsearch._core.draws`).
"""
from libc.stdint cimport uint64_t
from libc.math cimport exp, sqrt

from catsearch._core.rng cimport Rng, Pick, pick_start, pick_offer, fill_tables
from catsearch._core.state cimport (State, Header, NO_SEAT, restart, scores_from, normalize,
                                    heuristic_weights, heuristic_moves, fill_weights)
from catsearch._core.observing cimport put_turn
from catsearch._core.zobrist cimport count_key, set_value, turn_key
from catsearch._core.cards cimport (shuffled_deck, card_in, card_out,
                                    reveal_unknown, count_unseen, unseen_fn, hide_hands_deck,
                                    determinize_hands_deck, hand_chance_outcomes, put_on_top,
                                    draw_top, pass_to_holder)
from catsearch._core.text cimport (TextFields, TextOut, CardLetters, card_letters, write_text,
                                   check_counts, read_hands, read_deck, read_turn, put_int,
                                   put_ints, put_turn_or_dash, put_hands, put_run_or_dash,
                                   put_counted_or_dash)

from catsearch._core.draws import draw_observation, read_draw
from catsearch._core.game import GameSpec, register
from catsearch._core.options import Option
from catsearch.errors import InvalidMoveError, NotationError

# -- the declaration ---------------------------------------------------------------------
LETTERS = "123456789ABCDEF?"
LETTERS_OWN = "123456789ABCDEF*"       # the view's own hand: * is a card drawn in a search
CARD_NAMES = tuple(f"card {t + 1}" for t in range(SUM_TYPES))
cdef CardLetters _L, _L_OWN            # the letters for the C reader (.table), writer (.chars)
card_letters(&_L, LETTERS)
card_letters(&_L_OWN, LETTERS_OWN)
cdef enum:
    MOST_POINTS = 120                  # 1 + 2 + ... + 15

# The heuristic's weights, in this order in HW (a player sets them as weights.NAME=value)
cdef enum:
    HW_FIT, HW_BUST, HW_N
cdef double HW[HW_N]

SPEC = GameSpec(
    id="toy-sum", name="Toy running sum", size=sizeof(SumData), moves=SUM_MOVES,
    notation=("players", "bound", "turn", "total", "hands", "deck", "played", "points", "rng",
              "view?"),
    options=(Option("bound", int, 21, 15, MOST_POINTS, doc="the most the total may reach"),),
    heuristic_weights=(
        Option("fit", float, 1.0, doc="per point of a card that keeps the total in bound"),
        Option("bust", float, -1.0, doc="per point of a card that goes over the bound"),
    ),
    max_game_length=lambda players: 15)     # every turn plays one of the 15 cards
fill_weights(HW, HW_N, SPEC)

# -- Zobrist keys, drawn once at import from a fixed seed ---------------------------------
cdef unsigned char COMP[15]            # the deck: one card of each type
COMP[:] = [1] * 15
cdef uint64_t Z_HAND[4][16][4]         # seat, type (or unknown), count before adding
cdef uint64_t Z_DECK[15][16]           # position, type (or unknown)
cdef uint64_t Z_PLAYED[15]
cdef uint64_t Z_TOTAL[121]
cdef uint64_t Z_POINTS[4][121]
cdef uint64_t Z_TURN[5]                # seat to move; [4]: nobody (game over)
cdef uint64_t* _TABLES[6]
cdef Py_ssize_t _BYTES[6]
_TABLES[:] = [&Z_HAND[0][0][0], &Z_DECK[0][0], &Z_PLAYED[0], &Z_TOTAL[0], &Z_POINTS[0][0],
              &Z_TURN[0]]
_BYTES[:] = [sizeof(Z_HAND), sizeof(Z_DECK), sizeof(Z_PLAYED), sizeof(Z_TOTAL),
             sizeof(Z_POINTS), sizeof(Z_TURN)]
fill_tables(_TABLES, _BYTES, 6, 0x5355_0001)


# -- the rules, on the struct --------------------------------------------------------------
cdef void unseen_counts(SumData* d, int seat, int* cnt) noexcept nogil:
    """cnt[t]: the cards of type t that `seat` has not seen (seat < 0: that nobody has seen
    in this view state, i.e. every unknown card)."""
    cdef int t
    count_unseen(cnt, COMP, SUM_TYPES, &d.hand[0][0], 16, d.h.players, seat,
                 d.deck + d.deck_top, d.deck_len - d.deck_top)
    for t in range(SUM_TYPES):
        cnt[t] -= d.played[t]


cdef void end_turn(SumData* d, int p) noexcept nogil:
    """Draw the deck's top card (while there is one), then pass to the next seat with cards."""
    if d.deck_top < d.deck_len:
        card_in(&d.h.hash, &Z_HAND[p][0][0], 4, d.hand[p], &d.hand_size[p],
                draw_top(&d.h.hash, &Z_DECK[0][0], 16, d.deck, &d.deck_top))
    pass_to_holder(&d.h, Z_TURN, d.hand_size)


cdef class ToySum(State):
    """A state of toy-sum (see the module docstring and ``docs/rules/toy-sum.rst``)."""

    spec = SPEC

    cdef int legal_moves_c(self, int* out) noexcept nogil:
        cdef SumData* d = &self.d
        cdef unsigned char* hand = d.hand[d.h.current]
        cdef int pool[SUM_TYPES]
        cdef int n = 0, t
        if hand[SUM_UNK] > 0:       # a view: the mover may hold any card nobody here has seen
            unseen_counts(d, NO_SEAT, pool)
        for t in range(SUM_TYPES):
            if hand[t] or (hand[SUM_UNK] > 0 and pool[t] > 0):
                out[n] = t
                n += 1
        return n

    cdef void apply_c(self, int m) noexcept nogil:
        cdef SumData* d = &self.d
        cdef int p = d.h.current
        card_out(&d.h.hash, &Z_HAND[p][0][0], 4, d.hand[p], &d.hand_size[p], m, SUM_UNK)
        d.played[m] = 1
        d.h.hash ^= Z_PLAYED[m]
        if d.total + m + 1 <= d.bound:
            set_value(&d.h.hash, Z_TOTAL, &d.total, d.total + m + 1)
            set_value(&d.h.hash, Z_POINTS[p], &d.points[p], d.points[p] + m + 1)
        else:
            set_value(&d.h.hash, Z_TOTAL, &d.total, 0)
        end_turn(d, p)

    cdef uint64_t compute_hash_c(self) noexcept nogil:
        cdef SumData* d = &self.d
        cdef uint64_t z = turn_key(Z_TURN, d.h.current) ^ Z_TOTAL[d.total]
        cdef int p, t, i
        for p in range(d.h.players):
            for t in range(16):
                z ^= count_key(Z_HAND[p][t], d.hand[p][t])
            z ^= Z_POINTS[p][d.points[p]]
        for i in range(d.deck_top, d.deck_len):
            z ^= Z_DECK[i][d.deck[i]]
        for t in range(SUM_TYPES):
            if d.played[t]:
                z ^= Z_PLAYED[t]
        return z

    cdef void scores_c(self, double* out) noexcept nogil:
        """Points per seat."""
        scores_from(out, self.d.points, self.d.h.players)

    cdef void reset_c(self, uint64_t seed) noexcept nogil:
        cdef SumData* d = &self.d
        cdef int bound = d.bound, p, i
        restart(self, seed)             # the struct cleared: keep the option
        d.bound = bound
        d.deck_len = shuffled_deck(d.deck, COMP, SUM_TYPES, &d.h.rng)
        for p in range(d.h.players):
            for i in range(SUM_HAND):
                card_in(&d.h.hash, &Z_HAND[p][0][0], 4, d.hand[p], &d.hand_size[p],
                        d.deck[d.deck_top])
                d.deck_top += 1
        d.h.hash = self.compute_hash_c()

    # -- knowledge: a seat's view, determinizations, chance in a view ----------------------
    cdef void hide_c(self, int seat) noexcept nogil:
        hide_hands_deck(self, seat, &self.d.hand[0][0], 16, SUM_TYPES, SUM_UNK,
                        self.d.deck + self.d.deck_top, self.d.deck_len - self.d.deck_top)

    cdef void determinize_c(self, int seat, Rng* rng) noexcept nogil:
        # everything `seat` has not seen, dealt at random into the places it cannot see
        determinize_hands_deck(self, seat, rng, <unseen_fn>unseen_counts, SUM_TYPES,
                               &self.d.hand[0][0], 16, self.d.hand_size, SUM_UNK,
                               self.d.deck + self.d.deck_top, self.d.deck_len - self.d.deck_top)

    cdef int chance_outcomes_c(self, int* outcomes, double* weights) noexcept nogil:
        return hand_chance_outcomes(self, <unseen_fn>unseen_counts, SUM_TYPES, &self.d.hand[0][0],
                                    16, SUM_UNK, outcomes, weights)

    cdef void apply_chance_c(self, int t) noexcept nogil:
        cdef SumData* d = &self.d
        cdef int p = d.h.current
        reveal_unknown(&d.h.hash, &Z_HAND[p][0][0], 4, d.hand[p], &d.hand_size[p], SUM_UNK, t)

    # -- the heuristic and the evaluation ---------------------------------------------------
    cdef int heuristic_move_c(self, Rng* rng, int* buf, int n) noexcept nogil:
        """The biggest card that keeps the total in bound; else the smallest (each card
        scores its value times the weight ``fit`` or ``bust``; ties broken at random)."""
        cdef SumData* d = &self.d
        cdef const double* w = heuristic_weights(&d.h, HW)
        cdef int i, m
        cdef Pick pick
        n = heuristic_moves(self, buf, n)
        pick_start(&pick, buf[0])
        for i in range(n):
            m = buf[i]
            pick_offer(&pick, rng, m, (m + 1) * (w[HW_FIT] if d.total + m + 1 <= d.bound
                                                 else w[HW_BUST]), 1e-9)
        return pick.choice

    cdef void evaluate_c(self, double* out) noexcept nogil:
        """Win chances from each seat's points plus half the value of its hand (an unknown
        card at the mean of the unknown ones), by a softmax that sharpens as the points
        still to be played for run out."""
        cdef SumData* d = &self.d
        cdef int cnt[SUM_TYPES]
        cdef double x[4]
        cdef double mean = 0.0, best, beta
        cdef int p, t, unknown = 0, left = 0, n = d.h.players
        if d.h.terminal:
            self.returns_c(out)
            return
        unseen_counts(d, NO_SEAT, cnt)
        for t in range(SUM_TYPES):
            if not d.played[t]:
                left += t + 1
            if cnt[t] > 0:
                unknown += cnt[t]
                mean += cnt[t] * (t + 1)
        if unknown:
            mean /= unknown
        for p in range(n):
            x[p] = d.points[p] + 0.5 * mean * d.hand[p][SUM_UNK]
            for t in range(SUM_TYPES):
                x[p] += 0.5 * (t + 1) * d.hand[p][t]
        best = x[0]
        for p in range(1, n):
            best = x[p] if x[p] > best else best
        beta = 2.0 / sqrt(1.0 + left)
        for p in range(n):
            x[p] = exp(beta * (x[p] - best))
        normalize(out, x, n)

    # -- tensors (see the rules page, "Tensors") -------------------------------------------
    cdef void tensor_c(self, int kind, float* out) noexcept nogil:
        cdef SumData* d = &self.d
        cdef int n = d.h.players, seat = d.h.view_seat
        cdef int i, t, o = 0
        cdef int cnt[SUM_TYPES]
        if seat < 0:
            seat = 0
        o = put_turn(out, o, &d.h)
        for t in range(SUM_TYPES + 1):                  # hand: the seat's cards, and unknown
            out[o + t] = d.hand[seat][t] / <float>SUM_HAND
        o += SUM_TYPES + 1
        for i in range(n):                              # hand_sizes, relative
            out[o + i] = d.hand_size[(seat + i) % n] / <float>SUM_HAND
        o += n
        out[o] = (d.deck_len - d.deck_top) / <float>(SUM_TYPES - SUM_HAND * n)   # deck
        out[o + 1] = d.total / <float>d.bound                                    # total
        o += 2
        for t in range(SUM_TYPES):                      # played
            out[o + t] = d.played[t]
        o += SUM_TYPES
        for i in range(n):                              # points, relative
            out[o + i] = d.points[(seat + i) % n] / <float>MOST_POINTS
        o += n
        if kind == 0:
            return
        for i in range(1, n):                           # others: as the view knows them
            for t in range(SUM_TYPES + 1):
                out[o + t] = d.hand[(seat + i) % n][t] / <float>SUM_HAND
            o += SUM_TYPES + 1
        unseen_counts(d, seat, cnt)                     # unseen: what the seat has not seen
        for t in range(SUM_TYPES):
            out[o + t] = 1.0 if cnt[t] > 0 else 0.0

    def _tensor_layout(self, int kind) -> list:
        n = self.d.h.players
        parts = [("turn", n), ("hand", SUM_TYPES + 1), ("hand_sizes", n), ("deck", 1),
                 ("total", 1), ("played", SUM_TYPES), ("points", n)]
        if kind == 1:
            parts += [("others", (n - 1) * (SUM_TYPES + 1)), ("unseen", SUM_TYPES)]
        return parts

    # -- the Python side: options, moves, observations, cards ------------------------------
    def _set_options(self, dict options):
        self.d.bound = options["bound"]

    def _move_to_str(self, int m) -> str:
        return str(m + 1)

    def _str_to_move(self, str s) -> int:
        if not (s.isascii() and s.isdigit() and s == str(int(s)) and 1 <= int(s) <= 15):
            raise InvalidMoveError(f"{s!r} is not a {self.game_id} move: write the card played, "
                                   f"1 to 15")
        return int(s) - 1

    def _observation(self, int seat, int move) -> str:
        d = &self.d
        drawn = LETTERS[d.deck[d.deck_top]] if d.deck_top < d.deck_len else None
        return draw_observation(self._move_to_str(move), seat=seat, mover=d.h.current,
                                drawn=drawn)

    def _play_observation(self, str text) -> int:
        cdef SumData* d = &self.d
        cdef int seat = d.h.view_seat, p = d.h.current
        cdef int cnt[SUM_TYPES]
        cdef int m, drawn
        move_text, drawn = read_draw(text, seat=seat, mover=p,
                                     deck_left=d.deck_top < d.deck_len, letters=LETTERS[:15])
        try:
            m = self._str_to_move(move_text)
        except InvalidMoveError as e:
            raise ValueError(str(e)) from None
        if m not in self.legal_moves():
            raise ValueError(f"seat {p} cannot play {move_text!r} here; legal: "
                             + " ".join(self._move_to_str(x) for x in self.legal_moves()))
        unseen_counts(d, seat, cnt)
        if not d.hand[p][m]:            # a card unknown to this view: it must be unseen
            if cnt[m] < 1:
                raise ValueError(f"seat {p} cannot play {move_text!r}: seat {seat} has seen it")
            cnt[m] -= 1
        if drawn >= 0:
            if cnt[drawn] < 1:
                raise ValueError(f"seat {seat} cannot draw {LETTERS[drawn]!r} "
                                 f"({CARD_NAMES[drawn]}): it has seen it")
            put_on_top(&d.h.hash, &Z_DECK[0][0], 16, d.deck, d.deck_top, drawn)
        self.apply_c(m)
        return m

    def cards(self) -> dict:
        d = &self.d
        out = {f"hand{p}": "".join(LETTERS[t] * d.hand[p][t] for t in range(16))
               for p in range(d.h.players)}
        out["deck"] = "".join(LETTERS[d.deck[i]] for i in range(d.deck_top, d.deck_len))
        out["played"] = "".join(LETTERS[t] for t in range(SUM_TYPES) if d.played[t])
        return out

    def knowledge(self) -> dict:
        n = self.d.h.players
        out = {f"hand{p}": frozenset([p]) for p in range(n)}
        out.update(deck=frozenset(), played=frozenset(range(n)))
        return out

    def __str__(self):
        d = &self.d
        lines = [f"{self.game_id}, {d.h.players} players, ply {d.h.ply}, total {d.total} of "
                 f"{d.bound}, deck {d.deck_len - d.deck_top} cards"
                 + (f", seat {d.h.current} to move" if d.h.current >= 0 else ", game over")]
        for p in range(d.h.players):
            hand = " ".join(LETTERS[t] * d.hand[p][t] for t in range(16) if d.hand[p][t])
            lines.append(f"{'>' if p == d.h.current else ' '} seat {p}  {hand or '(empty)':<8}"
                         f" points {d.points[p]}")
        return "\n".join(lines)

    # -- the notation: read through TextFields, written by a C field writer ----------------
    def _read(self, TextFields f):
        cdef SumData* d = &self.d
        cdef int n = d.h.players, s = d.h.view_seat
        cdef int counts[16]
        cdef unsigned char cards[16]
        cdef int points[4]
        cdef int p, t, i, k, a, value = 0, held = 0
        for t in range(16):
            counts[t] = 0
        d.bound = f.int_c("bound", 15, MOST_POINTS)
        d.total = f.int_c("total", 0, d.bound)
        read_hands(f, "hands", n, s, SUM_HAND, _L.table, LETTERS, _L_OWN.table, LETTERS_OWN,
                   CARD_NAMES, counts, &d.hand[0][0], 16, d.hand_size)
        d.deck_len = SUM_TYPES
        read_deck(f, "deck", _L.table, LETTERS, counts, s, CARD_NAMES, d.deck, SUM_TYPES,
                  SUM_TYPES - SUM_HAND * n, &d.deck_top)
        a = f.key("played")
        k = f.cards_c("played", f.vstart[a], f.vend[a], _L.table, LETTERS, counts, False, "",
                      cards, 16)
        for i in range(min(k, 16)):
            d.played[cards[i]] = 1
        f.ints_c("points", n, 0, MOST_POINTS, points)
        check_counts(f.text, counts, COMP, SUM_TYPES, CARD_NAMES, SPEC.name, s >= 0)
        for t in range(SUM_TYPES):
            value += (t + 1) * d.played[t]
        if d.total > value:
            raise NotationError(f"the total {d.total} comes from the cards played: they add "
                                f"up to {value}", f.text)
        for p in range(n):
            d.points[p] = points[p]
            value -= points[p]
        if value < 0:
            raise NotationError("the points come from the cards played: they add up to less",
                                f.text)
        for p in range(n):
            if d.deck_top < d.deck_len and d.hand_size[p] != SUM_HAND:
                raise NotationError("while the deck has cards every hand holds 3", f.text)
            held += d.hand_size[p]
        read_turn(f, &d.h, d.hand_size, held == 0, "every hand empty")

    def _write_text(self):
        return write_text(self, _put_field)


cdef int _put_field(State st, TextOut* o, int j) except -1:
    """The value of notation field ``j`` (``SPEC.notation[j]``; the kit writes players, rng
    and view)."""
    cdef SumData* d = &(<ToySum>st).d
    if j == 1:                                  # bound
        put_int(o, d.bound)
    elif j == 2:                                # turn
        put_turn_or_dash(o, d.h.current)
    elif j == 3:                                # total
        put_int(o, d.total)
    elif j == 4:                                # hands
        put_hands(o, &d.hand[0][0], 16, d.h.players, d.h.view_seat, _L.chars, _L_OWN.chars)
    elif j == 5:                                # deck
        put_run_or_dash(o, d.deck + d.deck_top, d.deck_len - d.deck_top, _L.chars)
    elif j == 6:                                # played
        put_counted_or_dash(o, d.played, SUM_TYPES, _L.chars)
    elif j == 7:                                # points
        put_ints(o, d.points, d.h.players)
    else:
        raise ValueError(f"no notation field {j}")
    return 1


register(ToySum, listed=False)
