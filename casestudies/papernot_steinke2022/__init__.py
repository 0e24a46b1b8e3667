"""Papernot & Steinke 2022, "Hyperparameter tuning with Rényi differential privacy"
(ICLR; arXiv 2110.03620v2): repeat a private mechanism a random number of times and
release the best run, written as selection programs of the engine.

Modules: :mod:`.instances` (the base mechanisms, the algorithm as a selection program,
the paper's bounds), :mod:`.claims` (claims at points), :mod:`.boxes` (claims over boxes
of ``(η, γ)``), :mod:`.coverage` (the paper's numbered statements).  Derivations and
results: NOTES.md.
"""
