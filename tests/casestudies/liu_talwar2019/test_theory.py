"""Liu & Talwar 2019, the parameters of :mod:`casestudies.liu_talwar2019.theory`
(Theorems 3.1 and 3.5), against hand values."""

from __future__ import annotations

import sympy as sp

from casestudies.liu_talwar2019.theory import theorem31_min_T, theorem35_T

R = sp.Rational


def test_theorem_parameters():
    assert theorem31_min_T(R(1, 10), R(1, 10)) == 30  # 10 ln 20 = 29.96
    assert theorem31_min_T(1, 2) == 2  # max(ln 1 = 0, 1 + 1/e)
    assert theorem35_T(R(1, 10), R(1, 4)) == 89  # 10 (ln 968 + ln ln 968) = 88.03
