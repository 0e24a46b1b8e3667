"""Exact and certified arithmetic: three-valued comparisons, enclosures, zero tests."""

from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.arithmetic.exact import (
    Precision,
    Sign,
    Verdict,
    combine_verdicts,
    decide_eq,
    decide_le,
    decide_sign,
    enclose,
    exact,
    exact_max,
    is_exactly_zero,
)
from verifier.arithmetic.expressions import number
from verifier.errors import InvalidParameter, UnboundSymbol, UnsupportedExpression

R = sp.Rational


def test_exact_refuses_floats_and_strings_and_number_reads_strings_exactly():
    with pytest.raises(InvalidParameter, match=r'Fraction\(1, 10\) \(or the string "0.1"'):
        exact(0.1)
    with pytest.raises(InvalidParameter, match=r"Fraction\(1, 1000000\)"):
        exact(1e-6)
    with pytest.raises(InvalidParameter, match="float"):
        exact(float("inf"))
    with pytest.raises(InvalidParameter, match="float"):
        exact(sp.Float("0.1") + sp.Symbol("x"))
    with pytest.raises(InvalidParameter, match="not an exact number"):
        exact("1/2")
    # number(): strings in the spec grammar, parsed without eval
    assert number("1/2") == R(1, 2)
    assert number("0.1") == R(1, 10)
    assert number("log(3)") == sp.log(3)
    assert number(R(1, 3)) == R(1, 3)
    with pytest.raises(InvalidParameter, match="not allowed"):
        number("__import__('os')")
    with pytest.raises(InvalidParameter):
        number("1/")
    with pytest.raises(InvalidParameter, match="float"):
        number(0.5)
    assert exact(Fraction(3, 9)) == R(1, 3)
    assert exact(True) == 1


def test_rational_comparisons_are_exact():
    assert decide_le(R(1, 3), R(1, 3)).verdict is Verdict.HOLDS
    assert decide_le(R(1, 3), R(1, 3)).tight
    assert decide_le(R(1, 3) + R(1, 10**40), R(1, 3)).verdict is Verdict.VIOLATED
    assert decide_le(R(1, 3), R(1, 3) + R(1, 10**40)).verdict is Verdict.HOLDS


def test_equality_of_transcendental_expressions_is_proved_not_approximated():
    e = R(1, 2)
    # e^{1/2} e^{1/2} = e: intervals alone can never decide this
    c = decide_le(sp.exp(e) * sp.exp(e), sp.E)
    assert c.verdict is Verdict.HOLDS and c.tight
    # log(6) = log(2) + log(3)
    c = decide_le(sp.log(6), sp.log(2) + sp.log(3))
    assert c.verdict is Verdict.HOLDS and c.tight
    # algebraic identity
    assert decide_eq(sp.sqrt(2) * sp.sqrt(3), sp.sqrt(6)) is Verdict.HOLDS


def test_near_equalities_are_separated_by_raising_precision():
    # e^{pi sqrt(163)} = 262537412640768743.99999999999925...: below the integer by 7.5e-13
    x = sp.exp(sp.pi * sp.sqrt(163))
    n = sp.Integer(262537412640768744)
    assert decide_le(x, n).verdict is Verdict.HOLDS
    assert decide_le(n, x).verdict is Verdict.VIOLATED
    assert decide_sign(n - x).enclosure.bits >= 128
    # with too little precision the answer is honestly undecided
    low = Precision(start_bits=16, max_bits=32)
    assert decide_le(x, n, low).verdict is Verdict.UNDECIDED
    assert decide_sign(x - n, low).sign is Sign.UNDECIDED


