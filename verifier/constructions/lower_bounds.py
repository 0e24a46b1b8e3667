"""Talwar 2025, §3: the lower-bound instances of Theorems 7, 9 and 10, lumped by
distance so that their cubes never materialise, and exact checks of each proof's
chain of inequalities for a concrete oracle algorithm.

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
``T ≥ (8γ)^{-1/(40c)}/8``.  :func:`theorem9_counting` checks the counting fact
``Σ_{i≤Δ} C(10Δ,i)/2^{10Δ} ≤ (10e/1024)^Δ ≤ e^{-3Δ} ≤ 1/(8T)`` with big integers.

>>> import sympy as sp
>>> inst = theorem7_instance(sp.Rational(1, 10), 100)
>>> inst.Delta, inst.mechanism.graph.number_of_nodes()     # {0,1}^60 in 61 classes
(60, 61)
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from math import comb
from typing import Any

import sympy as sp

from ..algorithms.liu_talwar import uniform_selection, value_of
from ..algorithms.talwar import OracleAlgorithm, failure_probability
from ..arithmetic import DEFAULT_PRECISION, Precision, exact
from ..errors import InvalidParameter
from ..mechanism import FiniteMechanism, Output
from ..privacy import check_epsilon, check_pure_dp, check_rdp
from ..results import CheckResult, conjunction
from .exact import certified_ceil, check_eq, check_le
from .extension import Extension, extend_on_lumped_cube

__all__ = [
    "GOOD",
    "BAD",
    "HardInstance",
    "theorem7_instance",
    "theorem9_instance",
    "theorem10_instance",
    "theorem9_counting",
    "theorem7_bound",
    "theorem9_bound",
    "corollary8_bound",
    "lower_bound_chain",
    "corollary8_chain",
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
    Theorem 3's reduction); ``T`` is the budget per setting (calls ``≤ TK``)."""
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


def theorem9_counting(Delta: int, eps: Any | None = None, T: Any | None = None) -> CheckResult:
    """The counting fact of Talwar 2025, Theorem 9, exactly (Python big integers):

    ``|B_v|/2^{10Δ} = Σ_{i≤Δ} C(10Δ, i)/2^{10Δ} ≤ (10e/1024)^Δ ≤ e^{-3Δ}``, and
    ``e^{-3Δ} ≤ 1/(8T)`` when ``Δ = ⌈ln(8T)/ε⌉`` with ``ε ≤ 3`` (``eps``, ``T`` given).
    """
    if isinstance(Delta, bool) or not isinstance(Delta, int) or Delta < 1:
        raise InvalidParameter(f"Delta must be a positive integer, got {Delta!r}")
    n = 10 * Delta
    ball = sum(comb(n, i) for i in range(Delta + 1))
    frac = R(ball, 2**n)
    parts = [
        check_le(
            frac,
            (10 * sp.E / 1024) ** Delta,
            f"|B_v|/2^(10 Delta) <= (10e/1024)^Delta, Delta = {Delta}",
            note=f"|B_v| = {ball}",
        ),
        check_le(
            (10 * sp.E / 1024) ** Delta,
            sp.exp(-3 * Delta),
            f"(10e/1024)^Delta <= e^(-3 Delta), Delta = {Delta}",
        ),
    ]
    if eps is not None and T is not None:
        e, t = exact(eps), exact(T)
        parts.append(
            check_le(sp.exp(-3 * Delta), 1 / (8 * t), f"e^(-3 Delta) <= 1/(8T), T = {t}, eps = {e}")
        )
    return conjunction(f"Theorem 9 counting fact, Delta = {Delta}", parts)


# ---------------------------------------------------------------------------
# the bounds of Theorems 7/9/10 and Corollary 8
# ---------------------------------------------------------------------------


def theorem7_bound(c: Any, gamma: Any, exponent: Any = 4) -> sp.Expr:
    """``(8γ)^{-1/(exponent·c)}/4``: Theorem 7's ``T``-bound (``exponent = 4`` as
    proved for a fixed ε; ``2`` is the seed's "equivalently" form)."""
    return (8 * exact(gamma)) ** (-1 / (exact(exponent) * exact(c))) / 4


def theorem9_bound(c: Any, gamma: Any) -> sp.Expr:
    """``(8γ)^{-1/(40c)}/8`` (Talwar 2025, Theorems 9 and 10)."""
    return (8 * exact(gamma)) ** (-1 / (40 * exact(c))) / 8


def corollary8_bound(c: Any, gamma: Any, constant: Any = sp.E, exponent: Any = 4) -> sp.Expr:
    """``(κγ)^{-1/(exponent·e·c)}/4`` (Corollary 8): derived ``κ = 4^e``,
    ``exponent = 4``; printed ``κ = 4^4``, ``exponent = 2``."""
    kappa = 4 ** exact(constant)
    return (kappa * exact(gamma)) ** (-1 / (exact(exponent) * sp.E * exact(c))) / 4


def _event_prob(A_out: FiniteMechanism, d: Hashable, value: int) -> sp.Expr:
    return sp.Add(*[A_out.p(d, o) for o in A_out.outputs if value_of(o) == value])


