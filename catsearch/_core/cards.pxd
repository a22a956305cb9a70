# cython: language_level=3
"""Card helpers shared by the games: decks, the pool of unseen cards, chance outcomes and the
redealing of hidden places in a determinization.

Cards are small ints (card *types*); a game counts them per type in ``unsigned char``
arrays, with one extra index for the unknown card of a view. The pool of unseen cards is
always built in type order (``pool_from_counts``), so the same generator deals the same
determinization.
"""
from libc.stdint cimport uint64_t
from libc.string cimport memset
from catsearch._core.rng cimport Rng, rng_shuffle_u8
from catsearch._core.state cimport State, Header, NO_SEAT, header, as_view, as_full, next_seat
from catsearch._core.zobrist cimport count_up, count_down, set_turn


cdef inline int pool_from_counts(const int* cnt, int ntypes, unsigned char* pool) noexcept nogil:
    """Write ``cnt[t]`` cards of each type ``t`` (none where it is not positive) in type
    order; return how many."""
    cdef int t, c, n = 0
    for t in range(ntypes):
        for c in range(cnt[t]):
            pool[n] = <unsigned char>t
            n += 1
    return n


cdef inline int shuffled_pool(const int* cnt, int ntypes, unsigned char* pool,
                              Rng* rng) noexcept nogil:
    """``pool_from_counts``, shuffled with ``rng``: the unseen cards in the order a
    determinization deals them; return how many."""
    cdef int n = pool_from_counts(cnt, ntypes, pool)
    rng_shuffle_u8(rng, pool, n)
    return n


cdef inline int shuffled_deck(unsigned char* deck, const unsigned char* comp, int ntypes,
                              Rng* rng) noexcept nogil:
    """A new deck: ``comp[t]`` cards of each type ``t`` (at most 32 types), in type order,
    shuffled with ``rng``; return how many cards."""
    cdef int cnt[32]
    cdef int t
    for t in range(ntypes):
        cnt[t] = comp[t]
    return shuffled_pool(cnt, ntypes, deck, rng)


cdef inline int chance_from_counts(const int* cnt, int ntypes, int* outcomes,
                                   double* weights) noexcept nogil:
    """The chance outcomes of drawing one of the counted cards: each type with a positive
    count, with probability ``cnt[t] / total``; return how many (0 if there is no card)."""
    cdef int t, k = 0, total = 0
    for t in range(ntypes):
        if cnt[t] > 0:
            total += cnt[t]
    if total == 0:
        return 0
    for t in range(ntypes):
        if cnt[t] > 0:
            outcomes[k] = t
            weights[k] = cnt[t] / <double>total
            k += 1
    return k


cdef inline int redeal_hand(unsigned char* hand, unsigned char* size, int width, int unk,
                            bint own, const unsigned char* pool, int i, int n) noexcept nogil:
    """Deal one hand of a determinization from ``pool[i:n]``: ``own`` (the determinizing
    seat's hand) keeps its known cards and replaces its unknown ones (``hand[unk]``),
    another hand is replaced whole (``width`` counts cleared); return the new pool
    position."""
    cdef int j, t
    if own:
        j = hand[unk]
        hand[unk] = 0
    else:
        j = size[0]
        for t in range(width):
            hand[t] = 0
    size[0] -= j
    while j > 0 and i < n:
        hand[pool[i]] += 1
        size[0] += 1
        i += 1
        j -= 1
    return i


cdef inline int redeal_hands(unsigned char* hands, int stride, unsigned char* sizes, int players,
                             int seat, int unk, const unsigned char* pool, int i,
                             int n, bint every) noexcept nogil:
    """Deal every seat's hand (rows of ``stride`` counts) with ``redeal_hand``, ``seat``'s
    as its own (``every``: each hand as its own, a view that shows every hand); return the
    new pool position."""
    cdef int p
    for p in range(players):
        i = redeal_hand(hands + p * stride, sizes + p, stride, unk, every or p == seat, pool,
                        i, n)
    return i


cdef inline int redeal_run(unsigned char* cards, int count, const unsigned char* pool, int i,
                           int n) noexcept nogil:
    """Overwrite ``cards[0:count]`` (a deck, unseen in order) from ``pool[i:n]``; return the
    new pool position."""
    cdef int j
    for j in range(count):
        if i < n:
            cards[j] = pool[i]
            i += 1
    return i


