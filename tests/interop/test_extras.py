"""The extras are optional: ``import catsearch`` never imports OpenSpiel or PettingZoo, and
without them importing an adapter says which extra to install. Each check runs in a fresh
interpreter that hides the packages (a ``None`` entry in ``sys.modules`` makes their import
fail), so these tests need no extra and never skip."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120)


def test_import_catsearch_needs_no_extra():
    r = run("""
        import sys
        for name in ("pyspiel", "open_spiel", "pettingzoo", "gymnasium"):
            sys.modules[name] = None
        import catsearch
        from catsearch.search.spec import player_names
        catsearch.make_player("ismcts:iterations=10")
        assert "openspiel-ismcts" in player_names()
        loaded = [m for m in ("catsearch.interop.openspiel", "catsearch.interop.pettingzoo")
                  if m in sys.modules]
        assert not loaded, loaded
        print("ok")
    """)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


@pytest.mark.parametrize("module,hidden,extra", [
    ("catsearch.interop.openspiel", "pyspiel", "openspiel"),
    ("catsearch.interop.openspiel_bots", "pyspiel", "openspiel"),
    ("catsearch.interop.pettingzoo", "pettingzoo", "pettingzoo"),
    ("catsearch.interop.pettingzoo", "gymnasium", "pettingzoo"),
])
def test_an_adapter_without_its_extra_says_what_to_install(module, hidden, extra):
    r = run(f"""
        import sys
        sys.modules[{hidden!r}] = None
        try:
            import {module}
        except ImportError as e:
            print(e)
        else:
            print("imported")
    """)
    assert r.returncode == 0, r.stderr
    assert f"pip install 'catsearch[{extra}]'" in r.stdout, r.stdout
    assert module in r.stdout


def test_a_plugin_player_without_its_extra_says_what_to_install():
    r = run("""
        import sys
        sys.modules["pyspiel"] = None
        import catsearch
        try:
            catsearch.make_player("openspiel-ismcts:iterations=10")
        except ValueError as e:
            print(type(e).__name__, e)
    """)
    assert r.returncode == 0, r.stderr
    assert "OptionError" in r.stdout and "catsearch[openspiel]" in r.stdout, r.stdout
