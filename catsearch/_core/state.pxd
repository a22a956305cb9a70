# cython: language_level=3
"""The state contract: the one base class every game implements and every searcher calls.

A game keeps its whole state in one fixed-size C struct that begins with a ``Header``; the
base class holds a pointer to it, so copying a state is one ``memcpy`` and the common fields
(current player, terminal flag, hash, generator) are read without a virtual call. The game
overrides the ``*_c`` methods below; all of them are ``noexcept nogil`` and touch no Python
object, so a searcher can run them in a loop at C speed, with or without the GIL.
"""
from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset
from catsearch._core.rng cimport Rng, rng_below, rng_seed, rng_next

# A seat that is not one: ``Header.current`` of a terminal state, ``view_seat`` of a full state.
cdef enum:
    NO_SEAT = -1
    MAX_PLAYERS = 4

ctypedef struct Header:
    int players        # 2..4
    int current        # seat to move, NO_SEAT when terminal
    int terminal       # 1 once the game is over
    int view_seat      # NO_SEAT for a full state, else the seat whose view this is
    int rng_known      # 0 in a view: the state's generator is hidden from every seat
    int ply            # moves applied since the start
    uint64_t hash      # incremental Zobrist hash of the position
    Rng rng            # the state's own generator, for the game's future chance events
    # the heuristic's weights, in the order of the game's ``GameSpec.heuristic_weights``;
    # NULL: the game's defaults. A search points its own states at its player's weights
    # (set_heuristic_weights); a copy keeps the pointer, the notation never carries it
    const double* hweights
    # 1: ``determinize_c`` deals ignoring what the moves revealed (``inference=none``); 0 (the
    # default): it deals only worlds the rules allow after the moves seen (``inference=rules``)
    int no_inference
    # 1: a search's own copy (set by the search cores on their root and scratch states): a
    # game may skip bookkeeping that only the record of a real game needs (Herding Cats starts
    # no new record of what a discard reveals); every copy made from it is one too
    int scratch
    # 1: ``hide_c`` makes a view that shows every seat's hand (and whatever else a seat holds
    # privately), hiding only what no seat knows (the deck's order, future draws, the
    # generator; ``State.view(seat, hands=True)``, an oracle's view); ``determinize_c`` then
    # deals only those unknown cards, keeping every hand. A world dealt from such a view
    # keeps it set (a search that hides it again gets the same view); 0 (the default): the
    # seat's own view
    int show_hands


