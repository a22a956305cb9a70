# cython: language_level=3
"""Three toy games with hidden simultaneous choices, for testing searchers (not in ``GAMES``).

They are registered as test games when :mod:`catsearch.testing` is imported (``new_game``,
``from_text`` and :func:`catsearch.testing.check_game` then know them); ``docs/contract.rst``,
"Adding a game", points to them for hidden simultaneous choices (its worked example is the
hand-and-deck game ``toy-sum``, ``example.pyx``).

``toy-rps``: simultaneous rock-paper-scissors for 2-4 players, taken seat by seat as the
contract takes simultaneous moves (as The Cat's ticks are): each seat in turn picks ``rock``
(0), ``paper`` (1) or ``scissors`` (2), hidden from the others (``observe_move_c`` gives
them the code 3, "some choice"). When every seat has chosen, the round resolves: each seat
scores one point per opponent it beats. After ``rounds`` rounds (default 1) the most points
wins (ties share). For testing MO-ISMCTS.

``toy-pennies``: matching pennies for 2 players: seat 0 picks ``heads`` (0) or ``tails``
(1), then seat 1, each hidden from the other; seat 0 scores a point if the two match, seat 1
if they differ. The value of the game is 1/2 for each seat; a seat that could see the other's
choice would always win. For testing expectimax.

``toy-biased-pennies``: ``toy-pennies`` whose two tails score nobody (a draw, 1/2 each): for
seat 0, heads-heads wins, a mismatch loses, tails-tails draws. Its equilibrium is mixed and
not uniform: each seat picks heads with probability 1/3, and seat 0's value is 1/3 (a seat
0 that picks heads with probability ``x`` gets ``min(x, (1 - x) / 2)`` against a best
response). For testing the selection at simultaneous choices (``select=rm|exp3``), whose
average strategy's exploitability can be computed exactly.

A seat's view hides the choices of the others made this round (they are public once the
round resolves); ``determinize_c`` draws them uniformly. In ``toy-pennies`` a view cannot
resolve a round whose choices it does not know: once both seats have chosen it waits (no
seat to move) and ``chance_outcomes_c`` reveals the unknown choice, heads or tails with
probability 1/2; ``apply_hidden_c`` records the other seat's choice as unknown, as hidden
simultaneous choices must be searched (see ``docs/expectimax.rst``). ``toy-rps`` has neither
(MO-ISMCTS searches it from determinizations); its last round's choices stay on the table.

The move count ``n`` (3 or 2) also gives the codes: ``n`` is an unknown choice (and what the
other seats observe of a choice), ``n + 1`` a choice not made yet.

Observations (what the game master sends each seat, :meth:`State.observation`; a seat's view
follows them with :meth:`State.play_observation`): the seat that chooses sees its choice
(``rock``, ``heads``), every other seat sees ``hidden``. The choice that ends a round adds
what the round showed everyone: ``:scored=<points each seat scored in the round>``, and in
``toy-rps``'s last round, whose choices stay on the table, ``:chose=<every seat's choice>``.
Examples, 3-player ``toy-rps`` with 2 rounds: seat 0 plays rock: seat 0 sees ``rock``, seats
1 and 2 ``hidden``; seat 1 paper: ``paper`` for seat 1, ``hidden`` for the others; seat 2
paper, ending the round: seat 2 sees ``paper:scored=0,1,1`` and seats 0 and 1
``hidden:scored=0,1,1``. In the last round the same choices give ``paper:scored=0,1,1:chose=
rock,paper,paper``. ``toy-pennies``, seat 0 heads then seat 1 tails: ``heads`` / ``hidden``,
then ``hidden:scored=0,1`` / ``tails:scored=0,1``. A view refuses an observation it could
not have been sent: another seat's choice in clear, its own as ``hidden``, points no choices
of the hidden seats could score, choices shown before the last round.

Tensors (:meth:`State.observation_tensor`, :meth:`State.information_state_tensor`): a seat's
view is all it knows, so both kinds are the same, in four parts, seats relative to the
observer (itself first, then in seat order), ``n`` seats and ``k`` choices (3 or 2):
``turn`` (``n``), the seat to choose one-hot, all 0 when nobody is (the game is over, or a
``toy-pennies`` view waits for chance); ``choices`` (``n * (k + 1)``), per seat its choice
this round one-hot where the observer knows it (its own, or every choice left on the table
at the end), the last entry 1 where the seat chose but its choice is hidden, all 0 before
it chose; ``points`` (``n``), per seat out of ``(n - 1) * rounds``; ``round`` (1), rounds
resolved out of ``rounds``. Values are 0/1 or fractions in [0, 1].
"""
from libc.stdint cimport uint64_t

