"""Certified integer parts and minima (:mod:`verifier.certified`) of exact
expressions, including values that are exactly integers."""

from __future__ import annotations

import pytest
import sympy as sp

from verifier.certified import certified_ceil, certified_floor, certified_min
from verifier.errors import InvalidParameter


def test_certified_integer_parts_and_min():
    assert certified_floor(sp.log(8) / sp.log(2)) == 3  # exactly an integer
    assert certified_ceil(sp.log(8) / sp.log(2)) == 3
    assert certified_ceil(sp.log(400) * 10) == 60
    assert certified_floor(-sp.Rational(1, 2)) == -1
    assert certified_min([3, sp.pi, sp.E]) == sp.E
    with pytest.raises(InvalidParameter):
        certified_min([])
