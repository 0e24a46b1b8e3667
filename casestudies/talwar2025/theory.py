"""Talwar 2025: the lower bounds of Theorems 7 and 9/10 and Corollary 8, the counting
fact of Theorem 9's proof, and each proof's chain of inequalities checked exactly for a
concrete oracle algorithm on the lumped lower-bound instances
(:mod:`verifier.constructions.lower_bounds`).

Theorem 7's chain for an algorithm ``A`` with overhead ``c``, ``T`` expected calls and
failure ``γ`` (instance ``{0,1}^Δ``, ``Δ = ⌈ln(4T)/ε⌉``, ``q = e^{-εΔ} ≤ 1/(4T)``):

1. ``Pr[A(d0) = (r',0)] ≥ 1/4`` (Markov: ``A`` rarely sees ``(r,1)`` at ``d0``);
2. ``A∘M̂`` is ``2cε``-DP, so (Prop. 5, or Prop. 4 for pure DP)
   ``Pr[A(d1) = (r',0)] ≥ e^{-2cεΔ}/8``;
3. utility: the left side is at most ``γ`` (the median of ``M(d1)`` is 1);
4. ``e^{-2cεΔ} ≥ (4T)^{-4c}`` because ``εΔ < ln(4T) + ε ≤ 2 ln(4T)`` when
   ``T ≥ e^ε``; hence ``γ ≥ (4T)^{-4c}/8``, i.e. ``T ≥ (8γ)^{-1/(4c)}/4``.

Corollary 8 replaces step 2 by Prop. 6 (RDP at order ``α ≥ Δ + 1``):
``Pr[A(d1) = (r',0)] ≥ e^{-e(α-1)·2cε}/4^e``, hence with ``α = Δ + 1``
``T ≥ (4^e γ)^{-1/(4ec)}/4``.  Theorems 9/10 end in ``T ≥ (8γ)^{-1/(40c)}/8`` through
the counting fact ``Σ_{i≤Δ} C(10Δ,i)/2^{10Δ} ≤ (10e/1024)^Δ ≤ e^{-3Δ} ≤ 1/(8T)``
(:func:`theorem9_counting`, with big integers).
"""

from __future__ import annotations

from collections.abc import Hashable
from math import comb
from typing import Any

import networkx as nx
import sympy as sp

from verifier.algorithms.liu_talwar import value_of
from verifier.algorithms.talwar import OracleAlgorithm, failure_probability
from verifier.arithmetic.exact import DEFAULT_PRECISION, Precision, exact
from verifier.checks.certified import check_eq, check_le
from verifier.checks.privacy import check_pure_dp, check_rdp, rdp_epsilon
from verifier.checks.results import CheckResult, conjunction
from verifier.constructions.lower_bounds import HardInstance
from verifier.errors import InvalidParameter
from verifier.mechanism.compose import events
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pairs_at_distance

__all__ = [
    "theorem9_counting",
    "theorem7_bound",
    "theorem9_bound",
    "corollary8_bound",
    "lower_bound_chain",
    "corollary8_chain",
    "rdp_chain",
]

R = sp.Rational


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


def theorem7_bound(c: Any, gamma: Any, exponent: Any = 4) -> sp.Expr:
    """``(8γ)^{-1/(exponent·c)}/4``: Theorem 7's ``T``-bound (``exponent = 4`` as
    proved for a fixed ε; ``2`` is the printed "equivalently" form)."""
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
    is the step the printed "equivalently" forms need.
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
    # T >= (8 gamma)^(-1/(k c))/base: Theorem 7 with k = 4 as proved (2: the printed
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
            epsilon=2 * c * e,
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
            A_out,
            alpha=a,
            epsilon=2 * c * e,
            precision=precision,
            title=f"A o M_hat is ({a}, 2c eps)-RDP",
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


def _prob(m: FiniteMechanism, d: Hashable, ev: frozenset[Any]) -> sp.Expr:
    return sp.Add(*[m.p(d, o) for o in ev])


def rdp_chain(m: FiniteMechanism, a: sp.Expr, name: str = "") -> CheckResult:
    """Prop. 6's first part on one mechanism of a path: for every ``k``, every pair at
    distance ``k`` and every event, ``Pr[M(d_k) ∈ E] <= e^{ε S_k} Pr[M(d_0) ∈ E]^{r^k}``
    with ``ε`` the exact RDP ε at order ``a``, ``r = 1 - 1/a``, ``S_k = Σ_{i<=k} r^i``."""
    eps = rdp_epsilon(m, alpha=a).value
    r = 1 - 1 / a
    kmax = max(nx.eccentricity(m.graph).values())
    parts = []
    for k in range(1, kmax + 1):
        S = sp.Add(*[r**i for i in range(1, k + 1)])
        for d0, dk in pairs_at_distance(m.graph, k):
            for ev in [*events(m.outputs), frozenset(m.outputs)]:
                parts.append(
                    check_le(
                        _prob(m, dk, ev),
                        sp.exp(eps * S) * _prob(m, d0, ev) ** (r**k),
                        output=tuple(sorted(map(str, ev))),
                        pair=(d0, dk),
                    )
                )
    return conjunction(f"Prop. 6, first part on {name or m.name} (alpha = {a})", parts)
