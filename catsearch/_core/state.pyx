# cython: language_level=3
"""The Python face of the state contract, shared by every game, and the game kit's generic part.

Everything here is written once over the ``*_c`` methods that each game implements and over
the game's declaration (its ``spec``, a :class:`~catsearch._core.game.GameSpec`), so the
checked Python API (``new``, ``from_text``, ``to_text``, ``play``, ``legal_moves``,
``determinize``, ``perft`` ...) behaves the same in every game. Game modules add only what is
theirs: the rules, move text, the notation's own fields and the picture.
"""
from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from cpython.long cimport PyLong_CheckExact, PyLong_AsLongAndOverflow

from catsearch._core.rng cimport Rng, rng_seed, rng_next

from catsearch._core.options import check_int, check_move, check_seat, check_seed, fresh_seed
from catsearch.errors import IllegalMoveError


cdef void copy_state(State dst, State src) noexcept nogil:
    """Make ``dst`` an exact copy of ``src`` (same game): one memcpy of the game's struct."""
    memcpy(dst._data, src._data, src._size)


#: the deepest ``perft`` (a deeper one would never end; the engine's ``perft`` has the same bound)
MAX_PERFT_DEPTH = 64


cdef object _text = None     # catsearch._core.text, imported on first use (it cimports this)


