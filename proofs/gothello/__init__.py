"""Proofs about Gothello."""
