"""The grid search for closed-form proof steps (:mod:`verifier.search.inequalities`)."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest
import sympy as sp

from verifier.claims import Claim
from verifier.errors import InvalidParameter
from verifier.search import confirm
from verifier.search.inequalities import GridPoint, GridSpace, inequality_search


def _claim(sides, space, claim_id="demo.step"):
    spec = inequality_search(claim_id, space, sides, "demo step", "none")
    return Claim(claim_id, "none", "demo step", "holds", search=spec)


def test_grid_space_respects_the_hypotheses_and_moves_on_the_grid():
    space = GridSpace(("x", "y"), ((F(1), F(2), F(3)), (F(1, 2), F(1))), lambda v: v["x"] > 1)
    rng = random.Random(0)
    for _ in range(20):
        p = space.random(rng)
        assert p.values[0] > 1
        q = space.neighbour(p, rng, 0.5)
        assert q.values[0] in (F(2), F(3)) and q.values[1] in (F(1, 2), F(1))
    assert space.describe(GridPoint((F(2), F(1)))) == "x = 2, y = 1"
    assert all(
        space.complexity(s) < space.complexity(GridPoint((F(3), F(1, 2))))
        for s in space.shrink(GridPoint((F(3), F(1, 2))))
    )


def test_grid_space_refuses_bad_grids():
    with pytest.raises(InvalidParameter, match="one grid per parameter"):
        GridSpace(("x",), ())
    with pytest.raises(InvalidParameter, match="at least one value"):
        GridSpace(("x",), ((),))
    with pytest.raises(InvalidParameter, match="no point of the grid"):
        GridSpace(("x",), ((F(1),),), lambda v: False).random(random.Random(0))


def test_screen_and_exact_confirmation_agree():
    space = GridSpace(("x",), (tuple(F(k, 4) for k in range(1, 8)),))
    c = _claim(lambda v: ([(sp.Integer(0), v["x"])], (v["x"] ** 2, sp.Integer(1))), space)
    for x in (F(1, 4), F(7, 4)):
        inst = GridPoint((x,))
        conf = confirm(c, inst)
        assert conf.error is None and conf.ratio == pytest.approx(c.search.screen(inst))
        assert conf.confirmed is (x * x > 1)


def test_the_screen_is_compiled_once_and_agrees_with_the_exact_sides():
    # A closed form in exp, log and radicals: the compiled float screen is used, and
    # at every point of the grid it is the exact screen to 12 digits.
    space = GridSpace(("a", "x"), ((F(1, 10), F(1, 2), F(3)), (F(0), F(1, 3), F(2), F(7))))
    calls = []

    def sides(v):
        calls.append(v)
        lhs = sp.exp(v["a"] * v["x"]) * (1 + v["x"]) ** sp.Rational(1, 3)
        return [], (lhs, sp.log(2 + v["a"]) + v["x"] ** 2 + 1)

    screen = inequality_search("demo.step", space, sides, "demo", "none").screen
    assert screen.compiled() is not None
    built = len(calls)  # once on symbols, and once per checked point exactly
    for a in space.grids[0]:
        for x in space.grids[1]:
            p = GridPoint((a, x))
            assert screen(p) == pytest.approx(screen.exact(p), rel=1e-12)
    assert len(calls) == built + 3 * 4  # the exact comparisons above, nothing else


def test_a_screen_that_branches_on_its_values_keeps_the_exact_sides():
    # `v["x"] == 0` is False on a symbol: the compiled function would be the x != 0
    # branch everywhere; it disagrees at the checked points with x = 0, so the exact
    # screen stays (and is right at x = 0).
    space = GridSpace(("x",), ((F(0), F(1, 2), F(1)),))

    def sides(v):
        if v["x"] == 0:
            return [], (sp.Integer(5), sp.Integer(1))
        return [], (v["x"], sp.Integer(1))

    screen = inequality_search("demo.step", space, sides, "demo", "none").screen
    assert screen.compiled() is None
    assert screen(GridPoint((F(0),))) == 5

    # a comparison that needs a number fails on symbols: exact screen as well
    def ordered(v):
        return [], (max(v["x"], sp.Rational(1, 2)), sp.Integer(1))

    screen = inequality_search("demo.step", space, ordered, "demo", "none").screen
    assert screen.compiled() is None
    assert screen(GridPoint((F(0),))) == 0.5

    # a function without a float program (floor): exact screen
    def floored(v):
        return [], (sp.floor(3 * v["x"]) + 1, sp.Integer(1))

    screen = inequality_search("demo.step", space, floored, "demo", "none").screen
    assert screen.compiled() is None
    assert screen(GridPoint((F(1, 2),))) == 2


def test_a_compiled_screen_survives_a_pickle_and_is_rebuilt():
    import pickle

    space = GridSpace(("x",), ((F(1), F(2)),))
    screen = inequality_search("demo.step", space, _square_sides, "demo", "none").screen
    assert screen.compiled() is not None
    copy = pickle.loads(pickle.dumps(screen))
    assert copy(GridPoint((F(2),))) == screen(GridPoint((F(2),))) == 4.0


def _square_sides(v):
    return [], (v["x"] ** 2, sp.Integer(1))