from catsearch._core.rng cimport Rng, rng_below
from catsearch._core.state cimport State, Header, NO_SEAT, restart, scores_from, as_view, as_full
from catsearch._core.observing cimport put_turn

from catsearch._core.game import GameSpec, register
from catsearch._core.options import Option
from catsearch.errors import InvalidMoveError

NOTATION = ("players", "round", "turn", "choices", "points", "rng", "view?")
ROUNDS = Option("rounds", int, 1, 1, 1000, doc="rounds in a game")

RPS_SPEC = GameSpec(id="toy-rps", name="Toy rock-paper-scissors", size=sizeof(ToyData), moves=3,
                    notation=NOTATION, default_players=2, options=(ROUNDS,), deck=False,
                    hidden_moves=True)
BIASED_SPEC = GameSpec(id="toy-biased-pennies", name="Toy biased matching pennies",
                       size=sizeof(ToyData), moves=2, notation=NOTATION, seats=(2, 2),
                       default_players=2, options=(ROUNDS,), deck=False, hidden_moves=True)
PENNIES_SPEC = GameSpec(id="toy-pennies", name="Toy matching pennies", size=sizeof(ToyData),
                        moves=2, notation=NOTATION, seats=(2, 2), default_players=2,
                        options=(ROUNDS,), deck=False, hidden_moves=True)


cdef inline bint beats(int a, int b) noexcept nogil:
    return (a - b + 3) % 3 == 1


