"""The README's commands work from the root of the checkout (issue 18, item 1).

The README installs in editable mode (``pip install -e .``): the package is the checkout's
``catsearch/`` folder with its compiled modules built in place, so ``import catsearch`` from
the root (where Python looks first) finds the same, complete package as from anywhere else.
A plain ``pip install .`` would leave the root's source folder, without compiled modules,
shadowing the installed package there. CI (``.ci/run``) runs the README's exact commands.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# against the installed wheel (tests/install/wheel.py) there is no checkout, and these
# tests import from the root of one
pytestmark = pytest.mark.skipif(
    os.environ.get("CATSEARCH_TEST_INSTALLED", "") not in ("", "0"),
    reason="tests of the checkout; the suite runs against the installed wheel "
           "(CATSEARCH_TEST_INSTALLED)")


def _clean_env():
    """The environment without PYTHONPATH: Python finds catsearch as a newcomer's would."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    return env


def test_import_from_the_root():
    code = ("import catsearch, pathlib; "
            "s = catsearch.new_game('herding-cats', players=3, seed=7); "
            "s.play(s.legal_moves()[0]); "
            "print(pathlib.Path(catsearch.__file__).resolve().parent)")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       env=_clean_env(), timeout=120)
    assert r.returncode == 0, r.stderr
    assert Path(r.stdout.strip()) == ROOT / "catsearch"


def test_the_engine_from_the_root():
    r = subprocess.run([sys.executable, "-m", "catsearch.engine"], cwd=ROOT,
                       input="uci\nisready\nquit\n", capture_output=True, text=True,
                       env=_clean_env(), timeout=120)
    assert r.returncode == 0, r.stderr
    assert "readyok" in r.stdout, r.stdout


def _readme_commands():
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```\n(.*?)```", text, flags=re.S)
    return [line.strip() for b in blocks for line in b.splitlines()
            if line.strip().startswith("pip install")]


def test_readme_installs_in_editable_mode_and_ci_runs_its_commands():
    commands = _readme_commands()
    assert commands, "the README has no install command"
    ci = (ROOT / ".ci" / "run").read_text()
    for command in commands:
        assert command.startswith("pip install -e "), command
    # the test command is run as written (the first install command runs a match: CI runs
    # the test command, which installs the same way)
    test_command = next(c for c in commands if "[test]" in c)
    assert test_command in ci.splitlines(), f".ci/run does not run {test_command!r}"
