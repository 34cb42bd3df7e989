"""Proofs about Awari."""

CORRECTED_TURN = ("WinMargin", "NoMove", "CannotFeed", "IllegalMove", "GrandSlam", "NormalMove")
"""The labels of the disjuncts of AwariRef_corrected (spec/awari.py), in the order the
exhaustive run lists them: an outcome is labelled by its schema's paper name, also
where the function is the repaired ``NAME_corrected``."""
