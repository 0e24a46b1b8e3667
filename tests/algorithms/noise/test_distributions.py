"""The noise laws as piecewise exponential polynomials: they sum (integrate) to 1
as rational functions, survival functions are running sums of the pmf, and exact
identities between two noise variables."""

from __future__ import annotations

from fractions import Fraction

import pytest

from verifier.algorithms.noise.distributions import (
    geometric,
    geometric_pmf,
    geometric_survival,
    laplace_density,
    laplace_survival,
    noise_family,
    point_mass,
)
from verifier.algorithms.noise.expoly import CONTINUOUS, DISCRETE
from verifier.errors import InvalidParameter

W = Fraction(3, 5)
NUM = DISCRETE.at_rational(W)


def test_laws_sum_to_one_as_rational_functions():
    for m in (1, 2, 3):
        assert geometric_pmf(DISCRETE, m).total() == 1
        assert laplace_density(CONTINUOUS, m).total() == 1
    assert point_mass(DISCRETE).total() == 1


def test_survival_is_the_upper_running_sum_of_the_pmf():
    pmf, surv = geometric_pmf(DISCRETE, 2), geometric_survival(DISCRETE, 2)
    upper = pmf.upper_cumulative()
    lower = pmf.cumulative()
    for y in range(-5, 6):
        assert upper.at(y) == surv.at(y)
        assert lower.at(y) + surv.at(y + 1) == 1


def test_laplace_running_integrals():
    dens, surv = laplace_density(CONTINUOUS, 1), laplace_survival(CONTINUOUS, 1)
    for y in range(-3, 4):
        assert dens.upper_cumulative().at(y) == surv.at(y)
        assert dens.cumulative().at(y) + surv.at(y) == 1
    # P(nu_1 >= nu_2) = 1/2 for two iid Laplace variables
    assert (dens * surv).total() * 2 == 1


def test_ties_of_two_geometric_variables():
    # P(nu_2 >= nu_1) = (1 + P(tie))/2 and P(tie) = sum pmf^2 = C^2 (1+x^2)/(1-x^2)
    x = W
    C = (1 - x) / (1 + x)
    tie = C * C * (1 + x * x) / (1 - x * x)
    g = geometric_pmf(NUM, 1) * geometric_survival(NUM, 1)
    assert g.total() == (1 + tie) / 2


def test_noise_parameters_are_validated():
    with pytest.raises(InvalidParameter, match="rate"):
        geometric(0)
    with pytest.raises(InvalidParameter, match="noise family"):
        noise_family("gaussian", 1)
