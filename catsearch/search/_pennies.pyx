# cython: language_level=3
"""A toy game with hidden simultaneous choices and views that wait for chance, for testing
expectimax (not in ``GAMES``).

Matching pennies for 2 players over ``rounds`` rounds, taken seat by seat as the contract
takes simultaneous moves: seat 0 picks ``heads`` (0) or ``tails`` (1), hidden from seat 1,
then seat 1 picks, hidden from seat 0; then the round resolves: seat 0 scores a point if the
two match, seat 1 if they differ. The most points wins (ties share). The value of the game is
1/2 for each seat; a seat that could see the other's choice would always win.

In a seat's view the other seat's choice is unknown. A view cannot resolve a round whose
choices it does not know: once both seats have chosen it waits (no seat to move) and
``chance_outcomes_c`` reveals the unknown choice, heads or tails with probability 1/2.
``apply_hidden_c`` records the other seat's choice as unknown, as the game's hidden
simultaneous choices must be searched (see ``docs/expectimax.rst``).
"""
from libc.stdint cimport uint64_t

from catsearch._core.rng cimport Rng, rng_seed, rng_next, rng_below
from catsearch._core.state cimport State, Header, NO_SEAT

cdef enum:
    UNKNOWN = 2         # a choice a view does not know (also what the other seat observes)
    NOT_YET = 3


ctypedef struct PenniesData:
    Header h
    int choice[2]       # this round: 0 or 1, UNKNOWN in a view, NOT_YET before the seat chose
    int points[2]
    int round
    int rounds


cdef uint64_t pennies_hash(PenniesData* d) noexcept nogil:
    cdef uint64_t z = 0x243F6A8885A308D3
    cdef int p
    for p in range(2):
        z = (z ^ <uint64_t>(d.choice[p] + 1)) * <uint64_t>0x100000001B3
        z = (z ^ <uint64_t>(d.points[p] + 7)) * <uint64_t>0x100000001B3
    z = (z ^ <uint64_t>(d.round + 11)) * <uint64_t>0x100000001B3
    z = (z ^ <uint64_t>(d.h.current + 2)) * <uint64_t>0x100000001B3
    return z


cdef class ToyPennies(State):
    """Matching pennies with hidden simultaneous choices (see the module docstring)."""

    cdef PenniesData d
    game_id = "toy-pennies"

    def __cinit__(self):
        self._data = &self.d
        self._size = sizeof(PenniesData)

    cdef State new_empty_c(self):
        return ToyPennies.__new__(ToyPennies)

    cdef int num_distinct_moves_c(self) noexcept nogil:
        return 2

    cdef int legal_moves_c(self, int* out) noexcept nogil:
        out[0] = 0
        out[1] = 1
        return 2

    cdef void _resolve(self) noexcept nogil:
        cdef PenniesData* d = &self.d
        d.points[0 if d.choice[0] == d.choice[1] else 1] += 1
        d.round += 1
        d.choice[0] = d.choice[1] = NOT_YET
        if d.round == d.rounds:
            d.h.current = NO_SEAT
            d.h.terminal = 1
        else:
            d.h.current = 0

    cdef void apply_c(self, int move) noexcept nogil:
        cdef PenniesData* d = &self.d
        d.choice[d.h.current] = move
        d.h.ply += 1
        if d.h.current == 0:
            d.h.current = 1
        elif d.choice[0] == UNKNOWN or d.choice[1] == UNKNOWN:
            d.h.current = NO_SEAT       # a view waits for chance to reveal the choice
        else:
            self._resolve()
        d.h.hash = pennies_hash(d)

    cdef int apply_hidden_c(self) noexcept nogil:
        cdef PenniesData* d = &self.d
        if d.h.view_seat < 0 or d.h.current < 0 or d.h.current == d.h.view_seat:
            return 0
        self.apply_c(UNKNOWN)
        return 1

    cdef int chance_outcomes_c(self, int* outcomes, double* weights) noexcept nogil:
        cdef PenniesData* d = &self.d
        if d.h.terminal or d.h.current != NO_SEAT:
            return 0
        outcomes[0] = 0
        outcomes[1] = 1
        weights[0] = weights[1] = 0.5
        return 2

    cdef void apply_chance_c(self, int outcome) noexcept nogil:
        cdef PenniesData* d = &self.d
        d.choice[0 if d.choice[0] == UNKNOWN else 1] = outcome
        self._resolve()
        d.h.hash = pennies_hash(d)

    cdef void returns_c(self, double* out) noexcept nogil:
        cdef PenniesData* d = &self.d
        out[0] = out[1] = 0.0
        if d.h.terminal:
            if d.points[0] == d.points[1]:
                out[0] = out[1] = 0.5
            else:
                out[0 if d.points[0] > d.points[1] else 1] = 1.0

    cdef uint64_t compute_hash_c(self) noexcept nogil:
        return pennies_hash(&self.d)

    cdef void reset_c(self, uint64_t seed) noexcept nogil:
        cdef PenniesData* d = &self.d
        cdef int rounds = d.rounds
        d.h.players = 2
        d.h.current = 0
        d.h.terminal = 0
        d.h.view_seat = NO_SEAT
        d.h.rng_known = 1
        d.h.ply = 0
        rng_seed(&d.h.rng, seed)
        d.choice[0] = d.choice[1] = NOT_YET
        d.points[0] = d.points[1] = 0
        d.round = 0
        d.rounds = rounds
        d.h.hash = pennies_hash(d)

    cdef void determinize_c(self, int seat, Rng* rng) noexcept nogil:
        cdef PenniesData* d = &self.d
        cdef int p
        for p in range(2):
            if d.choice[p] == UNKNOWN:
                d.choice[p] = rng_below(rng, 2)
        if d.h.current == NO_SEAT and not d.h.terminal:
            self._resolve()
        d.h.view_seat = NO_SEAT
        d.h.rng_known = 1
        d.h.rng.s = rng_next(rng)
        d.h.hash = pennies_hash(d)

    cdef void hide_c(self, int seat) noexcept nogil:
        cdef PenniesData* d = &self.d
        if d.choice[1 - seat] != NOT_YET:
            d.choice[1 - seat] = UNKNOWN
        d.h.view_seat = seat
        d.h.rng_known = 0
        d.h.rng.s = 0
        d.h.hash = pennies_hash(d)

    cdef int observe_move_c(self, int move, int seat) noexcept nogil:
        return move if seat == self.d.h.current else UNKNOWN

    @staticmethod
    def new(int players=2, seed=None, int rounds=1):
        if players != 2:
            raise ValueError(f"toy-pennies is for 2 players, not {players}")
        if rounds < 1:
            raise ValueError(f"rounds must be at least 1, not {rounds}")
        cdef ToyPennies st = ToyPennies.__new__(ToyPennies)
        st.d.rounds = rounds
        st.reset_c(0 if seed is None else seed)
        return st

    def _move_to_str(self, int m) -> str:
        return ("heads", "tails")[m]

    def _str_to_move(self, str s) -> int:
        return ("heads", "tails").index(s)

    def scores(self) -> list:
        """Points per seat."""
        return [self.d.points[0], self.d.points[1]]

    def to_text(self) -> str:
        c = ["-" if x == NOT_YET else "?" if x == UNKNOWN else str(x) for x in self.d.choice]
        return (f"round={self.d.round}/{self.d.rounds} turn={self.d.h.current} "
                f"choices={','.join(c)} points={self.d.points[0]},{self.d.points[1]}"
                + ("" if self.d.h.view_seat < 0 else f" view={self.d.h.view_seat}"))
