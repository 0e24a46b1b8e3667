"""Box decisions that split into pieces, shared by the tests of local processes
(tests/test_executors.py) and of dask (tests/test_dask.py): each decided without a
runner and on one, and checked against facts derived by hand."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import sympy as sp

from verifier.arithmetic.exact import Verdict
from verifier.checks.boxes import Box, BoxBudget, BoxDecision, _decide_cached, decide_on_box

x, y = sp.symbols("x y", nonnegative=True)
BOX = Box.of({x: (0, 1), y: (0, 1)})
#: a first pass of 100 sub-boxes, then 2**3 pieces with (1500 - 100) // 8 sub-boxes each
BUDGET = BoxBudget(max_depth=14, max_boxes=1500, seconds=None, serial_boxes=100, split_levels=3)
# log(1 + x) - log(1 + x) hides the polynomial from the exact rewrite: branch and bound
HIDE = sp.log(1 + x) - sp.log(1 + x)
#: 2xy <= x^2 + y^2, i.e. (x - y)^2 >= 0: true, with equality on the diagonal, which
#: enclosures never settle: some sub-boxes stay open, none fails
TIGHT = (2 * x * y + HIDE, x**2 + y**2)
#: xy <= x + y - 999/1000: fails near (0, 0) (at (1/8, 1/8): 1/64 > -199/200), holds
#: near (1, 1) (1 <= 1001/1000)
FAILS = (x * y + HIDE, x + y - sp.Rational(999, 1000))
CASES = (TIGHT, FAILS)


def decide_fresh(lhs: sp.Expr, rhs: sp.Expr) -> BoxDecision:
    """The decision computed again (not the cached one), without its timing."""
    _decide_cached.cache_clear()
    return dataclasses.replace(decide_on_box(lhs, rhs, BOX, BUDGET), seconds=0.0)


def _holds_at(lhs: sp.Expr, rhs: sp.Expr, point: dict) -> bool:
    return bool(sp.simplify(rhs.xreplace(point) - lhs.xreplace(point)) >= 0)


def check_by_hand(tight: BoxDecision, fails: BoxDecision) -> None:
    """What a hand derivation says of the two decisions, and that they were split."""
    assert tight.verdict is Verdict.UNDECIDED and not tight.failing and tight.witness is None
    for sub in tight.undecided:  # an open sub-box can only be one the diagonal meets
        (xl, xh), (yl, yh) = sub.bounds
        assert max(xl, yl) <= min(xh, yh)
    assert fails.verdict is Verdict.VIOLATED and fails.failing
    assert not _holds_at(*FAILS, fails.witness)
    for sub in fails.failing:  # failing everywhere: at its centre too (xy > x + y - 999/1000)
        cx, cy = ((lo + hi) / 2 for lo, hi in sub.bounds)
        assert cx * cy > cx + cy - Fraction(999, 1000)
    for d in (tight, fails):  # split into pieces: past the first pass, a piece's budget
        assert d.boxes > BUDGET.serial_boxes
    assert "of a piece ran out" in tight.note