cdef uint64_t toy_hash(ToyData* d) noexcept nogil:
    """The hash from scratch (a small game may recompute it after every move)."""
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

    spec = RPS_SPEC
    NAMES = ("rock", "paper", "scissors")

    # -- the rules, at C speed ----------------------------------------------------------
    cdef int legal_moves_c(self, int* out) noexcept nogil:
        cdef int m
        for m in range(self._moves):
            out[m] = m
        return self._moves

    cdef void score_round_c(self) noexcept nogil:
        """Every choice is known: each seat scores a point per opponent it beats."""
        cdef ToyData* d = &self.d
        cdef int p, q
        for p in range(d.h.players):
            for q in range(d.h.players):
                if q != p and beats(d.choice[p], d.choice[q]):
                    d.points[p] += 1

    cdef void resolve(self) noexcept nogil:
        """Every seat has chosen: score the round; the next round (choices cleared), or the
        end (the last round's choices stay on the table)."""
        cdef ToyData* d = &self.d
        cdef int p
        self.score_round_c()
        d.round += 1
        if d.round == d.rounds:
            d.h.current = NO_SEAT
            d.h.terminal = 1
        else:
            d.h.current = 0
            for p in range(d.h.players):
                d.choice[p] = self._moves + 1

    cdef void apply_c(self, int move) noexcept nogil:
        cdef ToyData* d = &self.d
        d.choice[d.h.current] = move
        d.h.ply += 1
        if d.h.current + 1 < d.h.players:
            d.h.current += 1
        else:
            self.resolve()
        d.h.hash = toy_hash(d)

    cdef void scores_c(self, double* out) noexcept nogil:
        scores_from(out, self.d.points, self.d.h.players)

    cdef uint64_t compute_hash_c(self) noexcept nogil:
        return toy_hash(&self.d)

    cdef void reset_c(self, uint64_t seed) noexcept nogil:
        cdef ToyData* d = &self.d
        cdef int rounds = d.rounds, p
        restart(self, seed)
        d.rounds = rounds
        for p in range(4):
            d.choice[p] = self._moves + 1
        d.h.hash = toy_hash(d)

    cdef void determinize_c(self, int seat, Rng* rng) noexcept nogil:
        cdef ToyData* d = &self.d
        cdef int p
        for p in range(d.h.players):
            if d.choice[p] == self._moves:
                d.choice[p] = rng_below(rng, self._moves)
        if d.h.current == NO_SEAT and not d.h.terminal:
            self.resolve()
        as_full(&d.h, rng)
        d.h.hash = toy_hash(d)

    cdef void hide_c(self, int seat) noexcept nogil:
        cdef ToyData* d = &self.d
        cdef int p
        for p in range(d.h.players):
            if p != seat and d.choice[p] != self._moves + 1 and not d.h.terminal:
                d.choice[p] = self._moves
        as_view(&d.h, seat)
        d.h.hash = toy_hash(d)

    cdef int observe_move_c(self, int move, int seat) noexcept nogil:
        return move if seat == self.d.h.current else self._moves

    cdef void tensor_c(self, int kind, float* out) noexcept nogil:
        """Both kinds alike (a seat's view is all it knows), seats relative to the view's:
        ``turn`` (n): the seat to choose, one-hot (all 0 when nobody is: the game is over,
        or a view waits for chance); ``choices`` (n x (moves + 1)): per seat its choice this
        round one-hot (``moves`` entries) where the seat knows it, the last entry 1 where
        the seat chose but it is hidden, all 0 before it chose; ``points`` (n): per seat,
        out of the most it can score, ``(n - 1) * rounds``; ``round`` (1): rounds resolved,
        out of ``rounds``."""
        cdef ToyData* d = &self.d
        cdef int n = d.h.players, seat = d.h.view_seat, w = self._moves + 1
        cdef int i, c, o = 0
        if seat < 0:
            seat = 0
        o = put_turn(out, o, &d.h)
        for i in range(n):
            c = d.choice[(seat + i) % n]
            if c <= self._moves:
                out[o + w * i + c] = 1.0
        o += n * w
        for i in range(n):
            out[o + i] = d.points[(seat + i) % n] / <float>((n - 1) * d.rounds)
        o += n
        out[o] = d.round / <float>d.rounds

    def _tensor_layout(self, int kind) -> list:
        """The same parts for both kinds: see ``tensor_c``."""
        n = self.d.h.players
        return [("turn", n), ("choices", n * (self._moves + 1)), ("points", n), ("round", 1)]

    # -- observations (a live game): see the module docstring ---------------------------
    def _round_points(self, list choices) -> list:
        """The points each seat scores in a round with these choices (all known)."""
        n = self.d.h.players
        return [sum(1 for q in range(n) if q != p and beats(choices[p], choices[q]))
                for p in range(n)]

    def _observation(self, int seat, int move) -> str:
        """The mover's choice in clear, another seat's as ``hidden``; the choice that ends a
        round adds ``:scored=<points per seat>``, and ``:chose=<every choice>`` when the
        choices stay on the table (``toy-rps``'s last round)."""
        cdef ToyData* d = &self.d
        cdef int n = d.h.players, p = d.h.current
        cdef ToyRPS a
        head = self.NAMES[move] if seat == p else "hidden"
        if p + 1 < n:
            return head
        a = <ToyRPS>self.clone_c()
        a.apply_c(move)
        text = f"{head}:scored=" + ",".join(str(a.d.points[q] - d.points[q]) for q in range(n))
        if a.d.h.terminal and a.d.choice[0] != self._moves + 1:
            text += ":chose=" + ",".join(self.NAMES[a.d.choice[q]] for q in range(n))
        return text

    def _play_observation(self, str text) -> int:
        cdef ToyData* d = &self.d
        cdef int n = d.h.players, s = d.h.view_seat, cur = d.h.current, m = -1, code
        if cur < 0:
            raise ValueError("this view waits for chance to reveal a choice; it cannot follow "
                             "observations")
        head, sep, rest = text.partition(":")
        names = ", ".join(self.NAMES)
        if cur == s:
            if head not in self.NAMES:
                raise ValueError(f"seat {s} is to choose: its own choice is shown in clear "
                                 f"({names}), not {head!r}")
            m = code = self.NAMES.index(head)
        elif head != "hidden":
            if head in self.NAMES:
                raise ValueError(f"{head!r} shows seat {cur}'s choice in clear: it is hidden "
                                 f"from seat {s} (written hidden)")
            raise ValueError(f"seat {cur} is to choose, hidden from seat {s}: expected "
                             f"'hidden', not {head!r}")
        else:
            code = self._moves
        choices = [d.choice[q] for q in range(n)]
        choices[cur] = m if cur == s else self._moves
        if cur + 1 < n:
            if sep:
                raise ValueError(f"seat {cur}'s choice does not end the round (seat {cur + 1} "
                                 f"chooses next): nothing follows {head!r}")
            d.choice[cur] = choices[cur]
            d.h.current = cur + 1
            d.h.ply += 1
            d.h.hash = toy_hash(d)
            return code
        fields = rest.split(":") if sep else []
        if not 1 <= len(fields) <= 2 or not fields[0].startswith("scored=") or (
                len(fields) == 2 and not fields[1].startswith("chose=")):
            raise ValueError(f"seat {cur}'s choice ends the round: expected "
                             f"{head}:scored=<points per seat>[:chose=<every choice>]")
        pts = fields[0][7:].split(",")
        if len(pts) != n or not all(x.isascii() and x.isdigit() and len(x) < 3 for x in pts):
            raise ValueError(f"{fields[0]!r}: expected the points of each of the {n} seats, "
                             "separated by ,")
        pts = [int(x) for x in pts]
        shown = d.round + 1 == d.rounds and self._keeps_choices()
        if shown != (len(fields) == 2):
            raise ValueError("the last round's choices stay on the table: expected :chose=..."
                             if shown else "the choices of this round are not shown (no :chose=)")
        if shown:
            chose = fields[1][6:].split(",")
            if len(chose) != n or any(c not in self.NAMES for c in chose):
                raise ValueError(f"{fields[1]!r}: expected the choice of each of the {n} seats "
                                 f"({names}), separated by ,")
            chose = [self.NAMES.index(c) for c in chose]
            if chose[s] != choices[s]:
                raise ValueError(f"{fields[1]!r}: seat {s} chose {self.NAMES[choices[s]]}")
            if self._round_points(chose) != pts:
                raise ValueError(f"{fields[0]!r}: those choices score "
                                 f"{','.join(map(str, self._round_points(chose)))}")
        else:
            # some choices of the hidden seats that score these points
            hidden = [q for q in range(n) if choices[q] == self._moves]
            chose = None
            total = 1
            for q in hidden:
                total *= self._moves
            for k in range(total):
                trial = choices[:]
                for q in hidden:
                    trial[q] = k % self._moves
                    k //= self._moves
                if self._round_points(trial) == pts:
                    chose = trial
                    break
            if chose is None:
                raise ValueError(f"{fields[0]!r}: no choices of the other seats score these "
                                 f"points with seat {s}'s {self.NAMES[choices[s]]}")
        for q in range(n):
            d.choice[q] = chose[q]
        d.h.ply += 1
        self.resolve()
        d.h.hash = toy_hash(d)
        return code

    def _keeps_choices(self) -> bool:
        """Whether the last round's choices stay on the table once the game is over."""
        return True

    # -- the Python side: options, text, knowledge --------------------------------------
    def _set_options(self, dict options):
        self.d.rounds = options["rounds"]

    def _move_to_str(self, int m) -> str:
        return self.NAMES[m]

    def _str_to_move(self, str s) -> int:
        if s not in self.NAMES:
            raise InvalidMoveError(f"{s!r} is not a {self.game_id} move: "
                                   f"{', '.join(self.NAMES)}")
        return self.NAMES.index(s)

    def _choice_text(self, int p) -> str:
        c = self.d.choice[p]
        return "" if c == self._moves + 1 else "?" if c == self._moves else str(c)

    def _write(self) -> dict:
        """``round``: rounds resolved / rounds in the game; ``choices``: per seat its choice
        this round (``-`` not yet, ``?`` hidden in a view); ``points``: per seat."""
        d = &self.d
        n = d.h.players
        return {"round": f"{d.round}/{d.rounds}",
                "turn": "-" if d.h.current < 0 else d.h.current,
                "choices": ",".join(self._choice_text(p) or "-" for p in range(n)),
                "points": ",".join(str(d.points[p]) for p in range(n))}

    def _read(self, f):
        d = &self.d
        n = d.h.players
        done, slash, total = f["round"].value.partition("/")
        if (not slash or not (done.isdigit() and total.isdigit())
                or not 0 <= int(done) <= int(total) or not 1 <= int(total) <= 1000):
            raise f.error(f["round"], "expected <rounds resolved>/<rounds>, e.g. 0/1")
        d.round, d.rounds = int(done), int(total)
        points = f.int_list("points", n, 0, (n - 1) * d.rounds)
        for p in range(n):
            d.points[p] = points[p]
        chosen = 0
        for p, (part, off) in enumerate(f.parts("choices", n, ",", "choices")):
            if part == "-":
                d.choice[p] = self._moves + 1
            elif part == "?" and d.h.view_seat >= 0 and p != d.h.view_seat:
                d.choice[p] = self._moves
            elif len(part) == 1 and part.isdigit() and int(part) < self._moves:
                d.choice[p] = int(part)
            else:
                raise f.error(f["choices"], f"{part!r}: a choice 0 to {self._moves - 1}, - (not "
                              f"yet) or ? (another seat's, in a view)", off, len(part) or 1)
            if d.choice[p] != self._moves + 1:
                if chosen != p:
                    raise f.error(f["choices"], "seats choose in seat order", off, len(part))
                chosen += 1
        if d.round == d.rounds:
            if f["turn"].value != "-" or chosen not in (0, n) or "?" in f["choices"].value:
                raise f.error(f["turn"], "the game is over: turn is -, and the last round's "
                              "choices are public or cleared")
            d.h.terminal = 1
            d.h.current = NO_SEAT
        elif chosen == n:
            if f["turn"].value != "-" or all(d.choice[p] != self._moves for p in range(n)):
                raise f.error(f["turn"], "only a view waits (turn=-) for hidden choices")
            d.h.current = NO_SEAT
        elif f.int("turn", 0, n - 1) != chosen:
            raise f.error(f["turn"], f"seat {chosen} is the next to choose")
        else:
            d.h.current = chosen

    def cards(self) -> dict:
        """Each seat's choice this round (``choice<seat>``): empty before it chose."""
        return {f"choice{p}": self._choice_text(p) for p in range(self.d.h.players)}

    def knowledge(self) -> dict:
        """A choice is known to its seat only, until the round resolves (the last round's
        choices stay on the table, public, in ``toy-rps``)."""
        n = self.d.h.players
        return {f"choice{p}": frozenset(range(n) if self.d.h.terminal else [p])
                for p in range(n)}


