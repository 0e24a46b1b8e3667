"""Talwar 2025: the displayed steps of the proofs of Proposition 2 (the construction it
cites), Theorems 7, 9 and 10 that the chain claims (``talwar2025.thm7.chain``, ...)
do not check one by one — each a claim of kind ``proof-step`` on the proof's
instances, the scalar ones also by worst-case search over rational grids.

The chains (:func:`.theory.lower_bound_chain`) already decide, per algorithm, the
hypotheses ``T >= e^ε`` and ``q <= 1/(4T)``, the extension, ``Pr[A(d0) = (r',0)] >=
1/4``, the ``2cε``-DP of ``A∘M̂``, group privacy, utility and the exponent step; the
claims here add the specification's ε-DP, Markov's inequality, the union bound over
the runs, the exponent bound ``εΔ <= 2 ln 4T``, the δ condition and the final
rearrangement, and the four steps of the extension's construction.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any

import networkx as nx
import sympy as sp

from casestudies import claim
from verifier.algorithms.talwar import a_lt, a_max
from verifier.certified import certified_ceil, check_all_le, check_le
from verifier.constructions.extension import extend
from verifier.constructions.lower_bounds import theorem7_instance, theorem9_instance
from verifier.instances import random_mechanism, truncated_geometric
from verifier.results import CheckResult, conjunction, implication
from verifier.search.inequalities import GridSpace, inequality_search

F = Fraction
R = sp.Rational
SRC = "Talwar 2025"


def _q(x: Any) -> Fraction:
    v = sp.Rational(x)
    return F(int(v.p), int(v.q))


# ===========================================================================
# Proposition 2: the construction (Borgs, Chayes, Smith, Zadik 2018)
# ===========================================================================


def _prop2_cases() -> list[tuple[str, Any, dict[Any, dict[Any, Fraction]], Fraction]]:
    """(name, graph, p_b on B, a = e^ε): restrictions of ε-DP mechanisms with rational
    probabilities to a subset (the premise holds by group privacy)."""
    out = []
    for name, g, B, seed in (
        ("cycle C7", nx.cycle_graph(7), [0, 3], 0),
        ("Petersen", nx.petersen_graph(), [0, 7, 9], 1),
        ("3x3 grid", nx.grid_2d_graph(3, 3), [(0, 0), (2, 2), (0, 2)], 2),
    ):
        m = random_mechanism(g, 3, seed=seed, name=name)
        a = max(_q(m.p(d, o)) / _q(m.p(d2, o)) for d, d2 in m.ordered_pairs() for o in m.outputs)
        out.append((name, g, {b: {o: _q(m.p(b, o)) for o in m.outputs} for b in B}, a))
    tg = truncated_geometric(4, R(1, 3))
    out.append(
        (
            "TGeom_4 ends",
            tg.graph,
            {b: {o: _q(tg.p(b, o)) for o in tg.outputs} for b in (0, 4)},
            F(3),
        )
    )
    return out


class _Ext:
    """``m_d(o) = min_b e^{ε dist(d,b)} p_b(o)`` and ``Z_d = Σ_o m_d(o)``, in rationals."""

    def __init__(self, name: str, g: Any, partial: dict[Any, dict[Any, Fraction]], a: Fraction):
        self.name, self.g, self.partial, self.a = name, g, partial, a
        self.outs = sorted({o for d in partial.values() for o in d})
        dist = {b: nx.single_source_shortest_path_length(g, b) for b in partial}
        self.m = {
            d: {o: min(a ** dist[b][d] * partial[b][o] for b in partial) for o in self.outs}
            for d in g.nodes
        }
        self.Z = {d: sum(self.m[d].values(), F(0)) for d in g.nodes}

    def edges(self) -> Iterator[tuple[Any, Any]]:
        for u, v in self.g.edges:
            yield u, v
            yield v, u


def _exts() -> list[_Ext]:
    return [_Ext(*c) for c in _prop2_cases()]


@claim(
    id="talwar2025.prop2.step.min_lipschitz",
    source=f"{SRC}, §2, Prop. 2, the construction it cites, line 'm_d(o) = min_b e^(eps dist(d,b)) p_b(o)'",
    statement="for neighbours d ~ d', m_d(o) <= e^eps m_d'(o) (every distance changes by at most one)",
    expected="holds",
    kind="proof-step",
    instances="random mechanisms restricted to B on a 7-cycle, the Petersen graph and a 3x3 grid; "
    "TGeom_4 at its ends",
)
def prop2_min_lipschitz() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for e in _exts():
            for d, d2 in e.edges():
                for o in e.outs:
                    yield (e.name, d, d2, o), e.m[d][o], e.a * e.m[d2][o]

    return check_all_le("m_d(o) <= e^eps m_d'(o)", rows())


@claim(
    id="talwar2025.prop2.step.normaliser",
    source=f"{SRC}, §2, Prop. 2, the construction it cites, line 'p_hat_d = m_d / Σ_o m_d(o)'",
    statement="the normaliser Z_d = Σ_o m_d(o) moves by at most e^eps between neighbours, so "
    "p_hat_d(o)/p_hat_d'(o) = (m_d(o)/m_d'(o)) (Z_d'/Z_d) <= e^(2 eps)",
    expected="holds",
    kind="proof-step",
    instances="the four extension instances, every edge and output",
)
def prop2_normaliser() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for e in _exts():
            for d, d2 in e.edges():
                yield (e.name, d, d2, "Z"), e.Z[d], e.a * e.Z[d2]
                for o in e.outs:
                    if e.m[d2][o] != 0:
                        yield (
                            (e.name, d, d2, o),
                            (e.m[d][o] / e.Z[d]) / (e.m[d2][o] / e.Z[d2]),
                            e.a**2,
                        )

    return check_all_le("the normaliser and the factor 2", rows())


@claim(
    id="talwar2025.prop2.step.agrees_on_B",
    source=f"{SRC}, §2, Prop. 2, the construction it cites, line 'at b in B the premise makes p_b(o) "
    "the minimum'",
    statement="for b in B the minimum is attained at b itself (the premise p_b(o) <= e^(eps dist(b,b')) "
    "p_b'(o)), so m_b = p_b, Z_b = 1 and p_hat_b = p_b; and p_hat = m/Z is the library's extension",
    expected="holds",
    kind="proof-step",
    instances="the four extension instances",
)
def prop2_agrees_on_B() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for e in _exts():
            for b, dist in e.partial.items():
                yield (e.name, b, "Z_b"), e.Z[b], F(1)
                yield (e.name, b, "1 <= Z_b"), F(1), e.Z[b]
                for o in e.outs:
                    yield (e.name, b, o, "m_b = p_b"), dist[o], e.m[b][o]
                    yield (e.name, b, o, "p_b = m_b"), e.m[b][o], dist[o]
            a = sp.log(R(e.a.numerator, e.a.denominator))
            ext = extend(
                e.g,
                {
                    b: {o: R(v.numerator, v.denominator) for o, v in d.items()}
                    for b, d in e.partial.items()
                },
                a,
                outputs=e.outs,
                verify=False,
            )
            for d in e.g.nodes:
                for o in e.outs:
                    got = _q(ext.mechanism.p(d, o))
                    want = e.m[d][o] / e.Z[d]
                    yield (e.name, d, o, "library <= m/Z"), got, want
                    yield (e.name, d, o, "m/Z <= library"), want, got

    return check_all_le("the extension agrees with p_b on B", rows())


# ===========================================================================
# Theorem 7, §3
# ===========================================================================

T7_CASES = [(R(1, 10), a_lt(R(1, 100))), (R(1, 18), a_max(7))]


@claim(
    id="talwar2025.thm7.step.specification_dp",
    source=f"{SRC}, §3, proof of Theorem 7, the line 'this specification on {{d0, d1}} satisfies eps-DP'",
    statement="(1-q)/q <= 1/q = e^(eps |d0 - d1|_H) with q = e^(-eps Delta) and |d0 - d1| = Delta",
    expected="holds",
    kind="proof-step",
    instances="eps = 1/10 with T = 100 (Delta = 60), eps = 1/18 with T = 7 (Delta = 60)",
)
def thm7_specification_dp() -> CheckResult:
    parts = []
    for eps, alg in T7_CASES:
        inst = theorem7_instance(eps, alg.expected_calls)
        q = inst.q
        parts.append(
            check_le((1 - q) / q, sp.exp(eps * inst.distance), f"eps = {eps}, Delta = {inst.Delta}")
        )
    return conjunction("the specification is eps-DP", parts)


def _calls_tail(alg: Any, T: sp.Expr) -> sp.Expr:
    """``Pr[the algorithm makes more than 2T calls]``: geometric for ``A_LT``
    (``(1-γ)^{2T}``), zero for ``A_max^T``."""
    if alg.label.startswith("A_LT"):
        g = 1 / alg.expected_calls
        return (1 - g) ** (2 * T)
    return sp.Integer(0)


@claim(
    id="talwar2025.thm7.step.markov_and_union",
    source=f"{SRC}, §3, proof of Theorem 7, the paragraph 'Consider a run of A(d0)' (its three lines)",
    statement="Pr[E] >= 1/2 for E = 'at most 2T calls' (Markov: Pr[N > 2T] <= E[N]/(2T)); given E, "
    "(r, 1) appears among the runs with probability <= 1 - (1-q)^(2T) <= 2qT <= 1/2; so "
    "Pr[A(d0) = (r', 0)] >= (1/2)(1/2) = 1/4",
    expected="holds",
    kind="proof-step",
    instances="A_LT (T = 100, eps = 1/10) and A_max^7 (eps = 1/18), Theorem 7's instances",
)
def thm7_markov_union() -> CheckResult:
    parts = []
    for eps, alg in T7_CASES:
        inst = theorem7_instance(eps, alg.expected_calls)
        T, q = inst.T, inst.q
        tail = _calls_tail(alg, T)
        parts += [
            check_le(tail, alg.expected_calls / (2 * T), f"{alg.label}: Markov"),
            check_le(tail, R(1, 2), f"{alg.label}: Pr[E] >= 1/2"),
            check_le(1 - (1 - q) ** (2 * T), 2 * q * T, f"{alg.label}: union bound"),
            check_le(2 * q * T, R(1, 2), f"{alg.label}: 2qT <= 1/2"),
        ]
    return conjunction("Markov and the union bound", parts)


def _exponent_sides(
    v: Mapping[str, sp.Expr], base: int, factor: int
) -> tuple[list[tuple[Any, Any]], tuple[Any, Any]]:
    e, T = v["eps"], v["T"]
    Delta = certified_ceil(sp.log(base * T) / e)
    return [(sp.exp(e), T)], (e * Delta, factor * sp.log(base * T))


def _eps_T_space(max_eps: Fraction) -> GridSpace:
    import math

    eps = tuple(F(k, 100) for k in range(1, 301) if F(k, 100) <= max_eps)
    Ts = tuple(F(t) for t in (1, 2, 3, 5, 7, 10, 20, 30, 50, 100, 200, 1000, 10**4, 10**6))
    return GridSpace(
        ("eps", "T"), (eps, Ts), lambda v: math.exp(float(v["eps"])) <= float(v["T"]) * (1 - 1e-12)
    )


@claim(
    id="talwar2025.thm7.step.exponent_bound",
    source=f"{SRC}, §3, proof of Theorem 7, the line 'Since e^(-2c eps Delta) >= e^(-4c ln 4T)'",
    statement="with Delta = ceil(ln(4T)/eps) and T >= e^eps: eps Delta <= ln(4T) + eps <= 2 ln(4T), so "
    "e^(-2c eps Delta) >= e^(-4c ln 4T) = (4T)^(-4c)",
    expected="holds",
    kind="proof-step",
    instances="eps in {1/100, 1/10, 1/2, 1, 2, 3} x T in {3, 7, 21, 100, 10^6} with T >= e^eps",
    search=inequality_search(
        "talwar2025.thm7.step.exponent_bound",
        _eps_T_space(F(3)),
        lambda v: _exponent_sides(v, 4, 2),
        "eps ceil(ln(4T)/eps) <= 2 ln(4T) when T >= e^eps",
        f"{SRC}, §3, proof of Theorem 7",
    ),
)
def thm7_exponent_bound() -> CheckResult:
    parts = []
    for e in (R(1, 100), R(1, 10), R(1, 2), R(1), R(2), R(3)):
        for T in (3, 7, 21, 100, 10**6):
            if check_le(sp.exp(e), T).verdict.value != "holds":
                continue
            _, (lhs, rhs) = _exponent_sides({"eps": e, "T": sp.Integer(T)}, 4, 2)
            parts.append(check_le(lhs, rhs, f"eps = {e}, T = {T}"))
    return conjunction("eps Delta <= 2 ln 4T", parts)


@claim(
    id="talwar2025.thm7.step.delta_condition",
    source=f"{SRC}, §3, proof of Theorem 7, the line 'By Proposition 5, it follows that for delta < "
    "e^(-2c eps Delta)/(8 Delta)'",
    statement="the statement's delta < eps gamma/(4 ln 4T) gives Prop. 5's delta < e^(-2c eps Delta)/"
    "(8 Delta) at every gamma < e^(-2c eps Delta)/8 (the case the proof rules out): it needs "
    "eps Delta <= 4 ln(4T)",
    expected="holds",
    kind="proof-step",
    instances="the exponent-bound grid",
    search=inequality_search(
        "talwar2025.thm7.step.delta_condition",
        _eps_T_space(F(3)),
        lambda v: _exponent_sides(v, 4, 4),
        "eps ceil(ln(4T)/eps) <= 4 ln(4T) when T >= e^eps",
        f"{SRC}, §3, proof of Theorem 7",
    ),
)
def thm7_delta_condition() -> CheckResult:
    parts = []
    for e in (R(1, 100), R(1, 10), R(1), R(3)):
        for T in (21, 100, 10**6):
            _, (lhs, rhs) = _exponent_sides({"eps": e, "T": sp.Integer(T)}, 4, 4)
            parts.append(check_le(lhs, rhs, f"eps = {e}, T = {T}"))
    return conjunction("the delta condition", parts)


@claim(
    id="talwar2025.thm7.step.rearrange",
    source=f"{SRC}, §3, proof of Theorem 7, the last line ('Rearranging, we get the claimed result')",
    statement="gamma >= (4T)^(-4c)/8 implies T >= (8 gamma)^(-1/(4c))/4 (the two are equivalent; "
    "checked as an implication on a grid of (c, T, gamma) including the boundary)",
    expected="holds",
    kind="proof-step",
    instances="c in {1, 2, 3, 6}, T = 2^a (a = 0..8), gamma = 2^-b at and around (4T)^(-4c)/8",
)
def thm7_rearrange() -> CheckResult:
    parts = []
    for c in (1, 2, 3, 6):
        for a in range(0, 9, 2):
            T = sp.Integer(2) ** a
            b0 = 4 * c * (a + 2) + 3  # (4T)^(-4c)/8 = 2^(-b0)
            for b in (b0 - 1, b0, b0 + 1):
                g = R(1, 2**b)
                parts.append(
                    implication(
                        f"c = {c}, T = 2^{a}, gamma = 2^-{b}",
                        check_le((4 * T) ** (-4 * c) / 8, g, "gamma >= (4T)^(-4c)/8"),
                        check_le((8 * g) ** (-R(1, 4 * c)) / 4, T, "T >= (8 gamma)^(-1/(4c))/4"),
                    )
                )
    return conjunction("rearranging", parts)


# ===========================================================================
# Theorems 9 and 10, §3.1 and §3.2
# ===========================================================================

T9_CASES = [(R(1, 10), R(50)), (R(1), R(100)), (R(3), R(10**6))]


@claim(
    id="talwar2025.thm9.step.union",
    source=f"{SRC}, §3.1, proof of Theorem 9, the display 'Pr[M_v(d) = (r,1)] <= ...' and the line after it",
    statement="q = e^(-eps Delta) <= 1/(8T) (Delta = ceil(ln(8T)/eps)), so Pr[M_v(d) = (r,1)] <= "
    "1/(8T) + q <= 1/(4T), and over at most 2T runs 2T/(4T) = 1/2",
    expected="holds",
    kind="proof-step",
    instances="(eps, T) in {(1/10, 50), (1, 100), (3, 10^6)}",
)
def thm9_union() -> CheckResult:
    parts = []
    for e, T in T9_CASES:
        Delta = certified_ceil(sp.log(8 * T) / e)
        q = sp.exp(-e * Delta)
        parts += [
            check_le(q, 1 / (8 * T), f"eps = {e}, T = {T}: q <= 1/(8T)"),
            check_le(1 / (8 * T) + q, 1 / (4 * T), f"eps = {e}, T = {T}: 1/(8T) + q <= 1/(4T)"),
            check_le(2 * T / (4 * T), R(1, 2), "2T runs"),
        ]
    inst = theorem9_instance(R(1, 10), 50)
    parts.append(check_le(inst.q, 1 / (8 * inst.T), "the lumped instance (Delta = 60)"))
    return conjunction("Theorem 9: the union bound", parts)


@claim(
    id="talwar2025.thm9.step.exponent_bound",
    source=f"{SRC}, §3.1, proof of Theorem 9, the line 'Since e^(-20c eps Delta) >= e^(-40c ln 8T)'",
    statement="with Delta = ceil(ln(8T)/eps) and T >= e^eps: eps Delta <= 2 ln(8T), so "
    "e^(-20c eps Delta) >= (8T)^(-40c)",
    expected="holds",
    kind="proof-step",
    instances="eps in {1/100, 1/10, 1, 3} x T in {21, 100, 10^6}",
    search=inequality_search(
        "talwar2025.thm9.step.exponent_bound",
        _eps_T_space(F(3)),
        lambda v: _exponent_sides(v, 8, 2),
        "eps ceil(ln(8T)/eps) <= 2 ln(8T) when T >= e^eps",
        f"{SRC}, §3.1, proof of Theorem 9",
    ),
)
def thm9_exponent_bound() -> CheckResult:
    parts = []
    for e in (R(1, 100), R(1, 10), R(1), R(3)):
        for T in (21, 100, 10**6):
            _, (lhs, rhs) = _exponent_sides({"eps": e, "T": sp.Integer(T)}, 8, 2)
            parts.append(check_le(lhs, rhs, f"eps = {e}, T = {T}"))
    return conjunction("eps Delta <= 2 ln 8T", parts)


@claim(
    id="talwar2025.thm10.step.union",
    source=f"{SRC}, §3.2, proof of Theorem 10, the display 'Pr[M_(v,k)(d,j) = (r,1)] <= ...' and the "
    "line after it",
    statement="Pr[j = k and d in B_v] + Pr[j = k] Pr[M_v(d) = (r,1) | ...] <= 1/(8TK) + q/K <= 1/(4TK); "
    "over at most 2TK runs 2TK/(4TK) = 1/2",
    expected="holds",
    kind="proof-step",
    instances="(eps, T) in {(1/10, 50), (1, 100), (3, 10^6)}, K in {2, 3, 10}",
)
def thm10_union() -> CheckResult:
    parts = []
    for e, T in T9_CASES:
        Delta = certified_ceil(sp.log(8 * T) / e)
        q = sp.exp(-e * Delta)
        for K in (2, 3, 10):
            parts.append(
                check_le(1 / (8 * T * K) + q / K, 1 / (4 * T * K), f"eps = {e}, T = {T}, K = {K}")
            )
    return conjunction("Theorem 10: the union bound", parts)
