"""The Ray backend on a local Ray: the same records as the inline backend for the same seed,
built-in players and an external engine alike."""

import pytest

try:
    import ray  # noqa: F401
except ImportError:
    pytest.skip("the Ray backend needs ray (pip install catsearch[ray]), which is not "
                "installed here", allow_module_level=True)

from catsearch.arena import MatchConfig, run_match

# one Ray on the machine: no other Ray test runs meanwhile (conftest.one_ray)
pytestmark = pytest.mark.usefixtures("ray_alone")

GAME = "herding-cats"


def test_ray_backend_equals_inline(engine, strip_timings, tmp_path):
    cfg = MatchConfig(GAME, ("heuristic", "random", engine("illegal", 60)), seats=2,
                      groups=2, seed=6)
    inline = run_match(cfg)
    on_ray = run_match(cfg, backend="ray", concurrency=2, out=str(tmp_path / "ray.jsonl"))
    assert len(on_ray.records) == cfg.total_games == 12
    assert strip_timings(on_ray.records) == strip_timings(inline.records)
    assert on_ray.summary["ratings"] == inline.summary["ratings"]
