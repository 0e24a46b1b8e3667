"""Papernot & Steinke 2022 as selection programs: the law against a seeded run of the
real algorithm (sample K, run Q K times, take the best) and against a second exact
method (the generating function summed by hand), the symbolic count against the
numeric one, and the registered claims (the box claims with ``-m slow``)."""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

import mpmath
import pytest
import sympy as sp

from casestudies.papernot_steinke2022.boxes import symbolic_tuned
from casestudies.papernot_steinke2022.claims import definition1_pmf
from casestudies.papernot_steinke2022.instances import (
    ETA,
    GAMMA,
    MU,
    Q3,
    RR9,
    R,
    definition1_mean,
    poisson_tuned,
    tnb,
    tuned,
)
from verifier.arithmetic.exact import Verdict, approx
from verifier.claims import load_casestudies
from verifier.errors import InvalidParameter
from verifier.mechanism.model import FiniteMechanism
from verifier.programs import counts
from verifier.programs.selection import BOTTOM, laws_equal

REGISTRY = load_casestudies("casestudies.papernot_steinke2022.claims")


def _chisquare_pvalue(observed: list[float], expected: list[float]) -> float:
    """Pearson's chi-square test: the statistic ``Σ (o - e)^2 / e`` and its p-value,
    the chi-square survival function with ``k - 1`` degrees of freedom (the regularized
    upper incomplete gamma function ``Q((k - 1)/2, x/2)``)."""
    stat = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    return float(mpmath.gammainc((len(observed) - 1) / 2, stat / 2, mpmath.inf, regularized=True))


def _sample_k(eta: float, gamma: float, rng: random.Random) -> int:
    """``K`` from Definition 1 by inversion, the pmf in floats from the paper's product
    ``(1-γ)^k/(γ^{-η} - 1) Π_{ℓ<k} (ℓ+η)/(ℓ+1)`` (logarithmic at ``η = 0``)."""
    u, k, acc, prod = rng.random(), 0, 0.0, 1.0
    while True:
        k += 1
        if eta == 0:
            p = (1 - gamma) ** k / (k * math.log(1 / gamma))
        else:
            prod *= (k - 1 + eta) / k
            p = (1 - gamma) ** k / (gamma ** (-eta) - 1) * prod
        acc += p
        if u < acc or k > 10_000:
            return k


def _run(Q: FiniteMechanism, d: Any, eta: float, gamma: float, n: int, seed: int) -> Counter:
    """The algorithm as the paper runs it: ``K`` runs of ``Q``, the best score kept."""
    rng = random.Random(seed)
    outs: list[Any] = list(Q.outputs)
    weights = [approx(Q.p(d, o)) for o in outs]
    seen: Counter = Counter()
    for _ in range(n):
        k = _sample_k(eta, gamma, rng)
        seen[max(rng.choices(outs, weights, k=k))] += 1
    return seen


@pytest.mark.parametrize(("eta", "gamma"), [(R(-1, 2), R(1, 5)), (0, R(1, 3)), (2, R(1, 2))])
def test_law_against_a_seeded_run_of_the_algorithm(eta: Any, gamma: Any) -> None:
    A = tuned(Q3, tnb(eta, gamma))
    n = 4000
    for i, d in enumerate(("D", "D'")):
        seen = _run(Q3, d, float(eta), float(gamma), n, seed=11 + i)
        outs = [o for o in A.outputs if A.p(d, o) != 0]
        expected = [approx(A.p(d, o)) * n for o in outs]
        p = _chisquare_pvalue([seen[o] for o in outs], expected)
        assert p > 1e-4, (eta, gamma, d, seen, expected)


def test_the_seeded_run_rejects_a_wrong_count() -> None:
    """The same test refutes the law of another count (η = 2 against η = 1)."""
    wrong = tuned(Q3, tnb(1, R(1, 2)))
    seen = _run(Q3, "D", 2.0, 0.5, 4000, seed=5)
    outs = list(wrong.outputs)
    p = _chisquare_pvalue([seen[o] for o in outs], [approx(wrong.p("D", o)) * 4000 for o in outs])
    assert p < 1e-4


def _by_series(Q: FiniteMechanism, d: Any, eta: Any, gamma: Any, terms: int) -> dict:
    """A second exact method: ``Pr[best = o] = Σ_k Pr[K = k] (F(o)^k - F⁻(o)^k)`` summed
    over ``k <= terms`` with Definition 1's pmf — a lower bound, within the tail mass
    ``1 - Σ_{k<=terms} Pr[K = k]`` of the exact value."""
    pmf = [definition1_pmf(eta, gamma, k) for k in range(1, terms + 1)]
    out, below = {}, sp.Integer(0)
    for o in Q.outputs:
        upto = below + Q.p(d, o)
        out[o] = sp.Add(*[p * (upto**k - below**k) for k, p in enumerate(pmf, start=1)])
        below = upto
    return {"law": out, "tail": 1 - sp.Add(*pmf)}


