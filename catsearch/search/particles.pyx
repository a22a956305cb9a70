# cython: language_level=3
"""Policy inference: a seat's belief over the worlds it can be in, as weighted particles.

Rule inference (``State.determinize``) deals only worlds the rules allow; it counts every such
world the same. A strong player also reads the opponents' *choices*: a seat that led a high
card probably had one to lead. :class:`Belief` keeps ``count`` full worlds (particles), each
one consistent with everything the seat has seen, with a weight: the likelihood of every move
the other seats made, under a model of how they play (Rebstock et al. 2019, "Policy-Based
Inference in Trick-Taking Card Games"). It is a particle filter fed one observation at a time
(``Player.observe``, so it follows a live game through the engine and the Table):

* **model**: the game's heuristic as a softmax with a temperature ``T`` over a score of 1 for
  the heuristic's move and 0 for the others: ``P(heuristic move) = e^(1/T) / (e^(1/T) + n - 1)``
  and each other legal move ``1 / (e^(1/T) + n - 1)``. ``T`` large: every legal move alike
  (rule inference); small: the opponents are expected to play like the heuristic;
* **update**: each particle plays the move on its own world (a move hidden from the seat: one
  of the moves the seat would have seen so, drawn by the model, its weight their probability
  mass; the particle dies if that move does not show the seat what it saw, so the weight is
  an unbiased estimate of the likelihood at the cost of one move played),
  the particle's weight is multiplied by the move's likelihood, and a particle whose world no
  longer shows the seat what the seat really saw dies; the seat's own move (its draw seen)
  deals the world's unknown-to-all cards again until the world's deck shows that draw (at
  most ``OWN_TRIES`` deals; likelihood 1: the draw tells little of the other hands);
* **refill**: hard evidence kills particles (an opponent plays a card its world's hand lacks;
  no deal of the world's deck shows the seat its draw). When fewer than ``refill``
  of them live (a quarter by default), each dead one is replaced by a fresh world of the
  seat's view (rule inference) at the live particles' mean weight (a defensive mixture: the
  soft evidence the fresh worlds missed counts as average; ``refills``); when none lives, the
  belief starts again (``restarts``);
* **resample**: when the effective sample size falls below ``threshold * count``, the
  particles are resampled (systematic resampling) to equal weights.

The search cores draw the root world of each iteration from the belief (``draw_c``: a
particle by weight, its cards that no seat knows, the deck's order, dealt again, its
generator fresh) instead of ``determinize_c``: the model's weights do not depend on the
deck's order, so every iteration sees fresh future draws, as with rule inference. No Python object is
touched in the update loop or in ``draw_c``.
"""
from libc.math cimport exp, log, INFINITY
from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy

from catsearch._core.rng cimport Rng, rng_seed, rng_next, rng_double
from catsearch._core.state cimport Header, header, copy_state, NO_SEAT

import time

from catsearch._core.game import lookup
from catsearch._core.options import check_seed

#: the seat's own move: at most this many deals of a world's unknown-to-all cards to see
#: its draw through

cdef enum:
    OWN_TRIES = 64

#: particles a belief keeps unless told otherwise
DEFAULT_COUNT = 256
#: the softmax temperature of the opponent model unless told otherwise
DEFAULT_TEMPERATURE = 1.0