cdef inline void card_in(uint64_t* z, const uint64_t* keys, int stride, unsigned char* hand,
                         unsigned char* size, int t) noexcept nogil:
    """A card of type ``t`` joins a hand counted by type (``size`` cards), keeping the hash:
    ``keys`` holds ``stride`` counter keys per type (``zobrist.count_up``)."""
    count_up(z, keys + t * stride, hand + t)
    size[0] += 1


cdef inline void card_out(uint64_t* z, const uint64_t* keys, int stride, unsigned char* hand,
                          unsigned char* size, int t, int unk) noexcept nogil:
    """A card of type ``t`` leaves a hand (see ``card_in``); in a view, one of its unknown
    cards (type ``unk``) when the hand holds no known ``t``."""
    if hand[t] == 0:
        t = unk
    count_down(z, keys + t * stride, hand + t)
    size[0] -= 1


cdef inline void reveal_unknown(uint64_t* z, const uint64_t* keys, int stride,
                                unsigned char* hand, unsigned char* size, int unk,
                                int t) noexcept nogil:
    """One of a hand's unknown cards (type ``unk``) becomes a card of type ``t`` (a view's
    ``apply_chance_c``), keeping the hash (see ``card_in``)."""
    card_out(z, keys, stride, hand, size, unk, unk)
    card_in(z, keys, stride, hand, size, t)


cdef inline void pass_to_holder(Header* h, const uint64_t* turn_keys,
                                const unsigned char* sizes) noexcept nogil:
    """The end of a turn in a game that passes over the seats holding no cards (``sizes``):
    one more ply, then the turn to the next seat after ``h.current`` that holds cards; if no
    seat does, to nobody, and the game is over. ``turn_keys``: see ``zobrist.set_turn``."""
    cdef int i, q = h.current
    h.ply += 1
    for i in range(h.players):
        q = next_seat(q, h.players)
        if sizes[q] > 0:
            set_turn(h, turn_keys, q)
            return
    set_turn(h, turn_keys, NO_SEAT)
    h.terminal = 1


cdef inline void hide_cards(Header* h, int seat, unsigned char* hands, int stride, int ntypes,
                            int unk, unsigned char* deck, int ndeck) noexcept nogil:
    """Make a state ``seat``'s view (``hide_c``) for a game of hands and a deck: every card in
    another seat's hand (rows of ``stride`` counts per seat, ``ntypes`` known types, the
    unknown count at ``unk``) and every card of ``deck[0:ndeck]`` becomes unknown, and the
    header becomes a view's (``as_view``); with ``h.show_hands`` the hands stay as they are.
    The game then recomputes the hash."""
    cdef int p, t
    cdef unsigned char* hand
    for p in range(h.players):
        if p != seat and not h.show_hands:
            hand = hands + p * stride
            for t in range(ntypes):
                hand[unk] += hand[t]
                hand[t] = 0
    memset(deck, unk, ndeck)
    as_view(h, seat)


# -- a hand-and-deck game's skeletons (hands counted by type in rows of ``stride`` counts per
# seat, the unknown count at index ``unk``; the deck a run of cards, top first) ------------

cdef inline void count_unseen(int* cnt, const unsigned char* comp, int ntypes,
                              const unsigned char* hands, int stride, int players, int seat,
                              const unsigned char* deck, int ndeck) noexcept nogil:
    """The first half of a game's ``unseen_counts``: ``cnt[t]`` = ``comp[t]`` (the copies of
    type ``t``) less the cards of the hands and the deck that are not hidden: ``seat``'s own
    hand (``seat`` >= 0: what that seat has not seen), or every known card in every hand and
    in ``deck[0:ndeck]`` (``seat`` < 0: what nobody has seen in this state, a view's unknown
    cards). The game then takes away its public places (a discard pile, cards played)."""
    cdef int t, p, i
    for t in range(ntypes):
        cnt[t] = comp[t]
    if seat >= 0:
        for t in range(ntypes):
            cnt[t] -= hands[seat * stride + t]
        return
    for p in range(players):
        for t in range(ntypes):
            cnt[t] -= hands[p * stride + t]
    for i in range(ndeck):
        if deck[i] < ntypes:
            cnt[deck[i]] -= 1


