"""Proofs about Awari."""

CORRECTED_TURN = ("WinMargin", "NoMove", "CannotFeed", "IllegalMove", "GrandSlam", "NormalMove")
"""The schemas of the corrected AwariTurn (spec/awari.py), in the order the proofs
list them: the exhaustive run's disjuncts and crosshair's targets."""
