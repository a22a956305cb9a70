"""The conformance suite: :func:`check_game` checks a game against the state contract.

In the spirit of pgx's ``api_test`` and OpenSpiel's ``random_sim_test``: it plays random
games and checks, at every ply, everything the contract promises (``docs/contract.rst``),
then the game's construction, perft, bad input and many fast playouts. A failure raises
:class:`ConformanceError` (an ``AssertionError``) whose message names the game, the player
count, the seed, the game and ply, what failed, and the state (its notation).
"""

from __future__ import annotations

import collections
import math
import pickle
import random
from collections.abc import Mapping
from typing import Any

from catsearch._core.counting import heuristic_both_ways
from catsearch._core.options import derive_seed
from catsearch._core.state import State
from catsearch.errors import IllegalMoveError, InvalidMoveError, NotationError

__all__ = ["ConformanceError", "check_game"]


class ConformanceError(AssertionError):
    """A game broke the contract. ``game``, ``players``, ``seed``, ``game_seed``, ``ply``
    (``None`` outside the random games) and ``state`` (a notation or ``None``) say where."""

    def __init__(self, message: str, *, game: str, players: int, seed: int,
                 game_seed: int | None = None, ply: int | None = None,
                 state: str | None = None) -> None:
        super().__init__(message)
        self.game, self.players, self.seed = game, players, seed
        self.game_seed, self.ply, self.state = game_seed, ply, state


class _Checker:
    """Where the suite is (game, ply, state), to name it in a failure."""

    def __init__(self, game_id: str, players: int, seed: int,
                 options: Mapping[str, Any] | None, counts: tuple[str, ...] = ()):
        self.game_id, self.players, self.seed = game_id, players, seed
        self.options = dict(options or {})
        self.game = self.game_seed = self.ply = None
        self.state: State | None = None
        #: what the check counts (its report), and its generator of random moves
        self.report = dict.fromkeys(counts, 0)
        self.rng = random.Random(seed)

    def at(self, game: int | None, game_seed: int | None, ply: int | None,
           state: State | None) -> None:
        self.game, self.game_seed, self.ply, self.state = game, game_seed, ply, state

    def fail(self, what: str) -> None:
        opts = "".join(f", {k}={v!r}" for k, v in self.options.items())
        where = f"check_game({self.game_id!r}, {self.players}, seed={self.seed}{opts})"
        if self.game is not None:
            where += f", game {self.game} (game seed {self.game_seed}), ply {self.ply}"
        text = None
        if self.state is not None:
            try:
                text = self.state.to_text()
            except Exception as e:          # a game that cannot even write itself
                text = f"<to_text raised {e!r}>"
            where += f"\n  state: {text}"
        raise ConformanceError(f"{where}\n  failed: {what}", game=self.game_id,
                               players=self.players, seed=self.seed, game_seed=self.game_seed,
                               ply=self.ply, state=text)

    def deals(self, games: int, salt: int = 0):
        """The suite's random deals: ``(game index, game seed, new full state)`` for each of
        ``games`` games, the game seeds derived from the suite's seed and ``salt`` (each
        check has its own, so that their deals differ)."""
        import catsearch.games as games_module
        for g in range(games):
            game_seed = derive_seed(self.seed, salt + g)
            yield g, game_seed, games_module.new_game(self.game_id, self.players, game_seed,
                                                      **self.options)

    def expect(self, ok: Any, what: str) -> None:
        if not ok:
            self.fail(what)

    def raises(self, kinds, fn, what: str):
        """``fn()`` must raise one of ``kinds``; return the exception."""
        try:
            fn()
        except kinds as e:
            return e
        except Exception as e:
            self.fail(f"{what}: raised {type(e).__name__}: {e}")
        self.fail(f"{what}: nothing was raised")


def _multiset(cards: dict) -> collections.Counter:
    c: collections.Counter = collections.Counter()
    for text in cards.values():
        c.update(text)
    return c


def _composition(cards: dict) -> str:
    """Every card of ``cards`` in one sorted string (a fast multiset)."""
    return "".join(sorted("".join(cards.values())))


