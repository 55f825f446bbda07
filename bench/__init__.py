"""Benchmarks (``make bench``): figures for the README, not timed tests."""