cdef class State:
    # Bound by the base class from the game's declaration: a game's state class has one C
    # field, its struct (``cdef XData d``), which C lays out right after these.
    cdef void* _data       # the game's struct; it starts with a Header
    cdef size_t _size      # sizeof the game's struct (its spec's ``size``)
    cdef int _moves        # the game's move-space size (its spec's ``moves``)

    # -- the hot contract: every game overrides these -----------------------------------
    cdef int num_distinct_moves_c(self) noexcept nogil
    cdef int legal_moves_c(self, int* out) noexcept nogil
    cdef void apply_c(self, int move) noexcept nogil
    # play uniformly random moves (``rng_below(rng, n)`` of the ``n`` legal moves, written
    # into ``buf``, which has room for every move) until the game ends; return how many were
    # played. The default loops over legal_moves_c and apply_c; a game may override it with
    # the same loop over its own functions (no virtual call a move): the same moves, the same
    # draws from ``rng``, the same end state, except that a playout's end is read for its
    # returns, scores and ply only (a search's playout below its tree, a benchmark's), so
    # the override may leave the hash and what only a view reads (what the moves revealed)
    # as they were before the playout
    cdef int playout_c(self, Rng* rng, int* buf) noexcept nogil
    # the returns: all 0 until the game is over; then the best of scores_c wins, ties share
    cdef void returns_c(self, double* out) noexcept nogil
    # the game's own score per seat (what scores() gives)
    cdef void scores_c(self, double* out) noexcept nogil
    cdef uint64_t compute_hash_c(self) noexcept nogil
    cdef void reset_c(self, uint64_t seed) noexcept nogil
    cdef void determinize_c(self, int seat, Rng* rng) noexcept nogil
    cdef void hide_c(self, int seat) noexcept nogil
    # what ``seat`` sees of ``move`` played here: the move itself where it is public, else a
    # code >= num_distinct_moves that stands for what the seat saw
    cdef int observe_move_c(self, int move, int seat) noexcept nogil
    # the game's rule-based choice (a sensible beginner's); ``buf`` has room for every move
    # and, with ``n`` > 0, holds the ``n`` legal moves as ``legal_moves_c`` wrote them (the
    # caller had them: a game that needs them reads them, never writes ``buf``); with
    # ``n`` = 0 a game that needs them writes them into ``buf`` itself. The default plays
    # uniformly at random
    cdef int heuristic_move_c(self, Rng* rng, int* buf, int n) noexcept nogil
    # an estimate of the returns of a non-terminal state (each in [0, 1], summing to 1); the
    # true returns of a terminal one; the default gives every seat an equal share
    cdef void evaluate_c(self, double* out) noexcept nogil
    # in a view: if the next decision needs an unknown card (the mover holds one), write the
    # possible card types and their probabilities and return how many; else 0
    cdef int chance_outcomes_c(self, int* outcomes, double* weights) noexcept nogil
    cdef void apply_chance_c(self, int outcome) noexcept nogil
    # in a view, when the seat to move is another seat whose choice here stays hidden from
    # the view's seat until it resolves (a simultaneous choice): record that choice as
    # unknown, as if it had been made, move on to whoever decides next and return 1
    # (chance_outcomes_c reveals the choice once something needs it); else change nothing and
    # return 0 (the default: no such choices). Expectimax calls it so that its model of the
    # other seats does not see the searching seat's own hidden choices.
    cdef int apply_hidden_c(self) noexcept nogil
    # in a seat's view (``view_seat`` >= 0), write the view's tensor of ``kind`` (0: the
    # observation, 1: the information state) into ``out``, zeroed, laid out as
    # ``_tensor_layout(kind)`` says; catsearch._core.observing makes the view and the array
    cdef void tensor_c(self, int kind, float* out) noexcept nogil
    # in a view (or a full state, for any seat): could the game seen so far have happened
    # with ``world`` as the real state, by what its public moves revealed (a full state of the
    # same position as far as the seat can see)? The default: nothing is revealed beyond the
    # view, so every such world could
    cdef bint allows_c(self, State world, int seat) noexcept nogil
    # -- allocation (needs the GIL) ------------------------------------------------------
    cdef State new_empty_c(self)
    cdef State clone_c(self)


cdef inline Header* header(State s) noexcept nogil:
    return <Header*>s._data

cdef inline const double* heuristic_weights(Header* h, const double* defaults) noexcept nogil:
    """The weights a game's ``heuristic_move_c`` uses: the state's, else the game's."""
    return h.hweights if h.hweights != NULL else defaults

cdef inline int heuristic_moves(State st, int* buf, int n) noexcept nogil:
    """The legal moves of a ``heuristic_move_c(rng, buf, n)``: the ``n`` it was given in
    ``buf``, or (``n`` = 0) written there now; how many."""
    return n if n > 0 else st.legal_moves_c(buf)

# the heuristic's weights in C (given to the games from here, with the rest of the kit)
from catsearch._core.heuristic cimport weights_pointer, fill_weights

cdef inline void set_heuristic_weights(State s, const double* w) noexcept nogil:
    """Make ``s`` (and every copy made of it from now on) use the weights ``w`` (NULL: the
    game's); the caller keeps ``w`` alive as long as those states."""
    (<Header*>s._data).hweights = w

cdef inline int current_player_c(State s) noexcept nogil:
    return (<Header*>s._data).current