def check_game(game_id: str, players: int, *, games: int = 3, seed: int = 0,
               options: Mapping[str, Any] | None = None, checkpoints: int = 20,
               playouts: int = 300, draws: int = 600) -> dict:
    """Check game ``game_id`` for ``players`` seats against the state contract.

    Plays ``games`` random games (the moves drawn from ``seed``, the deals from seeds derived
    from it) and checks at every ply: the incremental hash against the recomputed one; the
    notation round trip (text, hash, equality); the legal moves (sorted, unique, in range,
    their text round trip, the mask); returns (all 0 mid-game; in [0, 1] and summing to 1 at
    the end, tied winners sharing), the evaluation and the heuristic move (legal, the same
    whether told the legal moves, as a search's prior asks it, or not, and the same given its
    declared default weights); for a game with a deck, that every card is always somewhere.
    At ``checkpoints`` plies of each game, spread evenly from the first to the last, for
    every seat:
    clones and pickling; the seat's view (its notation round trip, exactly what the seat
    knows shown and nothing else, the info key, chance outcomes in the view); its
    determinizations (from the state and from the view: full, consistent with the view,
    reproducible from a seed) and no peeking: a determinization is a state the seat cannot
    tell from this one, so its view, the seat's legal moves and heuristic move and what the
    seat observes of each move must be the same. Then: determinizations draw the unseen
    cards uniformly (a chi-square test over ``draws`` draws, for a game with a deck), the
    same seed gives the same game, perft is consistent, bad input is refused without
    changing the state, and ``playouts`` fast random games end.

    :param options: the game's options, for every game played.
    :returns: counts of what was checked: ``states``, ``views``, ``determinizations``.
    :raises ConformanceError: the first failure, naming game, seed, ply and what failed.
    """
    import catsearch.games as games_module

    ck = _Checker(game_id, players, seed, options, ("states", "views", "determinizations"))
    options, report, rng = ck.options, ck.report, ck.rng
    cls = games_module.game_class(game_id)
    spec = cls.spec
    ck.expect(spec is not None and spec.id == game_id,
              f"the class {cls.__name__} declares {getattr(spec, 'id', None)!r}")
    ck.expect(spec.seats[0] <= players <= spec.seats[1],
              f"{game_id} is for {spec.seats[0]} to {spec.seats[1]} players")
    _check_declaration(ck, spec, players)
    _check_construction(ck, cls, options)
    mid = None
    longest = spec.max_game_length(players) if spec.max_game_length is not None else None
    for g, game_seed, st in ck.deals(games):
        start = st.clone()
        moves = []
        while not st.is_terminal():
            moves.append(rng.choice(st.legal_moves()))
            if not spec.hidden_moves:
                _check_move_seen(ck, g, game_seed, len(moves) - 1, st, moves[-1])
            st.apply(moves[-1])
            if longest is not None and len(moves) > longest:
                ck.at(g, game_seed, len(moves), st)
                ck.fail(f"a random game is still on after {len(moves)} moves, but the game "
                        f"declares max_game_length({players}) = {longest} (GameSpec)")
        length = len(moves)
        marks = {round(i * length / max(1, checkpoints - 1)) for i in range(checkpoints)}
        st = start
        composition = _composition(st.cards()) if spec.deck else None
        for ply in range(length + 1):
            ck.at(g, game_seed, ply, st)
            _check_state(ck, st, composition)
            report["states"] += 1
            if ply in marks:
                _check_copies(ck, st)
                for s in range(players):
                    report["determinizations"] += _check_view(ck, st, s, composition,
                                                               derive_seed(game_seed, ply, s))
                    report["views"] += 1
            if mid is None and g == 0 and ply == length // 2:
                mid = st.clone()
            if ply < length:
                st.play(moves[ply])
    ck.at(None, None, None, None)
    if spec.deck and mid is not None:
        _check_uniform(ck, mid, draws)
    _check_perft(ck, cls, options)
    _check_bad_input(ck, cls, options)
    if playouts:
        r = games_module.benchmark_playouts(game_id, players, games=playouts, seed=seed,
                                            **options)
        ck.expect(r["games"] == playouts and r["moves"] >= playouts,
                  f"{playouts} fast random games (benchmark_playouts) played {r['moves']} moves")
    return report


