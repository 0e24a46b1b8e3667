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
