"""Report-Noisy-Max: closed forms against a seeded simulation, Laplace closed forms
against numerical integration, an exact identity, and the ``report_noisy_max``
transformer."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from verifier.algorithms import get_transformer
from verifier.algorithms.noise import NoisyMax, report_noisy_max
from verifier.algorithms.noise.samplers import binomial_two_sided_pvalue, sample_counts
from verifier.errors import InvalidParameter
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair

from ._support import (
    ALPHA,
    Q,
    R,
    assert_closed_form_matches_simulation,
    close,
    eps_at,
    lap_cdf,
    lap_pdf,
    law_of,
    quad,
    runner,
)

PROGRAMS = [
    ("rnm_argmax", lambda: report_noisy_max(eps_at(lambda e: report_noisy_max(e)))),
    (
        "rnm_value",
        lambda: report_noisy_max(eps_at(lambda e: report_noisy_max(e)), release="value"),
    ),
    ("rnm_argmax_laplace", lambda: report_noisy_max(2, noise="laplace")),
    (
        "rnm_value_laplace_buckets",
        lambda: report_noisy_max(2, noise="laplace", release="value", buckets=[-1, 1, 2]),
    ),
]


@pytest.mark.parametrize("name,build", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_closed_form_matches_simulation(name, build):
    assert_closed_form_matches_simulation(build(), name)


def test_point_probabilities_of_the_noisy_maximum_deep_in_the_tails():
    """Exact binomial tests of P(max = v) at values far outside the window."""
    prog = report_noisy_max(eps_at(lambda e: report_noisy_max(e)), release="value")
    assert isinstance(prog, NoisyMax)
    pm, _ = law_of(prog, Q)
    n = 30_000
    raw = sample_counts(runner(prog, Q), n, seed=5)
    for v in [-4, 5]:
        p = pm.point_probability(Q, 0, v)
        label = f"[max={v}]"
        pf = Fraction(int(p.p), int(p.q))
        assert binomial_two_sided_pvalue(raw.get(label, 0), n, pf) > ALPHA, (label, p)


def test_laplace_noisy_max_matches_quadrature():
    mpmath.mp.dps = 40
    rate = mpmath.mpf(1)  # eps = 2, Lap(2/eps)
    q = (0, 1, 1)
    prog = report_noisy_max(2, noise="laplace")
    _, law = law_of(prog, q)
    for i in range(3):

        def integrand(t, i=i):  # type: ignore[no-untyped-def]
            val = lap_pdf(rate, t - q[i])
            for j, qj in enumerate(q):
                if j != i:
                    val *= lap_cdf(rate, t - qj)
            return val

        assert close(law[f"argmax={i}"], quad(integrand, q))


def test_noisy_max_symmetry_identity():
    """Two equal answers, ties to the lowest index: P(argmax = 0) = (1 + P(tie))/2."""
    eps = 2 * sp.log(2)  # rate log 2, x = 1/2
    _, law = law_of(report_noisy_max(eps), (0, 0))
    x = R(1, 2)
    tie = ((1 - x) / (1 + x)) ** 2 * (1 + x**2) / (1 - x**2)
    assert law["argmax=0"] == (1 + tie) / 2
    assert law["argmax=1"] == (1 - tie) / 2


def test_the_noisy_maximum_under_laplace_noise_needs_buckets():
    with pytest.raises(InvalidParameter, match="density"):
        report_noisy_max(2, noise="laplace", release="value")


def test_the_transformer_releases_a_distribution():
    base = FiniteMechanism(pair(), {"D": {(0, 0, 1): 1}, "D'": {(1, 1, 0): 1}})
    rnm = get_transformer("report_noisy_max").apply([base], {"epsilon": 2, "noise": "laplace"})
    assert sum(rnm.distribution("D").values()) == 1


def test_the_transformer_takes_one_sided_exponential_noise():
    # nu_0, nu_1 ~ Exp(rate 1) (epsilon 2, rate eps/2): nu_1 - nu_0 ~ Laplace(1), so
    # P(argmax = 0) = P(1 + nu_0 > nu_1) = 1 - e^-1/2 at q = (1, 0)
    base = FiniteMechanism(pair(), {"D": {(1, 0): 1}, "D'": {(0, 0): 1}})
    rnm = get_transformer("report_noisy_max").apply([base], {"epsilon": 2, "noise": "exponential"})
    assert sp.simplify(rnm.p("D", "argmax=0") - (1 - sp.exp(-1) / 2)) == 0
    assert rnm.p("D'", "argmax=0") == rnm.p("D'", "argmax=1") == sp.Rational(1, 2)