cdef inline bint is_terminal_c(State s) noexcept nogil:
    return (<Header*>s._data).terminal != 0

cdef inline uint64_t hash_c(State s) noexcept nogil:
    return (<Header*>s._data).hash

cdef void copy_state(State dst, State src) noexcept nogil


cdef inline int next_seat(int p, int n) noexcept nogil:
    """The seat after ``p`` of ``n``, in turn order (no division: this runs every move)."""
    return p + 1 if p + 1 < n else 0


# -- the header's bookkeeping, for the games -------------------------------------------------

cdef inline void restart(State st, uint64_t seed) noexcept nogil:
    """Start a new deal (``reset_c``): clear the game's struct, keeping the player count and
    the heuristic's weights (a game saves and restores its options around it), and make the
    header a full state's at ply 0 with seat 0 to move, its generator seeded with ``seed``."""
    cdef Header* h = <Header*>st._data
    cdef int players = h.players
    cdef const double* w = h.hweights
    cdef int no_inference = h.no_inference, scratch = h.scratch, show_hands = h.show_hands
    memset(st._data, 0, st._size)
    h.players = players
    h.hweights = w
    h.no_inference = no_inference
    h.scratch = scratch
    h.show_hands = show_hands
    h.view_seat = NO_SEAT
    h.rng_known = 1
    rng_seed(&h.rng, seed)


cdef inline void as_view(Header* h, int seat) noexcept nogil:
    """The header of ``seat``'s view (``hide_c``): the state's generator is hidden too."""
    h.view_seat = seat
    h.rng_known = 0
    h.rng.s = 0


cdef inline void as_full(Header* h, Rng* rng) noexcept nogil:
    """The header of a determinization (``determinize_c``): a full state whose generator is
    drawn from ``rng`` (its future draws were unknown as well)."""
    h.view_seat = NO_SEAT
    h.rng_known = 1
    h.rng.s = rng_next(rng)


ctypedef fused per_seat:
    unsigned char
    int


cdef inline void scores_from(double* out, const per_seat* a, int n) noexcept nogil:
    """``scores_c`` of a game that counts its score per seat in ``a``."""
    cdef int p
    for p in range(n):
        out[p] = a[p]


cdef inline void normalize(double* out, const double* w, int n) noexcept nogil:
    """``out[p] = w[p] / sum(w)``: an evaluation (``evaluate_c``) from positive weights."""
    cdef double total = 0.0
    cdef int p
    for p in range(n):
        total += w[p]
    for p in range(n):
        out[p] = w[p] / total


cdef inline void share_returns(double* out, const double* scores, int n) noexcept nogil:
    """Returns from final scores: the best score wins 1; tied best scores share it."""
    cdef double best = scores[0]
    cdef int p, k = 0
    for p in range(1, n):
        if scores[p] > best:
            best = scores[p]
    for p in range(n):
        if scores[p] == best:
            k += 1
    for p in range(n):
        out[p] = 1.0 / k if scores[p] == best else 0.0

cdef inline int random_playout(State st, Rng* rng, int* buf) noexcept nogil:
    """Play uniformly random moves until the game ends; return how many were played (the
    game's ``playout_c``: the end state's hash is not kept)."""
    return st.playout_c(rng, buf)


cdef inline int is_legal(State st, int m) except -1:
    """1 if ``m`` (in range) is a legal move of ``st``, else 0; in C, without allocating for
    games with up to 512 moves."""
    cdef int small[512]
    cdef int* buf = small
    cdef int n, i, need = st._moves + 1
    cdef int found = 0
    if header(st).terminal:
        return 0
    if need > 512:
        buf = <int*>malloc(need * sizeof(int))
        if buf == NULL:
            raise MemoryError()
    n = st.legal_moves_c(buf)
    for i in range(n):
        if buf[i] == m:
            found = 1
            break
    if buf != small:
        free(buf)
    return found
