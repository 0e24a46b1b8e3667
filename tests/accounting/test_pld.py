"""The exact privacy loss distribution and composition on it (verifier.accounting):
against the product mechanism decided by the checkers, against the closed form of k-fold
randomized response, against a seeded simulation, and on bad input."""

from __future__ import annotations

import math
import random

import networkx as nx
import pytest
import sympy as sp

from verifier.accounting import MAX_ATOMS, Accountant, PrivacyLoss, check_tradeoff
from verifier.arithmetic.exact import Verdict, decide_le
from verifier.checks.privacy import delta as product_delta
from verifier.errors import InvalidMechanism, InvalidParameter
from verifier.interop.exact import epsilon_for_delta
from verifier.mechanism.compose import independent, repeat
from verifier.mechanism.instances import randomized_response
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair

R = sp.Rational


def _random_mechanism(rng: random.Random, m: int, zeros: bool) -> FiniteMechanism:
    """A mechanism on a pair with ``m`` outputs and random rational probabilities (with
    ``zeros``: one output impossible at D', one at D)."""

    def dist() -> list[sp.Rational]:
        w = [rng.randint(1, 9) for _ in range(m)]
        return [R(x, sum(w)) for x in w]

    p, q = dist(), dist()
    if zeros:
        q = [R(0)] + q[1:]
        p = p[:-1] + [R(0)]
        p = [x / sum(p) for x in p]
        q = [x / sum(q) for x in q]
    return FiniteMechanism(
        pair(), {"D": dict(enumerate(p)), "D'": dict(enumerate(q))}, list(range(m))
    )


EPSILONS = [R(0), R(1, 10), sp.log(2), R(1), sp.log(5)]


@pytest.mark.parametrize("seed", range(6))
def test_composition_equals_the_product_mechanism(seed):
    rng = random.Random(seed)
    a = _random_mechanism(rng, 3, zeros=seed % 2 == 1)
    b = _random_mechanism(rng, 2, zeros=False)
    acc = Accountant().compose(a, count=2).compose(b)
    product = independent(a, a, b)
    for eps in EPSILONS:
        exact_delta = acc.delta(epsilon=eps).value
        assert sp.simplify(exact_delta - product_delta(product, epsilon=eps).value) == 0
    for dl in (R(0), R(1, 100), R(1, 3)):
        got, want = acc.epsilon(delta=dl).value, epsilon_for_delta(product, delta=dl).value
        assert got == want or sp.simplify(got - want) == 0


def _rr_closed_form(k: int, p: sp.Expr, q: sp.Expr, w: sp.Expr, eps: sp.Expr) -> sp.Expr:
    """k-fold randomized response with ratio w = p/q: j of the k answers agree with D,
    loss (2j - k) log w, P-mass C(k,j) p^j q^(k-j), Q-mass C(k,j) q^j p^(k-j)
    (Kairouz, Oh & Viswanath 2015, the proof of Theorem 3.3)."""
    total = sp.Integer(0)
    for j in range(k + 1):
        if decide_le(w ** (2 * j - k), sp.exp(eps)).verdict is Verdict.VIOLATED:
            total += sp.binomial(k, j) * (p**j * q ** (k - j) - sp.exp(eps) * q**j * p ** (k - j))
    return total


@pytest.mark.parametrize("k", [1, 2, 5, 12, 31])
def test_k_fold_randomized_response_matches_its_closed_form(k):
    rr = randomized_response(sp.log(3))  # p = 3/4, q = 1/4
    loss = PrivacyLoss.of(rr, "D", "D'").power(k)
    assert len(loss.atoms) == k + 1
    assert loss.masses == (1, 1)
    for eps in (R(0), sp.log(3), R(5, 2), k * sp.log(3) / 2):
        want = _rr_closed_form(k, R(3, 4), R(1, 4), sp.Integer(3), eps)
        assert sp.simplify(loss.delta(eps) - want) == 0


def test_the_inverse_is_exact_on_every_segment():
    loss = PrivacyLoss.of(randomized_response(sp.log(3)), "D", "D'").power(6)
    for dl in (R(1, 1000), R(1, 50), R(1, 7), R(1, 2)):
        eps = loss.epsilon(dl)
        assert eps.is_positive
        assert sp.simplify(loss.delta(eps) - dl) == 0  # continuous: attained exactly
    assert loss.epsilon(1) == 0
    assert loss.epsilon(0) == sp.log(3**6)


def test_an_output_impossible_at_the_neighbour_is_an_infinite_loss():
    m = FiniteMechanism(pair(), {"D": {0: R(1, 10), 1: R(9, 10)}, "D'": {1: R(1)}}, [0, 1])
    loss = PrivacyLoss.of(m, "D", "D'").power(2)
    # P(at least one 0) = 1 - (9/10)^2 = 19/100 with no counterpart at D'
    assert loss.delta(sp.oo) == R(19, 100)
    assert loss.epsilon(R(1, 10)) is sp.oo
    # the rest, (1, 1), has ratio 81/100 < 1: it never counts, so delta = 19/100 needs eps = 0
    assert loss.epsilon(R(19, 100)) == 0


