"""Programs: mechanisms written as programs, their exact laws derived by interpreters.

* :mod:`~verifier.programs.counts` — repetition counts given by their probability
  generating functions (fixed, uniform, geometric, Poisson, truncated negative binomial,
  logarithmic, binomial, finite);
* :mod:`~verifier.programs.selection` — selection programs (candidates, a count, a rule,
  halting, a release) and :func:`~verifier.programs.selection.selection_mechanism`, the
  exact output distribution;
* :mod:`~verifier.programs.syntax` — the text of noise programs (a small imperative
  language over a vector of query answers): tokenizer, parser, syntax tree and a
  direct sampler of the tree (``docs/programs.md``).

This package builds on :mod:`verifier.mechanism`, :mod:`verifier.arithmetic` and
:mod:`verifier.errors`; the transformers of :mod:`verifier.algorithms` may use it.  The
spec-file forms are the transformers ``selection`` (:mod:`verifier.algorithms.selection`)
and ``noise_program`` (the lowering of a noise program to the exact models of
:mod:`verifier.algorithms.noise` is :mod:`verifier.algorithms.noise.text`).
"""

from __future__ import annotations

from . import counts, selection, syntax
from .counts import Count, make_count
from .selection import Best, FirstAbove, KthBest, SelectionProgram, TopK, selection_mechanism

__all__ = [
    "counts",
    "selection",
    "syntax",
    "Count",
    "make_count",
    "Best",
    "FirstAbove",
    "KthBest",
    "TopK",
    "SelectionProgram",
    "selection_mechanism",
]
