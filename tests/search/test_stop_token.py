"""A search owns its stop (issue 34, item 3): a ``StopToken`` given in ``Limits(stop=...)``
ends the search even when set before it begins; one ``Player.stop()`` ends a running search;
a worker's error reaches the caller as itself, from threads and from processes."""
from __future__ import annotations

import pickle
import threading
import time

import pytest

import catsearch
from catsearch.search.limits import Limits, StopToken

SPECS = ["ismcts:seed=1", "ismcts:seed=1,workers=2", "determinized:seed=1",
         "expectimax:seed=1"]


def position():
    st = catsearch.new_game("herding-cats", players=3, seed=5)
    while len(st.legal_moves()) < 2:
        st.apply(st.legal_moves()[0])
    return st


@pytest.mark.parametrize("spec", SPECS + ["ismcts:seed=1,workers=2,parallel=processes"])
def test_a_token_set_before_the_search_ends_it_at_once(spec):
    player = catsearch.make_player(spec)
    try:
        token = StopToken()
        token.set()
        t0 = time.perf_counter()
        result = player.search(position(), limits=Limits(infinite=True, stop=token))
        assert time.perf_counter() - t0 < 5.0
        assert result.move in position().legal_moves()
    finally:
        player.close()


@pytest.mark.parametrize("spec", SPECS)
def test_one_stop_ends_an_infinite_search(spec):
    player = catsearch.make_player(spec)
    out = {}
    started = threading.Event()

    def run():
        out["result"] = player.search(position(), limits=Limits(infinite=True),
                                      info=lambda r: started.set())
    t = threading.Thread(target=run, daemon=True)
    t.start()
    assert started.wait(20), "no info from the search"
    player.stop()                       # once: no retry loop
    t.join(10)
    assert not t.is_alive(), "one stop() did not end the search"
    assert out["result"].move in position().legal_moves()
    player.close()


def test_a_late_set_does_not_reach_the_next_search():
    player = catsearch.make_player("ismcts:seed=1")
    token = StopToken()
    first = player.search(position(), limits=Limits(iterations=200, stop=token))
    token.set()                         # after the search: unhooked, touches nothing
    second = player.search(position(), limits=Limits(iterations=200))
    assert first.iterations == second.iterations == 200


def test_the_token_is_checked_and_stays_in_its_process():
    with pytest.raises(TypeError, match="StopToken"):
        Limits(stop=threading.Event())
    with pytest.raises(TypeError, match="cannot leave its process"):
        pickle.dumps(StopToken())
    assert Limits(seconds=1, stop=StopToken()) == Limits(seconds=1)


def test_hooks_run_once_and_can_be_taken_back():
    token, calls = StopToken(), []
    undo = token.on_set(lambda: calls.append("a"))
    token.on_set(lambda: calls.append("b"))
    undo()
    token.set()
    token.set()
    token.on_set(lambda: calls.append("c"))     # already set: at once
    assert calls == ["b", "c"]


@pytest.mark.parametrize("parallel", ["threads", "processes"])
def test_an_observe_error_reaches_the_caller_as_itself(parallel):
    player = catsearch.make_player(f"ismcts:seed=1,reuse=true,workers=2,parallel={parallel},"
                                   f"iterations=50")
    try:
        st = position()
        player.search(st)
        with pytest.raises(ValueError, match="non-negative int"):
            player.observe(st, -5)
            player.search(st)           # processes: the worker's error comes with its answer
    finally:
        player.close()
