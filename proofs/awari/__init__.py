"""Proofs about Awari."""
