"""Pure ε of independent products by additivity (:mod:`verifier.algorithms.noise.products`), against
brute force over the product's outputs and direct evaluations of density ratios."""

from __future__ import annotations

import itertools
import random

import pytest
import sympy as sp

from verifier.algorithms.noise.mixtures import check_laplace_mixtures_dp
from verifier.algorithms.noise.products import (
    LaplaceDensity,
    component_epsilon,
    component_json,
    linear_image_epsilon,
    product_epsilon,
)
from verifier.arithmetic.exact import Verdict, decide_le
from verifier.errors import InvalidParameter

R = sp.Rational


def _random_distribution(rng: random.Random, outputs: int) -> dict[int, sp.Rational]:
    weights = [rng.randint(1, 9) for _ in range(outputs)]
    total = sum(weights)
    return {o: R(w, total) for o, w in enumerate(weights)}


@pytest.mark.parametrize("seed", range(5))
def test_additivity_equals_brute_force_over_the_product_outputs(seed):
    rng = random.Random(seed)
    sizes = [rng.randint(2, 4) for _ in range(3)]
    ps = [_random_distribution(rng, n) for n in sizes]
    qs = [_random_distribution(rng, n) for n in sizes]
    ratios = []
    for out in itertools.product(*[range(n) for n in sizes]):
        p = sp.Mul(*[ps[i][o] for i, o in enumerate(out)])
        q = sp.Mul(*[qs[i][o] for i, o in enumerate(out)])
        ratios.append(p / q)
    brute = sp.log(max(ratios))
    got = product_epsilon(ps, qs).value
    assert sp.simplify(sp.expand_log(got - brute, force=True)) == 0


def test_a_zero_probability_under_the_second_law_makes_the_product_unbounded():
    p, q = {0: R(1, 2), 1: R(1, 2)}, {0: R(1), 1: R(0)}
    out = product_epsilon([p, {0: 1}], [q, {0: 1}])
    assert out.value is sp.oo
    # outputs outside the support of the first law do not count
    assert component_epsilon(q, p).value == sp.log(2)


def test_laplace_components_give_the_distance_over_the_scale():
    assert component_epsilon(LaplaceDensity.at(3, 4), LaplaceDensity.at(R(1, 2), 4)).value == R(
        5, 8
    )
    assert component_epsilon(LaplaceDensity.at(1, 4), LaplaceDensity.at(1, 4)).value == 0
    twenty = product_epsilon([LaplaceDensity.at(1, 200)] * 20, [LaplaceDensity.at(2, 200)] * 20)
    assert twenty.value == 20 * R(1, 200) and len(twenty.terms) == 20


def test_laplace_mixture_components_agree_with_the_mixture_checker():
    a = LaplaceDensity(((R(1, 2), R(0)), (R(1, 2), R(1))), 1)
    b = LaplaceDensity(((R(1, 4), R(0)), (R(3, 4), R(1))), 1)
    eps = component_epsilon(a, b).value
    mixtures = {"a": a.mixture, "b": b.mixture}
    at = check_laplace_mixtures_dp(mixtures, 1, eps, pairs=[("a", "b")])
    assert at.verdict is Verdict.HOLDS
    below = check_laplace_mixtures_dp(mixtures, 1, eps - R(1, 10**6), pairs=[("a", "b")])
    assert below.verdict is Verdict.VIOLATED


def test_laplace_densities_of_different_scales():
    wide, narrow = LaplaceDensity.at(0, 2), LaplaceDensity.at(1, 1)
    assert component_epsilon(wide, narrow).value is sp.oo
    loss = component_epsilon(narrow, wide)
    assert loss.value == sp.log(2) + R(1, 2) and loss.where == "t = 1"
    # the ratio never exceeds the supremum, and reaches it at the narrow centre
    t = sp.Symbol("t", real=True)
    ratio = narrow.density(t) / wide.density(t)
    for x in [R(k, 4) for k in range(-40, 41)]:
        assert decide_le(ratio.subs(t, x), sp.exp(loss.value)).verdict is Verdict.HOLDS
    assert sp.simplify(ratio.subs(t, 1) - sp.exp(loss.value)) == 0


def test_a_linear_image_keeps_the_epsilon_and_a_singular_one_is_refused():
    prefix = sp.Matrix(4, 4, lambda i, j: 1 if j <= i else 0)
    ps = [LaplaceDensity.at(x, 10) for x in (1, 1, 1, 1)]
    qs = [LaplaceDensity.at(x, 10) for x in (2, 0, 0, 0)]
    assert linear_image_epsilon(ps, qs, prefix).value == R(4, 10)
    with pytest.raises(InvalidParameter, match="singular"):
        linear_image_epsilon(ps, qs, sp.zeros(4, 4))
    with pytest.raises(InvalidParameter, match="not 4x4"):
        linear_image_epsilon(ps, qs, sp.eye(3))


@pytest.mark.parametrize(
    ("ps", "qs", "message"),
    [
        ([{0: 1}], [{0: 1}, {0: 1}], "1 and 2 components"),
        ([], [], "at least one component"),
        ([{0: R(1, 2)}], [{0: 1}], "do not sum to 1"),
        ([{0: R(-1), 1: R(2)}], [{0: 1}], "negative"),
        ([LaplaceDensity.at(0, 1)], [{0: 1}], "not comparable"),
    ],
)
def test_bad_products_are_refused(ps, qs, message):
    with pytest.raises(InvalidParameter, match=message):
        product_epsilon(ps, qs)


def test_bad_laplace_densities_are_refused():
    with pytest.raises(InvalidParameter, match="positive"):
        LaplaceDensity.at(0, 0)
    with pytest.raises(InvalidParameter, match="at least one centre"):
        LaplaceDensity((), 1)


def test_components_as_json():
    assert component_json({"a": R(1, 4), "b": R(3, 4)}) == {
        "kind": "finite",
        "distribution": {"a": "1/4", "b": "3/4"},
    }
    d = component_json(LaplaceDensity.at(R(1, 2), 10), "x")
    assert d == {
        "kind": "laplace",
        "scale": "10",
        "density": "exp(-Abs(x - 1/2)/10)/20",
        "centre": "1/2",
    }
    mix = component_json(LaplaceDensity(((R(1, 2), 0), (R(1, 2), 1)), 1))
    assert mix["mixture"] == [["1/2", "0"], ["1/2", "1"]]