def _check_declaration(ck: _Checker, spec, players: int) -> None:
    """What the game declares beside its rules (GameSpec) is of the right form."""
    from catsearch.search.options import NO_GAME_DEFAULT
    if spec.max_game_length is not None:
        bound = spec.max_game_length(players)
        ck.expect(isinstance(bound, int) and bound > 0, f"GameSpec.max_game_length({players}) "
                  f"is {bound!r}: the most moves a game can last, a whole number > 0")
    for name, _ in spec.search_defaults:
        ck.expect(name in NO_GAME_DEFAULT, f"GameSpec.search_defaults sets {name!r}, which is "
                  f"no searcher option a game may set (those are "
                  f"{', '.join(sorted(NO_GAME_DEFAULT))})")
    if spec.ladder:
        from catsearch.search.ladder import make_ladder
        try:
            make_ladder(spec.ladder)
        except (TypeError, ValueError) as e:
            ck.fail(f"GameSpec.ladder is no ladder: {e}")
    ck.expect(spec.gloss is None or callable(spec.gloss), "GameSpec.gloss is not callable")
    ck.expect(spec.render is None or isinstance(spec.render, str),
              "GameSpec.render is the name of a browser drawing (a str) or None")
    ck.expect(isinstance(spec.hidden_moves, bool),
              f"GameSpec.hidden_moves is {spec.hidden_moves!r}: True or False (whether a seat "
              f"may see another seat's move as other than it was)")


def _check_move_seen(ck: _Checker, g: int, game_seed: int, ply: int, st: State,
                     move: int) -> None:
    """A game that declares no hidden moves shows every move to every seat as it was made."""
    for seat in range(ck.players):
        seen = st.observe_move(move, seat)
        if seen != move:
            ck.at(g, game_seed, ply, st)
            ck.fail(f"seat {seat} sees move {move} ({st.move_to_str(move)!r}) as {seen}, but "
                    f"the game declares no hidden moves: set GameSpec.hidden_moves=True (ISMCTS's "
                    f"mode=auto then searches one tree per seat)")


def _check_construction(ck: _Checker, cls, options) -> None:
    n = ck.players
    a = cls.new(n, 77, **options)
    ck.at(None, 77, 0, a)
    b = cls.new(n, 77, **options)
    ck.expect(a == b and a.hash == b.hash, "the same seed gave a different game")
    ck.expect(a.players == n and a.view_seat is None and a.ply == 0 and a.game_id == ck.game_id,
              "a new game's players, view_seat, ply or game_id")
    ck.expect(a.num_distinct_moves == cls.spec.moves,
              f"num_distinct_moves is {a.num_distinct_moves}, the declaration says "
              f"{cls.spec.moves}")
    ck.expect(cls.new(n, 78, **options) != a, "seeds 77 and 78 gave the same game")


