"""catsearch's games as OpenSpiel games, and OpenSpiel's searchers as catsearch players.

Importing this module registers every game of :data:`catsearch.GAMES` with OpenSpiel as a
Python game named ``python_catsearch_<game id with _>``::

    import pyspiel
    import catsearch.interop.openspiel          # registers the games
    game = pyspiel.load_game("python_catsearch_herding_cats", {"players": 2})

or, with catsearch's own checks and messages, :func:`load_game` ``("herding-cats", players=2)``.
The game parameters are ``players``, ``inference`` (what ``resample_from_infostate`` honours:
``"rules"``, the default, or ``"none"``, see :meth:`catsearch.State.determinize`; or
``"policy"``: worlds drawn from the seat's belief, :mod:`catsearch.search.particles`, built by
replaying the state's history and kept on the state for the next resample) and the
game's options (The Cat's ``target``, Cat Cards' ``values`` as a text ``"3,2,1,4,1"``, Cat
Earth's ``setup``).

The model (see ``docs/interop.rst``):

* **Chance.** A game starts with 8 explicit chance nodes of 256 equally likely outcomes
  each: the 8 bytes (little-endian) of catsearch's 64-bit deal seed; after the eighth the
  state is ``catsearch.new_game(game, players, seed, **options)``. Everything random after
  that (draws, Stampedes, The Cat's re-deals, Cat Earth's reshuffles) comes from the state's
  own generator, which the seed starts and which is part of the (hidden) state: the deck
  order is, in effect, dealt at the start. So the game is ``EXPLICIT_STOCHASTIC`` with all of
  its chance at the root; nothing is sampled outside the state, and a state serializes
  exactly (OpenSpiel pickles the Python state's attributes; a catsearch state pickles as its
  notation, which round-trips).
* **Actions** are catsearch's move ids (``0 .. num_distinct_moves - 1``); an action's
  string is the move's text.
* **Returns**: a sole winner 1, tied winners share 1, the others 0, so the game is
  ``CONSTANT_SUM`` with utility sum 1 (every game ends with a winner or tied winners).
* **Information.** A player's information state string is its view's notation
  (``state.view_text(player)``: what the seat knows, with ``?`` for the rest) and its
  tensor is :meth:`~catsearch.State.information_state_tensor`; the observation string is
  the same view and the observation tensor :meth:`~catsearch.State.observation_tensor`.
  ``make_py_observer`` also gives a public observer (``private_info=NONE``: the notation's
  fields that every seat's view shows alike, ``*`` for the others) and an all-players one.
* ``resample_from_infostate(player, sampler)`` is :meth:`~catsearch.State.determinize`.

The other way round, :mod:`catsearch.interop.openspiel_bots` holds ``openspiel-ismcts`` and
``openspiel-mcts``: catsearch players that run OpenSpiel's
Python ``ISMCTSBot`` and ``MCTSBot`` on a determinization of the seat's view, so they never
see more than the seat knows; ``catsearch.make_player("openspiel-ismcts:iterations=500")``
finds them through the ``catsearch.players`` entry point group.
"""

from __future__ import annotations

import os
from typing import Any

from catsearch.interop import missing_extra

try:
    import pyspiel
except ImportError as _e:       # pragma: no cover - exercised by a subprocess test
    raise missing_extra("catsearch.interop.openspiel", "openspiel", "OpenSpiel (open_spiel)",
                        _e) from _e

import numpy as np

from catsearch._core.worlds import inference_off
from catsearch._core.options import Option, OptionError
from catsearch._core.state import State
from catsearch.games import GAMES, game_class, new_game
from catsearch.search.particles import Belief

__all__ = [
    "PREFIX", "SEED_BYTES", "short_name", "game_id_of", "load_game", "register_games",
    "from_catsearch", "catsearch_state", "max_game_length", "public_text",
    "CatsearchGame", "CatsearchState", "CatsearchObserver",
]

#: the prefix of the OpenSpiel names: ``python_catsearch_herding_cats``
PREFIX = "python_catsearch_"
#: chance nodes at the start of a game: one byte of the deal seed each
SEED_BYTES = 8
_CHANCE = [(b, 1.0 / 256) for b in range(256)]
_CHANCE_PLAYER = int(pyspiel.PlayerId.CHANCE)
_TERMINAL_PLAYER = int(pyspiel.PlayerId.TERMINAL)
_KINDS = ("observation", "information_state")


