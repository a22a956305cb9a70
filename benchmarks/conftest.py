"""Benchmarks run with ``pytest benchmarks --benchmark-enable`` (see benchmarks/README.md).

They run in one process: pytest-benchmark times nothing under pytest-xdist's workers, and
the project's ``addopts`` ask for two of them (``-n 2``, for the tests), so a run that
collects from here goes back to one."""
import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    if getattr(config.option, "numprocesses", None):
        config.option.numprocesses = 0
        config.option.dist = "no"
