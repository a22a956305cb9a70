# cython: language_level=3
"""A toy game with hidden simultaneous moves, for testing MO-ISMCTS (not in ``GAMES``).

Simultaneous rock-paper-scissors for 2-4 players, taken seat by seat as the contract takes
simultaneous moves (as The Cat's ticks are): each seat in turn picks ``rock`` (0), ``paper``
(1) or ``scissors`` (2), hidden from the others (``observe_move_c`` gives them the code 3,
"some choice"). When every seat has chosen, the round resolves: the choices become public and
each seat scores one point per opponent it beats. After ``rounds`` rounds (default 1) the most
points wins (ties share).

A seat's view hides the choices of the others; ``determinize_c`` draws them uniformly.
"""
from libc.stdint cimport uint64_t
from libc.string cimport memset

from catsearch._core.rng cimport Rng, rng_seed, rng_next, rng_below
from catsearch._core.state cimport State, Header, NO_SEAT, header

cdef enum:
    HIDDEN = 3          # what a seat sees of another's choice
    UNKNOWN = 3         # a choice in a view that its seat does not know
    NOT_YET = 4


ctypedef struct RPSData:
    Header h
    int choice[4]       # this round: 0..2, UNKNOWN in a view, NOT_YET before the seat chose
    int points[4]
    int round
    int rounds


cdef inline bint beats(int a, int b) noexcept nogil:
    return (a - b + 3) % 3 == 1


cdef uint64_t rps_hash(RPSData* d) noexcept nogil:
    cdef uint64_t z = 0x243F6A8885A308D3
    cdef int p
    for p in range(d.h.players):
        z = (z ^ <uint64_t>(d.choice[p] + 1)) * <uint64_t>0x100000001B3
        z = (z ^ <uint64_t>(d.points[p] + 7)) * <uint64_t>0x100000001B3
    z = (z ^ <uint64_t>(d.round + 11)) * <uint64_t>0x100000001B3
    z = (z ^ <uint64_t>(d.h.current + 2)) * <uint64_t>0x100000001B3
    return z


cdef class ToyRPS(State):
    """Simultaneous rock-paper-scissors (see the module docstring)."""

    cdef RPSData d
    game_id = "toy-rps"

    def __cinit__(self):
        self._data = &self.d
        self._size = sizeof(RPSData)

    cdef State new_empty_c(self):
        return ToyRPS.__new__(ToyRPS)

    cdef int num_distinct_moves_c(self) noexcept nogil:
        return 3

    cdef int legal_moves_c(self, int* out) noexcept nogil:
        out[0] = 0
        out[1] = 1
        out[2] = 2
        return 3

    cdef void apply_c(self, int move) noexcept nogil:
        cdef RPSData* d = &self.d
        cdef int p, q
        d.choice[d.h.current] = move
        d.h.ply += 1
        if d.h.current + 1 < d.h.players:
            d.h.current += 1
        else:
            for p in range(d.h.players):
                for q in range(d.h.players):
                    if q != p and beats(d.choice[p], d.choice[q]):
                        d.points[p] += 1
            d.round += 1
            if d.round == d.rounds:
                d.h.current = NO_SEAT
                d.h.terminal = 1
            else:
                d.h.current = 0
                for p in range(d.h.players):
                    d.choice[p] = NOT_YET
        d.h.hash = rps_hash(d)

    cdef void returns_c(self, double* out) noexcept nogil:
        cdef RPSData* d = &self.d
        cdef int p, best = -1, k = 0
        cdef int* pts = d.points
        for p in range(d.h.players):
            out[p] = 0.0
        if not d.h.terminal:
            return
        for p in range(d.h.players):
            if pts[p] > best:
                best = pts[p]
                k = 1
            elif pts[p] == best:
                k += 1
        for p in range(d.h.players):
            if pts[p] == best:
                out[p] = 1.0 / k

    cdef uint64_t compute_hash_c(self) noexcept nogil:
        return rps_hash(&self.d)

    cdef void reset_c(self, uint64_t seed) noexcept nogil:
        cdef RPSData* d = &self.d
        cdef int players = d.h.players, rounds = d.rounds, p
        memset(d, 0, sizeof(RPSData))
        d.h.players = players
        d.rounds = rounds
        d.h.view_seat = NO_SEAT
        d.h.rng_known = 1
        rng_seed(&d.h.rng, seed)
        for p in range(4):
            d.choice[p] = NOT_YET
        d.h.current = 0
        d.h.hash = rps_hash(d)

    cdef void determinize_c(self, int seat, Rng* rng) noexcept nogil:
        cdef RPSData* d = &self.d
        cdef int p
        for p in range(d.h.players):
            if d.choice[p] == UNKNOWN:
                d.choice[p] = rng_below(rng, 3)
        d.h.view_seat = NO_SEAT
        d.h.rng_known = 1
        d.h.rng.s = rng_next(rng)
        d.h.hash = rps_hash(d)

    cdef void hide_c(self, int seat) noexcept nogil:
        cdef RPSData* d = &self.d
        cdef int p
        if not d.h.terminal:
            for p in range(d.h.players):
                if p != seat and d.choice[p] != NOT_YET:
                    d.choice[p] = UNKNOWN
        d.h.view_seat = seat
        d.h.rng_known = 0
        d.h.rng.s = 0
        d.h.hash = rps_hash(d)

    cdef int observe_move_c(self, int move, int seat) noexcept nogil:
        return move if seat == self.d.h.current else HIDDEN

    @staticmethod
    def new(int players=2, seed=None, int rounds=1):
        if not 2 <= players <= 4:
            raise ValueError(f"toy-rps is for 2 to 4 players, not {players}")
        if rounds < 1:
            raise ValueError(f"rounds must be at least 1, not {rounds}")
        cdef ToyRPS st = ToyRPS.__new__(ToyRPS)
        st.d.h.players = players
        st.d.rounds = rounds
        st.reset_c(0 if seed is None else seed)
        return st

    def _move_to_str(self, int m) -> str:
        return ("rock", "paper", "scissors")[m]

    def _str_to_move(self, str s) -> int:
        return ("rock", "paper", "scissors").index(s)

    def scores(self) -> list:
        """Points per seat."""
        return [self.d.points[p] for p in range(self.d.h.players)]

    def choices(self) -> list:
        """Each seat's choice: 0-2, ``None`` before it chose, ``"?"`` where a view hides it."""
        return [None if c == NOT_YET else "?" if c == UNKNOWN else c
                for c in self.d.choice[:self.d.h.players]]

    def to_text(self) -> str:
        return (f"players={self.d.h.players} round={self.d.round}/{self.d.rounds} "
                f"turn={self.d.h.current} choices="
                + ",".join("-" if c is None else str(c) for c in self.choices())
                + " points=" + ",".join(str(x) for x in self.scores())
                + ("" if self.d.h.view_seat < 0 else f" view={self.d.h.view_seat}"))

    def _check_seat(self, seat):
        State._check_seat(self, seat)
        if self.d.h.view_seat >= 0 and seat != self.d.h.view_seat:
            raise ValueError(f"this state is seat {self.d.h.view_seat}'s view")
