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


def test_identity_in_the_fraction_field_agrees_with_cancel():
    """The identity proof through sympy's field of rational functions says what
    ``cancel`` says, on identities (an expression minus its expanded and recombined
    form), on non-identities (one coefficient changed), and leaves alone what is not a
    rational function over QQ (a logarithm of a symbol, a divisor that vanishes)."""
    import random

    from verifier.checks.certified import _zero_in_fraction_field, identically_zero

    a, b, g = sp.symbols("a b gamma", positive=True)
    rng = random.Random(3)
    seen = {True: 0, False: 0}
    for _ in range(40):
        terms = [
            sp.Rational(rng.randint(-4, 4), rng.randint(1, 3))
            * a ** rng.randint(0, 2)
            * b ** rng.randint(0, 2)
            / (1 + g ** rng.randint(1, 2))
            for _ in range(3)
        ]
        e = sp.Add(*terms)
        same = sp.expand(e) - sp.together(e)  # equal forms sympy does not cancel itself
        for y in (same, same + a / 7):
            if not y.free_symbols:
                continue
            got = _zero_in_fraction_field(y)
            assert got is not None and got is (sp.cancel(y) == 0)
            assert identically_zero(y) is got
            seen[got] += 1
    assert seen[True] and seen[False]
    assert _zero_in_fraction_field(sp.log(a) - sp.log(a) + sp.log(b)) is None
    assert (
        _zero_in_fraction_field(sp.Mul(a - a, sp.Pow(b - b, -1, evaluate=False), evaluate=False))
        is None
    )