cdef class ToyPennies(ToyRPS):
    """Matching pennies with hidden simultaneous choices (see the module docstring)."""

    spec = PENNIES_SPEC
    NAMES = ("heads", "tails")

    cdef void score_round_c(self) noexcept nogil:
        """Seat 0 scores if the two choices match, seat 1 if they differ."""
        self.d.points[0 if self.d.choice[0] == self.d.choice[1] else 1] += 1

    def _round_points(self, list choices) -> list:
        return [1, 0] if choices[0] == choices[1] else [0, 1]

    def _keeps_choices(self) -> bool:
        return False

    cdef void resolve(self) noexcept nogil:
        ToyRPS.resolve(self)
        self.d.choice[0] = self.d.choice[1] = self._moves + 1

    cdef void apply_c(self, int move) noexcept nogil:
        cdef ToyData* d = &self.d
        d.choice[d.h.current] = move
        d.h.ply += 1
        if d.h.current == 0:
            d.h.current = 1
        elif d.choice[0] == self._moves or d.choice[1] == self._moves:
            d.h.current = NO_SEAT       # a view waits for chance to reveal the choice
        else:
            self.resolve()
        d.h.hash = toy_hash(d)

    cdef int apply_hidden_c(self) noexcept nogil:
        cdef ToyData* d = &self.d
        if d.h.view_seat < 0 or d.h.current < 0 or d.h.current == d.h.view_seat:
            return 0
        self.apply_c(self._moves)
        return 1

    cdef int chance_outcomes_c(self, int* outcomes, double* weights) noexcept nogil:
        cdef ToyData* d = &self.d
        cdef int m
        if d.h.terminal or d.h.current != NO_SEAT:
            return 0
        for m in range(self._moves):
            outcomes[m] = m
            weights[m] = 1.0 / self._moves
        return self._moves

    cdef void apply_chance_c(self, int outcome) noexcept nogil:
        cdef ToyData* d = &self.d
        d.choice[0 if d.choice[0] == self._moves else 1] = outcome
        self.resolve()
        d.h.hash = toy_hash(d)


cdef class ToyBiasedPennies(ToyPennies):
    """Matching pennies where two tails draw (see the module docstring)."""

    spec = BIASED_SPEC

    cdef void score_round_c(self) noexcept nogil:
        """Seat 0 scores on two heads, seat 1 on a mismatch, nobody on two tails."""
        if self.d.choice[0] != self.d.choice[1]:
            self.d.points[1] += 1
        elif self.d.choice[0] == 0:
            self.d.points[0] += 1

    def _round_points(self, list choices) -> list:
        if choices[0] != choices[1]:
            return [0, 1]
        return [1, 0] if choices[0] == 0 else [0, 0]


register(ToyRPS, listed=False)
register(ToyPennies, listed=False)
register(ToyBiasedPennies, listed=False)
