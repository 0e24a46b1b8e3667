"""Certified integer parts and minima (:mod:`verifier.checks.certified`) of exact
expressions, including values that are exactly integers."""

from __future__ import annotations

import pytest
import sympy as sp

from verifier.arithmetic.exact import Verdict
from verifier.checks.certified import (
    certified_ceil,
    certified_floor,
    certified_min,
    check_eq,
    check_le,
    identically_zero,
)
from verifier.errors import InvalidParameter


def test_certified_integer_parts_and_min():
    assert certified_floor(sp.log(8) / sp.log(2)) == 3  # exactly an integer
    assert certified_ceil(sp.log(8) / sp.log(2)) == 3
    assert certified_ceil(sp.log(400) * 10) == 60
    assert certified_floor(-sp.Rational(1, 2)) == -1
    assert certified_min([3, sp.pi, sp.E]) == sp.E
    with pytest.raises(InvalidParameter):
        certified_min([])


def test_identically_zero_keeps_the_sign_of_constant_atoms():
    # log(2/3) < 0: a positive symbol for it turned min(log(2/3), 0) into 0
    lg = sp.log(sp.Rational(2, 3))
    m = sp.Min(lg, 0, evaluate=False)
    assert not identically_zero(m)
    assert check_eq(m, 0).verdict is Verdict.VIOLATED
    assert check_eq(m, lg).verdict is Verdict.HOLDS
    assert not identically_zero(sp.Abs(lg) - lg)
    assert identically_zero(sp.Abs(lg) + lg)


def test_check_le_with_premises_over_a_box():
    a, b = sp.symbols("a b", nonnegative=True)
    box = {a: (0, 2), b: (0, 2)}
    r = check_le(a * b, 2, over=box, where=[a + b <= 2])
    assert r.verdict is Verdict.HOLDS and "outside" in r.notes[0]
    r = check_le(a, -1, over=box, where=[a + b >= 5])
    assert r.verdict is Verdict.HOLDS and "vacuous" in r.notes[0]
    with pytest.raises(InvalidParameter, match="restrict a box"):
        check_le(1, 2, where=[a >= 0])