def test_law_by_the_pgf_summed_by_hand() -> None:
    """η = 2, γ = 1/2 (rational): the partial sums of the series bracket the exact law."""
    eta, gamma = 2, R(1, 2)
    A = tuned(Q3, tnb(eta, gamma))
    for d in ("D", "D'"):
        s = _by_series(Q3, d, eta, gamma, 80)
        assert 0 < s["tail"] < R(1, 10**15)
        for o, lower in s["law"].items():
            assert lower <= A.p(d, o) <= lower + s["tail"]


def test_geometric_closed_form_by_hand() -> None:
    """η = 1 is the geometric count: ``G(x) = γx/(1-(1-γ)x)``; at ``γ = 1/100`` the middle
    output of Q3 has 200/520049 at D and 800/285619 at D' (NOTES.md)."""
    A = tuned(Q3, tnb(1, R(1, 100)))

    def G(x: sp.Expr) -> sp.Expr:
        return R(1, 100) * x / (1 - R(99, 100) * x)

    assert A.p("D", 1) == G(R(1, 2)) - G(R(49, 100)) == R(200, 520049)
    assert A.p("D'", 1) == G(R(3, 4)) - G(R(73, 100)) == R(800, 285619)


def test_symbolic_count_equals_the_numeric_one_at_points() -> None:
    S = symbolic_tuned(Q3)
    for eta, gamma in ((2, R(1, 10)), (R(-1, 2), R(4, 5))):
        A = tuned(Q3, tnb(eta, gamma))
        at = {ETA: eta, GAMMA: gamma}
        rows = {d: {o: S.p(d, o).subs(at) for o in S.outputs} for d in S.datasets}
        B = FiniteMechanism(S.graph, rows, list(S.outputs), validate=False)
        assert laws_equal(A, B) is Verdict.HOLDS, (eta, gamma)
    P = poisson_tuned(RR9, MU)
    assert sp.simplify(P.p("D", 0).subs(MU, 2) - poisson_tuned(RR9, 2).p("D", 0)) == 0
    assert P.p("D", BOTTOM) == sp.exp(-MU)  # K = 0: nothing ran


def test_definition1_mean_is_the_counts_mean() -> None:
    assert (
        sp.simplify(
            definition1_mean(ETA, GAMMA) - counts.truncated_negative_binomial(ETA, GAMMA).mean
        )
        == 0
    )
    g = R(1, 3)
    assert sp.simplify(definition1_mean(0, g) - counts.logarithmic(g).mean) == 0


def test_a_symbol_must_be_real() -> None:
    with pytest.raises(InvalidParameter, match="declared real"):
        counts.truncated_negative_binomial(sp.Symbol("e"), R(1, 2))
    with pytest.raises(InvalidParameter, match="declared real"):
        counts.poisson(sp.Symbol("m"))


FAST = [
    "papernot_steinke2022.def1.count",
    "papernot_steinke2022.thm2",
    "papernot_steinke2022.thm2.no_log_term",
    "papernot_steinke2022.thm6",
    "papernot_steinke2022.thm6.no_delta_term",
    "papernot_steinke2022.thm6.small_mu",
    "papernot_steinke2022.pure",
    "papernot_steinke2022.pure.one_plus_eta",
    "papernot_steinke2022.pure.ninety_percent",
    "papernot_steinke2022.approx",
]


@pytest.mark.parametrize("cid", FAST)
def test_point_claims(cid: str) -> None:
    out = REGISTRY.get(cid).run()
    assert out.error is None, out.error
    assert out.matches, (cid, out.verdict)


def test_refutations_reverify_exactly() -> None:
    """The certificate of each refuted tightening: the exact probabilities of the
    reported output and pair, compared again (Q3's middle output, 2080196/285619 > 4)."""
    out = REGISTRY.get("papernot_steinke2022.pure.one_plus_eta").run()
    assert out.result is not None
    bad = [f for f in out.result.all_findings() if f.verdict is Verdict.VIOLATED]
    assert bad and {f.output for f in bad} == {1}
    A = tuned(Q3, tnb(1, R(1, 100)))
    assert A.p("D'", 1) / A.p("D", 1) == R(2080196, 285619) > 4
    # Theorem 2 without log(1/gamma): RR9, eta = 1, gamma = 3/10, lambda = 3 (NOTES.md)
    B = tuned(RR9, tnb(1, R(3, 10)))
    s = sum(B.p("D'", o) ** 3 / B.p("D", o) ** 2 for o in B.outputs)
    assert s == R(170247877, 455877) > R(5905, 81) * R(10, 3)


SLOW = [c.id for c in REGISTRY.select(["papernot_steinke2022"]) if c.domain is not None]
SLOW += ["papernot_steinke2022.thm6.mu_range"]


@pytest.mark.slow
@pytest.mark.parametrize("cid", SLOW)
def test_box_and_range_claims(cid: str) -> None:
    out = REGISTRY.get(cid).run()
    assert out.error is None, out.error
    assert out.matches, (cid, out.verdict)
