"""Interoperation with the privacy tools users already have.

* :mod:`~verifier.interop.exact` — the exact privacy curve of a finite mechanism:
  :func:`~verifier.interop.exact.epsilon_for_delta`, the least ε with the mechanism
  (ε, δ)-DP, in closed form (no dependency);
* :mod:`~verifier.interop.accounting` — Google's ``dp_accounting``: export a finite
  mechanism pair to a privacy loss distribution, import the events that have an exact
  finite form (randomized response, discrete Laplace, repeat-and-select with a
  geometric or Poisson count, compositions), and ask an accountant for its ε(δ);
* :mod:`~verifier.interop.compare` — exact values beside an accountant's bounds on the
  same instance (``verifier compare``);
* :mod:`~verifier.interop.opendp_maps` — OpenDP's privacy maps checked against the
  exact loss of the measurements that have a finite exact form.

``dp_accounting`` and ``opendp`` are optional (``pip install 'verifier[interop]'``):
this package imports neither; a function that needs one raises
:class:`~verifier.errors.MissingDependency` naming the extra when it is missing.
"""

from __future__ import annotations

from .exact import epsilon_for_delta, exact_float

__all__ = ["epsilon_for_delta", "exact_float"]
