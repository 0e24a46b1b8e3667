"""Exact values, certified enclosures, and the numbers users write.

* :mod:`.exact` — one interface over exact (sympy) and certified (interval) evaluation:
  :class:`~verifier.arithmetic.exact.Verdict`, ``decide_le``, ``exact``, ``enclose``;
* :mod:`.precision` — working precision private to one computation;
* :mod:`.expressions` — the safe, whitelisted parser of the numeric expressions of
  spec files (no ``eval``).

Imports only :mod:`verifier.errors`; every other package builds on this one.
``verifier.arithmetic.X`` is ``verifier.arithmetic.exact.X`` (the module of this name
before 0.2).
"""

from typing import TYPE_CHECKING

from .. import _forward

if TYPE_CHECKING:
    from .exact import *  # noqa: F403

__getattr__ = _forward(__name__, "exact")
