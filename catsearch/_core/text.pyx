# cython: language_level=3
"""A state's notation: the kit writes and reads its own fields (``players``, ``rng``, ``view``)
around the game's, in the order the game's spec declares: the game reads its fields in
``_read`` and writes them with a C field writer (``_write_text``, through ``write_text``), or,
simpler and slower, returns them from ``_write`` (the toy games do).

Reading goes through :class:`TextFields`: typed access to the fields of an ASCII line for the
valid input that a server reads many times a second. Wherever it finds something it does not
accept, it runs the precise reader (:class:`catsearch._core.notation.Fields`, the one
definition of the syntax and its messages) on the same text, which raises the exact error
(or, for a line the fast path does not handle, such as one with non-ASCII characters, gives
the value). Writing goes into a C buffer (``TextOut``) that the game's field writer fills.
"""
from libc.stdint cimport uint64_t
from libc.string cimport memcmp
from cpython.unicode cimport PyUnicode_FromStringAndSize
from catsearch._core.state cimport State, Header, header, NO_SEAT

from catsearch._core.notation import Field, Fields, rng_text, check_card_counts


cdef bint _FAST = True


def use_fast_reader(bint on):
    """Read through the typed fast path (the default) or only through the precise reader
    (``notation.Fields``): for the tests that compare the two; returns the previous setting."""
    global _FAST
    old = _FAST
    _FAST = on
    return old


cdef dict _SPECS = {}      # class -> (keys, index, optional flags, notation kinds, key bytes)


cdef tuple _spec_of(cls):
    info = _SPECS.get(cls)
    if info is None:
        spec = cls.spec
        keys = tuple(spec.keys) + tuple(spec.optional_keys)
        if len(keys) > TEXT_MAX_KEYS:
            raise ValueError(f"{spec.id}: more than {TEXT_MAX_KEYS} notation keys")
        info = (tuple(spec.keys), tuple(spec.optional_keys), keys,
                {k: i for i, k in enumerate(keys)}, tuple(k.encode("ascii") for k in keys),
                spec)
        _SPECS[cls] = info
    return info


