"""Benchmarks run with ``pytest benchmarks --benchmark-enable`` (see benchmarks/README.md)."""