def test_sides_with_disjoint_enclosures_are_decided_without_their_difference():
    """decide_le compares the sides' own enclosures first: disjoint ones decide, and
    the sign's enclosure (their difference, rounded outward) contains the true gap;
    overlapping sides, and sides that have no value alone, fall back to the sign of
    the difference."""
    a, b = sp.log(2), sp.exp(R(-1, 3))  # 0.6931 <= 0.7165
    c = decide_le(a, b)
    assert c.verdict is Verdict.HOLDS and not c.tight
    gap = sp.Rational(716531310573789250, 10**18) - sp.Rational(693147180559945309, 10**18)
    lo, hi = c.sign.enclosure.bounds()
    assert lo <= gap + R(1, 10**17) and gap - R(1, 10**17) <= hi and hi - lo < R(1, 10**15)
    assert decide_le(b, a).verdict is Verdict.VIOLATED
    # equal up to 10^-30: the 64-bit enclosures overlap, the difference decides
    assert decide_le(a + R(1, 10**30), a).verdict is Verdict.VIOLATED
    assert decide_le(a, a + R(1, 10**30)).verdict is Verdict.HOLDS
    # a symbol that cancels in the difference: neither side is a number alone
    x = sp.Symbol("x", positive=True)
    assert decide_le(sp.log(2) + x, sp.log(3) + x).verdict is Verdict.HOLDS
    assert decide_le(sp.log(3) + x, sp.log(2) + x).verdict is Verdict.VIOLATED


def test_infinities():
    assert decide_le(sp.oo, 1).verdict is Verdict.VIOLATED
    assert decide_le(1, sp.oo).verdict is Verdict.HOLDS
    assert decide_le(-sp.oo, -5).verdict is Verdict.HOLDS


def test_enclosures_contain_reference_values():
    cases = [
        (sp.log(2), lambda: mpmath.log(2)),
        (sp.exp(R(-7, 3)), lambda: mpmath.exp(mpmath.mpf(-7) / 3)),
        (sp.sqrt(R(2, 3)), lambda: mpmath.sqrt(mpmath.mpf(2) / 3)),
        (R(2, 3) ** R(5, 7), lambda: (mpmath.mpf(2) / 3) ** (mpmath.mpf(5) / 7)),
        (sp.Max(R(1, 3), sp.log(2)) - sp.Min(1, sp.pi), lambda: mpmath.log(2) - 1),
    ]
    for expr, ref in cases:
        e = enclose(expr, 128)
        assert e is not None
        with mpmath.workdps(80):
            assert e.lo <= ref() <= e.hi
        assert e.hi - e.lo < mpmath.mpf(2) ** -100


def test_enclosure_errors_name_the_problem():
    with pytest.raises(UnboundSymbol, match="eps"):
        enclose(sp.Symbol("eps") + 1)
    with pytest.raises(UnsupportedExpression, match="gamma"):
        enclose(sp.gamma(R(1, 3)))


def test_zero_tests_are_proofs():
    assert is_exactly_zero(sp.sqrt(8) - 2 * sp.sqrt(2)) is True
    assert is_exactly_zero(sp.sqrt(2) - R(1414, 1000)) is False
    assert is_exactly_zero(sp.exp(1) - R(27, 10)) in (False, None)


