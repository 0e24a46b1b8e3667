"""Where work runs and how it shows itself.

* :mod:`.executors` — independent tasks in this process, local worker processes or a
  dask cluster (:class:`~verifier.runtime.executors.Runner`), results sent portably;
* :mod:`.collector` — the garbage collector's thresholds and sympy's cache size for
  long exact computations;
* :mod:`.terminal` — tables and progress displays for a person at a terminal;
* :mod:`.docstrings` — docstring entries shared by sibling functions, written once
  (:func:`~verifier.runtime.docstrings.filler`).

Imports only :mod:`verifier.errors`; every other package may import this one.
"""
