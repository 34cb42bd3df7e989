"""The referee's applications: serve, terminal client, watch, replay, match, tournament
and its ratings, openings and SPRT, board views and the spec animator."""
