"""The Ray backend joining a running cluster (``--ray-address``), as a user does: a head
started with ``ray start --head`` and token authentication on (Ray's default once a token
exists), the match run through its address, with the same records, results file and resume
as the inline backend. Without ray installed these tests skip, unless
CATSEARCH_REQUIRE_RAY=1 (CI), where they fail instead."""

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import pytest

from catsearch.arena import MatchConfig, run_match

# one Ray on the machine (`ray stop --force` stops every Ray here): no other Ray test runs
# while these and their head do (conftest.one_ray)
pytestmark = pytest.mark.usefixtures("ray_alone")

REQUIRED = os.environ.get("CATSEARCH_REQUIRE_RAY") == "1"
GAME = "herding-cats"
PLAYERS = ("ismcts:iterations=60", "heuristic")
START_SECONDS = 120        # ray start --head
STOP_SECONDS = 60          # ray stop --force


def _no_ray(why: str):
    if REQUIRED:
        pytest.fail(f"{why} (CATSEARCH_REQUIRE_RAY=1)", pytrace=False)
    pytest.skip(why)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ray_command() -> str | None:
    here = os.path.join(os.path.dirname(sys.executable), "ray")
    return here if os.path.exists(here) else shutil.which("ray")


@pytest.fixture(scope="module")
def cluster(ray_alone_module):
    """A one-node Ray cluster on this machine with token authentication: (address, token
    file). Stopped (``ray stop --force``) whatever happens."""
    try:
        import ray  # noqa: F401
    except ImportError:
        _no_ray("the Ray backend needs ray (pip install catsearch[ray]), which is not "
                "installed here")
    ray_cmd = _ray_command()
    if ray_cmd is None:
        _no_ray("ray is installed but its command `ray` is not found")
    base = tempfile.mkdtemp(prefix="csray-", dir="/tmp")     # short: Ray's socket paths
    token_file = os.path.join(base, "auth_token")
    with open(token_file, "w") as f:
        f.write(secrets.token_hex(32))
    env = {k: v for k, v in os.environ.items()
           if k not in ("RAY_AUTH_TOKEN", "RAY_ADDRESS")}
    env.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN_PATH=token_file)
    port = _free_port()
    cmd = [ray_cmd, "start", "--head", "--node-ip-address", "127.0.0.1", "--port", str(port),
           "--num-cpus", "2", "--include-dashboard", "false", "--disable-usage-stats",
           "--temp-dir", base]
    try:
        started = subprocess.run(cmd, env=env, capture_output=True, text=True,
                                 timeout=START_SECONDS)
        if started.returncode != 0:
            pytest.fail(f"ray start --head failed:\n{started.stdout}\n{started.stderr}",
                        pytrace=False)
        yield f"127.0.0.1:{port}", token_file
    finally:
        subprocess.run([ray_cmd, "stop", "--force"], env=env, capture_output=True,
                       timeout=STOP_SECONDS)
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def clean_ray_env(monkeypatch, tmp_path):
    """No Ray settings of the machine's: no token anywhere (an empty home)."""
    for k in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH", "RAY_ADDRESS"):
        monkeypatch.delenv(k, raising=False)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home


def _config(groups: int) -> MatchConfig:
    return MatchConfig(GAME, PLAYERS, seats=2, groups=groups, seed=11)


def _game_lines(path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    return [r for r in lines if r.get("type") == "game"]


@pytest.mark.slow           # a Ray head takes ~10 s to start and ~8 s to stop
def test_cluster_match_equals_local_and_resumes(cluster, clean_ray_env, strip_timings,
                                                 tmp_path, monkeypatch):
    """The CLI joins the cluster with the token in ~/.ray/auth_token, as a user on the head
    machine has it; then the API extends the same results file through the cluster (resume:
    only the new games are played). Every record equals the inline backend's."""
    address, token_file = cluster
    t0 = time.monotonic()
    (clean_ray_env / ".ray").mkdir()
    shutil.copy(token_file, clean_ray_env / ".ray" / "auth_token")
    out = tmp_path / "cluster.jsonl"
    cli = subprocess.run(
        [sys.executable, "-m", "catsearch.arena", "match", GAME, *PLAYERS, "--seed", "11",
         "--groups", "2", "-j", "2", "--backend", "ray", "--ray-address", address,
         "--out", str(out)],
        env=dict(os.environ), capture_output=True, text=True, timeout=90)
    assert cli.returncode == 0, cli.stderr
    assert "sending the one from" in cli.stderr and "auth_token" in cli.stderr
    assert "missing or incorrect" not in cli.stderr

    local_half = run_match(_config(2))
    assert strip_timings(_game_lines(out)) == strip_timings(local_half.records)

    # the rest through the API, the token given by RAY_AUTH_TOKEN_PATH
    monkeypatch.setenv("RAY_AUTH_TOKEN_PATH", token_file)
    on_cluster = run_match(_config(4), backend="ray", concurrency=2, ray_address=address,
                           out=str(out))
    assert on_cluster.played == 4                  # groups 3 and 4 only: 2 games each
    local = run_match(_config(4))
    assert len(on_cluster.records) == 8
    assert strip_timings(on_cluster.records) == strip_timings(local.records)
    assert strip_timings(_game_lines(out)) == strip_timings(local.records)
    assert on_cluster.summary["elo"] == local.summary["elo"]
    assert "RAY_AUTH_MODE" not in os.environ        # this process's Ray mode is put back
    print(f"cluster match and resume: {time.monotonic() - t0:.1f} s")


@pytest.mark.slow           # a Ray head takes ~10 s to start and ~8 s to stop
def test_no_token_is_a_clear_error(cluster, clean_ray_env):
    from catsearch.arena.backends import ArenaError
    address, _ = cluster
    t0 = time.monotonic()
    with pytest.raises(ArenaError, match=r"requires a token.*no .*auth_token.*ray get-auth-token"):
        run_match(_config(1), backend="ray", concurrency=1, ray_address=address)
    assert time.monotonic() - t0 < 15               # not Ray's 20 s of retries


@pytest.mark.slow           # a Ray head takes ~10 s to start and ~8 s to stop
def test_wrong_token_is_a_clear_error(cluster, clean_ray_env, monkeypatch):
    from catsearch.arena.backends import ArenaError
    address, _ = cluster
    monkeypatch.setenv("RAY_AUTH_TOKEN", "not-the-cluster-token")
    with pytest.raises(ArenaError, match="refused the token from RAY_AUTH_TOKEN"):
        run_match(_config(1), backend="ray", concurrency=1, ray_address=address)
    assert os.environ.get("RAY_AUTH_MODE") is None


def test_nothing_at_the_address_is_a_clear_error(clean_ray_env):
    try:
        import ray  # noqa: F401
    except ImportError:
        _no_ray("the Ray backend needs ray (pip install catsearch[ray])")
    from catsearch.arena.backends import ArenaError
    with pytest.raises(ArenaError, match=r"no Ray cluster at 127\.0\.0\.1:\d+: cannot connect"):
        run_match(_config(1), backend="ray", concurrency=1,
                  ray_address=f"127.0.0.1:{_free_port()}")
    with pytest.raises(ArenaError, match="HOST:PORT"):
        run_match(_config(1), backend="ray", concurrency=1, ray_address="127.0.0.1")