def test_a_seeded_simulation_of_the_loss_agrees_with_the_exact_delta():
    # delta(eps) = E_P[(1 - e^(eps - L))_+] for the loss L of one draw of 8 runs
    k, p = 8, 0.75
    loss = PrivacyLoss.of(randomized_response(sp.log(3)), "D", "D'").power(k)
    rng = random.Random(2024)
    n, eps = 200_000, 1.0
    draws = []
    for _ in range(n):
        j = sum(rng.random() < p for _ in range(k))
        ell = (2 * j - k) * math.log(3)
        draws.append(max(0.0, 1 - math.exp(eps - ell)))
    mean = sum(draws) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in draws) / (n - 1) / n)
    exact = float(loss.delta(sp.Integer(1)))
    assert abs(mean - exact) < 5 * sd + 1e-12


def test_accountant_answers_for_every_ordered_pair():
    g = nx.path_graph(["a", "b", "c"])
    m = FiniteMechanism(
        g,
        {
            "a": {0: R(1, 2), 1: R(1, 2)},
            "b": {0: R(1, 4), 1: R(3, 4)},
            "c": {0: R(1, 8), 1: R(7, 8)},
        },
        [0, 1],
    )
    acc = Accountant().compose(m, count=3)
    r = acc.epsilon(delta=0)
    value, worst = r.value, r.pair
    assert value == epsilon_for_delta(repeat(m, 3), delta=0).value
    assert worst in {("a", "b"), ("b", "a"), ("b", "c"), ("c", "b")}
    with pytest.raises(InvalidParameter, match="not an ordered neighbouring pair"):
        acc.loss("a", "c")


def test_bad_input_is_named():
    with pytest.raises(InvalidParameter, match="FiniteMechanism"):
        Accountant().compose(object())  # type: ignore[arg-type]
    rr = randomized_response(sp.log(2))
    with pytest.raises(InvalidParameter, match="count"):
        Accountant().compose(rr, count=0)
    with pytest.raises(InvalidParameter, match="nothing composed"):
        Accountant().epsilon(delta=R(1, 2))
    with pytest.raises(InvalidParameter, match="delta must lie"):
        Accountant().compose(rr).epsilon(delta=2)
    other = randomized_response(sp.log(2), datasets=("x", "y"))
    with pytest.raises(InvalidMechanism, match="different datasets"):
        Accountant().compose(rr).compose(other)
    with pytest.raises(InvalidParameter, match="runs"):
        PrivacyLoss.of(rr, "D", "D'").power(0)
    assert MAX_ATOMS >= 10_000


@pytest.mark.parametrize("seed", range(4))
def test_the_profile_pieces_give_delta_everywhere(seed):
    rng = random.Random(100 + seed)
    m = _random_mechanism(rng, 4, zeros=seed % 2 == 0)
    loss = PrivacyLoss.of(m, "D", "D'").power(2)
    pieces = loss.profile()
    assert pieces[0].eps_lo == 0 and pieces[-1].eps_hi is sp.oo
    for a, b in zip(pieces, pieces[1:], strict=False):
        assert a.eps_hi == b.eps_lo  # contiguous
        # continuous at the breakpoint
        assert sp.simplify(a.at(a.eps_hi) - b.at(b.eps_lo)) == 0
    for piece in pieces:
        lo, hi = piece.eps_lo, piece.eps_hi
        mid = lo + 1 if hi is sp.oo else (lo + hi) / 2
        for eps in (lo, mid) if hi is sp.oo else (lo, mid, hi):
            assert sp.simplify(piece.at(eps) - loss.delta(eps)) == 0


def test_the_tradeoff_curve_is_the_neyman_pearson_curve():
    # randomized response with e^eps = 3: P = (1/4, 3/4), Q = (3/4, 1/4); reject output 0
    # (ratio 1/3) first: (1/4, 1/4), then output 1: (1, 0)
    loss = PrivacyLoss.of(randomized_response(sp.log(3)), "D", "D'")
    assert loss.tradeoff() == [(0, 1), (R(1, 4), R(1, 4)), (1, 0)]
    # two runs: ratios 1/9, 1, 9 with P-masses 1/16, 6/16, 9/16 and Q-masses 9/16, 6/16, 1/16
    two = loss.power(2).tradeoff()
    assert two == [(0, 1), (R(1, 16), R(7, 16)), (R(7, 16), R(1, 16)), (1, 0)]


def test_tradeoff_check_refutes_a_tightened_f_and_refuses_a_non_convex_one():
    a = sp.Symbol("alpha")
    rr = randomized_response(sp.log(3))
    assert check_tradeoff(rr, (1 - a) / 3, a).holds
    # tightened by 1% at the touching vertex (1/4, 1/4)
    assert check_tradeoff(rr, (1 - a) / 3 * R(101, 100), a).violated
    with pytest.raises(InvalidParameter, match="not convex"):
        check_tradeoff(rr, (1 - a) ** R(1, 2) / 10, a)
    with pytest.raises(InvalidParameter, match="depend on"):
        check_tradeoff(rr, (1 - a) / sp.Symbol("c"), a)