cdef class State:
    """One position of a game: the whole table, or one seat's view of it.

    Build states with :func:`catsearch.new_game` or :func:`catsearch.from_text`. A state is
    mutable: :meth:`play` changes it in place; :meth:`clone` gives an independent copy.

    Moves are ints in ``range(num_distinct_moves)``; each game gives them a text form
    (:meth:`move_to_str`, :meth:`str_to_move`). Every method checks its arguments by one
    rule (``docs/api.rst``): a wrong type raises ``TypeError``, a value out of range a
    ``ValueError`` (subclass) naming the parameter, the value and the range, and the state is
    unchanged when either is raised. A whole number is anything ``operator.index`` accepts
    (numpy integers too), except ``bool``. A state built from a seat's view
    (:meth:`view_text`) holds that seat's unknown cards as unknown; :meth:`determinize` turns
    it, or any state, into a full state consistent with what a seat knows.
    """

    #: The game's declaration (a :class:`~catsearch._core.game.GameSpec`), set by each game.
    spec = None

    def __cinit__(self):
        spec = type(self).spec
        if spec is not None:
            # the game's struct is its class's one C field, laid out right after State's
            # (register() checks that the class holds nothing else)
            self._data = <char*><void*>self + _BASE_SIZE
            self._size = spec.size
            self._moves = spec.moves

    def __init__(self, *args, **kwargs):
        raise TypeError("build a state with catsearch.new_game(...) or catsearch.from_text(...)")

    # -- the hot contract: every game overrides these (state.pxd says what each does) ----
    cdef int num_distinct_moves_c(self) noexcept nogil:
        return self._moves

    cdef int legal_moves_c(self, int* out) noexcept nogil:
        return 0

    cdef void apply_c(self, int move) noexcept nogil:
        pass

    cdef int playout_c(self, Rng* rng, int* buf) noexcept nogil:
        cdef Header* h = <Header*>self._data
        cdef int n = 0
        while not h.terminal:
            self.apply_c(buf[rng_below(rng, self.legal_moves_c(buf))])
            n += 1
        return n

    cdef void returns_c(self, double* out) noexcept nogil:
        cdef double sc[MAX_PLAYERS]
        cdef int i
        if not header(self).terminal:
            for i in range(header(self).players):
                out[i] = 0.0
            return
        self.scores_c(sc)
        share_returns(out, sc, header(self).players)

    cdef void scores_c(self, double* out) noexcept nogil:
        cdef int i
        for i in range(header(self).players):
            out[i] = 0.0

    cdef uint64_t compute_hash_c(self) noexcept nogil:
        return 0

    cdef void reset_c(self, uint64_t seed) noexcept nogil:
        pass

    cdef void determinize_c(self, int seat, Rng* rng) noexcept nogil:
        pass

    cdef void hide_c(self, int seat) noexcept nogil:
        pass

    cdef int observe_move_c(self, int move, int seat) noexcept nogil:
        return move

    cdef int heuristic_move_c(self, Rng* rng, int* buf, int n) noexcept nogil:
        return buf[rng_below(rng, n if n > 0 else self.legal_moves_c(buf))]

    cdef void evaluate_c(self, double* out) noexcept nogil:
        cdef int i, n = header(self).players
        if header(self).terminal:
            self.returns_c(out)
        else:
            for i in range(n):
                out[i] = 1.0 / n

    cdef int chance_outcomes_c(self, int* outcomes, double* weights) noexcept nogil:
        return 0

    cdef void apply_chance_c(self, int outcome) noexcept nogil:
        pass

    cdef int apply_hidden_c(self) noexcept nogil:
        return 0

    cdef bint allows_c(self, State world, int seat) noexcept nogil:
        return True

    cdef void tensor_c(self, int kind, float* out) noexcept nogil:
        pass

    cdef State new_empty_c(self):
        return type(self).__new__(type(self))

    cdef State clone_c(self):
        cdef State c = self.new_empty_c()
        copy_state(c, self)
        return c

    # -- construction (from the game's declaration) ------------------------------------
    @classmethod
    def new(cls, players=None, seed=None, **options):
        """A new game for ``players`` seats (the game's default when ``None``), shuffled and
        dealt from ``seed`` (a whole number from 0 to 2**64 - 1; ``None`` draws one from
        the OS), with the game's ``options``.

        :raises TypeError: a player count, seed or option value of the wrong type.
        :raises OptionError: a player count out of the game's range, a seed out of range, or
            an unknown option or a value out of its range (a ``ValueError``).
        """
        spec = cls.spec
        n = spec.check_players(players)
        seed = check_seed(seed)
        opts = spec.check_options(options)
        cdef State st = cls.__new__(cls)
        header(st).players = n
        st._set_options(opts)
        st.reset_c(fresh_seed() if seed is None else seed)
        return st

    @classmethod
    def from_text(cls, text):
        """Read a state from its full notation or from a seat's view (see :meth:`to_text`).

        :raises TypeError: ``text`` is not a str.
        :raises NotationError: the text does not parse or describes an impossible state;
            the message names the token and its column.
        """
        global _text
        if _text is None:
            from catsearch._core import text as _text
        return _text.read_state(cls, text)

    def _set_options(self, dict options):
        """Write the checked ``options`` (every declared one) into the game's struct."""
        pass

    def _read(self, fields):
        """Read the game's own notation fields (``players`` and ``view`` are read, ``rng``
        and the hash are done after) into this fresh state; raise ``NotationError``."""
        raise NotImplementedError

    def _write(self) -> dict:
        """The game's own notation fields, key -> text (all but ``players``, ``rng`` and
        ``view``; an optional key may be left out)."""
        raise NotImplementedError

    # -- identity -----------------------------------------------------------------------
    @property
    def game_id(self):
        """The game's id (``"herding-cats"``)."""
        spec = type(self).spec
        return None if spec is None else spec.id

    @property
    def players(self) -> int:
        """The number of seats, 2 to 4."""
        return header(self).players

    @property
    def current_player(self) -> int:
        """The seat to move, or -1 once the game is over."""
        return header(self).current

    @property
    def ply(self) -> int:
        """How many moves have been played since the start."""
        return header(self).ply

    @property
    def view_seat(self):
        """The seat whose view this state is, or ``None`` for a full state."""
        cdef int v = header(self).view_seat
        return None if v < 0 else v

    @property
    def num_distinct_moves(self) -> int:
        """Moves are ints in ``range(num_distinct_moves)`` (fixed per game and player count)."""
        return self.num_distinct_moves_c()

    @property
    def hash(self) -> int:
        """The 64-bit Zobrist hash of the position, kept up to date incrementally."""
        return header(self).hash

    def recompute_hash(self) -> int:
        """The Zobrist hash computed from scratch (equals :attr:`hash`; for tests)."""
        return self.compute_hash_c()

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return header(self).terminal != 0

    # -- moves --------------------------------------------------------------------------
    def legal_moves(self) -> list:
        """The legal moves, as ints in increasing order (empty once the game is over)."""
        cdef int n, i
        cdef int* buf
        if header(self).terminal:
            return []
        self._check_can_move()
        buf = <int*>malloc(sizeof(int) * (self.num_distinct_moves_c() + 1))
        if buf == NULL:
            raise MemoryError()
        try:
            n = self.legal_moves_c(buf)
            return sorted(buf[i] for i in range(n))
        finally:
            free(buf)

    def legal_mask(self):
        """A numpy bool array of length :attr:`num_distinct_moves`, True at each legal move."""
        from catsearch._core.observing import legal_mask
        return legal_mask(self)

    def _check_can_move(self):
        """Raise ``IllegalMoveError`` where the game is on but no seat is to move: a seat's
        view that waits for chance to reveal what the view cannot see (a game may say what
        it waits for: The Cat does)."""
        if header(self).current < 0 and not header(self).terminal:
            raise IllegalMoveError(f"nobody can move: this view waits for chance (see "
                                   f"chance_outcomes) in {self.to_text()!r}")

    def move_to_str(self, move) -> str:
        """The text form of a move (an int in ``range(num_distinct_moves)``).

        :raises TypeError: ``move`` is not a whole number.
        :raises InvalidMoveError: ``move`` is out of range.
        """
        m = self._move_index(move)
        return self._move_to_str(m)

    def str_to_move(self, text) -> int:
        """The int of a move given in text form, read in this position.

        :raises TypeError: ``text`` is not a str.
        :raises InvalidMoveError: the text is not a move of this game here.
        """
        if not isinstance(text, str):
            raise TypeError(f"a move in text form is a str, not {type(text).__name__}")
        return self._str_to_move(text.strip())

    def _move_index(self, move) -> int:
        """``move`` checked as a move id: a whole number in ``range(num_distinct_moves)``."""
        return check_move(move, self.num_distinct_moves_c(), self.game_id)

    def _move_to_str(self, int move) -> str:
        raise NotImplementedError

    def _str_to_move(self, str text) -> int:
        raise NotImplementedError

    def play(self, move) -> None:
        """Play ``move`` (an int or its text form) for the seat to move, checked.

        :raises TypeError: the move is neither a str nor a whole number.
        :raises InvalidMoveError: the move does not parse or is out of range.
        :raises IllegalMoveError: the move is not legal here; the message lists the legal ones.
        """
        if isinstance(move, str):
            m = self.str_to_move(move)
        else:
            try:
                m = self._move_index(move)
            except TypeError:
                raise TypeError(f"a move is a whole number or a str, not "
                                f"{type(move).__name__}") from None
        self._check_legal(m)
        self.apply_c(m)

    def apply(self, move) -> None:
        """Play ``move`` (an int), the fast way: the checks run in C and build no Python
        object, and the error message is written only when one is raised.

        A move id outside the move space raises, and so does a move that is not among
        :meth:`legal_moves`: the games' C rules, which searchers call directly, assume legal
        moves, and an illegal one could write outside the game's arrays. In a seat's view the
        legal moves are those legal in at least one world the seat cannot tell from this one
        (the contract's law, checked by :func:`catsearch.testing.check_game`): a move refused
        there is one the view can tell is illegal.

        :raises TypeError: ``move`` is not a whole number.
        :raises InvalidMoveError: ``move`` is not in ``range(num_distinct_moves)``.
        :raises IllegalMoveError: ``move`` is not legal here (in a view: in no world the
            seat cannot tell from this one).
        """
        cdef int overflow = 0
        cdef long m
        if PyLong_CheckExact(move):
            m = PyLong_AsLongAndOverflow(move, &overflow)
            if overflow != 0 or not 0 <= m < self._moves:
                m = self._move_index(move)
        else:
            m = self._move_index(move)
        if not is_legal(self, <int>m):
            self._check_legal(m)
            raise IllegalMoveError(f"illegal move {self._move_to_str(m)!r}")
        self.apply_c(<int>m)

    def heuristic_move(self, seed=0, *, weights=None) -> int:
        """The game's rule-based move here (what the ``heuristic`` player plays), drawing
        its ties with ``seed`` (a seed, ``None``: a fresh one), with the heuristic's
        ``weights`` (name -> value, see ``spec.heuristic_weights``) set where given.

        :raises IllegalMoveError: the game is over, or nobody can move here.
        """
        from catsearch._core.heuristic import heuristic_move
        return heuristic_move(self, seed, weights)

    def observe_move(self, move, seat) -> int:
        """What ``seat`` sees of ``move`` played here (the move itself where it is public)."""
        m = self._move_index(move)
        s = self._check_seat(seat, knowledge=False)
        return self.observe_move_c(m, s)

    # -- what a seat observes: a live game's observations, tensors (catsearch._core.observing)
    def observation(self, seat, move) -> str:
        """What ``seat`` sees of ``move`` (legal, for the seat to move) being played in this
        full state, as one whitespace-free token: the move's public part, the cards it shows
        ``seat`` (its own draws; a reveal shows everyone), another seat's simultaneous choice
        as unknown. Each game's rules page gives the notation. On ``seat``'s view,
        :meth:`play_observation` applies it: following its observations from its first view,
        a seat's view is always exactly ``view(seat)`` of the full state.

        :raises ValueError: this state is a view, or ``seat`` is not a seat of the game.
        :raises IllegalMoveError: ``move`` is not legal here.
        """
        from catsearch._core.observing import observation
        return observation(self, seat, move)

    def play_observation(self, text) -> int:
        """Apply one observation (see :meth:`observation`) to this seat's view.

        :returns: what the seat saw of the move as a move code: the move where it saw it,
            else the code :meth:`observe_move` gives (``>= num_distinct_moves``), for
            :meth:`Player.observe <catsearch.search.players.Player.observe>`.
        :raises TypeError: ``text`` is not a str.
        :raises ObservationError: ``text`` is not an observation this view can follow (the
            message names the text and the view); the view is left unchanged.
        """
        from catsearch._core.observing import play_observation
        return play_observation(self, text)

    def observation_tensor(self, seat):
        """What ``seat`` observes now (the table and its own cards), as a float32 numpy array
        of the fixed shape :meth:`tensor_shape` ``("observation")``: equal in every state
        ``seat`` cannot tell apart; the game's rules page gives each element."""
        from catsearch._core.observing import tensor
        return tensor(self, seat, "observation")

    def information_state_tensor(self, seat):
        """Everything ``seat`` knows (its view: what it observes and what it remembers), as a
        float32 numpy array of the fixed shape :meth:`tensor_shape` ``("information_state")``:
        equal exactly in the states ``seat`` cannot tell apart (same :meth:`info_key`)."""
        from catsearch._core.observing import tensor
        return tensor(self, seat, "information_state")

    def tensor_shape(self, kind="observation") -> tuple:
        """The shape of the tensors of ``kind`` (``"observation"`` or ``"information_state"``)
        for this game and player count."""
        from catsearch._core.observing import size
        return (size(self, kind),)

    def tensor_layout(self, kind="observation") -> tuple:
        """The parts of the tensors of ``kind``, in order: ``TensorPart(name, start, stop)``."""
        from catsearch._core.observing import layout
        return layout(self, kind)

    def _tensor_layout(self, int kind) -> list:
        """The game's tensor parts for this player count, in order: ``(name, length)`` pairs
        (``kind``: 0 observation, 1 information state); ``tensor_c`` fills them."""
        raise NotImplementedError(f"{self.game_id} has no tensors")

    def _observation(self, int seat, int move) -> str:
        """The game's observation text (see :meth:`observation`; arguments checked)."""
        raise NotImplementedError(f"{self.game_id} does not write observations")

    def _play_observation(self, str text) -> int:
        """Apply the game's observation ``text`` to this view (a scratch copy: raise
        ``ValueError`` at will, the caller's view is unchanged) and return the move code."""
        raise NotImplementedError(f"{self.game_id} does not read observations")

    def _check_legal(self, int m) -> None:
        if header(self).terminal:
            raise IllegalMoveError(
                f"illegal move {self._move_to_str(m)!r}: the game is over in {self.to_text()!r}")
        legal = self.legal_moves()
        if m not in legal:
            raise IllegalMoveError(
                f"illegal move {self._move_to_str(m)!r} for seat {self.current_player} in "
                f"{self.to_text()!r}; legal: {' '.join(self._move_to_str(x) for x in legal)}")

    # -- outcome ------------------------------------------------------------------------
    def returns(self) -> list:
        """Utility per seat: a sole winner 1, tied winners share 1, others 0 (all 0 until the
        game is over)."""
        cdef double out[MAX_PLAYERS]
        self.returns_c(out)
        return [out[i] for i in range(header(self).players)]

    def evaluate(self) -> list:
        """The game's evaluation: estimated returns per seat (the returns once it is over)."""
        cdef double out[MAX_PLAYERS]
        self.evaluate_c(out)
        return [out[i] for i in range(header(self).players)]

    def scores(self) -> list:
        """The game's own score per seat (herds, points, houses; see its rules page)."""
        cdef double out[MAX_PLAYERS]
        self.scores_c(out)
        return [int(out[i]) if out[i] == int(out[i]) else out[i]
                for i in range(header(self).players)]

    # -- copies, views, knowledge -------------------------------------------------------
    def clone(self):
        """An independent copy."""
        return self.clone_c()

    def __copy__(self):
        return self.clone_c()

    def __deepcopy__(self, memo):
        return self.clone_c()

    def __reduce__(self):
        return (_restore, (type(self), self.to_text()))

    def __eq__(self, other):
        if not isinstance(other, State) or other.game_id != self.game_id:
            return NotImplemented
        return self.to_text() == other.to_text()

    __hash__ = None  # mutable: use .hash for the Zobrist key

    def __repr__(self):
        return f"catsearch.from_text({self.game_id!r}, {self.to_text()!r})"

    def to_text(self) -> str:
        """The full notation: one printable line that :func:`catsearch.from_text` reads back
        (a view's, with ``?`` for what its seat does not know, and ``view=<seat>``).

        The fields come in the order the game declares (its rules page lists them);
        ``players`` is first, ``rng`` is the state's generator (``?`` in a view) and
        ``view`` is last.
        """
        global _text
        if _text is None:
            from catsearch._core import text as _text
        return _text.write_state(self)

    def view(self, seat, *, hands=False):
        """This state as ``seat`` sees it: every card that seat does not know is unknown.
        ``hands=True``: an oracle's view that shows every seat's hand too, hiding only what
        no seat knows (docs/contract.rst, "Views that show every hand")."""
        from catsearch._core.worlds import view
        return view(self, seat, hands)

    def view_text(self, seat) -> str:
        """The notation of ``seat``'s view (unknown cards written ``?``); it parses back."""
        return self.view(seat).to_text()

    @property
    def inference(self) -> str:
        """What :meth:`determinize` honours by default here (and a search's worlds dealt from
        this state): ``"rules"`` (what the public moves revealed) or ``"none"``."""
        return "none" if (<Header*>self._data).no_inference else "rules"

    @inference.setter
    def inference(self, value) -> None:
        from catsearch._core.worlds import inference_off
        (<Header*>self._data).no_inference = inference_off(value)

    def allows(self, world, seat=None) -> bool:
        """Could the game seen so far have happened with ``world`` as the real state?

        ``self`` is ``seat``'s view (``seat`` defaults to the view's own) or a full state;
        ``world`` a full state of the same game that ``seat`` cannot tell from it. True when
        every move seen so far was legal in ``world``'s past as far as the public moves
        reveal (each game's rules page, "Inference"); worlds that ``determinize`` deals with
        ``inference="rules"`` always are, and so is the real state.
        """
        from catsearch._core.worlds import allows
        return allows(self, world, seat)

    def info_key(self, seat) -> int:
        """A 64-bit key of ``seat``'s information set: equal for states ``seat`` cannot tell
        apart (same view), different otherwise except by hash collision."""
        cdef State c = self.view(seat)
        return c.compute_hash_c()

    def determinize(self, seat, seed=None, *, inference=None):
        """A full state drawn uniformly from those consistent with what ``seat`` knows here.

        The unknown cards are dealt at random among the places ``seat`` cannot see; the
        state's own generator is replaced too, since its future draws are unknown as well.
        ``seed``: a whole number from 0 to 2**64 - 1 (``None``: a fresh one).
        ``inference``: ``"rules"`` deals only worlds in which every move seen so far was
        legal (what each game's moves reveal: its rules page, "Inference"); ``"none"`` deals
        every unseen card uniformly, as if the moves revealed nothing; ``None``: the state's
        :attr:`inference` (``"rules"`` unless set).
        """
        from catsearch._core.worlds import determinize
        return determinize(self, seat, seed, inference)

    def chance_outcomes(self) -> list:
        """In a view where the mover holds unknown cards: ``[(card_type, probability)]`` for
        the next one to be revealed (see :meth:`apply_chance`); else an empty list."""
        from catsearch._core.worlds import chance_outcomes
        return chance_outcomes(self)

    def apply_chance(self, outcome) -> None:
        """Reveal one unknown card of the mover as card type ``outcome``.

        :raises TypeError: ``outcome`` is not a whole number.
        :raises ValueError: ``outcome`` is not one of :meth:`chance_outcomes` here.
        """
        from catsearch._core.worlds import apply_chance
        apply_chance(self, outcome)

    def apply_hidden(self) -> bool:
        """In a view, when another seat is to make a choice this view's seat cannot see until
        it resolves (a simultaneous choice): record it as unknown, pass the turn on and
        return ``True``; else change nothing and return ``False``. Searchers use it so that
        the other seats of their model do not see the searching seat's hidden choices."""
        return self.apply_hidden_c() != 0

    def _check_seat(self, seat, bint knowledge=True) -> int:
        """``seat`` as an int; raise ``TypeError`` unless it is a whole number, ``ValueError``
        unless it is a seat of this game and (``knowledge``) a seat whose knowledge this state
        holds: in a view, only the view's seat."""
        return check_seat(seat, header(self).players, header(self).view_seat if knowledge else -1)

    def cards(self) -> dict:
        """Every card location and its cards in text form (``?`` for an unknown card)."""
        raise NotImplementedError

    def knowledge(self) -> dict:
        """For every card location (as in :meth:`cards`), the frozenset of seats that know it."""
        raise NotImplementedError

    # -- counting (in C: catsearch._core.counting) -----------------------------------
    def perft(self, depth) -> int:
        """The number of move sequences of exactly ``depth`` moves from here (a line that ends
        the game sooner counts nothing), in a full state; the standard move-generator check.
        ``depth``: a whole number from 0 to 64."""
        from catsearch._core.counting import perft
        return perft(self, check_int(depth, "depth", 0, MAX_PERFT_DEPTH))

    def perft_divide(self, depth) -> dict:
        """``perft(depth - 1)`` after each legal move, keyed by the move's text (``depth``
        from 1 to 64)."""
        from catsearch._core.counting import perft_divide
        return perft_divide(self, check_int(depth, "depth", 1, MAX_PERFT_DEPTH))


# the size of a State object: a game's struct starts there (see State.__cinit__)
cdef Py_ssize_t _BASE_SIZE = State.__basicsize__


def _restore(cls, str text):
    """Unpickle a state: its class reads its notation (no registry needed)."""
    return cls.from_text(text)
