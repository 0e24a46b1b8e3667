"""Soundness of box decisions (:mod:`verifier.checks.boxes`) on every construct of the
expression grammar (:mod:`verifier.arithmetic.expressions`): random expressions and random boxes
(straddling 0, tiny, wide), every verdict checked against exact evaluation at rational
points of the box; and one deterministic regression test per construct that the box
engine used to get wrong."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from verifier.arithmetic.exact import Verdict, decide_le
from verifier.arithmetic.expressions import parse_expression
from verifier.checks.boxes import Box, BoxBudget, decide_on_box, identically_zero
from verifier.errors import InvalidParameter, UnsupportedExpression, VerifierError

R = sp.Rational
x, y = sp.symbols("x y", real=True)
SMALL = BoxBudget(max_depth=14, max_boxes=150, seconds=3, serial_boxes=150, split_levels=2)


def _at(lhs: sp.Expr, rhs: sp.Expr, point: dict) -> Verdict | None:
    """``lhs <= rhs`` decided exactly at a point (``None`` where a side is undefined)."""
    try:
        return decide_le(lhs.xreplace(point), rhs.xreplace(point)).verdict
    except (VerifierError, ZeroDivisionError, TypeError, ValueError):
        return None


def _premise_holds(g: sp.Expr, point: dict) -> bool | None:
    v = _at(sp.Integer(0), g, point)
    return None if v in (None, Verdict.UNDECIDED) else v is Verdict.HOLDS


def _points(box: Box, rng: random.Random, n: int = 6) -> list[dict]:
    """Corners, the centre and ``n`` random rational points of the box."""
    (xl, xh), (yl, yh) = zip(box.lows, box.highs, strict=True)
    pts = [(a, b) for a in (xl, xh) for b in (yl, yh)]
    pts.append(((xl + xh) / 2, (yl + yh) / 2))
    for _ in range(n):
        pts.append(
            (
                xl + (xh - xl) * Fraction(rng.randint(0, 64), 64),
                yl + (yh - yl) * Fraction(rng.randint(0, 64), 64),
            )
        )
    return [box.point(p) for p in pts]


# -- random expressions of the grammar ------------------------------------------------

LEAVES = st.one_of(
    st.sampled_from(["x", "y", "pi", "e"]),
    st.builds(lambda p, q: f"({p}/{q})", st.integers(-9, 9), st.integers(1, 7)),
)


def _extend(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    two = st.tuples(children, children)
    return st.one_of(
        st.builds(lambda ab: f"({ab[0]} + {ab[1]})", two),
        st.builds(lambda ab: f"({ab[0]} - {ab[1]})", two),
        st.builds(lambda ab: f"({ab[0]} * {ab[1]})", two),
        st.builds(lambda ab: f"({ab[0]} / {ab[1]})", two),
        st.builds(lambda a, k: f"({a})^{k}", children, st.sampled_from([-2, -1, 2, 3])),
        st.builds(lambda a: f"exp({a})", children),
        st.builds(lambda a: f"log({a})", children),
        st.builds(lambda a: f"sqrt({a})", children),
        st.builds(lambda ab: f"min({ab[0]}, {ab[1]})", two),
        st.builds(lambda ab: f"max({ab[0]}, {ab[1]})", two),
        st.builds(lambda a: f"abs({a})", children),
        st.builds(lambda a: f"floor({a})", children),
        st.builds(lambda a: f"ceil({a})", children),
        st.builds(lambda a, k: f"binomial({a}, {k})", children, st.integers(0, 3)),
    )


EXPRESSIONS = st.recursive(LEAVES, _extend, max_leaves=5)

ENDS = st.sampled_from(
    [
        (R(-1), R(1)),  # straddling 0
        (R(-3), R(1, 2)),
        (R(-1, 2), R(0)),
        (R(0), R(2)),
        (R(1, 100), R(3)),
        (R(1, 3), R(1, 3) + R(1, 1000)),  # tiny
        (R(-4), R(4)),  # wide
        (R(-1, 1000), R(1, 1000)),  # tiny around 0
    ]
)


def _parse(text: str, symbols: dict[str, sp.Symbol] | None = None) -> sp.Expr | None:
    try:
        return parse_expression(text, symbols or {"x": x, "y": y})
    except VerifierError:
        return None


def _check(lhs: sp.Expr, rhs: sp.Expr, box: Box, where: sp.Expr | None, seed: int) -> None:
    premises = [] if where is None else [where]
    try:
        d = decide_on_box(lhs, rhs, box, SMALL, where=premises or None)
    except UnsupportedExpression as err:
        # a refusal must name the construct, never come from deep inside sympy
        assert "enclose" in str(err), err
        return
    points = _points(box, random.Random(seed))
    if d.verdict is Verdict.HOLDS:
        for pt in points:
            if where is not None and _premise_holds(where, pt) is not True:
                continue
            assert _at(lhs, rhs, pt) is not Verdict.VIOLATED, (
                f"holds claimed, but {lhs} <= {rhs} fails at {pt} (box {box})"
            )
    elif d.verdict is Verdict.VIOLATED:
        w = d.witness
        assert w is not None, "a violation needs an exact witness"
        for s, lo, hi in zip(box.symbols, box.lows, box.highs, strict=True):
            assert lo <= Fraction(int(w[s].p), int(w[s].q)) <= hi
        assert _at(lhs, rhs, w) is Verdict.VIOLATED, f"witness {w} does not violate"
        if where is not None:
            assert _premise_holds(where, w) is True, f"witness {w} outside the premise"


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    EXPRESSIONS,
    EXPRESSIONS,
    ENDS,
    ENDS,
    st.one_of(st.none(), EXPRESSIONS),
    st.integers(0, 2**16),
    st.booleans(),
)
@example("abs(x)", "x + y", (R(-1), R(1)), (R(1, 100), R(1)), None, 0, False)
@example("max(x, -x)", "x + y", (R(-1), R(1)), (R(1, 100), R(1)), None, 0, False)
@example("floor(x)", "y", (R(-1), R(1)), (R(0), R(1)), None, 0, False)
@example("(x + y)", "sqrt(x^2) + (1/100)", (R(-1), R(1)), (R(0), R(1)), "x + y", 0, False)
def test_verdicts_agree_with_exact_points(lhs_t, rhs_t, xr, yr, where_t, seed, declared):
    # the symbols: real, or declared nonnegative when the box allows it (the parser
    # then simplifies with the assumption, e.g. sqrt(x^2) is x)
    u, v = x, y
    if declared and xr[0] >= 0 and yr[0] >= 0:
        u, v = sp.symbols("x y", nonnegative=True)
    names = {"x": u, "y": v}
    lhs, rhs = _parse(lhs_t, names), _parse(rhs_t, names)
    where = None if where_t is None else _parse(where_t, names)
    if lhs is None or rhs is None or (where_t is not None and where is None):
        return  # refused by the parser (1/0, log(-1), ...): nothing to decide
    if (lhs.free_symbols | rhs.free_symbols) - {u, v}:
        return
    box = Box.of({u: xr, v: yr})
    _check(lhs, rhs, box, where, seed)


# -- one regression test per construct ------------------------------------------------

BOX = {x: (-1, 1), y: (R(1, 100), 1)}


@pytest.mark.parametrize(
    "lhs, rhs",
    [
        (sp.Abs(x), x + y),  # |x| collapsed to x by positive generators
        (sp.Max(x, -x), x + y),
        (sp.sqrt(x**2), x + y),
        (y, sp.Min(x, 0) + 1),  # min(x, 0) collapsed to 0
    ],
)
def test_abs_min_max_sqrt_of_a_parameter_reaching_negative_values(lhs, rhs):
    d = decide_on_box(lhs, rhs, BOX, SMALL)
    assert d.verdict is Verdict.VIOLATED
    assert _at(lhs, rhs, d.witness) is Verdict.VIOLATED
    assert _at(lhs, rhs, {x: -1, y: R(1, 100)}) is Verdict.VIOLATED  # the corner


def test_identically_zero_does_not_assume_positive_parameters():
    assert not identically_zero(sp.Abs(x) - x, [x])
    assert not identically_zero(sp.Max(x, 0) - x, [x])
    assert identically_zero(sp.Abs(sp.exp(x)) - sp.exp(x), [x])  # e^x > 0 for every x


def test_a_pole_lost_by_the_difference_is_not_decided():
    # 1/x + 1 <= 1/x + 2: rhs - lhs = 1, but both sides are undefined at x = 0
    d = decide_on_box(1 / x + 1, 1 / x + 2, {x: (-1, 1), y: (0, 1)}, SMALL)
    assert d.verdict is not Verdict.HOLDS
    d = decide_on_box(1 / x + 1, 1 / x + 2, {x: (R(1, 2), 1), y: (0, 1)})
    assert d.verdict is Verdict.HOLDS  # no pole in the box


def test_a_removable_pole_inside_the_box_is_not_decided():
    lhs = (x**2 + x + y * x) / x  # x + 1 + y, but undefined at x = 0
    d = decide_on_box(lhs, x + 1 + y, {x: (-1, 1), y: (0, 1)}, SMALL)
    assert d.verdict is not Verdict.HOLDS
    d = decide_on_box(lhs, x + 1 + y, {x: (R(1, 10), 1), y: (0, 1)})
    assert d.verdict is Verdict.HOLDS and d.identically_equal


def test_a_point_where_a_side_is_undefined_is_named():
    # 1/u <= 1/u + v: rhs - lhs = v >= 0, but both sides are undefined on u = 0
    u, v = sp.symbols("u v", nonnegative=True)
    d = decide_on_box(1 / u, 1 / u + v, {u: (0, 1), v: (0, 1)}, SMALL)
    assert d.verdict is Verdict.UNDECIDED
    assert d.undefined_at is not None and d.undefined_at[u] == 0
    assert "undefined at" in d.note
    # failures next to a pole are still found, exactly
    d = decide_on_box(1 / (u + v), 2 + 0 * u, {u: (0, 1), v: (0, 1)}, SMALL)
    assert d.verdict is Verdict.VIOLATED
    assert _at(1 / (u + v), sp.Integer(2), d.witness) is Verdict.VIOLATED


def test_floor_and_ceil_are_enclosed_without_a_mean_value_across_a_jump():
    # floor(x) <= y fails only on the face x = 1 (y < 1)
    d = decide_on_box(sp.floor(x), y, {x: (-1, 1), y: (0, 1)}, SMALL)
    assert d.verdict is Verdict.VIOLATED and _at(sp.floor(x), y, d.witness) is Verdict.VIOLATED
    # floor(x) <= x holds everywhere (tight on the integers)
    d = decide_on_box(sp.floor(x), x + y, {x: (-2, 2), y: (R(1, 10), 1)})
    assert d.verdict is Verdict.HOLDS
    # ceil(x) - 1 < x: holds with a margin y >= 1/10
    d = decide_on_box(sp.ceiling(x) - 1, x + y, {x: (-2, 2), y: (R(1, 10), 1)})
    assert d.verdict is Verdict.HOLDS
    # x + 1/2 <= ceil(x) fails just above each integer
    d = decide_on_box(x + R(1, 2) + 0 * y, sp.ceiling(x), {x: (-2, 2), y: (0, 1)}, SMALL)
    assert d.verdict is Verdict.VIOLATED


def test_binomial_with_a_constant_k_is_the_falling_factorial():
    d = decide_on_box(sp.binomial(x, 2), y, {x: (-1, 1), y: (0, 1)}, SMALL)
    assert d.verdict is Verdict.VIOLATED and _at(sp.binomial(x, 2), y, d.witness) is (
        Verdict.VIOLATED
    )
    k = sp.Symbol("k", real=True)
    with pytest.raises(UnsupportedExpression, match="binomial"):
        decide_on_box(sp.binomial(x, k), 1, {x: (0, 1), k: (0, 1)})


def test_a_fractional_power_of_a_negative_number_is_never_decided():
    d = decide_on_box(x ** R(1, 3), y + 2, {x: (-1, 1), y: (0, 1)}, SMALL)
    assert d.verdict is Verdict.UNDECIDED


# -- assumptions and limits -------------------------------------------------------------


def test_box_ends_outside_a_symbols_assumptions_are_refused():
    p, n = sp.Symbol("p", positive=True), sp.Symbol("n", nonnegative=True)
    with pytest.raises(InvalidParameter, match="p is declared positive.*reaches 0"):
        Box.of({p: (0, 1), y: (0, 1)})
    with pytest.raises(InvalidParameter, match="n is declared nonnegative"):
        Box.of({n: (-1, 1), y: (0, 1)})
    with pytest.raises(InvalidParameter, match="declared positive"):
        decide_on_box(p, 1, {"p": (-1, 1), "y": (0, 1)})  # a box by names
    with pytest.raises(InvalidParameter, match="declared negative"):
        Box.of({sp.Symbol("m", negative=True): (-1, 0), y: (0, 1)})
    with pytest.raises(InvalidParameter, match="integer"):
        Box.of({sp.Symbol("k", integer=True): (0, 3), y: (0, 1)})
    assert Box.of({sp.Symbol("k", integer=True): (2, 2), y: (0, 1)}).dimension == 1


def test_too_many_parameters_are_refused_with_the_limit():
    syms = sp.symbols("a0:9", real=True)
    with pytest.raises(InvalidParameter, match="9 parameters is over the limit of 8"):
        decide_on_box(sum(syms), 1, {s: (0, 1) for s in syms})
    d = decide_on_box(sum(syms), 9, {s: (0, 1) for s in syms}, BoxBudget(max_parameters=9))
    assert d.verdict is Verdict.HOLDS


def test_stored_sub_boxes_are_capped_and_counted():
    u, v = sp.symbols("u v", nonnegative=True)
    budget = BoxBudget(max_boxes=400, serial_boxes=400, max_stored=3, seconds=None)
    d = decide_on_box(u, R(1, 2) + 0 * v, {u: (0, 1), v: (0, 1)}, budget)
    assert d.verdict is Verdict.VIOLATED
    assert len(d.failing) <= 3 and d.failing_count > 3
    assert 0 < d.failing_fraction <= R(1, 2)


# -- premises ------------------------------------------------------------------------


def test_premises_restrict_the_box():
    u, v = sp.symbols("u v", nonnegative=True)
    box = {u: (0, 2), v: (0, 2)}
    d = decide_on_box(u * v, 2, box, where=[u + v <= 2])
    assert d.verdict is Verdict.HOLDS and not d.vacuous and d.region_nonempty
    assert d.undecided_fraction == 0 and 0 < d.outside_fraction < 1
    d = decide_on_box(u * v, 2, box, SMALL)  # without the premise: fails at (2, 2)
    assert d.verdict is Verdict.VIOLATED
    d = decide_on_box(u * v, R(1, 2), box, SMALL, where=[u + v - 2 <= 0])
    assert d.verdict is Verdict.VIOLATED
    w = d.witness
    assert w[u] + w[v] <= 2 and w[u] * w[v] > R(1, 2)


def test_a_violation_outside_the_premises_is_not_reported():
    u, v = sp.symbols("u v", nonnegative=True)
    # u <= 1 fails only where u > 1, which the premise u <= 1 excludes (closed)
    d = decide_on_box(u, 1 + 0 * v, {u: (0, 2), v: (0, 1)}, where=[1 - u])
    assert d.verdict is Verdict.HOLDS
    # strict premise u > 1: the failing part
    d = decide_on_box(u, 1 + 0 * v, {u: (0, 2), v: (0, 1)}, SMALL, where=[u > 1])
    assert d.verdict is Verdict.VIOLATED and d.witness[u] > 1


def test_an_empty_region_is_vacuous_not_a_plain_holds():
    u, v = sp.symbols("u v", nonnegative=True)
    d = decide_on_box(u, -1 + 0 * v, {u: (0, 1), v: (0, 1)}, where=[u + v >= 3])
    assert d.verdict is Verdict.HOLDS and d.vacuous and d.outside_fraction == 1
    assert "vacuous" in d.note and "vacuously" in str(d)
    # an inequality proved on the whole box by the exact route, over an empty region
    d = decide_on_box(u, u + 1, {u: (0, 1), v: (0, 1)}, where=[u + v >= 3])
    assert d.verdict is Verdict.HOLDS and d.vacuous
    d = decide_on_box(u, u + 1, {u: (0, 1), v: (0, 1)}, where=[u + v <= 3])
    assert d.verdict is Verdict.HOLDS and not d.vacuous


def test_premises_in_pieces_give_the_same_decision():
    u, v = sp.symbols("u v", nonnegative=True)
    box = {u: (0, 2), v: (0, 2)}
    lhs, rhs, where = u * v + sp.log(1 + u) - sp.log(1 + u), R(3, 4), [u + v <= 2]
    whole = decide_on_box(lhs, rhs, box, BoxBudget(max_boxes=3000, seconds=None), where=where)
    split = decide_on_box(
        lhs,
        rhs,
        box,
        BoxBudget(max_boxes=3000, serial_boxes=20, split_levels=3, seconds=None),
        where=where,
    )
    assert whole.verdict is split.verdict is Verdict.VIOLATED
    for d in (whole, split):
        w = d.witness
        assert w[u] + w[v] <= 2 and w[u] * w[v] > R(3, 4)


def test_malformed_premises_are_refused():
    u, v = sp.symbols("u v", nonnegative=True)
    with pytest.raises(InvalidParameter, match="only <=, <, >=, >"):
        decide_on_box(u, 1, {u: (0, 1), v: (0, 1)}, where=[sp.Eq(u, v)])
    with pytest.raises(InvalidParameter, match="not parameters of the box"):
        decide_on_box(u, 1, {u: (0, 1), v: (0, 1)}, where=[u + sp.Symbol("z") >= 0])
    with pytest.raises(InvalidParameter, match="is text"):
        decide_on_box(u, 1, {u: (0, 1), v: (0, 1)}, where=["u >= 0"])
