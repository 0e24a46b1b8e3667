"""Hartmann et al. 2022: the numbered statements not covered by :mod:`.claims` —
iterative mechanisms (Algorithm 3, Lemmas 11–14), Chaudhuri et al.'s sensitivity
bound (Theorem 16, Algorithm 4) in one dimension with certified minimisers, the
test-set half of Lemma 21, and the quantity Figure 2 plots.

Iterative mechanisms are two-step: ``M_1`` runs, a deterministic stopping criterion
decides on its output, and ``M_2`` (which may depend on that output) runs if not
stopped; the output is the sequence, partitioned by its length (Hartmann et al.
2022, §5).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import sympy as sp

from casestudies import claim
from verifier.arithmetic import Sign, decide_sign
from verifier.certified import check_all_le, check_le
from verifier.instances import random_mechanism
from verifier.laplace import check_laplace_mixtures_dp
from verifier.mechanism import FiniteMechanism
from verifier.neighbours import pair
from verifier.odp import ODPGuarantee, Partition, check_odp
from verifier.privacy import pure_epsilon
from verifier.results import CheckResult, conjunction

F = Fraction
R = sp.Rational
SRC = "Hartmann et al. 2022"


def _q(x: Any) -> Fraction:
    v = sp.Rational(x)
    return F(int(v.p), int(v.q))


# ---------------------------------------------------------------------------
# iterative mechanisms (Algorithm 3)
# ---------------------------------------------------------------------------


def iterative(
    m1: FiniteMechanism,
    stop: Callable[[Any], bool],
    m2: Callable[[Any], FiniteMechanism],
    name: str,
) -> FiniteMechanism:
    """Hartmann et al. 2022, Algorithm 3 with two steps: output ``(y1,)`` if
    ``stop(y1)``, else ``(y1, y2)`` with ``y2 ~ m2(y1)`` (all on ``m1``'s graph)."""
    outs: list[Any] = []
    dists: dict[Any, dict[Any, sp.Expr]] = {d: {} for d in m1.datasets}
    for y1 in m1.outputs:
        if stop(y1):
            outs.append((y1,))
            for d in m1.datasets:
                dists[d][(y1,)] = m1.p(d, y1)
        else:
            nxt = m2(y1)
            for y2 in nxt.outputs:
                outs.append((y1, y2))
                for d in m1.datasets:
                    dists[d][(y1, y2)] = m1.p(d, y1) * nxt.p(d, y2)
    return FiniteMechanism(m1.graph, dists, outs, name=name, validate=False)


def _kairouz(e: Any, d: Any) -> FiniteMechanism:
    """Kairouz et al.'s ``RR_{ε,δ}`` (Hartmann et al. 2022, Lemma 12) on the pair, with
    ``e = e^ε``: outputs 0..3."""
    e, d = sp.sympify(e), sp.sympify(d)
    hi, lo = (1 - d) * e / (1 + e), (1 - d) / (1 + e)
    return FiniteMechanism(
        pair(),
        {"D": {0: d, 1: hi, 2: lo, 3: 0}, "D'": {0: 0, 1: lo, 2: hi, 3: d}},
        [0, 1, 2, 3],
        name=f"RR_(log {e}, {d})",
    )


def _length_partition(m: FiniteMechanism) -> Partition:
    return Partition.from_key(m.outputs, len)


def _iterative_cases() -> list[tuple[FiniteMechanism, Any, Any, Any, Any]]:
    """(iterative mechanism, eps1, delta1, eps2, delta2) with each step (eps_i, delta_i)-DP."""
    a = random_mechanism(pair(), 3, seed=31, denominator=10, name="random3[31]")
    b = random_mechanism(pair(), 2, seed=36, denominator=10, name="random2[36]")
    c = random_mechanism(pair(), 3, seed=33, denominator=10, name="random3[33]")
    ea, eb, ec = (pure_epsilon(m).value for m in (a, b, c))
    out = [
        (
            iterative(a, lambda y: y == 0, lambda y: b if y == 1 else c, "adaptive"),
            ea,
            0,
            sp.Max(eb, ec),
            0,
        ),
        (iterative(a, lambda y: y != 2, lambda y: b, "stop unless 2"), ea, 0, eb, 0),
    ]
    r1, r2 = _kairouz(2, R(1, 20)), _kairouz(3, R(1, 50))
    out.append(
        (
            iterative(r1, lambda y: y in (1, 3), lambda y: r2, "RR_(eps,delta) twice"),
            sp.log(2),
            R(1, 20),
            sp.log(3),
            R(1, 50),
        )
    )
    return out


@claim(
    id="hartmann2022.lemma11.iterative",
    source=f"{SRC}, §5.1, Lemma 11 (with the simple composition theorem)",
    statement="a two-step iterative mechanism (Algorithm 3) whose steps are (eps_i, delta_i)-DP is "
    "(P, e, delta)-ODP for the partition by length with e(S_1) = eps_1, e(S_2) = eps_1 + eps_2 and "
    "delta = delta_(S_1) + delta_(S_2) = delta_1 + (delta_1 + delta_2) (adaptive second steps included)",
    expected="holds",
    instances="random mechanisms with their exact eps (adaptive and fixed second step); Kairouz's "
    "RR_(eps,delta) twice with a stopping rule",
)
def lemma11() -> CheckResult:
    parts = []
    for m, e1, d1, e2, d2 in _iterative_cases():
        part = _length_partition(m)
        g = ODPGuarantee.of(part, {1: e1, 2: e1 + e2}, d1 + (d1 + d2))
        parts.append(check_odp(m, g, title=f"Lemma 11 on {m.name}"))
    return conjunction("Lemma 11", parts)


@claim(
    id="hartmann2022.lemma14.post_processing",
    source=f"{SRC}, §5.2, Lemma 14",
    statement="post-processing every step of an iterative mechanism whose steps do not depend on the "
    "previous outputs by randomized functions keeps its (P, e, delta)-ODP guarantee (partition by length)",
    expected="holds",
    instances="the non-adaptive iterative mechanisms of Lemma 11 with random stochastic maps per step",
)
def lemma14() -> CheckResult:
    import random

    from verifier.instances import random_rational_distribution

    rng = random.Random(14)
    parts = []
    for m, e1, d1, e2, d2 in _iterative_cases()[1:]:
        # f_1: y1 -> z1 in {0, 1}; f_2: (y1, y2) -> z2 in {0, 1} (may depend on y1)
        f1 = {o[0]: random_rational_distribution(2, rng, 6) for o in m.outputs}
        f2 = {o[:2]: random_rational_distribution(2, rng, 6) for o in m.outputs if len(o) == 2}
        dists: dict[Any, dict[Any, sp.Expr]] = {d: {} for d in m.datasets}
        for o in m.outputs:
            for z1 in (0, 1):
                if len(o) == 1:
                    key: Any = (z1,)
                    for d in m.datasets:
                        dists[d][key] = dists[d].get(key, 0) + m.p(d, o) * f1[o[0]][z1]
                else:
                    for z2 in (0, 1):
                        key = (z1, z2)
                        for d in m.datasets:
                            dists[d][key] = (
                                dists[d].get(key, 0) + m.p(d, o) * f1[o[0]][z1] * f2[o][z2]
                            )
        outs = sorted({k for row in dists.values() for k in row}, key=lambda k: (len(k), k))
        post = FiniteMechanism(
            m.graph,
            {d: {k: dists[d].get(k, 0) for k in outs} for d in dists},
            outs,
            name=f"post-processed {m.name}",
            validate=False,
        )
        g = ODPGuarantee.of(_length_partition(post), {1: e1, 2: e1 + e2}, d1 + (d1 + d2))
        parts.append(check_odp(post, g, title=f"Lemma 14 on {m.name}"))
    return conjunction("Lemma 14", parts)


def _rr_map(
    P: Sequence[Fraction], Q: Sequence[Fraction], e: Fraction, d: Fraction
) -> list[list[Fraction]]:
    """The post-processing ``T`` (rows: the outputs 0..3 of ``RR_{ε,δ}``) with
    ``RR(x^0) T = P`` and ``RR(x^1) T = Q``, for a pair with ``Σ(P - eQ)^+ = Σ(Q - eP)^+ =
    δ``: ``P' = min(P, eQ)``, ``Q' = min(Q, eP)`` (ratios within ``[1/e, e]``, masses
    ``1 - δ``), ``T_0 = (P - P')/δ``, ``T_3 = (Q - Q')/δ``, ``T_1 = (eP' - Q')/((1-δ)(e-1))``,
    ``T_2 = (eQ' - P')/((1-δ)(e-1))``."""
    Pp = [min(p, e * q) for p, q in zip(P, Q, strict=True)]
    Qp = [min(q, e * p) for p, q in zip(P, Q, strict=True)]
    n = len(P)
    t0 = [(p - pp) / d for p, pp in zip(P, Pp, strict=True)] if d else [F(1, n)] * n
    t3 = [(q - qp) / d for q, qp in zip(Q, Qp, strict=True)] if d else [F(1, n)] * n
    k = (1 - d) * (e - 1)
    t1 = [(e * pp - qp) / k for pp, qp in zip(Pp, Qp, strict=True)]
    t2 = [(e * qp - pp) / k for pp, qp in zip(Pp, Qp, strict=True)]
    return [t0, t1, t2, t3]


@claim(
    id="hartmann2022.lemma12.rr_post_processing",
    source=f"{SRC}, §5.2, Lemma 12 (Kairouz et al.)",
    statement="for an (eps, delta)-DP pair (P, Q) there is a stochastic map T with RR_(eps,delta)(x^0) T = P "
    "and RR_(eps,delta)(x^1) T = Q: the explicit map (P' = min(P, e^eps Q), Q' = min(Q, e^eps P)) is "
    "stochastic and reproduces both distributions exactly",
    expected="holds",
    instances="pairs with equal hockey-stick mass in both directions (three outputs, e^eps in {3/2, 2, 3}) and "
    "pure pairs at their exact ratio (delta = 0)",
)
def lemma12() -> CheckResult:
    def pairs() -> list[tuple[list[Fraction], list[Fraction], Fraction]]:
        out = []
        for P in (
            [F(1, 10), F(3, 10), F(3, 5)],
            [F(1, 20), F(9, 20), F(1, 2)],
            [F(1, 4), F(1, 2), F(1, 4)],
        ):
            Q = list(reversed(P))
            for e in (F(3, 2), F(2), F(3)):
                out.append((P, Q, e))
        for seed in (31, 32, 36, 41):
            m = random_mechanism(pair(), 3, seed=seed, denominator=10)
            P = [_q(m.p("D", o)) for o in m.outputs]
            Q = [_q(m.p("D'", o)) for o in m.outputs]
            e = max(max(p / q, q / p) for p, q in zip(P, Q, strict=True))
            out.append((P, Q, e))
        return out

    def rows() -> Any:
        for n, (P, Q, e) in enumerate(pairs()):
            dP = sum((max(F(0), p - e * q) for p, q in zip(P, Q, strict=True)), F(0))
            dQ = sum((max(F(0), q - e * p) for p, q in zip(P, Q, strict=True)), F(0))
            yield (n, "equal masses"), dP, dQ
            yield (n, "equal masses'"), dQ, dP
            d = dP
            T = _rr_map(P, Q, e, d)
            hi, lo = (1 - d) * e / (1 + e), (1 - d) / (1 + e)
            rr0, rr1 = [d, hi, lo, F(0)], [F(0), lo, hi, d]
            for r, row in enumerate(T):
                yield (n, r, "row sums to 1"), sum(row, F(0)), F(1)
                yield (n, r, "row sums to 1'"), F(1), sum(row, F(0))
                for k, x in enumerate(row):
                    yield (n, r, k, "T >= 0"), F(0), x
            for k in range(len(P)):
                got0 = sum((rr0[r] * T[r][k] for r in range(4)), F(0))
                got1 = sum((rr1[r] * T[r][k] for r in range(4)), F(0))
                yield (n, k, "P"), got0, P[k]
                yield (n, k, "P'"), P[k], got0
                yield (n, k, "Q"), got1, Q[k]
                yield (n, k, "Q'"), Q[k], got1

    return check_all_le("Lemma 12: RR_(eps,delta) post-processed", rows())


# ---------------------------------------------------------------------------
# Theorem 16 (Chaudhuri et al.) in one dimension, Algorithm 4
# ---------------------------------------------------------------------------


def _erm_minimiser(
    data: Sequence[tuple[sp.Expr, int]], lam: sp.Expr, steps: int = 30
) -> tuple[sp.Expr, sp.Expr]:
    """An enclosure ``[lo, hi]`` of the minimiser of ``F(w) = (1/n) Σ log(1 + e^{-y x w}) +
    (Λ/2) w²`` (strictly convex): bisection on the sign of ``F'(w) = Λ w - (1/n) Σ
    y x/(1 + e^{y x w})``, every sign certified."""
    n = len(data)

    def dF(w: sp.Expr) -> sp.Expr:
        return lam * w - sp.Add(*[y * x / (1 + sp.exp(y * x * w)) for x, y in data]) / n

    lo, hi = -1 / lam, 1 / lam  # |w*| <= max|x| / Λ <= 1/Λ
    for _ in range(steps):
        mid = (lo + hi) / 2
        s = decide_sign(dF(mid)).sign
        if s is Sign.ZERO:
            return mid, mid
        if s is Sign.NEGATIVE:
            lo = mid
        else:
            hi = mid
    return lo, hi


@claim(
    id="hartmann2022.theorem16.erm_sensitivity",
    source=f"{SRC}, §6.1, Theorem 16 (Chaudhuri et al.) and Algorithm 4, in one dimension",
    statement="for L2-regularised logistic regression (|x| <= 1, labels +-1, Lambda-strongly convex "
    "regulariser) the minimiser moves by at most 2/(n Lambda) when one record is replaced, so output "
    "perturbation with density ∝ e^(-(n Lambda eps/2)|b|) (Algorithm 4, d = 1) is eps-DP: certified "
    "enclosures of both minimisers",
    expected="holds",
    instances="n = 4 records, Lambda in {1/2, 2}; three neighbouring pairs (one record replaced)",
)
def theorem16() -> CheckResult:
    base = [(R(1, 2), 1), (R(-1, 3), -1), (R(3, 4), 1), (R(1, 5), -1)]
    swaps = [(0, (R(-1), -1)), (1, (R(1), 1)), (3, (R(9, 10), 1))]
    parts = []
    for lam in (R(1, 2), sp.Integer(2)):
        lo, hi = _erm_minimiser(base, lam)
        for k, rec in swaps:
            other = list(base)
            other[k] = rec
            lo2, hi2 = _erm_minimiser(other, lam)
            n = len(base)
            bound = 2 / (n * lam)
            parts.append(
                check_le(hi - lo2, bound, f"Lambda = {lam}, record {k} replaced: w*(D) - w*(D')")
            )
            parts.append(
                check_le(hi2 - lo, bound, f"Lambda = {lam}, record {k} replaced: w*(D') - w*(D)")
            )
    return conjunction("Theorem 16 in one dimension", parts)


# ---------------------------------------------------------------------------
# Lemma 21 (the test set) and Figure 2
# ---------------------------------------------------------------------------


def _err(w: sp.Expr, test: Sequence[tuple[sp.Expr, int]]) -> sp.Expr:
    """The mean absolute error of the logistic model ``w`` on ``test`` (labels 0/1):
    ``(1/m) Σ |σ(w x) - y|``, ``σ(t) = 1/(1 + e^{-t})``."""
    return sp.Add(*[abs(1 / (1 + sp.exp(-w * x)) - y) for x, y in test]) / len(test)


@claim(
    id="hartmann2022.lemma21.test_set",
    source=f"{SRC}, App. D, Lemma 21 (2)",
    statement="for a fixed model w the error on the test set changes by at most 1/m when one test "
    "record is replaced, so err(w, D_test) + Lap(1/(m eps_t)) is eps_t-DP in D_test (density ratio "
    "<= e^(eps_t) at every real t)",
    expected="holds",
    instances="models w in {-2, 1/2, 3}, m = 3 test records, two neighbouring test sets per record "
    "swap, eps_t = 1",
)
def lemma21_test() -> CheckResult:
    test = [(R(1, 2), 1), (R(-3, 4), 0), (R(1, 5), 1)]
    alt = [(0, (R(-1), 0)), (2, (R(1), 0))]
    parts = []
    for w in (sp.Integer(-2), R(1, 2), sp.Integer(3)):
        e0 = _err(w, test)
        for k, rec in alt:
            other = list(test)
            other[k] = rec
            e1 = _err(w, other)
            parts.append(check_le(abs(e0 - e1), R(1, len(test)), f"w = {w}: sensitivity"))
            parts.append(
                check_laplace_mixtures_dp(
                    {"D": [(1, e0)], "D'": [(1, e1)]},
                    R(1, len(test)),
                    1,
                    title=f"w = {w}, record {k}: eps_t-DP",
                )
            )
    return conjunction("Lemma 21 (2)", parts)


@claim(
    id="hartmann2022.figure2.noise_percentile",
    source=f"{SRC}, §6.1, Figure 2 (the 95th percentile of the noise added to the test error)",
    statement="the 95th percentile of Lap(b) is b ln 10: Pr[Lap(b) <= b ln 10] = 1 - e^(-ln 10)/2 = "
    "19/20, for the scales b = 1/(m eps_t) of the test",
    expected="holds",
    instances="m in {100, 1000, 10^4}, eps_t in {1/10, 1}",
)
def figure2() -> CheckResult:
    parts = []
    for m in (100, 1000, 10**4):
        for et in (R(1, 10), sp.Integer(1)):
            b = 1 / (m * et)
            t = b * sp.log(10)
            cdf = 1 - sp.exp(-t / b) / 2
            parts.append(check_le(cdf, R(19, 20), f"m = {m}, eps_t = {et}"))
            parts.append(check_le(R(19, 20), cdf, f"m = {m}, eps_t = {et}"))
    return conjunction("the 95th percentile of the test noise", parts)
