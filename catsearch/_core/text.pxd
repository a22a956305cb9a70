# cython: language_level=3
# A state's notation, read and written around the game's own fields (text.pyx). The games
# cimport the fast reader (``TextFields``: typed access to the fields of an ASCII line, which
# falls back to the precise ``notation.Fields`` to raise its exact error) and the writer (a
# C buffer the game's field writer fills).
from catsearch._core.state cimport State, Header, per_seat

cdef enum:
    TEXT_MAX_KEYS = 24
    TEXT_CAP = 4096


ctypedef struct TextOut:
    int n                  # characters written
    char buf[4096]


cdef inline void put_c(TextOut* o, char c) noexcept nogil:
    if o.n < TEXT_CAP - 1:
        o.buf[o.n] = c
        o.n += 1


cdef inline void put_s(TextOut* o, const char* s) noexcept nogil:
    cdef int i = 0
    while s[i] != 0:
        put_c(o, s[i])
        i += 1


cdef inline void put_int(TextOut* o, long v) noexcept nogil:
    """``v`` in decimal (``-`` sign where negative)."""
    cdef char tmp[24]
    cdef int k = 0
    cdef unsigned long u
    if v < 0:
        put_c(o, c'-')
        u = <unsigned long>(-v)
    else:
        u = <unsigned long>v
    while True:
        tmp[k] = <char>(48 + u % 10)
        k += 1
        u //= 10
        if u == 0:
            break
    while k > 0:
        k -= 1
        put_c(o, tmp[k])


cdef inline void put_turn_or_dash(TextOut* o, int seat) noexcept nogil:
    """A seat, or ``-`` for none (a negative seat)."""
    if seat < 0:
        put_c(o, c'-')
    else:
        put_int(o, seat)


cdef inline void put_counted(TextOut* o, const unsigned char* counts, int ntypes,
                             const char* letters) noexcept nogil:
    """``letters[t]`` written ``counts[t]`` times, in type order."""
    cdef int t, c
    for t in range(ntypes):
        for c in range(counts[t]):
            put_c(o, letters[t])


cdef inline void put_run(TextOut* o, const unsigned char* cards, int count,
                         const char* letters) noexcept nogil:
    """The cards ``cards[0:count]`` as their letters, in order."""
    cdef int i
    for i in range(count):
        put_c(o, letters[cards[i]])


cdef inline void dash_if_empty(TextOut* o, int mark) noexcept nogil:
    """``-`` where nothing was written since ``mark`` (an empty part)."""
    if o.n == mark:
        put_c(o, c'-')


cdef inline void put_run_or_dash(TextOut* o, const unsigned char* cards, int count,
                                 const char* letters) noexcept nogil:
    """``put_run``, ``-`` for no card (a deck, a pile)."""
    cdef int mark = o.n
    put_run(o, cards, count, letters)
    dash_if_empty(o, mark)


cdef inline void put_counted_or_dash(TextOut* o, const unsigned char* counts, int ntypes,
                                     const char* letters) noexcept nogil:
    """``put_counted``, ``-`` for no card (a discard pile counted by type)."""
    cdef int mark = o.n
    put_counted(o, counts, ntypes, letters)
    dash_if_empty(o, mark)


cdef inline void put_hands(TextOut* o, const unsigned char* hands, int stride, int players,
                           int view_seat, const char* letters, const char* own) noexcept nogil:
    """Every seat's hand (rows of ``stride`` counts by type, the unknown count last) in type
    order, ``/`` between seats, ``-`` for an empty hand; the view's own hand with the letters
    ``own`` (its unknown card is one it drew in a view a search played on)."""
    cdef int p, mark
    for p in range(players):
        if p:
            put_c(o, c'/')
        mark = o.n
        put_counted(o, hands + p * stride, stride, own if p == view_seat else letters)
        dash_if_empty(o, mark)


cdef inline void put_ints(TextOut* o, const per_seat* values, int n) noexcept nogil:
    """``values[0:n]`` in decimal, separated by ``,`` (a number per seat)."""
    cdef int p
    for p in range(n):
        if p:
            put_c(o, c',')
        put_int(o, values[p])


# a game's field writer: writes the value of field ``j`` (its index in ``spec.notation``) and
# returns 1, or returns 0 where an optional field is left out
ctypedef int (*field_writer)(State st, TextOut* o, int j) except -1

cdef str write_text(State st, field_writer put)


cdef class TextFields:
    cdef readonly str text
    cdef bytes _bytes
    cdef const unsigned char* s      # the text's characters (ASCII)
    cdef int fast                    # 0: every helper takes the precise path
    cdef tuple _req, _opt            # the required keys, the optional ones
    cdef tuple _keys                 # required keys, then optional ones
    cdef dict _index                 # key -> its index in _keys
    cdef int nkeys
    cdef int vstart[24]              # per key: the value's first column, -1 if absent
    cdef int vend[24]
    cdef object _slow                # the precise notation.Fields, built when needed

    cdef object slow(self)
    cdef int key(self, str key) except -1
    cdef bint has(self, str key) except -1
    cdef bint is_(self, str key, const char* lit) except -1
    cdef int at(self, int i) except -2
    cdef long int_c(self, str key, long lo, long hi) except? -1
    cdef int ints_c(self, str key, int count, long lo, long hi, int* out) except -1
    cdef int split_c(self, str key, int count, char sep, str what, int* starts, int* ends,
                     int cap) except -1
    cdef int cards_c(self, str key, int start, int end, const signed char* table,
                     str letters, int* counts, bint unknown, str describe,
                     unsigned char* out, int cap) except -1


cdef void card_table(str letters, signed char* table)


ctypedef struct CardLetters:
    signed char table[128]  # a character's card type, as ``card_table`` reads it; -1: none
    char chars[64]          # the letters, NUL-terminated: the writers' ``letters``


cdef int card_letters(CardLetters* out, str letters) except -1
cdef int check_counts(str text, const int* counts, const unsigned char* comp, int ntypes,
                      names, str game, bint view) except -1


cdef int read_hands(TextFields f, str key, int players, int view_seat, int most,
                    const signed char* table, str letters, const signed char* own_table,
                    str own_letters, names, int* counts, unsigned char* hands, int stride,
                    unsigned char* sizes) except -1


cdef int read_deck(TextFields f, str key, const signed char* table, str letters, int* counts,
                   int view_seat, names, unsigned char* deck, int size, int room,
                   int* top) except -1


cdef int read_turn(TextFields f, Header* h, const unsigned char* sizes, bint over,
                   str why) except -1
