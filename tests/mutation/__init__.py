"""Mutation testing of the engines and the spec (``make mutate``; tests/mutation/results/mutation-report.md)."""
