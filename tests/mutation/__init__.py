"""Mutation testing of the engines and the spec (``make mutate``; docs/mutation-report.md)."""
