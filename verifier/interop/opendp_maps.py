"""OpenDP's privacy maps checked against the exact loss.

An OpenDP measurement carries a *privacy map*: ``d_in -> ε``, a float rounded in the
conservative direction, that the library proves is an upper bound on the pure ε of
the measurement for inputs at distance ``d_in``.  For the discrete measurements with a
finite exact form, verifier computes that loss exactly on the same parameters (taken
at their exact binary values, :func:`~verifier.interop.exact.exact_float`) and
decides ``exact ε <= map(d_in)`` exactly:

=================================================  ===================================
OpenDP measurement                                 exact finite mechanism
=================================================  ===================================
``make_randomized_response_bool(prob)``            the true bit w.p. ``prob``:
                                                   ``ε = log(prob/(1 - prob))``
``make_randomized_response(categories, prob)``     the true category w.p. ``prob``,
                                                   each other w.p. ``(1-prob)/(k-1)``
``make_laplace`` on integers (scale ``s``)         the discrete Laplace clamped to the
                                                   two inputs' range
                                                   (:func:`~verifier.interop.mechanisms.clamped_discrete_laplace`)
``make_geometric(..., bounds=(L, U))``             inputs and outputs clamped to
                                                   ``[L, U]``: the truncated geometric
                                                   mechanism on ``L..U``, every pair of
                                                   inputs at distance ``<= d_in``
=================================================  ===================================

The check is about the mechanism OpenDP describes (its documented distribution),
not the float arithmetic of its samplers.  A bounded domain makes the exact loss
``min(d_in, U - L)/s``: OpenDP's map ``d_in/s`` is sound and loose by the factor
``d_in/(U - L)`` when ``d_in > U - L``.

``opendp`` is optional (``pip install 'verifier[interop]'``).
"""

from __future__ import annotations

import contextlib
import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import sympy as sp

from ..arithmetic.exact import Verdict, approx, decide_le
from ..errors import InvalidParameter
from ..mechanism.instances import truncated_geometric
from ..mechanism.model import FiniteMechanism
from ..mechanism.neighbours import pair
from .accounting import require
from .exact import epsilon_for_delta, exact_float
from .mechanisms import clamped_discrete_laplace

__all__ = [
    "MapCheck",
    "check_randomized_response_bool",
    "check_randomized_response",
    "check_integer_laplace",
    "check_bounded_geometric",
    "MAX_BOUNDED_WIDTH",
]

#: The widest ``U - L`` :func:`check_bounded_geometric` builds.
MAX_BOUNDED_WIDTH = 200


@dataclass(frozen=True)
class MapCheck:
    """OpenDP's ``map(d_in)`` against the exact pure ε of the same measurement."""

    measurement: str
    d_in: int
    opendp_epsilon: float
    exact_epsilon: sp.Expr
    verdict: Verdict  # HOLDS: the map bounds the exact loss

    @property
    def ratio(self) -> float:
        """map / exact (display)."""
        e = approx(self.exact_epsilon)
        return self.opendp_epsilon / e if e > 0 else math.inf

    def to_dict(self) -> dict[str, Any]:
        return {
            "measurement": self.measurement,
            "d_in": self.d_in,
            "opendp_epsilon": self.opendp_epsilon,
            "exact_epsilon": {
                "exact": str(self.exact_epsilon),
                "value": approx(self.exact_epsilon),
            },
            "ratio": self.ratio,
            "verdict": self.verdict.value,
        }

    def line(self) -> str:
        """One line: measurement, both values, ratio, verdict."""
        return (
            f"{self.measurement}, d_in = {self.d_in}: OpenDP {self.opendp_epsilon:.6g}, exact "
            f"{self.exact_epsilon} ≈ {approx(self.exact_epsilon):.6g} (ratio {self.ratio:.4g}): "
            f"{'sound' if self.verdict is Verdict.HOLDS else self.verdict.value.upper()}"
        )