def _check_state(ck: _Checker, st: State, composition) -> None:
    n = ck.players
    if composition is not None:
        ck.expect(_composition(st.cards()) == composition, "a card appeared or vanished")
    ck.expect(st.hash == st.recompute_hash(),
              f"the incremental hash {st.hash:#x} differs from the recomputed "
              f"{st.recompute_hash():#x}")
    ck.expect(st.view_seat is None, "a state of a random game is a view")
    text = st.to_text()
    ck.expect("\n" not in text and text.isprintable(), "the notation is not one printable line")
    back = type(st).from_text(text)
    ck.expect(back.to_text() == text, f"the notation reads back as {back.to_text()!r}")
    ck.expect(back.hash == st.hash and back == st, "the notation reads back as another state")
    ret = st.returns()
    ck.expect(len(ret) == n and len(st.scores()) == n, "returns or scores have the wrong length")
    if st.is_terminal():
        ck.expect(st.current_player == -1 and st.legal_moves() == [],
                  "a terminal state has a seat to move or legal moves")
        ck.expect(all(0.0 <= x <= 1.0 for x in ret) and math.isclose(sum(ret), 1.0),
                  f"terminal returns {ret} do not lie in [0, 1] and sum to 1")
        winners = [p for p in range(n) if ret[p] > 0]
        ck.expect(all(math.isclose(ret[p], 1.0 / len(winners)) for p in winners),
                  f"tied winners do not share: returns {ret}")
        ck.raises(IllegalMoveError, lambda: st.play(0), "playing on after the end")
        return
    ck.expect(0 <= st.current_player < n, f"seat to move {st.current_player}")
    ck.expect(ret == [0.0] * n, f"returns {ret} before the end")
    legal = st.legal_moves()
    ck.expect(legal, "a state that is not terminal has no legal move")
    ck.expect(legal == sorted(set(legal)), "legal moves are not sorted and unique")
    ck.expect(all(0 <= m < st.num_distinct_moves for m in legal),
              "a legal move is out of range(num_distinct_moves)")
    mask = st.legal_mask()
    ck.expect(mask.dtype == bool and mask.shape == (st.num_distinct_moves,)
              and [int(i) for i in mask.nonzero()[0]] == legal,
              "legal_mask differs from legal_moves")
    for m in legal:
        s = st.move_to_str(m)
        ck.expect(s and s.isprintable() and " " not in s, f"move {m}'s text {s!r}")
        ck.expect(st.str_to_move(s) == m, f"move text {s!r} reads back as "
                  f"{st.str_to_move(s)}, not {m}")
    ev = st.evaluate()
    ck.expect(len(ev) == n and all(0.0 <= x <= 1.0 for x in ev) and math.isclose(sum(ev), 1.0),
              f"evaluate() gives {ev}: not one value in [0, 1] per seat summing to 1")
    ck.expect(st.heuristic_move(seed=7) in legal, "the heuristic move is not legal")
    told, not_told, untouched = heuristic_both_ways(st, 7)
    ck.expect(told == not_told, f"the heuristic told the legal moves picks {told}, not told "
              f"{not_told}: heuristic_move_c(rng, buf, n) must pick alike either way")
    ck.expect(untouched, "the heuristic wrote into the legal moves it was told")
    defaults = {o.name: o.default for o in st.spec.heuristic_weights}
    if defaults:
        ck.expect(st.heuristic_move(seed=7, weights=defaults) == st.heuristic_move(seed=7),
                  "the heuristic given its declared default weights (spec.heuristic_weights) "
                  "plays otherwise than with none given")


def _check_copies(ck: _Checker, st: State) -> None:
    import catsearch
    text = st.to_text()
    c = st.clone()
    ck.expect(c == st and c.hash == st.hash and c is not st, "a clone differs")
    if not st.is_terminal():
        c.play(c.legal_moves()[-1])
        ck.expect(st.to_text() == text, "playing on a clone changed the original")
    ck.expect(pickle.loads(pickle.dumps(st)) == st, "a pickled state reads back as another")
    ck.expect(eval(repr(st), {"catsearch": catsearch}) == st, "repr() does not paste back")


def _check_view(ck: _Checker, st: State, seat: int, composition, seed: int) -> int:
    """The view of ``seat`` and determinizations from it; return how many were made."""
    cls = type(st)
    cards, knowledge = st.cards(), st.knowledge()
    ck.expect(set(knowledge) == set(cards), "knowledge() and cards() name other locations")
    vt = st.view_text(seat)
    ck.expect("\n" not in vt and vt.isprintable(), f"seat {seat}'s view text")
    view = cls.from_text(vt)
    ck.expect(view.view_seat == seat and view.to_text() == vt and view.view_text(seat) == vt,
              f"seat {seat}'s view does not read back: {view.to_text()!r} from {vt!r}")
    ck.expect(view.info_key(seat) == st.info_key(seat), f"seat {seat}'s info key differs in "
              f"its view")
    ck.expect(view.hash == view.recompute_hash(), f"seat {seat}'s view: hash differs from "
              f"the recomputed one")
    vcards = view.cards()
    for loc, text in cards.items():
        if seat in knowledge[loc]:
            ck.expect(vcards[loc] == text, f"seat {seat} knows {loc} ({text!r}) but its view "
                      f"shows {vcards[loc]!r}")
        else:
            ck.expect(vcards[loc] == "?" * len(text), f"seat {seat}'s view shows {loc} "
                      f"({vcards[loc]!r}), which the seat does not know")
    ck.expect(view.current_player == st.current_player and view.is_terminal() == st.is_terminal(),
              f"seat {seat}'s view has another seat to move or end")
    mover = seat == st.current_player
    if mover:
        ck.expect(view.legal_moves() == st.legal_moves(), f"the mover's view (seat {seat}) "
                  f"has other legal moves")
        ck.expect(view.heuristic_move(seed=5) == st.heuristic_move(seed=5),
                  f"the heuristic move of seat {seat} differs in its view: it peeks")
    else:
        ck.expect(set(st.legal_moves()) <= set(view.legal_moves()), f"seat {seat}'s view "
                  f"lacks a move legal in the real state (a view lists every move legal in "
                  f"some world it cannot tell from this one)")
    _check_chance(ck, view.clone(), f"seat {seat}'s view")
    hidden = view.clone()
    if hidden.apply_hidden():
        ck.expect(hidden.hash == hidden.recompute_hash() and hidden.view_seat == seat,
                  f"apply_hidden in seat {seat}'s view: hash or view seat")
        _check_chance(ck, hidden, f"seat {seat}'s view after apply_hidden")
    made = 0
    for k, source in enumerate((st, view)):
        d = source.determinize(seat, seed=seed + k)
        made += 1
        what = f"seat {seat}'s determinization of the {'state' if k == 0 else 'view'}"
        ck.expect(d.view_seat is None and "?" not in "".join(d.cards().values()),
                  f"{what} is not a full state")
        if composition is not None:
            ck.expect(_composition(d.cards()) == composition, f"{what}: cards appeared or vanished")
        ck.expect(d.view_text(seat) == vt, f"{what} changes what the seat knows: its view "
                  f"is {d.view_text(seat)!r}")
        ck.expect(d.info_key(seat) == st.info_key(seat) and d.hash == d.recompute_hash(),
                  f"{what}: info key or hash")
        ck.expect(cls.from_text(d.to_text()) == d, f"{what} does not read back")
        ck.expect(set(d.legal_moves()) <= set(view.legal_moves()), f"{what} has a legal move "
                  f"its view lacks (a view lists every move legal in some world it cannot "
                  f"tell from this one)")
        _check_no_peeking(ck, st, d, seat, what)
    ck.expect(st.determinize(seat, seed=seed) == st.determinize(seat, seed=seed),
              f"seat {seat}'s determinization is not reproducible from its seed")
    return made


