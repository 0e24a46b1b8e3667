"""Programs: mechanisms written as programs, their exact laws derived by interpreters.

* :mod:`~verifier.programs.counts` — repetition counts given by their probability
  generating functions (fixed, uniform, geometric, Poisson, truncated negative binomial,
  logarithmic, binomial, finite);
* :mod:`~verifier.programs.selection` — selection programs (candidates, a count, a rule,
  halting, a release) and :func:`~verifier.programs.selection.selection_mechanism`, the
  exact output distribution.

This package builds on :mod:`verifier.mechanism` and :mod:`verifier.arithmetic`; the
transformers of :mod:`verifier.algorithms` may use it.  The spec-file form is the
transformer ``selection`` (:mod:`verifier.algorithms.selection`; ``docs/programs.md``).
"""

from __future__ import annotations

from . import counts, selection
from .counts import Count, make_count
from .selection import Best, FirstAbove, KthBest, SelectionProgram, TopK, selection_mechanism

__all__ = [
    "counts",
    "selection",
    "Count",
    "make_count",
    "Best",
    "FirstAbove",
    "KthBest",
    "TopK",
    "SelectionProgram",
    "selection_mechanism",
]
