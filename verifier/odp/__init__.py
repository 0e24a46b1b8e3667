"""Output differential privacy (Hartmann, Bindschaedler, Bentkamp, West 2022).

* :mod:`.guarantees` — partitions of the output space, per-cell budgets, subset DP and
  the ODP composition experiment;
* :mod:`.ptr` — propose-test-release functions with geometric noise, exactly (§4.2).

Imports the finite-mechanism model and the checkers, never the transformers above it.
``verifier.odp.X`` is ``verifier.odp.guarantees.X`` (the module of this name before
0.2).
"""

from typing import TYPE_CHECKING

from .. import _forward

if TYPE_CHECKING:
    from .guarantees import *  # noqa: F403

__getattr__ = _forward(__name__, "guarantees")
