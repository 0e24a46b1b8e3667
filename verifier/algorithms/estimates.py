"""Cost estimates of derived mechanisms, made before they are built.

A spec file can ask for a derived mechanism whose construction would exhaust time
or memory (``repeat`` with ``n = 10^9`` has ``2^(10^9)`` outputs; ``best_of`` with
``k = 10^9`` copies its input a billion times).  :func:`estimate` predicts, from the
input mechanisms and the validated parameters alone, two numbers:

* ``outputs`` -- the number of outputs of the result;
* ``work`` -- the number of exact arithmetic operations its closed form performs,
  counting a product of two exact rationals of ``b`` bits as ``max(1, b/64)``
  operations (the result of ``p^T`` for a rational ``p`` of ``b`` bits has ``T*b``
  bits).

The spec reader refuses a derived mechanism whose estimate exceeds its limits
(:class:`verifier.spec.limits.Limits`) before calling the transformer.  The
estimates are upper bounds up to a small constant factor, from the closed forms:
``independent`` and ``repeat`` enumerate the product of the output sets;
``best_of`` sums, for each of the ``k`` runs and each output, a product over the
other ``k - 1`` runs (Liu & Talwar 2019, §3); ``lt_percentile_release`` and
``talwar_hybrid`` do the same with ``n`` samples and ``c`` runs; the capped
stopping rules (``T``) raise rationals to the ``T``-th power.

A transformer without an estimator here gets none (it is built as it is); a package
registering a transformer can add one with :func:`register_estimate`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from ..mechanism.model import FiniteMechanism

__all__ = ["Estimate", "ESTIMATES", "register_estimate", "estimate", "saturating"]

#: Counts are computed exactly up to this value and saturate there (``2^(10^9)`` is
#: never formed).
_CAP = 1 << 256


@dataclass(frozen=True)
class Estimate:
    """What building a derived mechanism would cost: its number of outputs and the
    number of exact operations (see the module docstring)."""

    outputs: int
    work: int


#: Estimators by transformer name: ``(inputs, params) -> Estimate``.
ESTIMATES: dict[str, Callable[[Sequence[FiniteMechanism], dict[str, Any]], Estimate]] = {}


def register_estimate(
    name: str,
) -> Callable[
    [Callable[[Sequence[FiniteMechanism], dict[str, Any]], Estimate]],
    Callable[[Sequence[FiniteMechanism], dict[str, Any]], Estimate],
]:
    """Decorator registering the estimator of the transformer ``name``."""

    def deco(
        fn: Callable[[Sequence[FiniteMechanism], dict[str, Any]], Estimate],
    ) -> Callable[[Sequence[FiniteMechanism], dict[str, Any]], Estimate]:
        ESTIMATES[name] = fn
        return fn

    return deco


def estimate(
    name: str, inputs: Sequence[FiniteMechanism], params: dict[str, Any]
) -> Estimate | None:
    """The estimate for the transformer ``name`` on ``inputs`` with the validated
    ``params`` (``None`` when the transformer has no estimator)."""
    fn = ESTIMATES.get(name)
    return None if fn is None else fn(inputs, params)


def saturating(*factors: int) -> int:
    """The product of non-negative ``factors``, saturating at ``2^256``.

    >>> saturating(2, 3), saturating(2**200, 2**200) == 2**256
    (6, True)
    """
    out = 1
    for f in factors:
        out *= max(0, int(f))
        if out >= _CAP:
            return _CAP
    return out


def _power(base: int, n: int) -> int:
    """``base ** n`` saturating at ``2^256`` (never formed beyond it)."""
    if base <= 1:
        return max(0, base)
    if n * math.log2(base) >= 256:
        return _CAP
    return base**n


def _sizes(inputs: Sequence[FiniteMechanism]) -> tuple[int, int, int]:
    """Largest output count, dataset count, and largest size of a rational
    probability in bits."""
    m = max((len(x.outputs) for x in inputs), default=1)
    d = max((x.graph.number_of_nodes() for x in inputs), default=1)
    bits = 1
    for x in inputs:
        for ds in x.graph.nodes:
            for o in x.outputs:
                p = x.prob(ds, o)
                if isinstance(p, sp.Rational):
                    bits = max(bits, int(abs(p.p)).bit_length(), int(p.q).bit_length())
    return m, d, bits


@register_estimate("independent")
def _independent(inputs: Sequence[FiniteMechanism], params: dict[str, Any]) -> Estimate:
    _, d, _ = _sizes(inputs)
    outputs = saturating(*(len(x.outputs) for x in inputs))
    return Estimate(outputs, saturating(outputs, d, len(inputs)))


@register_estimate("repeat")
def _repeat(inputs: Sequence[FiniteMechanism], params: dict[str, Any]) -> Estimate:
    m, d, _ = _sizes(inputs)
    n = int(params["n"])
    outputs = _power(m, n)
    return Estimate(outputs, saturating(outputs, d, n))


@register_estimate("best_of")
def _best_of(inputs: Sequence[FiniteMechanism], params: dict[str, Any]) -> Estimate:
    m, d, _ = _sizes(inputs)
    k = int(params["k"]) if params.get("k") is not None else len(inputs)
    outputs = k if params.get("report") == "index" else m * len(inputs)
    return Estimate(outputs, saturating(k, k, m, d))


def _runs_squared(param: str) -> Callable[[Sequence[FiniteMechanism], dict[str, Any]], Estimate]:
    def fn(inputs: Sequence[FiniteMechanism], params: dict[str, Any]) -> Estimate:
        m, d, _ = _sizes(inputs)
        r = int(params[param])
        return Estimate(m + 1, saturating(r, r, m, d))

    return fn


def _powers(param: str) -> Callable[[Sequence[FiniteMechanism], dict[str, Any]], Estimate]:
    def fn(inputs: Sequence[FiniteMechanism], params: dict[str, Any]) -> Estimate:
        m, d, bits = _sizes(inputs)
        for v in params.values():  # gamma, tau: rationals raised to the same powers
            if isinstance(v, sp.Rational):
                bits = max(bits, int(abs(v.p)).bit_length(), int(v.q).bit_length())
        t = params.get(param)
        r = 1 if t is None else int(t)
        # r-th powers of the rationals: r*bits bits each, by repeated squaring
        return Estimate(m + 1, saturating(m, d, max(r.bit_length(), r * bits // 64)))

    return fn


register_estimate("lt_percentile_release")(_runs_squared("n"))
register_estimate("talwar_hybrid")(_runs_squared("c"))
register_estimate("talwar_max_of_runs")(_powers("T"))
register_estimate("lt_random_stopping_hard")(_powers("T"))
register_estimate("lt_thresholding")(_powers("T"))


@register_estimate("sparse_vector")
def _sparse_vector(inputs: Sequence[FiniteMechanism], params: dict[str, Any]) -> Estimate:
    m, d, _ = _sizes(inputs)
    c = int(params.get("c") or 1)
    width = max((len(o) for x in inputs for o in x.outputs if isinstance(o, tuple)), default=1)
    cut = min(c, width)
    return Estimate(_power(2, width), saturating(c, _power(width + 1, cut), m, d))


def _copies(inputs: Sequence[FiniteMechanism], params: dict[str, Any]) -> Estimate:
    m, d, _ = _sizes(inputs)
    copies = params.get("copies")
    total = len(inputs) if copies is None else sum(int(t) for t in copies)
    return Estimate(m * len(inputs) + 1, saturating(total, total, m, d))


register_estimate("ghazi_generalized_above_threshold")(_copies)
register_estimate("ghazi_hyperparameter_tuning")(_copies)
