"""Player specs: the one description of a player, parsed, checked and written back.

``PlayerSpec.parse("ismcts:iterations=2000,c=0.7,seed=3")`` reads a spec string, resolves its
player in the registry and checks every option against the player's declared
:class:`~catsearch._core.options.Option` list (type and range; aliases become full names).
A spec is frozen: ``spec.replace(seed=5, workers=2)`` gives a new one, checked the same way,
and ``str(spec)`` is a spec string that parses back to an equal spec. :func:`make_player`,
the engine, the arena and ``catsearch-play`` all build players from a ``PlayerSpec``: nothing
pastes options into strings.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from dataclasses import dataclass
from typing import Any

from catsearch._core.options import Option, OptionError, check_options
from catsearch.search.options import spec_text
from catsearch.search.players import Player


__all__ = ["PlayerSpec", "register_player", "player_names", "plugin_names", "player_class",
           "player_options", "ENTRY_POINT_GROUP"]

#: the entry point group of player plugins: an installed distribution that declares
#: ``[project.entry-points."catsearch.players"]`` with ``name = "module:Class"`` adds a player
#: named ``name`` (catsearch's own ``openspiel-ismcts`` and ``openspiel-mcts`` come this way,
#: so that nothing below the interop layer imports it). A name of the table below wins.
ENTRY_POINT_GROUP = "catsearch.players"


# name -> "module:Class" (imported when first used) or the class itself
_PLAYERS: dict[str, Any] = {
    "random": "catsearch.search.players:RandomPlayer",
    "heuristic": "catsearch.search.players:HeuristicPlayer",
    "ismcts": "catsearch.search.mcts:ISMCTS",
    "pimc": "catsearch.search.mcts:DeterminizedMCTS",
    "determinized": "catsearch.search.mcts:DeterminizedMCTS",
    "expectimax": "catsearch.search.expectimax:Expectimax",
    "level": "catsearch.search.ladder:LevelPlayer",
}


def register_player(name: str, target: str | type) -> None:
    """Make specs named ``name`` build ``target`` (a class, or ``"module:Class"``).

    The class declares its options as ``OPTIONS``, a tuple of
    :class:`~catsearch._core.options.Option` (the keyword-only arguments of its constructor);
    ``ALIASES = {"c": "exploration", ...}`` may add short names.
    """
    if not isinstance(name, str) or not name or ":" in name or "," in name:
        raise ValueError(f"a player name is a non-empty str without ':' or ',', not {name!r}")
    _PLAYERS[name] = target


_plugins_found: dict[str, Any] | None = None


def _plugins() -> dict[str, Any]:
    """The entry points of :data:`ENTRY_POINT_GROUP` by name (read once, on first use)."""
    global _plugins_found
    if _plugins_found is None:
        # every distribution's, not only the first of each name (a stale egg-info in a
        # checkout would hide the installed metadata from entry_points(group=...))
        found: dict[str, Any] = {}
        try:
            for dist in importlib.metadata.distributions():
                for ep in dist.entry_points:
                    if ep.group == ENTRY_POINT_GROUP:
                        found.setdefault(ep.name, ep)
        except Exception:           # broken metadata must not break the players we have
            pass
        _plugins_found = found
    return _plugins_found


def player_names() -> tuple[str, ...]:
    """The names a spec may start with (plugins' included)."""
    return tuple(sorted(set(_PLAYERS) | set(_plugins())))


def plugin_names() -> tuple[str, ...]:
    """The names that come from plugins (:data:`ENTRY_POINT_GROUP`) and not from the
    built-in table; their classes are imported when a spec first names them (and fail to,
    saying why, when the plugin's extra is missing)."""
    return tuple(sorted(set(_plugins()) - set(_PLAYERS)))


def player_class(name: str) -> type:
    """The class that specs named ``name`` build.

    :raises OptionError: an unknown name (the message lists the known ones).
    """
    try:
        target = _PLAYERS[name]
    except (KeyError, TypeError):
        target = _load_plugin(name)
    if isinstance(target, str):
        module, _, cls = target.partition(":")
        target = getattr(importlib.import_module(module), cls)
        _PLAYERS[name] = target
    return target


def _load_plugin(name: Any) -> type:
    """The class of the plugin player ``name`` (an entry point of :data:`ENTRY_POINT_GROUP`),
    loaded and kept in the table.

    :raises OptionError: no such plugin, or it cannot be loaded (a missing extra: the
        message says what to install) or is not a player class.
    """
    ep = _plugins().get(name) if isinstance(name, str) else None
    if ep is None:
        raise OptionError(f"unknown player {name!r}; the players are "
                          f"{', '.join(player_names())}", owner=str(name))
    try:
        target = ep.load()
    except ImportError as e:
        raise OptionError(f"player {name!r} ({ep.value}) cannot be loaded: {e}",
                          owner=name) from e
    if not (isinstance(target, type) and issubclass(target, Player)):
        raise OptionError(f"player {name!r} ({ep.value}) is not a Player class but "
                          f"{target!r}", owner=name)
    _PLAYERS[name] = target
    return target


def player_options(cls: type) -> tuple[dict[str, Option], dict[str, str]]:
    """The declared options of a player class, by name, and its aliases."""
    declared = getattr(cls, "OPTIONS", ())
    if isinstance(declared, dict):      # a plugin's {name: type} declaration
        declared = tuple(Option(k, v) for k, v in declared.items())
    return {o.name: o for o in declared}, dict(getattr(cls, "ALIASES", {}))


def _flat(table: dict[str, Option], checked: dict[str, Any], names: set[str]):
    """The options ``names`` of ``checked`` as (name, value) pairs; a family's members
    (``weights``) each as its own pair, ``weights.NAME``."""
    for name in names:
        if table[name].family:
            for sub, value in (checked[name] or {}).items():
                yield f"{name}.{sub}", value
        else:
            yield name, checked[name]


@dataclass(frozen=True)
class PlayerSpec:
    """A player and the options given to it (checked, by full name, in name order).

    Only the options given are kept: the player's defaults apply to the others.
    """

    name: str
    options: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        cls = player_class(self.name)
        table, aliases = player_options(cls)
        given = dict(self.options) if not isinstance(self.options, dict) else self.options
        checked = check_options(table, given, self.name, aliases=aliases)
        full = {aliases.get(k, k).partition(".")[0] for k in given}
        object.__setattr__(self, "options", tuple(sorted(_flat(table, checked, full))))

    @classmethod
    def parse(cls, text: str | PlayerSpec) -> PlayerSpec:
        """Read ``"name"`` or ``"name:key=value,key=value"``.

        :raises TypeError: ``text`` is not a str.
        :raises OptionError: an unknown player or option, a malformed part, or a value that
            is not valid (the message names it and what is valid).
        """
        if isinstance(text, PlayerSpec):
            return text
        if not isinstance(text, str):
            raise TypeError(f"a player spec is a str like 'ismcts:iterations=1000', "
                            f"not {type(text).__name__}")
        if not text.strip():
            raise OptionError("a player spec is a non-empty str like 'ismcts:iterations=1000'")
        name, _, rest = text.strip().partition(":")
        name = name.strip()
        raw: dict[str, str] = {}
        if rest.strip():
            for part in rest.split(","):
                key, eq, value = part.partition("=")
                key = key.strip()
                if not eq or not key:
                    raise OptionError(f"{text!r}: expected key=value, got {part.strip()!r}",
                                      owner=name)
                if key in raw:
                    raise OptionError(f"{text!r}: option {key!r} given twice", owner=name,
                                      option=key)
                raw[key] = value.strip()
        table, aliases = player_options(player_class(name))
        checked = check_options(table, raw, name, aliases=aliases, text=True)
        full = {aliases.get(k, k).partition(".")[0] for k in raw}
        return cls(name, tuple(_flat(table, checked, full)))

    def replace(self, **options: Any) -> PlayerSpec:
        """This spec with ``options`` set (by name or alias; ``None`` where the option allows
        it), checked."""
        table, aliases = player_options(player_class(self.name))
        check_options(table, options, self.name, aliases=aliases)   # errors name them as given
        merged = dict(self.options)
        for key, value in options.items():
            merged[aliases.get(key, key)] = value
        return PlayerSpec(self.name, tuple(merged.items()))

    def without(self, *names: str) -> PlayerSpec:
        """This spec without the options ``names`` (their defaults apply again; a family's
        name, ``weights``, drops all its members)."""
        _, aliases = player_options(player_class(self.name))
        drop = {aliases.get(n, n) for n in names}
        return PlayerSpec(self.name, tuple((k, v) for k, v in self.options
                                           if k not in drop and k.partition(".")[0] not in drop))

    def _full(self, name: str) -> str:
        return player_options(player_class(self.name))[1].get(name, name)

    def get(self, name: str, default: Any = None) -> Any:
        """The value given for option ``name`` (or an alias of it), ``default`` when none."""
        return dict(self.options).get(self._full(name), default)

    def __contains__(self, name: str) -> bool:
        """Whether option ``name`` (or an alias of it) is given."""
        return self._full(name) in dict(self.options)

    def declaration(self, name: str) -> Option:
        """The declared :class:`~catsearch._core.options.Option` of the player's option
        ``name`` (or an alias of it).

        :raises OptionError: the player has no such option.
        """
        table = player_options(self.player_class)[0]
        full = self._full(name)
        family, dot, sub = full.partition(".")
        if dot and family in table and table[family].family:
            return table[family].member(sub)
        if full not in table:
            raise OptionError(f"{self.name} has no option {name!r}; its options are "
                              f"{', '.join(table)}", owner=self.name, option=name)
        return table[full]

    @property
    def player_class(self) -> type:
        return player_class(self.name)

    def accepts(self, name: str) -> bool:
        """Whether the player has an option ``name`` (a family's member: the family)."""
        table = player_options(self.player_class)[0]
        full = self._full(name)
        family, dot, _ = full.partition(".")
        return full in table or bool(dot and family in table and table[family].family)

    def build(self) -> Player:
        """A new player with these options."""
        return self.player_class(**dict(self.options))

    def __str__(self) -> str:
        return spec_text(self.name, self.options)

    def __repr__(self) -> str:
        return f"PlayerSpec.parse({str(self)!r})"


def make_player(spec: str | PlayerSpec) -> Player:
    """Build a player from a spec such as ``"ismcts:iterations=2000,c=0.7,seed=3"`` (or a
    :class:`PlayerSpec`).

    :raises TypeError: a spec that is not a str, or an option value of the wrong type.
    :raises ValueError: an unknown player or option, or a value out of range; the message
        names it and lists what is valid.
    """
    return PlayerSpec.parse(spec).build()
