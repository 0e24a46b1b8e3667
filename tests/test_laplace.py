"""Exact DP of mixtures of Laplace densities (:mod:`verifier.algorithms.noise.mixtures`)."""

from __future__ import annotations

import pytest
import sympy as sp

from verifier.algorithms.noise.mixtures import (
    check_laplace_mixtures_dp,
    laplace_mixture_density,
    mixture_ratio_points,
)
from verifier.errors import InvalidParameter

R = sp.Rational


def test_the_supremum_is_found_at_the_centres_and_limits():
    a = [(R(1, 2), R(0)), (R(1, 2), R(1))]
    b = [(R(1, 4), R(0)), (R(3, 4), R(1))]
    pts = mixture_ratio_points(a, b, 1)
    labels = [p[0] for p in pts]
    assert labels == ["t = 0", "t = 1", "t -> -oo", "t -> +oo"]
    # far left both densities are β e^t: the ratio is the ratio of the β's
    t = sp.Integer(-50)
    lim = pts[2][1] / pts[2][2]
    assert (
        sp.simplify(laplace_mixture_density(a, 1, t) / laplace_mixture_density(b, 1, t) - lim) == 0
    )


def test_shifted_laplace_is_exactly_eps_dp_and_no_better():
    mix = {"D": [(1, R(0))], "D'": [(1, R(1, 2))]}
    r = check_laplace_mixtures_dp(mix, R(1, 2), 1)
    assert r.verdict.value == "holds" and r.tight
    assert check_laplace_mixtures_dp(mix, R(1, 2), R(99, 100)).verdict.value == "violated"


def test_a_non_positive_scale_is_refused():
    with pytest.raises(InvalidParameter, match="scale must be positive"):
        mixture_ratio_points([(1, 0)], [(1, 1)], 0)