def test_zero_tests_by_rational_functions_agree_with_simplify_and_enclosures():
    # Ghazi et al. 2025, Algorithm 3 on two randomized responses (the distribution at D
    # of ghazi2025.thm11.no_factor2.box, eps_1 = 1, eps_2 = 4, eps' = 1): sums to 1
    e = sp.exp
    one = sp.Integer(1)
    a = (1 - e(-1)) / (1 - e(-6))
    total = (
        1
        + a
        - (1 - e(-1)) / (1 - e(-5))
        - (1 - e(-1)) / (1 - e(-2))
        + (1 - e(-1)) / ((1 + e(1)) * (1 - e(-2)))
        - (1 - e(-1)) / ((1 + e(1)) * (1 - e(-6)))
        + (1 - e(-1)) * e(4) / ((1 - e(-5)) * (1 + e(4)))
        - (1 - e(-1)) * e(5) / ((1 - e(-6)) * (1 + e(1) + e(4) + e(5)))
        + e(1) * (1 - e(-1)) / ((1 + e(1)) * (1 - e(-2)))
        - e(1) * (1 - e(-1)) / ((1 - e(-6)) * (1 + e(1) + e(4) + e(5)))
        + (1 - e(-1)) / ((1 - e(-5)) * (1 + e(4)))
    )
    assert sp.simplify(total - one) == 0  # the slow proof this test replaces
    assert is_exactly_zero(total - one) is True
    # nonzero by a hair (10^-40 relative): a proof, and the enclosure agrees on the sign
    tiny = total - one + R(1, 10**40) * e(R(-1, 3))
    assert is_exactly_zero(tiny) is False
    assert decide_sign(tiny).sign is Sign.POSITIVE
    # half-integer exponents, negative powers, roots of e
    h = e(R(1, 2))
    assert is_exactly_zero(1 / (1 + h) + h / (1 + h) - 1) is True
    assert (
        is_exactly_zero((1 - h / 10) ** 3 - (1 - 3 * h / 10 + 3 * e(1) / 100 - h**3 / 1000)) is True
    )
    assert is_exactly_zero(e(R(1, 2)) - sp.sqrt(e(1))) is True
    # roots of 5: the exponential mechanism at eps = log 5 with scores 1, 0, -3/2 and
    # sensitivity 2 (weights 5^(1/4), 1, 5^(-3/8)); its probabilities sum to 1
    r4, r8 = sp.root(5, 4), sp.Integer(5) ** R(5, 8)
    den = r8 / 5 + 1 + r4
    assert is_exactly_zero(1 - r4 / den - 1 / den - r8 / (5 * den)) is True
    # without one of them the sum is 1 - 5^(1/4)/den - 1/den > 0: never proved zero
    assert is_exactly_zero(1 - r4 / den - 1 / den) is not True
    assert decide_sign(1 - r4 / den - 1 / den).sign is Sign.POSITIVE


def test_a_zero_divisor_left_unevaluated_is_no_proof():
    # D = (1 + e^(1/2))^2 - 1 - 2 e^(1/2) - e is 0, but sympy keeps it unexpanded:
    # D/D has no value (cancel would call it 1, a false proof of "nonzero")
    h = sp.exp(R(1, 2))
    d = sp.Add((1 + h) ** 2, -1, -2 * h, -sp.E, evaluate=False)
    assert is_exactly_zero(d) is True
    d_over_d = sp.Mul(d, sp.Pow(d, -1, evaluate=False), evaluate=False)
    assert is_exactly_zero(d_over_d) is None
    assert is_exactly_zero(sp.Add(d_over_d, -1, evaluate=False)) is None  # simplify: 0
    assert is_exactly_zero(sp.Add(d_over_d, -2, evaluate=False)) is None  # simplify: -1


def test_exact_max_and_combine():
    assert exact_max([R(1, 2), sp.log(2), R(1, 3)]) == (1, True)
    assert exact_max([sp.log(6), sp.log(2) + sp.log(3)]) == (0, True)
    assert combine_verdicts([]) is Verdict.HOLDS
    assert (
        combine_verdicts([Verdict.HOLDS, Verdict.VIOLATED, Verdict.UNDECIDED]) is Verdict.VIOLATED
    )
    assert combine_verdicts([Verdict.HOLDS, Verdict.UNDECIDED]) is Verdict.UNDECIDED


def test_precision_validation():
    with pytest.raises(InvalidParameter):
        Precision(start_bits=128, max_bits=64)


@settings(max_examples=200, deadline=None)
@given(
    st.fractions(min_value=-100, max_value=100, max_denominator=10**6),
    st.fractions(min_value=-100, max_value=100, max_denominator=10**6),
)
def test_certified_path_agrees_with_exact_path(a, b):
    """Comparisons of exp/log expressions agree with the exact rational answer."""
    x, y = exact(a), exact(b)
    truth = Verdict.HOLDS if a <= b else Verdict.VIOLATED
    # exp is increasing: e^x <= e^y iff x <= y, decided through enclosures
    assert decide_le(sp.exp(x), sp.exp(y)).verdict is truth
    assert decide_le(x, y).verdict is truth
    # the enclosure of a rational contains it
    e = enclose(x / 7, 64)
    assert e is not None
    with mpmath.workprec(200):
        v = mpmath.mpf(a.numerator) / mpmath.mpf(7 * a.denominator)
        assert e.lo <= v <= e.hi