def short_name(game_id: str) -> str:
    """The OpenSpiel name of a catsearch game: ``"herding-cats"`` ->
    ``"python_catsearch_herding_cats"``."""
    game_class(game_id)
    return PREFIX + game_id.replace("-", "_")


def game_id_of(name: str) -> str:
    """The catsearch game id of an OpenSpiel name (the reverse of :func:`short_name`).

    :raises ValueError: not the name of a registered catsearch game.
    """
    if isinstance(name, str) and name.startswith(PREFIX):
        gid = name[len(PREFIX):].replace("_", "-")
        if gid in GAMES:
            return gid
    raise ValueError(f"{name!r} is not a catsearch game in OpenSpiel; the games are "
                     f"{', '.join(short_name(g) for g in GAMES)}")


def max_game_length(game_id: str, players: int) -> int:
    """An upper bound on the number of moves (chance nodes not counted) of any game, from
    the rules: what the game declares (``GameSpec.max_game_length``).

    :raises ValueError: the game declares none (OpenSpiel needs one).
    """
    bound = game_class(game_id).spec.max_game_length
    if bound is None:
        raise ValueError(f"{game_id} declares no max_game_length (GameSpec): OpenSpiel needs "
                         f"an upper bound on a game's length")
    return bound(players)


#: joins a structured option's values in an OpenSpiel parameter (a game string cannot hold
#: commas): Cat Cards' ``values="3/2/1/4/1"``
_SEP = "/"


def _param_value(opt: Option) -> Any:
    """An option's default as an OpenSpiel parameter (a structured value as its text)."""
    d = opt.default
    if isinstance(d, (bool, int, float, str)):
        return d
    if isinstance(d, (tuple, list)):
        return _SEP.join(str(x) for x in d)
    raise TypeError(f"option {opt.name}: no OpenSpiel parameter for {d!r}")


def _check_params(game_id: str, params: dict) -> tuple[int, dict]:
    """The player count and the options of OpenSpiel ``params``, checked by catsearch.

    :raises TypeError: a value of the wrong type (naming it).
    :raises ValueError: an unknown parameter or a value out of range (naming it).
    """
    spec = game_class(game_id).spec
    params = dict(params)
    players = params.pop("players", spec.default_players)
    if isinstance(players, float) and players.is_integer():
        players = int(players)
    n = spec.check_players(players)
    inference = params.pop("inference", "rules")
    if inference != "policy":
        inference_off(inference)            # "none" or "rules", else TypeError / OptionError
    known = {o.name for o in spec.options}
    for key in params:
        if key not in known:
            raise OptionError(f"{short_name(game_id)}: unknown parameter {key!r}; the "
                              f"parameters are "
                              f"{', '.join(['players', 'inference', *sorted(known)])}",
                              owner=game_id, option=key, value=params[key])
    for o in spec.options:
        if isinstance(o.default, (tuple, list)) and isinstance(params.get(o.name), str):
            params[o.name] = params[o.name].replace(_SEP, ",")
    return n, inference, spec.check_options(params)


class _Config:
    """What every state of one loaded game shares (immutable; copies are itself)."""

    __slots__ = ("game_id", "players", "options", "tensors", "inference")

    def __init__(self, game_id: str, players: int, options: dict, tensors: bool,
                 inference: str = "rules") -> None:
        self.game_id = game_id
        self.players = players
        self.options = dict(options)
        self.tensors = tensors
        self.inference = inference

    def __deepcopy__(self, memo: dict) -> _Config:
        return self

    def __reduce__(self):
        return (_Config, (self.game_id, self.players, self.options, self.tensors,
                          self.inference))


def _has_tensors(template: State) -> bool:
    try:
        template.tensor_shape("observation")
        template.tensor_shape("information_state")
    except NotImplementedError:
        return False
    return True


