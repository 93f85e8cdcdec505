"""Benchmarks: scripts that print figures; never part of the timed tests."""
