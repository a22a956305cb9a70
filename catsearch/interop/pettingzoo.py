"""catsearch's games as PettingZoo AEC environments.

::

    from catsearch.interop.pettingzoo import env

    e = env("herding-cats", players=2, render_mode="ansi")
    e.reset(seed=7)                                  # seed: catsearch's deal seed
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        if termination or truncation:
            action = None
        else:
            action = e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

The agents are ``player_0 .. player_<n-1>`` (seat ``i`` is ``player_i``); the agent to act is
the seat to move. An agent's observation is a dict: ``observation``, the seat's
:meth:`~catsearch.State.observation_tensor` (float32, shape
:meth:`~catsearch.State.tensor_shape`), and ``action_mask`` (int8, one entry per move id,
1 for the legal moves of the agent to act, all 0 for the others). The action space is
``Discrete(num_distinct_moves)``: catsearch's move ids. Rewards come at the end: each seat's
return (a sole winner 1, tied winners share 1, the others 0). ``render_mode="ansi"``:
:meth:`render` gives the view of the agent to act (only what that seat may see), as the
notation of its view with the legal moves.

``env()`` wraps the raw environment in PettingZoo's usual wrappers (an illegal move ends the
game with reward -1 for its agent; an action out of range is an error; the AEC order is
enforced); :class:`raw_env` is the environment itself. :class:`PlayerPolicy` lets a catsearch
player act as a policy on it.
"""

from __future__ import annotations

from typing import Any

from catsearch.interop import missing_extra

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as _e:       # pragma: no cover - exercised by a subprocess test
    raise missing_extra("catsearch.interop.pettingzoo", "pettingzoo", "PettingZoo and Gymnasium",
                        _e) from _e

import numpy as np

from catsearch._core.options import check_seed, fresh_seed
from catsearch._core.state import State
from catsearch.games import game_class, new_game
from catsearch.search.players import Player

__all__ = ["env", "raw_env", "PlayerPolicy", "RENDER_MODES"]

RENDER_MODES = ("ansi",)


def env(game_id: str, players: int | None = None, render_mode: str | None = None,
        **options: Any) -> AECEnv:
    """The AEC environment of ``game_id`` for ``players`` seats (the game's default when
    ``None``) with the game's ``options``, in PettingZoo's standard wrappers.

    :raises TypeError: a game id, player count or option of the wrong type.
    :raises ValueError: an unknown game, a player count or option out of range, or an
        unknown render mode (each message names the value and what is valid).
    """
    e = raw_env(game_id, players, render_mode, **options)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):
    """A catsearch game as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "catsearch",
                "is_parallelizable": False}

    def __init__(self, game_id: str, players: int | None = None,
                 render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        if not isinstance(game_id, str):
            raise TypeError(f"a game id is a str like 'herding-cats', not "
                            f"{type(game_id).__name__}")
        game_class(game_id)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode={render_mode!r} is not supported: expected one of "
                             f"{', '.join(map(repr, RENDER_MODES))} or None")
        template = new_game(game_id, players, 0, **options)
        try:
            shape = template.tensor_shape("observation")
        except NotImplementedError as e:
            raise NotImplementedError(f"{game_id} has no observation tensor yet, which its "
                                      f"PettingZoo observations are: {e}") from None
        self.game_id = game_id
        self.options = dict(options)
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"catsearch_{game_id.replace('-', '_')}")
        n = template.players
        self.num_moves = template.num_distinct_moves
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, shape, np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_moves,), np.int8),
        })
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.num_moves) for a in self.possible_agents}
        self.state_: State = template
        self.agents = []
        self.rewards = {}
        self._cumulative_rewards = {}
        self.terminations = {}
        self.truncations = {}
        self.infos = {}

    # -- spaces ---------------------------------------------------------------------------
    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    # -- the AEC API ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new deal: ``seed`` is catsearch's deal seed (0 to 2**64 - 1; ``None``: a fresh
        one), so ``reset(seed=s)`` deals ``catsearch.new_game(game, players, s)``."""
        seed = check_seed(seed)
        self.state_ = new_game(self.game_id, len(self.possible_agents),
                               fresh_seed() if seed is None else seed, **self.options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state_.current_player]

    def observe(self, agent: str) -> dict:
        seat = self._seat[agent]
        mask = np.zeros(self.num_moves, np.int8)
        st = self.state_
        if not st.is_terminal() and st.current_player == seat:
            mask[st.legal_moves()] = 1
        return {"observation": st.observation_tensor(seat), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.state_
        st.play(int(action))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if st.is_terminal():
            returns = st.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[self._seat[a]])
            self.terminations = dict.fromkeys(self.agents, True)
            # the dead agents are stepped (with None) from the next seat on
            self.agent_selection = self.possible_agents[(self._seat[agent] + 1)
                                                        % len(self.possible_agents)]
        else:
            self.agent_selection = self.possible_agents[st.current_player]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The view of the agent to act (only what that seat may see) as text:
        ``render_mode="ansi"``; ``None`` without a render mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi'")
            return None
        agent = self.agent_selection
        seat = self._seat[agent]
        st = self.state_
        view = st.view(seat)
        lines = [f"{self.game_id}, {agent} (seat {seat})"]
        if st.is_terminal():
            lines.append(f"game over: returns {st.returns()}, scores {st.scores()}")
        else:
            lines.append(f"to move: player_{st.current_player}")
        lines.append(view.to_text())
        if not st.is_terminal() and st.current_player == seat:
            lines.append("legal: " + " ".join(f"{m}={view.move_to_str(m)}"
                                               for m in view.legal_moves()))
        return "\n".join(lines)

    def close(self) -> None:
        pass

    def seat_view(self, agent: str) -> State:
        """A copy of ``agent``'s view of the game (what a catsearch player gets)."""
        return self.state_.view(self._seat[agent])

    def __str__(self) -> str:
        return self.metadata["name"]


class PlayerPolicy:
    """A catsearch :class:`~catsearch.search.players.Player` as a policy on a catsearch
    PettingZoo environment: ``policy(env, agent)`` is the player's move for ``agent``,
    searched on that agent's view only (never the full state)::

        from catsearch import make_player
        from catsearch.interop.pettingzoo import env, PlayerPolicy

        e = env("herding-cats", players=2)
        e.reset(seed=1)
        policy = PlayerPolicy(make_player("ismcts:iterations=200,seed=1"))
        for agent in e.agent_iter():
            obs, reward, termination, truncation, info = e.last()
            e.step(None if termination or truncation else policy(e, agent))
    """

    def __init__(self, player: Player) -> None:
        if not isinstance(player, Player):
            raise TypeError(f"PlayerPolicy wraps a catsearch Player, not "
                            f"{type(player).__name__}")
        self.player = player

    def __call__(self, env: AECEnv, agent: str) -> int:
        return int(self.player.choose_move(env.unwrapped.seat_view(agent)))