cdef class TextFields:
    """The fields of one notation line, by key (the API of ``notation.Fields``, typed)."""

    def __init__(self, text, tuple required, tuple optional, tuple keys, dict index,
                 tuple kbytes):
        cdef Py_ssize_t n, i, tok, eq
        cdef int k, nreq = len(required)
        cdef bytes kb
        self.text = text
        self._req = required
        self._opt = optional
        self._keys = keys
        self._index = index
        self.nkeys = len(keys)
        self._slow = None
        for k in range(self.nkeys):
            self.vstart[k] = -1
            self.vend[k] = -1
        self.fast = 0
        if not _FAST or not isinstance(text, str) or not (<str>text).isascii():
            self.slow()
            return
        self._bytes = (<str>text).encode("ascii")
        self.s = self._bytes
        n = len(self._bytes)
        i = 0
        while i < n:
            if self.s[i] == c' ':
                i += 1
                continue
            tok = i
            eq = -1
            while i < n and self.s[i] != c' ':
                if self.s[i] < 0x21 or self.s[i] > 0x7e:
                    self.slow()          # a control character: the precise reader decides
                    return
                if eq < 0 and self.s[i] == c'=':
                    eq = i
                i += 1
            if eq <= tok:
                self.slow()
                return
            for k in range(self.nkeys):
                kb = <bytes>kbytes[k]
                if len(kb) == eq - tok and memcmp(<const char*>kb, self.s + tok, eq - tok) == 0:
                    break
            else:
                self.slow()
                return
            if self.vstart[k] >= 0:
                self.slow()
                return
            self.vstart[k] = <int>(eq + 1)
            self.vend[k] = <int>i
        for k in range(nreq):
            if self.vstart[k] < 0:
                self.slow()
                return
        self.fast = 1

    cdef object slow(self):
        """The precise reader of the same text (raises here if the line does not split)."""
        cdef int k
        if self._slow is None:
            self._slow = Fields(self.text, self._req, self._opt)
            if not self.fast:       # the columns, for the games' typed reads (in characters)
                for key, k in self._index.items():
                    if key in self._slow:
                        fld = self._slow[key]
                        self.vstart[k] = fld.pos
                        self.vend[k] = fld.pos + len(fld.value)
        return self._slow

    cdef int key(self, str key) except -1:
        return self._index[key]

    cdef bint has(self, str key) except -1:
        if not self.fast:
            return key in self.slow()
        return self.vstart[<int>self._index[key]] >= 0

    def __contains__(self, key):
        return self.has(key)

    def __getitem__(self, key):
        if not self.fast:
            return self.slow()[key]
        k = self._index[key]
        if self.vstart[k] < 0:
            raise KeyError(key)
        return Field(key, self.text[self.vstart[k]:self.vend[k]], self.vstart[k])

    def value(self, str key):
        """The value of field ``key`` (present)."""
        if not self.fast:
            return self.slow()[key].value
        k = self._index[key]
        return self.text[self.vstart[k]:self.vend[k]]

    def error(self, field, message, offset=0, length=None):
        return Fields.error(self.slow(), field, message, offset, length)

    def err(self, key, message, offset=0, length=None):
        """``error`` about the field ``key``."""
        return Fields.error(self.slow(), self[key], message, offset, length)

    cdef bint is_(self, str key, const char* lit) except -1:
        """The value of ``key`` (present) is exactly ``lit``."""
        cdef int k, i, n
        if not self.fast:
            return self.slow()[key].value == (<bytes>lit).decode("ascii")
        k = self._index[key]
        n = self.vend[k] - self.vstart[k]
        for i in range(n):
            if lit[i] == 0 or lit[i] != self.s[self.vstart[k] + i]:
                return False
        return lit[n] == 0

    cdef int at(self, int i) except -2:
        """The character at column ``i`` (of a value, as the columns ``vstart``/``vend`` and
        ``split_c`` give them), as its code."""
        if self.fast:
            return self.s[i]
        return ord(self.text[i])

    cdef long int_c(self, str key, long lo, long hi) except? -1:
        cdef int k, i, a, b
        cdef long v = 0
        if self.fast:
            k = self._index[key]
            a = self.vstart[k]
            b = self.vend[k]
            if 0 < b - a <= 15:
                for i in range(a, b):
                    if not c'0' <= self.s[i] <= c'9':
                        break
                    v = v * 10 + (self.s[i] - c'0')
                else:
                    if lo <= v <= hi:
                        return v
        return self.slow().int(key, lo, hi)

    def int(self, key, lo, hi):
        return self.int_c(key, lo, hi)

    cdef int ints_c(self, str key, int count, long lo, long hi, int* out) except -1:
        """``int_list`` into ``out[0:count]``."""
        cdef int k, i, a, b, j = 0, nd = 0
        cdef long v = 0
        if self.fast:
            k = self._index[key]
            a = self.vstart[k]
            b = self.vend[k]
            for i in range(a, b + 1):
                if i == b or self.s[i] == c',':
                    if nd == 0 or nd > 15 or not lo <= v <= hi or j >= count:
                        break
                    out[j] = <int>v
                    j += 1
                    v = 0
                    nd = 0
                elif c'0' <= self.s[i] <= c'9':
                    v = v * 10 + (self.s[i] - c'0')
                    nd += 1
                else:
                    break
            else:
                if j == count:
                    return 0
        vals = self.slow().int_list(key, count, lo, hi)
        for j in range(count):
            out[j] = vals[j]
        return 0

    def int_list(self, key, count, lo, hi):
        return self.slow().int_list(key, count, lo, hi) if not self.fast else \
            self._int_list(key, count, lo, hi)

    def _int_list(self, key, int count, long lo, long hi):
        cdef int buf[64]
        cdef int j
        if count > 64:
            return self.slow().int_list(key, count, lo, hi)
        self.ints_c(key, count, lo, hi, buf)
        return [buf[j] for j in range(count)]

    cdef int split_c(self, str key, int count, char sep, str what, int* starts, int* ends,
                     int cap) except -1:
        """``parts``: the value of ``key`` split at ``sep``, the columns (in the text) of the
        first ``cap`` parts in ``starts``/``ends``; exactly ``count`` parts unless ``count`` is
        negative; return how many parts there are (which may be more than ``cap``)."""
        cdef int k, i, a, b, j = 0, p0
        if self.fast:
            k = self._index[key]
            a = self.vstart[k]
            b = self.vend[k]
            p0 = a
            for i in range(a, b + 1):
                if i == b or self.s[i] == sep:
                    if j < cap:
                        starts[j] = p0
                        ends[j] = i
                    j += 1
                    p0 = i + 1
            if count < 0 or j == count:
                return j
        parts = self.slow().parts(key, None if count < 0 else count, chr(sep), what)
        k = self.slow()[key].pos
        for j, (part, off) in enumerate(parts):
            if j < cap:
                starts[j] = k + off
                ends[j] = k + off + len(part)
        return len(parts)

    def parts(self, key, count, sep, what):
        if not self.fast or len(sep) != 1:
            return self.slow().parts(key, count, sep, what)
        cdef int starts[64]
        cdef int ends[64]
        cdef int n, j, a = self.vstart[<int>self._index[key]]
        n = self.split_c(key, -1, ord(sep), what, starts, ends, 64) if count is None else \
            self.split_c(key, count, ord(sep), what, starts, ends, 64)
        if n > 64:
            return self.slow().parts(key, count, sep, what)
        return [(self.text[starts[j]:ends[j]], starts[j] - a) for j in range(n)]

    cdef int cards_c(self, str key, int start, int end, const signed char* table,
                     str letters, int* counts, bint unknown, str describe,
                     unsigned char* out, int cap) except -1:
        """``cards`` of the text ``[start, end)`` (a part of field ``key``'s value): the first
        ``cap`` in ``out``, every one counted in ``counts`` (``table``: ``card_table(letters)``);
        return how many cards there are (which may be more than ``cap``)."""
        cdef int i, t, n = end - start, unk = len(letters) - 1
        if self.fast:
            if n == 1 and self.s[start] == c'-':
                return 0
            for i in range(n):
                t = table[self.s[start + i] & 0x7f]
                if t < 0 or (t == unk and not unknown):
                    break
            else:
                for i in range(n):
                    t = table[self.s[start + i]]
                    counts[t] += 1
                    if i < cap:
                        out[i] = <unsigned char>t
                return n
            off = start - self.vstart[<int>self._index[key]]
        else:
            # columns are those of the precise reader (the same for an ASCII text)
            off = start - self.slow()[key].pos
        part = self.text[start:end]
        lst = [counts[t] for t in range(unk + 1)]
        cards = self.slow().cards(key, part, off, letters, lst, unknown, describe)
        for i in range(len(cards)):
            if i < cap:
                out[i] = cards[i]
        for t in range(unk + 1):
            counts[t] = lst[t]
        return len(cards)

    def cards(self, key, text, offset, letters, counts, unknown=True, describe=""):
        cdef unsigned char buf[256]
        cdef int cnt[64]
        cdef int start, end, k, i, t, ntypes = len(letters)
        if self.fast and ntypes <= 64 and len(text) <= 256:
            start = self.vstart[<int>self._index[key]] + offset
            end = start + len(text)
            if end <= self.vend[<int>self._index[key]] and self.text[start:end] == text:
                table = _TABLES.get(letters)
                if table is None:
                    table = _TABLES[letters] = _table_bytes(letters)
                for t in range(ntypes):
                    cnt[t] = 0
                k = self.cards_c(key, start, end, <const signed char*><const char*>table, letters,
                                 cnt, unknown, describe, buf, 256)
                for t in range(ntypes):
                    if cnt[t]:
                        counts[t] += cnt[t]
                return [buf[i] for i in range(k)]
        return self.slow().cards(key, text, offset, letters, counts, unknown, describe)

    def rng(self, key="rng"):
        cdef int k, i, a, c
        cdef uint64_t v = 0
        if self.fast:
            k = self._index[key]
            a = self.vstart[k]
            if self.vend[k] - a == 1 and self.s[a] == c'?':
                return None
            if self.vend[k] - a == 16:
                for i in range(a, a + 16):
                    c = self.s[i]
                    if c'0' <= c <= c'9':
                        v = (v << 4) | <uint64_t>(c - c'0')
                    elif c'a' <= c <= c'f':
                        v = (v << 4) | <uint64_t>(c - c'a' + 10)
                    elif c'A' <= c <= c'F':
                        v = (v << 4) | <uint64_t>(c - c'A' + 10)
                    else:
                        break
                else:
                    return v
        return self.slow().rng(key)