class CatsearchGame(pyspiel.Game):
    """A catsearch game as an OpenSpiel Python game (one subclass per game, registered by
    :func:`register_games`; build it with ``pyspiel.load_game`` or :func:`load_game`)."""

    game_id = ""

    def __init__(self, params: dict | None = None) -> None:
        params = dict(params or {})
        players, inference, options = _check_params(self.game_id, params)
        template = new_game(self.game_id, players, 0, **options)
        tensors = _has_tensors(template)
        info = pyspiel.GameInfo(
            num_distinct_actions=template.num_distinct_moves,
            max_chance_outcomes=256,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=max_game_length(self.game_id, players))
        super().__init__(_GAME_TYPES[self.game_id], info, params)
        self._cfg = _Config(self.game_id, players, options, tensors, inference)
        self._template = template

    def new_initial_state(self) -> CatsearchState:
        """The state before the deal: the first of the 8 chance nodes of the seed."""
        return CatsearchState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> CatsearchObserver:
        """An observer: information state (``perfect_recall=True``), observation
        (``False``, the default), public (``private_info=NONE``, string only) or all
        players' (``ALL_PLAYERS``); ``params`` must be empty."""
        return CatsearchObserver(self, iig_obs_type or pyspiel.IIGObservationType(
            perfect_recall=False), params)

    def catsearch_options(self) -> dict:
        """The catsearch options of this game (every one, defaults filled in)."""
        return dict(self._cfg.options)


class _Beliefs:
    """The beliefs of one state, per seat (``inference="policy"``): a cache, which a copy of
    the state does not share (it starts empty)."""

    __slots__ = ("by_seat",)

    def __init__(self) -> None:
        self.by_seat: dict = {}

    def __deepcopy__(self, memo: dict) -> _Beliefs:
        return _Beliefs()


