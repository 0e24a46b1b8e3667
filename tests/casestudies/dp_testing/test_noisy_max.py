"""Report-Noisy-Max in the DP testing suite: every exact ε against an independent
derivation — hand closed forms (memorylessness of the exponential noise, the left
tail of the maximum of Laplace values, the support of the exponential maximum),
numerical quadrature of the argmax integral, and a seeded simulation of the
mechanisms as the tools run them (numpy, scale 2/ε)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp

from casestudies.dp_testing import noisy_max
from casestudies.dp_testing.suite import decide
from verifier.algorithms.noise.noisy_max import argmax_laws, report_noisy_max
from verifier.algorithms.noise.samplers import binomial_two_sided_pvalue

R = sp.Rational
ENTRY = {e.name: e for e in noisy_max.ENTRIES}
ALPHA = 1e-4


def test_every_variant_is_registered_on_the_tools_instances():
    names = set(ENTRY)
    assert {f"report_noisy_max{k}" for k in range(1, 5)} <= names
    for fn in ("v1a", "v1b", "v2a", "v2b"):
        assert {
            f"statdp_noisy_max_{fn}",
            f"statdp_noisy_max_{fn}.eps0_2",
            f"statdp_noisy_max_{fn}.eps1_5",
        } <= names
    assert len(noisy_max.DPSNIPER_PAIRS) == 16


@pytest.mark.parametrize(
    "name, eps", [("report_noisy_max2", R(1, 10)), ("statdp_noisy_max_v2a", R(7, 10))]
)
def test_exponential_argmax_is_exactly_eps(name, eps):
    # (1^5) vs (0, 2^4), argmax 0: 1/5 by symmetry against e^{-2 eta}/5 by
    # memorylessness (P(E_0 > 2 + max_j E_j) = e^{-2 eta} P(E_0 > max_j E_j)), so the
    # loss is 2 eta = eps; no pair does better (Report-Noisy-Max is eps-DP)
    ex = ENTRY[name].exact()
    assert ex.value == eps
    assert decide(ENTRY[name]).verdict.value == "holds"


def _argmax0_quadrature(q, rate) -> mpmath.mpf:
    """P(argmax = 0) = ∫ f(t - q_0) Π_{j>0} F(t - q_j) dt for Laplace noise (mpmath)."""

    def cdf(x):
        return 1 - mpmath.exp(-rate * x) / 2 if x >= 0 else mpmath.exp(rate * x) / 2

    def integrand(t):
        v = rate / 2 * mpmath.exp(-rate * abs(t - q[0]))
        for qj in q[1:]:
            v *= cdf(t - qj)
        return v

    with mpmath.workdps(30):
        return mpmath.quad(integrand, [-mpmath.inf, *sorted(set(q)), mpmath.inf])


def test_laplace_argmax_against_quadrature():
    ex = ENTRY["report_noisy_max1"].exact()
    assert ex.witness == "(1,1,1,1,1) vs (0,2,2,2,2), output argmax=0"
    # P(argmax = 0) on (1^5) is 1/5 by symmetry
    p = mpmath.mpf(1) / 5
    q = _argmax0_quadrature((0, 2, 2, 2, 2), mpmath.mpf(1) / 20)
    assert abs(float(ex.value) - float(mpmath.log(p / q))) < 1e-12
    assert float(ex.value) < 0.1


@pytest.mark.parametrize(
    "name, expected",
    [
        ("report_noisy_max3", R(1, 4)),  # n = 5, eta = 1/20
        ("statdp_noisy_max_v1b", R(7, 2)),  # n = 10, eta = 7/20
        ("statdp_noisy_max_v1b.eps0_2", R(1)),
        ("statdp_noisy_max_v1b.eps1_5", R(15, 2)),
    ],
)
def test_laplace_value_release_is_n_eta(name, expected):
    # below every q_i the density of the maximum is n (eta/2)^n ... e^{n eta v - eta Σ q_i}:
    # the ratio on (0^n) vs (1^n) is e^{n eta} there; no other place or pair does better
    # (certified by the density-ratio supremum). Ding et al. 2018: not eps-DP.
    ex = ENTRY[name].exact()
    assert ex.value == expected
    assert ex.witness.endswith("v -> -oo")
    assert decide(ENTRY[name]).verdict.value == "violated"


@pytest.mark.parametrize("name", ["report_noisy_max4", "statdp_noisy_max_v2b"])
def test_exponential_value_release_is_unbounded(name):
    # on (1^5) vs (2, 1^4) the maximum lies in [1, 2) with probability (1 - e^{-eta})^5
    # on the first input (all five exponentials below 1) and never on the second
    ex = ENTRY[name].exact()
    eta = ENTRY[name].claimed / 2
    assert ex.value == sp.oo
    p, q = ex.at_witness
    assert q == 0
    assert sp.simplify(p - (1 - sp.exp(-eta)) ** 5) == 0
    assert decide(ENTRY[name]).verdict.value == "violated"


@pytest.mark.parametrize(
    "name, q, noise",
    [
        ("report_noisy_max1", (0, 2, 2, 2, 2), "laplace"),
        ("report_noisy_max2", (0, 2, 2, 2, 2), "exponential"),
        ("report_noisy_max2", (2, 0, 0, 0, 0), "exponential"),
    ],
)
def test_argmax_probabilities_against_a_seeded_simulation(name, q, noise):
    # the DP-Sniper mechanisms as written: numpy noise of scale 2/eps, np.argmax
    prog = report_noisy_max(R(1, 10), noise=noise)
    ctx, laws = argmax_laws(prog, [q])
    u = sp.Rational(ctx.u)
    rng = np.random.default_rng(18)
    n = 20000
    draw = rng.laplace if noise == "laplace" else rng.exponential
    out = np.argmax(np.asarray(q, dtype=float) + draw(scale=20.0, size=(n, len(q))), axis=1)
    for i in (0, 1):
        exact = laws[q][i].to_sympy(u)
        k = int(np.sum(out == i))
        assert binomial_two_sided_pvalue(k, n, Fraction(str(float(exact)))) > ALPHA


@pytest.mark.parametrize("name", ["report_noisy_max1", "report_noisy_max4"])
def test_the_export_is_a_law_on_every_input(name):
    # the exported closed forms, read back by sympy: argmax probabilities sum to 1, and
    # the density of the noisy maximum integrates to 1 over its pieces
    doc = ENTRY[name].export()
    assert len(doc["pairs"]) == 16
    v = sp.Symbol("v", real=True)
    for law in doc["inputs"].values():
        if name == "report_noisy_max1":
            total = sum(sp.sympify(x["probability"]) for x in law.values())
        else:
            total = sum(
                sp.integrate(
                    sp.sympify(piece["density"], locals={"v": v}),
                    (
                        v,
                        -sp.oo if piece["from"] is None else piece["from"],
                        sp.oo if piece["to"] is None else piece["to"],
                    ),
                )
                for piece in law
            )
        assert sp.simplify(total - 1) == 0
