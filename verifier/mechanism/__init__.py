"""The finite-mechanism model: datasets, their neighbours, and one exact distribution
per dataset.

* :mod:`.model` — :class:`~verifier.mechanism.model.FiniteMechanism`, the data every
  checker reads (no privacy mathematics in it);
* :mod:`.neighbours` — neighbour graphs (pairs, Hamming cubes, add/remove);
* :mod:`.instances` — a catalogue of concrete mechanisms (randomized response, the
  truncated geometric mechanism, seeded random mechanisms);
* :mod:`.compose` — exact enumerators: independent runs and post-processing.

Imports the exact arithmetic (:mod:`verifier.arithmetic.exact`) and nothing above it.
``verifier.mechanism.X`` is ``verifier.mechanism.model.X`` (the module of this name
before 0.2).
"""

from typing import TYPE_CHECKING

from .. import _forward

if TYPE_CHECKING:
    from .model import *  # noqa: F403

__getattr__ = _forward(__name__, "model")