class CatsearchState(pyspiel.State):
    """An OpenSpiel state over a catsearch state: before the deal, the seed bytes drawn so
    far; after it, the catsearch state (:func:`catsearch_state` gives a copy)."""

    def __init__(self, game: CatsearchGame) -> None:
        super().__init__(game)
        self._cfg = game._cfg
        self._seed = 0
        self._drawn = 0
        self._state: State | None = None
        self._moves: list[int] = []      # the moves since the deal (inference=policy replays)
        self._from_deal = True           # False: built from a catsearch state (no history)
        self._beliefs = _Beliefs()

    # -- the OpenSpiel API ---------------------------------------------------------------
    def current_player(self) -> int:
        st = self._state
        if st is None:
            return _CHANCE_PLAYER
        if st.is_terminal():
            return _TERMINAL_PLAYER
        return st.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return self._state.legal_moves()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(_CHANCE) if self._state is None else []

    def _apply_action(self, action: int) -> None:
        if self._state is None:
            self._seed |= int(action) << (8 * self._drawn)
            self._drawn += 1
            if self._drawn == SEED_BYTES:
                cfg = self._cfg
                self._state = new_game(cfg.game_id, cfg.players, self._seed, **cfg.options)
        else:
            self._state.apply(int(action))
            self._moves.append(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE_PLAYER:
            return f"seed byte {action}"
        if self._state is None:
            return str(action)
        return self._state.move_to_str(action)

    def is_terminal(self) -> bool:
        return self._state is not None and self._state.is_terminal()

    def returns(self) -> list[float]:
        if self._state is None:
            return [0.0] * self._cfg.players
        return self._state.returns()

    def __str__(self) -> str:
        if self._state is None:
            return (f"dealing: {self._drawn} of {SEED_BYTES} seed bytes drawn "
                    f"({self._seed:#x})")
        return self._state.to_text()

    def resample_from_infostate(self, player_id: int, probability_sampler) -> CatsearchState:
        """A state drawn uniformly from those ``player_id`` cannot tell from this one
        (:meth:`catsearch.State.determinize`, its seed drawn from ``probability_sampler``,
        a callable giving floats in [0, 1)), among those the public moves allow unless the
        game was loaded with ``inference="none"``. Its history is not this state's: only its
        information states and what follows from it are meaningful."""
        if self._state is None:
            return self.clone()
        seed = 0
        for _ in range(4):
            seed = (seed << 16) | (int(probability_sampler() * 65536) & 0xFFFF)
        return self.resample(player_id, seed)

    # -- catsearch's side ---------------------------------------------------------------
    def resample(self, player: int, seed: int | None = None) -> CatsearchState:
        """:meth:`resample_from_infostate` with a seed (``None``: a fresh one)."""
        if self._state is None:
            return self.clone()
        out = self.get_game().new_initial_state()
        out._drawn = SEED_BYTES
        out._from_deal = False
        if self._cfg.inference == "policy":
            if seed is None:
                seed = int.from_bytes(os.urandom(8), "little")
            out._state = self._belief(player).sample(seed)
        else:
            out._state = self._state.determinize(player, seed, inference=self._cfg.inference)
        return out

    def _belief(self, player: int) -> Belief:
        """``player``'s belief over this state's worlds (``inference="policy"``): the game
        since the deal replayed on its view (each move's observation), kept on this state
        for the next resample. A state built from a catsearch state has no history: its
        belief starts from its view."""
        b = self._beliefs.by_seat.get(player)
        if b is not None:
            return b
        if not self._from_deal:
            view = self._state.view(player)
            b = Belief(view, player, seed=self._seed ^ player)
        else:
            cfg = self._cfg
            st = new_game(cfg.game_id, cfg.players, self._seed, **cfg.options)
            view = st.view(player)
            b = Belief(view, player, seed=self._seed ^ player)
            for m in self._moves:
                mover = st.current_player
                after = view.clone()
                code = after.play_observation(st.observation(player, m))
                st.apply(m)
                if st.is_terminal():
                    break
                b.update(after, mover, code)
                view = after
        self._beliefs.by_seat[player] = b
        return b

    def catsearch_state(self) -> State | None:
        """A copy of the catsearch state (``None`` before the deal)."""
        return None if self._state is None else self._state.clone()


def from_catsearch(state: State, game: CatsearchGame | None = None) -> CatsearchState:
    """An OpenSpiel state holding (a copy of) the full catsearch ``state``, for ``game``
    (``None``: the game loaded with ``state``'s player count and options). Its OpenSpiel
    history is empty: only the state matters to searchers.

    :raises TypeError: ``state`` is not a catsearch state.
    :raises ValueError: ``state`` is a seat's view (determinize it first), or it is not a
        state of ``game``.
    """
    if not isinstance(state, State):
        raise TypeError(f"expected a catsearch State, not {type(state).__name__}")
    if state.view_seat is not None:
        raise ValueError(f"this is seat {state.view_seat}'s view; an OpenSpiel state holds a "
                         "full state: use view.determinize(seat) first")
    if game is None:
        game = load_game(state.game_id, players=state.players, **_options_of(state))
    elif (game._cfg.game_id != state.game_id or game._cfg.players != state.players):
        raise ValueError(f"a {state.players}-player {state.game_id} state does not fit "
                         f"{game}")
    out = game.new_initial_state()
    out._drawn = SEED_BYTES
    out._state = state.clone()
    out._from_deal = False
    return out


def catsearch_state(state: CatsearchState) -> State | None:
    """The catsearch state inside an OpenSpiel state of a catsearch game (a copy)."""
    return state.catsearch_state()


def _options_of(state: State) -> dict:
    """The game options of ``state``, read back from its notation."""
    opts = type(state).spec.options
    if not opts:
        return {}
    fields = dict(tok.partition("=")[::2] for tok in state.to_text().split())
    return {o.name: o.parse(fields[o.name], state.game_id) for o in opts if o.name in fields}


def public_text(state: State) -> str:
    """What every seat knows alike: the notation fields that all the seats' views show the
    same, the others as ``key=*`` (``view`` left out)."""
    views = []
    for s in range(state.players):
        views.append(dict(tok.partition("=")[::2] for tok in state.view_text(s).split()))
    keys: list[str] = []
    for v in views:
        keys += [k for k in v if k not in keys and k != "view"]
    parts = []
    for k in keys:
        vals = {v.get(k) for v in views}
        parts.append(f"{k}={vals.pop()}" if len(vals) == 1 and None not in vals else f"{k}=*")
    return " ".join(parts)


class CatsearchObserver:
    """OpenSpiel's Python observer interface (``tensor``, ``dict``, ``set_from``,
    ``string_from``) for a catsearch game.

    ``perfect_recall=True`` observes the information state, ``False`` the observation;
    ``private_info=SINGLE_PLAYER`` the player's (the view), ``ALL_PLAYERS`` every seat's
    (views joined by ``" | "``, tensors one after another), ``NONE`` the public part (a string
    only: :func:`public_text`). ``public_info=False`` is not supported.
    """

    def __init__(self, game: CatsearchGame, iig_obs_type, params) -> None:
        if params:
            raise ValueError(f"catsearch observers take no parameters, not {dict(params)!r}")
        if not iig_obs_type.public_info:
            raise ValueError("catsearch observers need public_info=True (a seat's view holds "
                             "the public information)")
        cfg = game._cfg
        self._n = cfg.players
        self._kind = "information_state" if iig_obs_type.perfect_recall else "observation"
        self._private = iig_obs_type.private_info
        self.dict: dict[str, np.ndarray] = {}
        self.tensor = None
        seats: list[int] = []
        if cfg.tensors and self._private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            seats = [0]
        elif cfg.tensors and self._private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            seats = list(range(self._n))
        if seats:
            layout = game._template.tensor_layout(self._kind)
            size = game._template.tensor_shape(self._kind)[0]
            self.tensor = np.zeros(size * len(seats), np.float32)
            for s in seats:
                prefix = f"p{s}_" if len(seats) > 1 else ""
                for part in layout:
                    self.dict[prefix + part.name] = \
                        self.tensor[s * size + part.start:s * size + part.stop]
            self._size = size

    def set_from(self, state: CatsearchState, player: int) -> None:
        st = state._state
        if self.tensor is None:
            return
        if st is None:
            self.tensor.fill(0.0)
            return
        tensor = st.information_state_tensor if self._kind == "information_state" \
            else st.observation_tensor
        if self._private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            self.tensor[:] = tensor(player)
        else:
            for s in range(self._n):
                self.tensor[s * self._size:(s + 1) * self._size] = tensor(s)

    def string_from(self, state: CatsearchState, player: int) -> str:
        st = state._state
        if st is None:
            return f"dealing {state._drawn}/{SEED_BYTES}"
        if self._private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return st.view_text(player)
        if self._private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            return " | ".join(st.view_text(s) for s in range(self._n))
        return public_text(st)


# -- registration ------------------------------------------------------------------------

_GAME_TYPES: dict[str, Any] = {}
_GAME_CLASSES: dict[str, type] = {}


def _game_type(game_id: str) -> Any:
    cls = game_class(game_id)
    spec = cls.spec
    tensors = _has_tensors(new_game(game_id, spec.default_players, 0))
    lo, hi = spec.seats
    params = {"players": spec.default_players, "inference": "rules"}
    params.update({o.name: _param_value(o) for o in spec.options})
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"catsearch {spec.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=tensors,
        provides_observation_string=True,
        provides_observation_tensor=tensors,
        provides_factored_observation_string=True,
        parameter_specification=params)


