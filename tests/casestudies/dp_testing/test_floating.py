"""The floating-point experiments (:mod:`casestudies.dp_testing.floating`): recorded
as out of reach, with reasons whose numbers are recomputed here."""

from __future__ import annotations

import math
from fractions import Fraction

import sympy as sp

from casestudies.dp_testing import claims, floating
from verifier.claims import load_casestudies


def test_both_are_out_of_reach_and_not_registered():
    names = {e.name for e in claims.OUT_OF_REACH}
    assert {"laplace_floating_point", "laplace_fixed"} <= names
    registry = load_casestudies()
    for e in floating.ENTRIES:
        assert e.exact is None and e.out_of_reach
        assert e.id not in registry.claims
        assert e.claimed == sp.Rational(1, 10)


def test_expectations_follow_mironov_2012():
    by = {e.name: e for e in floating.ENTRIES}
    assert by["laplace_floating_point"].expected == "refuted"
    assert by["laplace_floating_point"].kind == "negative-control"
    assert by["laplace_fixed"].expected == "holds"
    assert "Theorem 1" in by["laplace_fixed"].notes


def test_the_sizes_in_the_reasons():
    # numpy's next_double: a 53-bit integer times 2^-53
    assert floating.GRID == 2**53
    textbook = 3 * (floating.GRID - 1)  # inputs 0, 1, 2; k = 0 rejected
    assert round(textbook / 1e16, 1) == 2.7
    assert round(textbook / 1e8 / (365.25 * 24 * 3600), 1) == 8.6
    assert round(2 * 3 * floating.GRID / 1e16, 1) == 5.4


def test_snapping_parameters_of_laplace_fixed():
    # LaplaceFixed(eps=0.1, B=100): scale = (1 + B 2^-49) / eps, Lambda the smallest
    # power of two >= scale, outputs multiples of Lambda clamped to [-B, B]
    B = 100
    scale = (1 + Fraction(B, 2**49)) / Fraction(1, 10)
    Lambda = 2 ** math.ceil(math.log2(scale))
    assert Lambda == 16 and Lambda / 2 < scale <= Lambda
    assert scale < B < 2**46 * scale  # Mironov's premise, asserted by the class
    outputs = {max(-B, min(B, j * Lambda)) for j in range(-10, 11)}
    assert len(outputs) == floating.SNAPPING_OUTPUTS == 15
    # Theorem 1's bound with this scale is exactly eps
    assert Fraction(1) / scale + Fraction(B, 2**49) / scale == Fraction(1, 10)