cdef dict _TABLES = {}      # letters -> card_table(letters) as bytes


cdef bytes _table_bytes(str letters):
    cdef signed char table[128]
    card_table(letters, table)
    return (<char*>table)[:128]


cdef void card_table(str letters, signed char* table):
    """``table[ch]``: the card type of character ``ch`` (< 128) as ``letters.find`` reads it,
    -1 for none."""
    cdef int i
    for i in range(128):
        table[i] = -1
    for i in range(len(letters) - 1, -1, -1):
        if ord(letters[i]) < 128:
            table[ord(letters[i])] = i


cdef int card_letters(CardLetters* out, str letters) except -1:
    """Fill ``out`` for ``letters`` (ASCII, at most 63): the reader's table (``card_table``)
    and the writers' characters."""
    cdef bytes b = letters.encode("ascii")
    cdef int i
    if len(b) > 63:
        raise ValueError(f"at most 63 card letters, not {len(b)}")
    card_table(letters, out.table)
    for i in range(len(b)):
        out.chars[i] = b[i]
    out.chars[len(b)] = 0
    return 0


cdef int check_counts(str text, const int* counts, const unsigned char* comp, int ntypes,
                      names, str game, bint view) except -1:
    """``notation.check_card_counts`` over C arrays: checked in C, the precise check (and its
    error) where something is wrong."""
    cdef int t, total = 0, got = 0
    cdef bint ok = True
    for t in range(ntypes):
        if counts[t] > comp[t]:
            ok = False
        total += comp[t]
        got += counts[t]
    got += counts[ntypes]
    if got != total or (not view and counts[ntypes]):
        ok = False
    if not ok:
        check_card_counts(text, [counts[t] for t in range(ntypes + 1)],
                          [comp[t] for t in range(ntypes)], names, game, view)
    return 0