def lower_bound_chain(
    inst: HardInstance,
    alg: OracleAlgorithm,
    *,
    step_exponent: Any = 4,
    precision: Precision = DEFAULT_PRECISION,
) -> CheckResult:
    """Check every step of Theorem 7's (or 9's/10's) proof for ``alg`` on ``inst``.

    Steps: the hypotheses (``T ≥ e^ε``; ``q ≤ 1/(4T)`` resp. ``1/(8T)``); the
    extension is a 2ε-DP mechanism agreeing with ``M`` on ``B``; ``Pr[A(d0) ∈ E] ≥ 1/4``
    for ``E`` = "value 0"; ``A∘M̂`` is ``2cε``-DP; group privacy
    ``Pr[A(d1) ∈ E] ≥ e^{-2cε·dist}/8``; utility ``Pr[A(d1) ∈ E] ≤ γ``; the exponent
    step ``e^{-2cε·dist} ≥ (4T)^{-step_exponent·c}`` (Theorem 9/10:
    ``(8T)^{-10·step_exponent·c}``); and the final ``T``-bound.  ``step_exponent = 2``
    is the step the seed's "equivalently" forms need.
    """
    e, c, T = inst.eps, alg.overhead, inst.T
    calls = alg.expected_calls if inst.K == 1 else alg.expected_calls / inst.K
    thm7 = inst.theorem == "Theorem 7"
    base = 4 if thm7 else 8
    A_out = alg.apply(inst.oracle)
    p_d0 = _event_prob(A_out, inst.d0, 0)
    p_d1 = _event_prob(A_out, inst.d1, 0)
    fail = failure_probability(A_out, inst.oracle, inst.d1, alg.quantile)
    gp = sp.exp(-2 * c * e * inst.distance)
    k = exact(step_exponent) * (1 if thm7 else 10)
    g = alg.failure_bound
    # T >= (8 gamma)^(-1/(k c))/base: Theorem 7 with k = 4 as proved (2: the seed's
    # "equivalently"); Theorems 9/10 with k = 40
    final = (8 * g) ** (-1 / (k * c)) / base
    parts = [
        check_eq(
            calls, T, f"runtime: the instance is built for T = E[calls]{'' if thm7 else '/K'}"
        ),
        check_le(sp.exp(e), T, "hypothesis T >= e^eps"),
        check_le(inst.q, 1 / (base * T), f"q = e^(-eps Delta) <= 1/({base}T)"),
        inst.extension.verification,
        check_le(R(1, 4), p_d0, "Pr[A(d0) has value 0] >= 1/4", quantity="probability"),
        check_pure_dp(
            A_out,
            2 * c * e,
            precision=precision,
            title=f"A o M_hat is 2*c*eps = {2 * c * e}-DP",
        ),
        check_le(
            gp / 8, p_d1, f"group privacy: Pr[A(d1) value 0] >= e^(-2c eps {inst.distance})/8"
        ),
        check_eq(p_d1, fail, "Pr[A(d1) value 0] is A's failure probability at d1"),
        check_le(fail, alg.failure_bound, "utility: failure at d1 <= gamma"),
        check_le(
            (base * T) ** (-k * c),
            gp,
            f"exponent step: e^(-2c eps {inst.distance}) >= ({base}T)^(-{k}c)",
        ),
        check_le(final, calls, f"final: E[calls] >= (8 gamma)^(-1/({k}c))/{base}"),
    ]
    return conjunction(f"{inst.theorem} proof chain for {alg.label} (c={c}, T={T})", parts)


def corollary8_chain(
    inst: HardInstance,
    alg: OracleAlgorithm,
    *,
    alpha: int | None = None,
    constant: Any = sp.E,
    step_exponent: Any = 4,
    precision: Precision = DEFAULT_PRECISION,
) -> CheckResult:
    """Corollary 8's chain (Theorem 7 with Prop. 6 in place of Prop. 5) for ``alg``
    on a Theorem 7 instance: ``A∘M̂`` is ``(α, 2cε)``-RDP with ``α = Δ + 1`` (default);
    ``Pr[A(d1) value 0] ≥ e^{-e(α-1)2cε}/κ`` with ``κ = 4^constant``; utility; the
    exponent step ``e^{-2ec(α-1)ε} ≥ (4T)^{-step_exponent·e·c}``; and the final
    ``T ≥ (κγ)^{-1/(step_exponent·e·c)}/4``."""
    if inst.theorem != "Theorem 7":
        raise InvalidParameter("Corollary 8 is stated for Theorem 7's instance")
    e, c, T = inst.eps, alg.overhead, inst.T
    a = inst.Delta + 1 if alpha is None else alpha
    kappa = 4 ** exact(constant)
    A_out = alg.apply(inst.oracle)
    p_d0 = _event_prob(A_out, inst.d0, 0)
    p_d1 = _event_prob(A_out, inst.d1, 0)
    lower = sp.exp(-sp.E * (a - 1) * 2 * c * e)
    parts = [
        check_eq(alg.expected_calls, T, "runtime: the instance is built for T = E[calls]"),
        check_le(inst.Delta + 1, a, "Prop. 6 needs alpha >= Delta + 1"),
        check_le(R(1, 4), p_d0, "Pr[A(d0) has value 0] >= 1/4"),
        check_rdp(
            A_out, a, 2 * c * e, precision=precision, title=f"A o M_hat is ({a}, 2c eps)-RDP"
        ),
        check_le(
            lower / kappa, p_d1, f"Prop. 6: Pr[A(d1) value 0] >= e^(-e(alpha-1)2c eps)/{kappa}"
        ),
        check_le(p_d1, alg.failure_bound, "utility: failure at d1 <= gamma"),
        check_le(
            (4 * T) ** (-exact(step_exponent) * sp.E * c),
            lower,
            f"exponent step: e^(-2ec(alpha-1)eps) >= (4T)^(-{step_exponent} e c)",
        ),
        check_le(
            corollary8_bound(c, alg.failure_bound, constant, step_exponent),
            alg.expected_calls,
            "final: T >= (kappa gamma)^(-1/(k e c))/4",
        ),
    ]
    return conjunction(f"Corollary 8 chain for {alg.label} (alpha={a})", parts)