@contextlib.contextmanager
def _dp() -> Iterator[Any]:
    """``opendp.prelude`` with OpenDP's ``contrib`` feature switched on for the block
    (its measurements here are contrib), and switched back off after it unless the
    caller had it on: OpenDP's feature flags are global to the process, and a check
    must not leave the user's process allowing what it did not allow."""
    dp = require("opendp.prelude")
    from opendp.mod import GLOBAL_FEATURES

    had = "contrib" in GLOBAL_FEATURES
    dp.enable_features("contrib")
    try:
        yield dp
    finally:
        if not had:
            dp.disable_features("contrib")


def _check(
    name: str, d_in: int, claimed: float, mech: FiniteMechanism, pairs: Any = None
) -> MapCheck:
    exact_eps = epsilon_for_delta(mech, delta=0, pairs=pairs).value
    verdict = decide_le(exact_eps, exact_float(claimed)).verdict
    return MapCheck(name, d_in, float(claimed), exact_eps, verdict)


def check_randomized_response_bool(prob: float) -> MapCheck:
    """``make_randomized_response_bool(prob)``: the true bit w.p. ``prob``."""
    with _dp() as dp:
        m = dp.m.make_randomized_response_bool(prob=prob)
        claimed = m.map(1)
    p = exact_float(prob)
    mech = FiniteMechanism(
        pair("true", "false"),
        {"true": {True: p, False: 1 - p}, "false": {True: 1 - p, False: p}},
        [False, True],
        name=f"RR_bool[{prob}]",
    )
    return _check(f"make_randomized_response_bool(prob={prob})", 1, claimed, mech)


def check_randomized_response(categories: list[str], prob: float) -> MapCheck:
    """``make_randomized_response(categories, prob)``: the true category w.p.
    ``prob``, each other w.p. ``(1 - prob)/(k - 1)``; pairs of distinct true
    categories."""
    if len(categories) < 2 or len(set(categories)) != len(categories):
        raise InvalidParameter(f"need at least 2 distinct categories, got {categories!r}")
    with _dp() as dp:
        m = dp.m.make_randomized_response(categories=list(categories), prob=prob)
        claimed = m.map(1)
    p = exact_float(prob)
    k = len(categories)
    other = (1 - p) / (k - 1)
    graph = pair(categories[0], categories[1])
    rows = {t: {c: (p if c == t else other) for c in categories} for t in categories[:2]}
    mech = FiniteMechanism(graph, rows, list(categories), name=f"RR[{k}, {prob}]")
    return _check(f"make_randomized_response({k} categories, prob={prob})", 1, claimed, mech)


def check_integer_laplace(scale: float, d_in: int) -> MapCheck:
    """``make_laplace`` on integers: the discrete Laplace with ``P(z) ∝ e^{-|z|/s}``;
    two inputs at distance ``d_in``."""
    with _dp() as dp:
        m = dp.m.make_laplace(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=scale)
        claimed = m.map(d_in)
    mech = clamped_discrete_laplace(1 / exact_float(scale), d_in)
    return _check(f"make_laplace(int, scale={scale})", d_in, claimed, mech)


def check_bounded_geometric(scale: float, bounds: tuple[int, int], d_in: int) -> MapCheck:
    """``make_geometric(int, scale, bounds=(L, U))``: inputs and outputs clamped to
    ``[L, U]``, every ordered pair of inputs at distance ``1..d_in``."""
    lo, hi = bounds
    if hi - lo < 1 or hi - lo > MAX_BOUNDED_WIDTH:
        raise InvalidParameter(
            f"bounds must satisfy 1 <= U - L <= {MAX_BOUNDED_WIDTH}, got {bounds}"
        )
    if d_in < 1:
        raise InvalidParameter(f"d_in must be >= 1, got {d_in}")
    with _dp() as dp:
        m = dp.m.make_geometric(
            dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=scale, bounds=(lo, hi)
        )
        claimed = m.map(d_in)
    n = hi - lo
    mech = truncated_geometric(n, sp.exp(-1 / exact_float(scale)))  # inputs shifted by L
    pairs = [(a, b) for a, b in itertools.permutations(range(n + 1), 2) if abs(a - b) <= d_in]
    return _check(
        f"make_geometric(int, scale={scale}, bounds=({lo}, {hi}))", d_in, claimed, mech, pairs
    )
