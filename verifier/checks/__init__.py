"""The checkers: every verdict of the engine, over points, ranges and boxes.

* :mod:`.privacy` — pure, approximate, Rényi and ex-post DP of finite mechanisms;
* :mod:`.certified` — certified scalar checks (``check_le``, ``check_eq``) at a point,
  for every value of a parameter in a range, or over a box;
* :mod:`.ranges` — an inequality for every value of one parameter in a closed interval;
* :mod:`.boxes` — an inequality for every point of a box of parameters;
* :mod:`.results` — :class:`~verifier.checks.results.CheckResult` and its findings.

Imports the finite-mechanism model, the exact arithmetic and the runtime; never the
transformers, constructions or search above it (a checked contract).
"""