cdef int read_hands(TextFields f, str key, int players, int view_seat, int most,
                    const signed char* table, str letters, const signed char* own_table,
                    str own_letters, names, int* counts, unsigned char* hands, int stride,
                    unsigned char* sizes) except -1:
    """Read field ``key``: every seat's hand, ``/`` between seats (``put_hands`` writes it),
    into rows of ``stride`` counts by type (the unknown card last) and ``sizes``, counting
    every card in ``counts``. A hand holds at most ``most`` cards. In a seat's view its own
    hand is read with ``own_letters`` (``own_table``; never ``?``: a seat knows its cards)
    and every other hand holds only unknown cards (``names[t]`` names the card of type
    ``t`` in the message). Raises ``NotationError`` naming the hand."""
    cdef int starts[8]
    cdef int ends[8]
    cdef unsigned char cards[64]
    cdef int p, i, k, a, unk = len(letters) - 1
    f.split_c(key, players, c'/', key, starts, ends, 8)
    a = f.vstart[f.key(key)]
    for p in range(players):
        if p == view_seat:
            if "?" in f.text[starts[p]:ends[p]]:
                raise f.error(f[key], f"seat {p} knows its own cards: its view shows them "
                              f"({own_letters[unk]} only for a card it drew in a view a search "
                              f"played on, until chance reveals it), never ?", starts[p] - a,
                              (ends[p] - starts[p]) or 1)
            k = f.cards_c(key, starts[p], ends[p], own_table, own_letters, counts, True, "",
                          cards, 64)
        else:
            k = f.cards_c(key, starts[p], ends[p], table, letters, counts, True, "", cards, 64)
        if k > most:
            raise f.error(f[key], f"seat {p} holds {k} cards; a hand has at most {most}",
                          starts[p] - a, ends[p] - starts[p])
        for i in range(k):
            hands[p * stride + cards[i]] += 1
        sizes[p] = k
    for p in range(players if view_seat >= 0 else 0):   # then: the view's other hands
        for i in range(unk):
            if p != view_seat and hands[p * stride + i]:
                raise f.error(f[key], f"seat {view_seat}'s view shows {names[i]} in seat "
                              f"{p}'s hand: it cannot see another seat's cards (write ?)",
                              starts[p] - a, ends[p] - starts[p])
    return 0


cdef int read_deck(TextFields f, str key, const signed char* table, str letters, int* counts,
                   int view_seat, names, unsigned char* deck, int size, int room,
                   int* top) except -1:
    """Read field ``key``: a deck, top first (``put_run_or_dash`` writes it), into the end of
    ``deck[0:size]``, ``top[0]`` its first position, counting every card in ``counts``. It
    holds at most ``room`` cards (what the deal leaves); in a seat's view (``view_seat`` >=
    0) only unknown cards (``names[t]`` names the card of type ``t`` in the message). Returns
    how many cards; raises ``NotationError``."""
    cdef unsigned char cards[256]
    cdef int i, unk = len(letters) - 1, a = f.key(key)
    cdef int k = f.cards_c(key, f.vstart[a], f.vend[a], table, letters, counts, True, "",
                           cards, 256)
    if k > room:
        raise f.error(f[key], f"{k} cards is more than the deck holds after the deal")
    top[0] = size - k
    for i in range(k):
        deck[size - k + i] = cards[i]
        if view_seat >= 0 and cards[i] != unk:
            raise f.error(f[key], f"seat {view_seat}'s view shows {names[cards[i]]} in the "
                          f"deck: nobody sees the deck's cards (write ?)", i, 1)
    return k


