"""Programs: mechanisms written as programs, their exact laws derived by interpreters.

* :mod:`~verifier.programs.syntax` — the text of noise programs (a small imperative
  language over a vector of query answers): tokenizer, parser, syntax tree and a
  direct sampler of the tree (``docs/programs.md``).

This package builds on :mod:`verifier.errors`; the transformers of
:mod:`verifier.algorithms` may use it (the lowering of a noise program to the exact
models of :mod:`verifier.algorithms.noise` is :mod:`verifier.algorithms.noise.text`).
"""

from __future__ import annotations