def _check_no_peeking(ck: _Checker, st: State, d: State, seat: int, what: str) -> None:
    """``d`` is a state ``seat`` cannot tell from ``st``: nothing the seat may use differs."""
    if st.is_terminal():
        return
    if seat == st.current_player:
        ck.expect(d.legal_moves() == st.legal_moves(), f"{what}: the seat's legal moves differ")
        ck.expect(d.heuristic_move(seed=3) == st.heuristic_move(seed=3),
                  f"{what}: the heuristic move differs: it reads what seat {seat} cannot know")
    both = set(st.legal_moves()) & set(d.legal_moves())
    for m in sorted(both):
        ck.expect(st.observe_move(m, seat) == d.observe_move(m, seat),
                  f"{what}: seat {seat} observes move {st.move_to_str(m)!r} differently")


def _check_chance(ck: _Checker, view: State, what: str) -> None:
    chance = view.chance_outcomes()
    if not chance:
        return
    ck.expect(math.isclose(sum(w for _, w in chance), 1.0) and all(w > 0 for _, w in chance)
              and len({o for o, _ in chance}) == len(chance),
              f"{what}: chance outcomes {chance} are not distinct with weights summing to 1")
    view.apply_chance(chance[0][0])
    ck.expect(view.hash == view.recompute_hash(), f"{what}: hash after apply_chance")


def _chi2_critical(df: int) -> float:
    """The chi-square value exceeded with probability about 1e-4 (Wilson-Hilferty)."""
    z = 3.719
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _check_uniform(ck: _Checker, st: State, draws: int) -> None:
    """A seat's first hidden location is dealt from the cards it has not seen, uniformly (or
    from the narrower pool the game names for it with ``dealt_from(seat)``, if it has one),
    without inference (with it, what the moves revealed narrows some locations: the law of
    inference, :func:`catsearch.testing.check_inference`, checks those worlds)."""
    ck.at(0, None, st.ply, st)
    seat = st.current_player if not st.is_terminal() else 0
    knowledge, cards = st.knowledge(), st.cards()
    hidden = [loc for loc in sorted(cards) if seat not in knowledge[loc] and cards[loc]]
    if not hidden:
        return
    loc = hidden[0]
    pool = _multiset(cards) - _multiset({k: v for k, v in cards.items() if seat in knowledge[k]})
    # a game that knows more than its locations tell (Cat Earth's deck after a reshuffle:
    # its composition is known) names the narrower pool a location is dealt from
    narrower = getattr(st, "dealt_from", None)
    if narrower is not None and loc in narrower(seat):
        pool = collections.Counter(narrower(seat)[loc])
    total = sum(pool.values())
    seen: collections.Counter = collections.Counter()
    for i in range(draws):
        seen.update(st.determinize(seat, seed=i, inference="none").cards()[loc])
    ck.expect(set(seen) <= set(pool), f"a determinization for seat {seat} put a card it has "
              f"seen into {loc}: {dict(seen)}")
    slots = draws * len(cards[loc])
    types = sorted(pool)
    if len(types) > 1:
        stat = sum((seen[t] - slots * pool[t] / total) ** 2 / (slots * pool[t] / total)
                   for t in types)
        ck.expect(stat < _chi2_critical(len(types) - 1),
                  f"determinizations for seat {seat} do not deal {loc} uniformly from the "
                  f"unseen cards (chi-square {stat:.1f}): drew {dict(seen)}, unseen {dict(pool)}")


