"""Talwar 2025, "Privacy-Computation Trade-offs in Private Repetition and Metaselection".

Modules: :mod:`.theory` (the lower bounds of Theorems 7, 9/10 and Corollary 8 and the
proofs' chains), :mod:`.tradeoff` (Figure 1: the exact trade-off of every algorithm
family against the lower bound), :mod:`.command` (``verifier tradeoff``), :mod:`.claims`
(the registered claims, with the derivation notes and findings in its docstring).
"""
