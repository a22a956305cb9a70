"""Player plugins: specs find players that installed distributions declare in the
``catsearch.players`` entry point group (how the interop layer's OpenSpiel players reach
make_player without the search layer importing them)."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

from catsearch import make_player
from catsearch.search import spec
from catsearch.search.players import RandomPlayer


@pytest.fixture
def plugins(monkeypatch):
    """Replace the entry points found with the test's own (the table is restored after)."""
    def install(**targets):
        found = {name: EntryPoint(name, value, spec.ENTRY_POINT_GROUP)
                 for name, value in targets.items()}
        monkeypatch.setattr(spec, "_plugins_found", found)
        monkeypatch.setattr(spec, "_PLAYERS", dict(spec._PLAYERS))
    return install


def test_a_plugin_is_a_player_name(plugins):
    plugins(**{"plugged": "catsearch.search.players:RandomPlayer"})
    assert "plugged" in spec.player_names()
    p = make_player("plugged:seed=3")
    assert isinstance(p, RandomPlayer)
    assert spec.PlayerSpec.parse("plugged:seed=3").build().seed == 3


def test_the_table_wins_over_a_plugin(plugins):
    plugins(ismcts="catsearch.search.players:RandomPlayer")
    assert not isinstance(make_player("ismcts:iterations=10"), RandomPlayer)


def test_a_plugin_that_cannot_load_says_why(plugins):
    plugins(gone="catsearch_no_such_module:Player", odd="catsearch.search.spec:PlayerSpec")
    with pytest.raises(ValueError, match="'gone'.*cannot be loaded.*catsearch_no_such_module"):
        make_player("gone")
    with pytest.raises(ValueError, match="'odd'.*not a Player class"):
        make_player("odd")
    with pytest.raises(ValueError, match="unknown player 'nobody'.*gone"):
        make_player("nobody")


def test_installed_plugins_are_found():
    """The project's own: pyproject.toml declares the OpenSpiel players (their module may
    not import without the [openspiel] extra, but the names are there)."""
    names = spec.player_names()
    assert "openspiel-ismcts" in names and "openspiel-mcts" in names