def _check_perft(ck: _Checker, cls, options) -> None:
    st = cls.new(ck.players, 2024, **options)
    ck.at(None, 2024, 0, st)
    n = st.perft(3)
    ck.expect(st.perft(3) == n and cls.new(ck.players, 2024, **options).perft(3) == n
              and cls.from_text(st.to_text()).perft(3) == n, "perft(3) is not reproducible")
    ck.expect(sum(st.perft_divide(3).values()) == n, "perft_divide(3) does not add up to perft(3)")
    ck.expect(st.perft(1) == len(st.legal_moves()) and st.perft(0) == 1,
              "perft(1) is not the number of legal moves, or perft(0) is not 1")


def _check_bad_input(ck: _Checker, cls, options) -> None:
    import catsearch.games as games_module
    from catsearch._core.options import OptionError

    n = ck.players
    st = cls.new(n, 5, **options)
    ck.at(None, 5, 0, st)
    text = st.to_text()
    legal = st.legal_moves()
    illegal = next((m for m in range(st.num_distinct_moves) if m not in legal), None)
    if illegal is not None:
        e = ck.raises(IllegalMoveError, lambda: st.play(illegal), f"an illegal move {illegal}")
        ck.expect("legal" in str(e), f"the illegal-move error does not list the legal moves: {e}")
    for bad in ("no-such-move", st.num_distinct_moves, -1):
        ck.raises(InvalidMoveError, lambda: st.play(bad), f"the move {bad!r}")
    ck.expect(st.to_text() == text, "a refused move changed the state")
    for bad in ("", text + " bogus=1", text.replace("players=", "players=x", 1)):
        ck.raises(NotationError, lambda: cls.from_text(bad), f"the notation {bad!r}")
    for cut in range(0, len(text), max(1, len(text) // 25)):
        broken = text[:cut] + "#" + text[cut + 1:]
        try:
            cls.from_text(broken)
        except NotationError:
            pass
        except Exception as e:
            ck.fail(f"the notation {broken!r} raised {type(e).__name__}, not NotationError: {e}")
    lo, hi = cls.spec.seats
    for bad in (lo - 1, hi + 1):
        ck.raises(OptionError, lambda: games_module.new_game(ck.game_id, bad, 1, **options),
                  f"{bad} players")
    ck.raises(TypeError, lambda: games_module.new_game(ck.game_id, str(n), 1, **options),
              "players given as text")
    for bad in (-1, 2**64):
        ck.raises(OptionError, lambda: games_module.new_game(ck.game_id, n, bad, **options),
                  f"the seed {bad}")
    ck.raises(TypeError, lambda: games_module.new_game(ck.game_id, n, 1.5, **options),
              "the seed 1.5")
    ck.raises(OptionError, lambda: games_module.new_game(ck.game_id, n, 1, no_such_option=1),
              "an unknown option")
    ck.raises(OptionError, lambda: st.heuristic_move(weights={"no_such_weight": 1.0}),
              "a heuristic weight the game does not have")
    ck.expect(st.to_text() == text, "a refused heuristic weight changed the state")
    ck.raises(ValueError, lambda: st.view_text(n), f"the view of seat {n}")
    view = st.view(0)
    ck.raises(ValueError, lambda: view.determinize(1, seed=1),
              "seat 0's view determinized for seat 1")