cdef class Belief:
    """``count`` weighted worlds of ``view`` for ``seat`` (see the module's doc)."""

    def __cinit__(self):
        self.worlds = NULL
        self.logw = NULL
        self.dup = NULL
        self.cdf = NULL
        self.buf = NULL
        self.probs = NULL

    def __dealloc__(self):
        free(self.worlds)
        free(self.logw)
        free(self.dup)
        free(self.cdf)
        free(self.buf)
        free(self.probs)

    def __init__(self, State view, int seat, *, int count=DEFAULT_COUNT,
                 double temperature=DEFAULT_TEMPERATURE, double threshold=0.5,
                 double refill=0.25, uint64_t seed=0):
        if count < 1:
            raise ValueError(f"a belief keeps at least 1 particle, not {count}")
        if not temperature > 0.0:
            raise ValueError(f"the model's temperature must be above 0, not {temperature}")
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"the resampling threshold is from 0 to 1, not {threshold}")
        if not 0.0 <= refill <= 1.0:
            raise ValueError(f"the refill share is from 0 to 1, not {refill}")
        self.refill = refill
        self.seat = seat
        self.count = count
        self.size = view._size
        self.temperature = temperature
        self.threshold = threshold
        self.worlds = <char*>malloc(self.size * count)
        self.logw = <double*>malloc(sizeof(double) * count)
        self.dup = <unsigned char*>calloc(count, 1)
        self.cdf = <double*>malloc(sizeof(double) * count)
        self.buf = <int*>malloc(sizeof(int) * (view._moves + 1))
        self.probs = <double*>malloc(sizeof(double) * (view._moves + 1))
        if (self.worlds == NULL or self.logw == NULL or self.dup == NULL or self.cdf == NULL or self.buf == NULL
                or self.probs == NULL):
            raise MemoryError("cannot allocate the belief's particles")
        self.tmp = view.clone_c()
        self.probe = view.clone_c()
        self.alt = view.clone_c()
        self.redeal = not lookup(view.game_id).spec.hidden_moves
        rng_seed(&self.rng, seed)
        self.reset(view)

    def reset(self, State view):
        """Start again from ``count`` fresh worlds of ``view`` (rule inference), equal weights."""
        cdef int i
        cdef Header* h
        cdef double t0 = time.perf_counter()
        if view._size != self.size or header(view).view_seat != self.seat:
            raise ValueError(f"a belief of seat {self.seat} follows that seat's view of its "
                             f"game")
        for i in range(self.count):
            copy_state(self.tmp, view)
            h = header(self.tmp)
            h.hweights = NULL          # the model: the game's own heuristic
            h.scratch = 0              # the real game's bookkeeping, as the view keeps it
            self.tmp.determinize_c(self.seat, &self.rng)
            memcpy(self.worlds + i * self.size, self.tmp._data, self.size)
            self.logw[i] = 0.0
        self.key = view.compute_hash_c()
        self.ply = header(view).ply
        self._norm()
        self.seconds += time.perf_counter() - t0

    cdef double model_c(self, State w, int n, int move) noexcept nogil:
        """Fill ``probs[0:n]`` with the model's probability of each legal move ``buf[0:n]`` of
        world ``w`` (its mover's); return the probability of ``move`` (-1: every move)."""
        cdef int j, hm = w.heuristic_move_c(&self.rng, self.buf, n)
        cdef double e = exp(1.0 / self.temperature)
        cdef double z = e + n - 1
        cdef double pm = 0.0
        for j in range(n):
            self.probs[j] = (e if self.buf[j] == hm else 1.0) / z
            if self.buf[j] == move:
                pm = self.probs[j]
        return pm

    def update(self, State after, int mover, int code):
        """Follow one move: ``mover`` played it, the seat saw ``code`` of it (the move, or
        ``observe_move``'s code), and ``after`` is the seat's view once it is played."""
        cdef double t0 = time.perf_counter()
        cdef uint64_t key = after.compute_hash_c()
        cdef int ndm = after._moves
        with nogil:
            self._advance(self.tmp, mover, code, key, ndm)
        self.key = key
        self.ply = header(after).ply
        self.updates += 1
        live = self._live()
        if live == 0:
            self.restarts += 1
            self.reset(after)
        elif live < self.refill * self.count:
            self.refills += 1
            self._refill(after)
        if self.effective_size < self.threshold * self.count:
            self.resamples += 1
            self._resample()
        self.seconds += time.perf_counter() - t0

    cdef void _advance(self, State w, int mover, int code, uint64_t key, int ndm) noexcept nogil:
        cdef int i, j, n, move
        cdef double like, u, acc
        cdef Header* h
        for i in range(self.count):
            if self.logw[i] == -INFINITY:
                continue
            memcpy(w._data, self.worlds + i * self.size, self.size)
            h = header(w)
            if h.terminal or h.current != mover:
                self._kill(i)
                continue
            if self.dup[i]:
                self.dup[i] = 0
                if self.redeal:
                    self._redeal(w)
            n = w.legal_moves_c(self.buf)
            move = -1
            if mover == self.seat:
                like = 1.0
                for j in range(n):
                    if self.buf[j] == code:
                        move = code
                if move >= 0 and self.redeal:
                    like = self._own(w, move, key)
                    if like == 0.0:
                        move = -1
            elif code < ndm:
                like = self.model_c(w, n, code)
                move = code if like > 0.0 else -1
            else:                      # hidden: one move drawn by the model among those
                self.model_c(w, n, -1)  # the seat would see so; its probability mass is the
                like = 0.0              # weight (with the check below: an unbiased estimate
                for j in range(n):      # of the likelihood, one move played per particle)
                    if w.observe_move_c(self.buf[j], self.seat) != code:
                        self.probs[j] = 0.0
                    like += self.probs[j]
                if like > 0.0:
                    u = rng_double(&self.rng) * like
                    acc = 0.0
                    for j in range(n):
                        acc += self.probs[j]
                        if self.probs[j] > 0.0:
                            move = self.buf[j]
                            if u < acc:
                                break
            if move < 0:
                self._kill(i)
                continue
            if not self._shows(w, move, key):
                self._kill(i)
                continue
            w.apply_c(move)
            memcpy(self.worlds + i * self.size, w._data, self.size)
            self.logw[i] += log(like)
        self._norm()

    cdef void _redeal(self, State w) noexcept nogil:
        """Deal ``w``'s cards that no seat knows (the deck's order: ``State.view(seat,
        hands=True)`` then ``determinize``) again, keeping every hand: the model's likelihoods
        do not depend on them, so the belief over them stays uniform. Done to the copies
        resampling made (so that they part ways) and in the seat's own moves (``_own``); not
        in games with hidden moves, whose views that show every hand hide the choices being
        made (``redeal`` is 0)."""
        cdef Header* h = header(w)
        cdef const double* hw = h.hweights
        h.show_hands = 1
        w.hide_c(self.seat)
        w.determinize_c(self.seat, &self.rng)
        h.show_hands = 0
        h.hweights = hw

    cdef double _own(self, State w, int move, uint64_t key) noexcept nogil:
        """The seat's own ``move`` in world ``w``: deal ``w``'s unknown-to-all cards again
        until the move shows the seat what it saw (what it drew), at most ``OWN_TRIES`` deals;
        ``w`` becomes that deal and the likelihood is 1 (0: none did, ``w`` unchanged). The
        draw's likelihood differs little between worlds (it is the share of the card drawn
        among the cards no seat knows, which the opponents' hands change by a card or two);
        weighing it by the share of a few deals that showed it, as the first version did,
        killed about half the particles at each of the seat's own moves at random, and the
        refills that followed replaced what the belief had learned by fresh worlds."""
        cdef int t
        for t in range(OWN_TRIES):
            copy_state(self.alt, w)
            if t > 0:
                self._redeal(self.alt)
            if self._shows(self.alt, move, key):
                copy_state(w, self.alt)
                return 1.0
        return 0.0

    cdef bint _shows(self, State w, int move, uint64_t key) noexcept nogil:
        """Whether ``move`` played in world ``w`` shows the seat the view whose key is
        ``key`` (``w`` itself unchanged)."""
        copy_state(self.probe, w)
        self.probe.apply_c(move)
        self.probe.hide_c(self.seat)
        return self.probe.compute_hash_c() == key

    cdef void _kill(self, int i) noexcept nogil:
        self.logw[i] = -INFINITY
        self.deaths += 1

    cdef int _live(self) noexcept nogil:
        cdef int i, k = 0
        for i in range(self.count):
            if self.logw[i] != -INFINITY:
                k += 1
        return k

    cdef void _norm(self) noexcept nogil:
        """``cdf``: the cumulative normalised weights (all 0 when no particle lives)."""
        cdef int i
        cdef double top = -INFINITY, acc = 0.0
        for i in range(self.count):
            if self.logw[i] > top:
                top = self.logw[i]
        for i in range(self.count):
            if top != -INFINITY and self.logw[i] != -INFINITY:
                acc += exp(self.logw[i] - top)
            self.cdf[i] = acc
        if acc > 0.0:
            for i in range(self.count):
                self.cdf[i] /= acc

    def _refill(self, State after):
        """Deal a fresh world of ``after`` (rule inference) into each dead particle, at the
        live particles' mean weight: the soft evidence they missed counts as average."""
        cdef int i, k = 0
        cdef double top = -INFINITY, acc = 0.0, mean
        cdef Header* h
        for i in range(self.count):
            if self.logw[i] > top:
                top = self.logw[i]
        for i in range(self.count):
            if self.logw[i] != -INFINITY:
                acc += exp(self.logw[i] - top)
                k += 1
        mean = top + log(acc / k)
        for i in range(self.count):
            if self.logw[i] == -INFINITY:
                copy_state(self.tmp, after)
                h = header(self.tmp)
                h.hweights = NULL
                h.scratch = 0
                self.tmp.determinize_c(self.seat, &self.rng)
                memcpy(self.worlds + i * self.size, self.tmp._data, self.size)
                self.logw[i] = mean
        self._norm()

    def _resample(self):
        """Systematic resampling: ``count`` equal-weight copies of the live particles, each
        as many times as its weight says."""
        cdef char* fresh = <char*>malloc(self.size * self.count)
        cdef int i, j = 0, last = -1
        cdef double u
        if fresh == NULL:
            raise MemoryError("cannot allocate the belief's particles")
        u = rng_double(&self.rng) / self.count
        for i in range(self.count):
            while j < self.count - 1 and self.cdf[j] <= u:
                j += 1
            memcpy(fresh + i * self.size, self.worlds + j * self.size, self.size)
            self.dup[i] = j == last
            last = j
            u += 1.0 / self.count
        free(self.worlds)
        self.worlds = fresh
        for i in range(self.count):
            self.logw[i] = 0.0
        self._norm()

    cdef int draw_c(self, State out, Rng* rng) noexcept nogil:
        """Copy a particle drawn by weight into ``out`` (keeping ``out``'s heuristic weights
        and search flag), with a fresh generator for its future chance; its index."""
        cdef Header* h = header(out)
        cdef const double* hw = h.hweights
        cdef int scratch = h.scratch
        cdef int lo = 0, hi = self.count - 1, mid
        cdef double u = rng_double(rng)
        while lo < hi:
            mid = (lo + hi) >> 1
            if self.cdf[mid] > u:
                hi = mid
            else:
                lo = mid + 1
        memcpy(out._data, self.worlds + lo * self.size, self.size)
        if self.redeal:                 # the deck's order: fresh for every draw
            h.show_hands = 1
            out.hide_c(self.seat)
            out.determinize_c(self.seat, rng)
            h.show_hands = 0
        h.hweights = hw
        h.scratch = scratch
        h.rng.s = rng_next(rng)
        return lo

    # -- the Python face ----------------------------------------------------------------------
    def sample(self, seed):
        """A world drawn by weight (a full state; its generator fresh), from ``seed`` (a
        whole number from 0 to 2**64 - 1)."""
        cdef Rng r
        rng_seed(&r, <uint64_t>check_seed(seed))
        cdef State out = self.tmp.clone_c()
        self.draw_c(out, &r)
        return out

    def agrees(self, State view) -> bool:
        """Whether the particles stand for ``view`` (the seat's view they last followed)."""
        return (header(view).view_seat == self.seat and view._size == self.size
                and header(view).ply == self.ply and view.compute_hash_c() == self.key)

    @property
    def effective_size(self) -> float:
        """The effective sample size, ``(sum w)^2 / sum w^2`` (``count`` at equal weights)."""
        cdef int i
        cdef double top = -INFINITY, s = 0.0, s2 = 0.0, x
        for i in range(self.count):
            if self.logw[i] > top:
                top = self.logw[i]
        if top == -INFINITY:
            return 0.0
        for i in range(self.count):
            if self.logw[i] != -INFINITY:
                x = exp(self.logw[i] - top)
                s += x
                s2 += x * x
        return s * s / s2

    def particles(self) -> list:
        """``[(world, weight)]``: a copy of each live particle's world (a full state) and its
        normalised weight."""
        cdef int i
        cdef double prev = 0.0
        out = []
        for i in range(self.count):
            if self.logw[i] != -INFINITY:
                w = self.tmp.clone_c()
                memcpy((<State>w)._data, self.worlds + i * self.size, self.size)
                out.append((w, self.cdf[i] - prev))
            prev = self.cdf[i]
        return out

    def stats(self) -> dict:
        """What the belief did so far: observations followed, resamplings, restarts, particles
        that died, seconds spent, and the effective sample size now."""
        return dict(updates=self.updates, resamples=self.resamples, refills=self.refills,
                    restarts=self.restarts,
                    deaths=self.deaths, seconds=self.seconds, live=self._live(),
                    effective_size=self.effective_size)