def test_equal_log_sums_agrees_with_the_general_zero_proof():
    """The display's proof that a combined sum of logarithms of rationals equals the
    sum (products of rational powers compared exactly) gives the verdict of the
    general exact-zero proof, on equal pairs (logcombine) and on unequal ones."""
    import random

    from verifier.arithmetic.exact import _equal_log_sums, is_exactly_zero

    rng = random.Random(7)
    decided = {True: 0, False: 0}
    for _ in range(60):
        x = sp.Rational(rng.randint(-3, 3), rng.randint(1, 3)) + sum(
            sp.Rational(rng.randint(-3, 3), rng.randint(1, 2))
            * sp.log(sp.Rational(rng.randint(1, 12), rng.randint(1, 12)))
            for _ in range(rng.randint(1, 3))
        )
        for y in (sp.logcombine(x, force=True), x + sp.log(sp.Rational(rng.randint(2, 5), 7))):
            got = _equal_log_sums(x, y)
            if got is not None:
                assert got is (is_exactly_zero(x - y) is True), (x, y)
                decided[got] += 1
    assert decided[True] > 10 and decided[False] > 10


def test_zero_proof_through_the_fraction_field_agrees_with_cancel(monkeypatch):
    """is_exactly_zero's rational-function proof gives the same answers through
    sympy's field of rational functions as through ``cancel`` alone: on identities of
    exponentials and roots (a sum minus its recombined form), on non-zero values, and
    on a 0/0 form (no proof either way)."""
    import random

    import verifier.arithmetic.exact as ex

    t, s2 = sp.exp(sp.Rational(1, 6)), sp.sqrt(2)
    eps = sp.Symbol("epsilon", positive=True)
    rng = random.Random(9)
    cases = []
    for i in range(25):
        e = sum(
            sp.Rational(rng.randint(-3, 3), rng.randint(1, 4))
            * t ** rng.randint(0, 5)
            * s2 ** (rng.randint(0, 1) * (i % 3 == 0))
            * sp.exp(eps / 2) ** (rng.randint(0, 2) * (i % 2))
            / (1 + t ** rng.randint(1, 3))
            for _ in range(3)
        )
        cases += [sp.expand(e) - sp.together(e), sp.expand(e) - sp.together(e) + t / 5]
    d = sp.exp(sp.Rational(1, 3)) - t**2  # zero, left unevaluated as a divisor
    cases.append(sp.Mul(d, sp.Pow(d, -1, evaluate=False), evaluate=False) - 1)
    fast = [ex._zero_as_rational_function(c) for c in cases]
    monkeypatch.setattr(ex, "fraction_field", lambda exprs: None)
    slow = [ex._zero_as_rational_function(c) for c in cases]
    assert fast == slow
    assert True in fast and False in fast


def test_rational_functions_of_symbols_are_proved_zero_without_simplify(monkeypatch):
    """A sum of rational functions of symbols alone (no exponential, no root) that
    cancels is decided in the field of rational functions, as a distribution whose
    probabilities are fractions of a parameter is proved to sum to 1; a nonzero one is
    no proof (a symbol's value could make it vanish), and a divisor that is
    identically 0 leaves it without a value."""

    def boom(*args, **kwargs):
        raise AssertionError("simplify was called")

    x, y = sp.Symbol("x", positive=True), sp.Symbol("y")
    monkeypatch.setattr(sp, "simplify", boom)
    assert is_exactly_zero(x / (x + 1) + 1 / (x + 1) - 1) is True
    assert is_exactly_zero((x**2 - y**2) / (x - y) - x - y) is True
    zero = sp.Add(x, -x, evaluate=False)  # 0, left unevaluated as a divisor
    assert is_exactly_zero(sp.Mul(x, sp.Pow(zero, -1, evaluate=False), evaluate=False)) is None
    monkeypatch.undo()
    assert is_exactly_zero(x / (x + 1) - 1) is None
