"""Helpers shared by the tests in every folder of tests/: the hypothesis strategies and
state builders, the differential checks, the golden corpora, the socket clients and
server starters, the web view's client, and the paths of the repository and its data."""