cdef int read_turn(TextFields f, Header* h, const unsigned char* sizes, bint over,
                   str why) except -1:
    """Read field ``turn`` of a game that passes over the seats holding no cards: ``-`` once
    the game is over (``over``; ``why`` says why in the message), which makes the header
    terminal; else a seat that holds cards (``sizes``), the header's seat to move."""
    cdef int p
    if over:
        if not f.is_("turn", b"-"):
            raise f.error(f["turn"], f"the game is over ({why}): turn must be -")
        h.terminal = 1
        h.current = NO_SEAT
        return 0
    p = f.int_c("turn", 0, h.players - 1)
    if sizes[p] == 0:
        raise f.error(f["turn"], f"seat {p} holds no cards and cannot be the seat to move")
    h.current = p
    return 0


def read_state(cls, text):
    """:meth:`State.from_text <catsearch._core.state.State.from_text>` of the game ``cls``."""
    if not isinstance(text, str):
        raise TypeError(f"a state notation is a str, not {type(text).__name__}")
    required, optional, keys, index, kbytes, spec = _spec_of(cls)
    cdef TextFields f = TextFields(text, required, optional, keys, index, kbytes)
    cdef State st = cls.__new__(cls)
    cdef Header* h = header(st)
    cdef int n = f.int_c("players", spec.seats[0], spec.seats[1])
    h.players = n
    h.view_seat = f.int_c("view", 0, n - 1) if f.has("view") else NO_SEAT
    st._read(f)
    r = f.rng()
    if (r is None and h.view_seat < 0) or (
            r is not None and h.view_seat >= 0 and spec.view_hides_rng):
        raise f.error(f["rng"], "a seat's view hides the generator (rng=?); a full state "
                      "gives it as 16 hex digits")
    h.rng_known = r is not None
    h.rng.s = 0 if r is None else r
    h.hash = st.compute_hash_c()
    return st


cdef dict _LAYOUTS = {}     # class -> (kinds, key bytes) of its notation, in order


cdef str write_text(State st, field_writer put):
    """The notation of ``st``: the kit's fields and the game's (written by ``put``) in the
    order of the game's ``spec.notation``."""
    cdef TextOut o
    cdef int j, mark, kind
    cdef Header* h = header(st)
    cls = type(st)
    lay = _LAYOUTS.get(cls)
    if lay is None:
        kinds = []
        names = []
        for key in cls.spec.notation:
            kinds.append(0 if key == "players" else 1 if key == "rng" else 2 if key == "view?"
                         else 4 if key.endswith("?") else 3)
            names.append(key.rstrip("?").encode("ascii") + b"=")
        lay = _LAYOUTS[cls] = (bytes(kinds), tuple(names))
    cdef bytes kinds_b = lay[0]
    cdef tuple names_t = lay[1]
    o.n = 0
    for j in range(len(kinds_b)):
        kind = kinds_b[j]
        if kind == 2 and h.view_seat < 0:
            continue
        mark = o.n
        if o.n:
            put_c(&o, c' ')
        put_s(&o, <bytes>names_t[j])
        if kind == 0:
            put_int(&o, h.players)
        elif kind == 1:
            if h.rng_known:
                put_hex16(&o, h.rng.s)
            else:
                put_c(&o, c'?')
        elif kind == 2:
            put_int(&o, h.view_seat)
        elif put(st, &o, j) == 0:
            o.n = mark
    if o.n >= TEXT_CAP - 1:
        raise OverflowError("a notation longer than the writer's buffer")
    return PyUnicode_FromStringAndSize(o.buf, o.n)


cdef inline void put_hex16(TextOut* o, uint64_t v) noexcept nogil:
    cdef int i
    cdef const char* digits = b"0123456789abcdef"
    for i in range(15, -1, -1):
        put_c(o, digits[(v >> (4 * i)) & 15])


def write_state(State st):
    """:meth:`State.to_text <catsearch._core.state.State.to_text>`."""
    fast = getattr(st, "_write_text", None)
    if fast is not None:
        return fast()
    cdef Header* h = header(st)
    values = st._write()
    out = []
    for key in type(st).spec.notation:
        if key == "players":
            out.append(f"players={h.players}")
        elif key == "rng":
            out.append(f"rng={rng_text(h.rng_known, h.rng.s)}")
        elif key == "view?":
            if h.view_seat >= 0:
                out.append(f"view={h.view_seat}")
        elif key.endswith("?"):
            key = key.rstrip("?")
            if values.get(key) is not None:
                out.append(f"{key}={values[key]}")
        else:
            out.append(f"{key}={values[key]}")
    return " ".join(out)