cdef inline void redeal_unseen(Header* h, int seat, const int* cnt, int ntypes,
                               unsigned char* hands, int stride, unsigned char* sizes, int unk,
                               unsigned char* deck, int ndeck, Rng* rng) noexcept nogil:
    """A hand-and-deck game's ``determinize_c`` but for the hash: the cards ``seat`` has not
    seen (``cnt``, from the game's ``unseen_counts``, at most 256) shuffled and dealt into
    the other hands, ``seat``'s own unknown cards and the deck ``deck[0:ndeck]``; the header
    becomes a full state's (``as_full``). With ``h.show_hands`` (``cnt``: what nobody in the
    view has seen) every hand keeps its known cards, as ``seat``'s own does. The game then
    recomputes the hash."""
    cdef unsigned char pool[256]
    cdef int n, i
    n = shuffled_pool(cnt, ntypes, pool, rng)
    i = redeal_hands(hands, stride, sizes, h.players, seat, unk, pool, 0, n, h.show_hands)
    redeal_run(deck, ndeck, pool, i, n)
    as_full(h, rng)


cdef inline int draw_top(uint64_t* z, const uint64_t* deck_keys, int width,
                         const unsigned char* deck, int* top) noexcept nogil:
    """Take the deck's top card ``deck[top[0]]`` (the caller checked the deck is not empty),
    xoring out its key (``deck_keys``: ``width`` keys per position, one per type and the
    unknown card); return its type. The caller puts it in a hand (``card_in``)."""
    cdef int card = deck[top[0]]
    z[0] ^= deck_keys[top[0] * width + card]
    top[0] += 1
    return card


cdef inline void put_on_top(uint64_t* z, const uint64_t* deck_keys, int width,
                            unsigned char* deck, int top, int t) noexcept nogil:
    """The deck's top card ``deck[top]`` becomes a card of type ``t`` (a view learns the card
    its seat draws, before the move draws it), keeping the hash (see ``draw_top``)."""
    z[0] ^= deck_keys[top * width + deck[top]] ^ deck_keys[top * width + t]
    deck[top] = <unsigned char>t


# -- a hand-and-deck game's knowledge methods, whole: the game passes its own unseen counts
# (``unseen(data, seat, cnt)``, its ``unseen_counts`` on its struct, cast to ``unseen_fn``)

ctypedef void (*unseen_fn)(void* data, int seat, int* cnt) noexcept nogil


cdef inline void hide_hands_deck(State st, int seat, unsigned char* hands, int stride,
                                 int ntypes, int unk, unsigned char* deck,
                                 int ndeck) noexcept nogil:
    """A hand-and-deck game's ``hide_c``: ``hide_cards``, then the hash recomputed."""
    cdef Header* h = header(st)
    hide_cards(h, seat, hands, stride, ntypes, unk, deck, ndeck)
    h.hash = st.compute_hash_c()


cdef inline void determinize_hands_deck(State st, int seat, Rng* rng, unseen_fn unseen,
                                        int ntypes, unsigned char* hands, int stride,
                                        unsigned char* sizes, int unk, unsigned char* deck,
                                        int ndeck) noexcept nogil:
    """A hand-and-deck game's ``determinize_c`` (at most 64 card types): the cards ``seat``
    has not seen redealt (``redeal_unseen``; from a view that shows every hand, the cards
    nobody there has seen), then the hash recomputed."""
    cdef int cnt[64]
    cdef Header* h = header(st)
    unseen(st._data, NO_SEAT if h.show_hands else seat, cnt)
    redeal_unseen(h, seat, cnt, ntypes, hands, stride, sizes, unk, deck, ndeck, rng)
    h.hash = st.compute_hash_c()


cdef inline int hand_chance_outcomes(State st, unseen_fn unseen, int ntypes,
                                     const unsigned char* hands, int stride, int unk,
                                     int* outcomes, double* weights) noexcept nogil:
    """A hand-and-deck game's ``chance_outcomes_c``: in a view whose mover holds unknown
    cards (only those are drawn by chance), the card types nobody here has seen, by count;
    else none."""
    cdef int cnt[64]
    cdef Header* h = header(st)
    if h.terminal or hands[h.current * stride + unk] == 0:
        return 0
    unseen(st._data, NO_SEAT, cnt)
    return chance_from_counts(cnt, ntypes, outcomes, weights)