def register_games() -> tuple[str, ...]:
    """Register every game of :data:`catsearch.GAMES` with OpenSpiel (done on import; a
    second call does nothing). Returns the OpenSpiel names."""
    for gid in GAMES:
        if gid in _GAME_CLASSES:
            continue
        _GAME_TYPES[gid] = _game_type(gid)
        cls = type(f"CatsearchGame_{gid.replace('-', '_')}", (CatsearchGame,),
                   {"game_id": gid, "__module__": __name__})
        _GAME_CLASSES[gid] = cls
        globals()[cls.__name__] = cls       # picklable by name
        pyspiel.register_game(_GAME_TYPES[gid], cls)
    return tuple(short_name(g) for g in GAMES)


def load_game(game_id: str, players: int | None = None, **options: Any) -> CatsearchGame:
    """``pyspiel.load_game`` for a catsearch game, by its catsearch id, checked first;
    ``options`` are the game's options and ``inference`` (``"rules"``, ``"none"`` or
    ``"policy"``).

    :raises TypeError: ``game_id`` is not a str, or a player count or option of the wrong
        type.
    :raises ValueError: an unknown game (the message lists them), or a player count or
        option out of range (naming it and what is valid).
    """
    if not isinstance(game_id, str):
        raise TypeError(f"a game id is a str like 'herding-cats', not {type(game_id).__name__}")
    cls = game_class(game_id)
    params: dict[str, Any] = {}
    if players is not None:
        params["players"] = cls.spec.check_players(players)
    if "inference" in options:
        options = dict(options)
        params["inference"] = options.pop("inference")
        if params["inference"] != "policy":
            inference_off(params["inference"])
    checked = cls.spec.check_options(options)
    for o in cls.spec.options:
        if o.name in options:
            v = checked[o.name]
            params[o.name] = _SEP.join(map(str, v)) if isinstance(v, (tuple, list)) else v
    return pyspiel.load_game(short_name(game_id), params)


register_games()
