"""Talwar 2025, §3: the lower-bound instances of Theorems 7, 9 and 10, lumped by
distance so that their cubes never materialise.  The proofs' chains of inequalities
and the bounds themselves are checked in the ``talwar2025`` case study.

Theorem 7 (``{0,1}^Δ``, ``Δ = ⌈ln(4T)/ε⌉``, ``q = e^{-εΔ} ≤ 1/(4T)``):
``M(d1) = (r,1)`` w.p. ``1-q``, ``(r',0)`` w.p. ``q``; ``M(d0)`` the reverse;
``d0 = 0^Δ``, ``d1 = 1^Δ``; extended to a 2ε-DP mechanism on the cube by
Prop. 2.  The proof's chain for an algorithm ``A`` with overhead ``c``, ``T``
expected calls and failure ``γ``:

1. ``Pr[A(d0) = (r',0)] ≥ 1/4`` (Markov: ``A`` rarely sees ``(r,1)`` at ``d0``);
2. ``A∘M̂`` is ``2cε``-DP, so (Prop. 5, or Prop. 4 for pure DP)
   ``Pr[A(d1) = (r',0)] ≥ e^{-2cεΔ}/8``;
3. utility: the left side is at most ``γ`` (the median of ``M(d1)`` is 1);
4. ``e^{-2cεΔ} ≥ (4T)^{-4c}`` because ``εΔ < ln(4T) + ε ≤ 2 ln(4T)`` when
   ``T ≥ e^ε``; hence ``γ ≥ (4T)^{-4c}/8``, i.e. ``T ≥ (8γ)^{-1/(4c)}/4``.

Corollary 8 replaces step 2 by Prop. 6 (RDP at order ``α ≥ Δ + 1``):
``Pr[A(d1) = (r',0)] ≥ e^{-e(α-1)·2cε}/4^e``, hence with ``α = Δ + 1``
``T ≥ (4^e γ)^{-1/(4ec)}/4``.

Theorems 9/10 (``{0,1}^{10Δ}``, ``Δ = ⌈ln(8T)/ε⌉``): a hidden centre ``v`` with
``M_v(v) = (r,1)`` w.p. ``1-q`` and ``M_v(u) = (r,1)`` w.p. ``q`` outside the radius-Δ
ball ``B_v``; lumped by the distance to ``v`` (``10Δ + 1`` classes); ``v = 1^{10Δ}``
puts ``d0 = 0^{10Δ}`` at the largest distance ``10Δ``.  The chain ends in
``T ≥ (8γ)^{-1/(40c)}/8``, through the counting fact
``Σ_{i≤Δ} C(10Δ,i)/2^{10Δ} ≤ (10e/1024)^Δ ≤ e^{-3Δ} ≤ 1/(8T)``.

>>> import sympy as sp
>>> inst = theorem7_instance(sp.Rational(1, 10), 100)
>>> inst.Delta, inst.mechanism.graph.number_of_nodes()     # {0,1}^60 in 61 classes
(60, 61)
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import sympy as sp

from ..algorithms.liu_talwar import uniform_selection
from ..arithmetic.exact import DEFAULT_PRECISION, Precision, exact
from ..checks.certified import certified_ceil, check_le
from ..checks.privacy import check_epsilon
from ..errors import InvalidParameter
from ..mechanism.model import FiniteMechanism, Output
from .extension import Extension, extend_on_lumped_cube

__all__ = [
    "GOOD",
    "BAD",
    "HardInstance",
    "theorem7_instance",
    "theorem9_instance",
    "theorem10_instance",
]

#: Talwar's ``(r, 1)`` (score 1) and ``(r', 0)`` (score 0).
GOOD: Output = ("r", 1)
BAD: Output = ("r'", 0)
OUTPUTS = [BAD, GOOD]

R = sp.Rational


@dataclass
class HardInstance:
    """A lower-bound instance: the extended mechanism and the two datasets of the proof.

    ``oracle`` is the mechanism the algorithm calls (the extension itself, or for
    Theorem 10 the uniform mixture over the ``K`` settings); ``d0`` is where the
    algorithm is run, ``d1`` the dataset whose median is 1, ``distance`` their
    Hamming distance, ``T`` the call budget the instance was built against
    (Theorem 10: calls per setting, ``calls/K``).
    """

    theorem: str
    eps: sp.Expr
    T: sp.Expr
    Delta: int
    q: sp.Expr
    extension: Extension
    oracle: FiniteMechanism
    d0: Hashable
    d1: Hashable
    distance: int
    K: int = 1

    @property
    def mechanism(self) -> FiniteMechanism:
        return self.extension.mechanism


def _check_T(T: Any) -> sp.Expr:
    t = exact(T)
    if t.free_symbols:
        raise InvalidParameter(f"the call budget T must be a number, got {t}")
    if check_le(1, t).verdict.value != "holds":
        raise InvalidParameter(f"the call budget T must be >= 1, got {t}")
    return t


def theorem7_instance(
    eps: Any,
    T: Any,
    *,
    verify: bool = False,
    precision: Precision = DEFAULT_PRECISION,
) -> HardInstance:
    """Talwar 2025, Theorem 7's instance on ``{0,1}^Δ`` lumped by the distance to
    ``d0 = 0^Δ`` (``Δ + 1`` classes), ``Δ = ⌈ln(4T)/ε⌉``, ``q = e^{-εΔ}``."""
    e = check_epsilon(eps, precision=precision)
    t = _check_T(T)
    Delta = certified_ceil(sp.log(4 * t) / e, precision)
    q = sp.exp(-e * Delta)
    ext = extend_on_lumped_cube(
        Delta,
        {0: {GOOD: q, BAD: 1 - q}, Delta: {GOOD: 1 - q, BAD: q}},
        e,
        outputs=OUTPUTS,
        name=f"Thm 7 instance (Delta={Delta})",
        verify=verify,
        precision=precision,
    )
    return HardInstance("Theorem 7", e, t, Delta, q, ext, ext.mechanism, 0, Delta, Delta)


def _theorem9_extension(
    e: sp.Expr, t: sp.Expr, verify: bool, precision: Precision
) -> tuple[int, sp.Expr, Extension]:
    Delta = certified_ceil(sp.log(8 * t) / e, precision)
    n = 10 * Delta
    q = sp.exp(-e * Delta)
    partial: dict[int, dict[Output, sp.Expr]] = {0: {GOOD: 1 - q, BAD: q}}
    far = {GOOD: q, BAD: 1 - q}
    for j in range(Delta + 1, n + 1):
        partial[j] = far
    ext = extend_on_lumped_cube(
        n,
        partial,
        e,
        outputs=OUTPUTS,
        name=f"Thm 9 instance (Delta={Delta}, n={n})",
        verify=verify,
        precision=precision,
    )
    return Delta, q, ext


def theorem9_instance(
    eps: Any,
    T: Any,
    *,
    verify: bool = False,
    precision: Precision = DEFAULT_PRECISION,
) -> HardInstance:
    """Talwar 2025, Theorem 9's instance: ``{0,1}^{10Δ}`` lumped by the distance to
    the centre ``v = 1^{10Δ}`` (class ``j`` = distance ``j`` from ``v``), so
    ``d1 = v`` is class 0 and ``d0 = 0^{10Δ}`` is class ``10Δ``."""
    e = check_epsilon(eps, precision=precision)
    t = _check_T(T)
    Delta, q, ext = _theorem9_extension(e, t, verify, precision)
    n = 10 * Delta
    return HardInstance("Theorem 9", e, t, Delta, q, ext, ext.mechanism, n, 0, n)


def theorem10_instance(
    eps: Any,
    T: Any,
    K: int,
    k: int = 0,
    *,
    verify: bool = False,
    precision: Precision = DEFAULT_PRECISION,
) -> HardInstance:
    """Talwar 2025, Theorem 10's instance: ``K`` settings; setting ``k`` is
    Theorem 9's mechanism, every other setting outputs ``(r', 0)``.  The oracle
    the algorithms call is the uniform mixture over the settings
    (:func:`~verifier.algorithms.liu_talwar.uniform_selection`, Talwar 2025,
    Proposition 3's reduction); ``T`` is the budget per setting (calls ``≤ TK``)."""
    if isinstance(K, bool) or not isinstance(K, int) or K < 2:
        raise InvalidParameter(f"K must be an integer >= 2, got {K!r}")
    if not 0 <= k < K:
        raise InvalidParameter(f"the good setting k must lie in 0..{K - 1}, got {k}")
    e = check_epsilon(eps, precision=precision)
    t = _check_T(T)
    Delta, q, ext = _theorem9_extension(e, t, verify, precision)
    n = 10 * Delta
    const = FiniteMechanism(
        ext.mechanism.graph,
        {u: {BAD: sp.Integer(1)} for u in ext.mechanism.datasets},
        OUTPUTS,
        name="constant (r',0)",
        validate=False,
    )
    arms = [ext.mechanism if j == k else const for j in range(K)]
    oracle = uniform_selection(arms, name=f"Uniform over {K} settings")
    return HardInstance("Theorem 10", e, t, Delta, q, ext, oracle, n, 0, n, K)
