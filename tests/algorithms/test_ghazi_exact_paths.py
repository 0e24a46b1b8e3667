"""Algorithm 3's fast exact paths against the generic exact path.

The integer path (one grid unit, rational data, rational moments; consecutive
outputs updated by one multiplication and one exact division) must give the *same*
sympy rationals as the term-by-term expansion it replaces, and as the literal subset
expansion of the proof of Theorem 11 (Ghazi et al. 2025).  The series form (copies of
mechanisms with transcendental data) must enclose the same numbers as the closed form
and lead ``pure_epsilon`` to the same output and pair.
"""

from __future__ import annotations

import random

import pytest
import sympy as sp

import verifier.algorithms.ghazi as ghazi
from verifier.algorithms.ghazi_series import IntPoly, Prior, RationalMoments, make_basis
from verifier.arithmetic.exact import enclose
from verifier.checks.privacy import pure_epsilon
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair

R = sp.Rational


def kary_rr(k: int, ratio: sp.Expr) -> FiniteMechanism:
    D = {o: (ratio if o == 0 else 1) / (ratio + k - 1) for o in range(k)}
    Dp = {o: (ratio if o == k - 1 else 1) / (ratio + k - 1) for o in range(k)}
    return FiniteMechanism(pair(), {"D": D, "D'": Dp}, list(range(k)))


def generic(monkeypatch: pytest.MonkeyPatch, *args, **kwargs) -> FiniteMechanism:
    with monkeypatch.context() as m:
        m.setattr(ghazi, "_alg3_rational", lambda *a, **k: None)
        return ghazi.hyperparameter_tuning(*args, **kwargs)


def assert_same(a: FiniteMechanism, b: FiniteMechanism) -> None:
    assert a.outputs == b.outputs
    for D in a.datasets:
        for o in a.outputs:
            x, y = a.p(D, o), b.p(D, o)
            assert x == y, (D, o, x, y)
            assert x.is_Rational and y.is_Rational


def random_instance(rng: random.Random) -> tuple[list[FiniteMechanism], list[sp.Expr], list[int]]:
    d = rng.randint(1, 5)
    ms, eps, copies = [], [], []
    for _ in range(d):
        m = rng.randint(1, 3)
        ms.append(kary_rr(rng.randint(2, 4), R(2) ** m))
        eps.append(m * sp.log(2))
        copies.append(rng.randint(1, 3))
    return ms, eps, copies


@pytest.mark.parametrize("seed", range(12))
def test_fast_path_equals_generic_path(monkeypatch, seed):
    rng = random.Random(seed)
    ms, eps, copies = random_instance(rng)
    fast = ghazi.hyperparameter_tuning(ms, eps, sp.log(R(3, 2)), copies=copies)
    assert_same(fast, generic(monkeypatch, ms, eps, sp.log(R(3, 2)), copies=copies))


@pytest.mark.parametrize("seed", range(6))
def test_fast_path_exponential_prior(monkeypatch, seed):
    rng = random.Random(100 + seed)
    ms, _, copies = random_instance(rng)
    eps = [R(rng.randint(1, 4), 5) for _ in ms]
    args = (ms, eps, R(1, 3))
    fast = ghazi.hyperparameter_tuning(*args, prior="exponential", copies=copies)
    assert_same(fast, generic(monkeypatch, *args, prior="exponential", copies=copies))


def test_fast_path_equals_subset_expansion():
    ms = [kary_rr(3, R(2) ** (j % 3 + 1)) for j in range(5)]
    eps = [(j % 3 + 1) * sp.log(2) for j in range(5)]
    a = ghazi.hyperparameter_tuning(ms, eps, sp.log(R(101, 100)))
    b = ghazi.hyperparameter_tuning(ms, eps, sp.log(R(101, 100)), method="subsets")
    for D in a.datasets:
        for o in a.outputs:
            assert a.p(D, o) == b.p(D, o)


def test_transcendental_data_takes_the_generic_path(monkeypatch):
    ms = [kary_rr(2, sp.exp(R(1, 10))), kary_rr(2, sp.exp(R(2, 10)))]
    eps = [R(1, 10), R(2, 10)]
    calls = []
    orig = ghazi._alg3_rational

    def spy(*a, **k):
        out = orig(*a, **k)
        calls.append(out)
        return out

    monkeypatch.setattr(ghazi, "_alg3_rational", spy)
    A = ghazi.hyperparameter_tuning(ms, eps, R(1, 100))
    assert calls == [None]
    assert A.p("D", ghazi.BOTTOM) == A.p("D'", ghazi.BOTTOM)


def test_int_poly_division_undoes_multiplication():
    rng = random.Random(3)
    P = IntPoly.one()
    factors = [(rng.randint(-5, 5), rng.randint(1, 7), rng.randint(1, 3)) for _ in range(8)]
    for a, b, m in factors:
        P.mul(a, b, m)
    for a, b, m in reversed(factors[2:]):
        P.div(a, b, m)
    Q = IntPoly.one()
    for a, b, m in factors[:2]:
        Q.mul(a, b, m)
    assert (P.N, P.den) == (Q.N, Q.den)


def test_rational_moments_common_denominator():
    basis, _ = make_basis([sp.log(2), 2 * sp.log(2)])
    prior = Prior("geometric", sp.log(R(3, 2)))
    mom = RationalMoments.of(prior, basis, 4)
    assert mom is not None
    for n in range(5):
        assert R(mom.W[n], mom.L) == prior.moment(n * sp.log(2), R(1, 2**n))
    transcendental, _ = make_basis([R(1, 10)])
    assert RationalMoments.of(prior, transcendental, 2) is None


@pytest.mark.parametrize("rational", [True, False])
def test_enclosures_deliver_the_requested_digits(rational):
    if rational:
        ms = [kary_rr(3, R(2)), kary_rr(2, R(4))]
        eps, ep = [sp.log(2), 2 * sp.log(2)], sp.log(R(5, 4))
    else:
        ms = [kary_rr(2, sp.exp(R(1, 5)))]
        eps, ep = [R(1, 5)], R(1, 10)
    table = ghazi.hyperparameter_tuning_enclosures(ms, eps, ep, digits=25)
    exact_m = ghazi.hyperparameter_tuning(ms, eps, ep)
    for D, row in table.items():
        assert set(row) == {o for o in exact_m.outputs if exact_m.p(D, o) != 0}
        for o, e in row.items():
            lo, hi = e.bounds()
            assert 0 < lo <= hi and (hi - lo) * 10**25 <= lo
            v = exact_m.p(D, o)
            assert e.lo <= enclose(v, 200).hi and enclose(v, 200).lo <= e.hi


def closed_form(monkeypatch: pytest.MonkeyPatch, *args, **kwargs) -> FiniteMechanism:
    with monkeypatch.context() as m:
        m.setattr(ghazi, "_wants_series", lambda *a, **k: False)
        return ghazi.hyperparameter_tuning(*args, **kwargs)


@pytest.mark.parametrize("copies", [[2], [5], [3, 2]])
def test_series_form_encloses_the_closed_form(monkeypatch, copies):
    from verifier.mechanism.instances import randomized_response

    ms = [randomized_response(1), randomized_response(R(1, 2))][: len(copies)]
    eps = [1, R(1, 2)][: len(copies)]
    series = ghazi.hyperparameter_tuning(ms, eps, R(1, 10), copies=copies)
    closed = closed_form(monkeypatch, ms, eps, R(1, 10), copies=copies)
    assert series.outputs == closed.outputs
    for D in closed.datasets:
        for o in closed.outputs:
            s, c = series.p(D, o), closed.p(D, o)
            assert isinstance(s, ghazi.SeriesExpectation)
            es, ec = enclose(s, 160), enclose(c, 160)
            assert es.lo <= ec.hi and ec.lo <= es.hi
            assert es.hi - es.lo < 2**-120 * es.hi
    a, b = pure_epsilon(series), pure_epsilon(closed)
    assert (a.output, a.pair, a.certified) == (b.output, b.pair, b.certified)
    ea, eb = enclose(a.value, 160), enclose(b.value, 160)
    assert ea.lo <= eb.hi and eb.lo <= ea.hi


def test_series_form_costs_the_same_for_a_trillion_copies():
    from verifier.mechanism.instances import randomized_response

    A = ghazi.hyperparameter_tuning([randomized_response(1)], [1], R(1, 10), copies=[10**12])
    r = pure_epsilon(A)
    assert r.output == (0, 1) and r.certified
    assert "**1000000000000" in str(A.p("D", (0, 1)))
    # exact ratio 1 at the output nobody's data changes
    assert A.p("D", ghazi.BOTTOM) is A.p("D'", ghazi.BOTTOM)


def test_rational_data_with_copies_keeps_the_closed_form():
    ms = [kary_rr(3, R(2)), kary_rr(2, R(3))]
    A = ghazi.hyperparameter_tuning(ms, [sp.log(2), sp.log(3)], sp.log(R(5, 4)), copies=[3, 2])
    assert all(A.p(D, o).is_Rational for D in A.datasets for o in A.outputs)


@pytest.mark.parametrize("bits", [53, 80, 200])
def test_certified_expectation_encloses_the_sum_at_high_precision(bits):
    # The series E_{k~Geom(p')}[a x^k ((1 - a' x^k)^T - (1 - b' x^k)^T) prod_j (1 - q_j
    # x_j^k)^{T_j}] (p' = e^{-1/10}, Ghazi et al. 2025, §4.1) summed term by term in
    # 400-bit floats (3000 terms; the summand decays like (p' x)^k): inside the
    # certified enclosure, 2^-(bits-16) narrow (the group factor cancels digits).
    import mpmath

    from verifier.algorithms.ghazi_series import certified_expectation

    ep, lead, diff = R(1, 10), (R(1, 2), sp.exp(-1)), (R(1, 1000), R(3, 1000), sp.exp(-1), 7)
    factors = [(R(1, 3), sp.exp(-R(1, 2)), 1), (R(1, 2), sp.exp(-2), 5)]
    got = certified_expectation(
        Prior("geometric", ep), factors, leading=lead, difference=diff, bits=bits
    )
    with mpmath.workprec(400):
        p = mpmath.exp(-mpmath.mpf(1) / 10)
        e1, ehalf, e2 = mpmath.exp(-1), mpmath.exp(-mpmath.mpf(1) / 2), mpmath.exp(-2)
        total = mpmath.mpf(0)
        for k in range(3000):
            term = (1 - p) * p**k * mpmath.mpf(1) / 2 * e1**k
            term *= (1 - mpmath.mpf(1) / 1000 * e1**k) ** 7 - (
                1 - mpmath.mpf(3) / 1000 * e1**k
            ) ** 7
            term *= (1 - ehalf**k / 3) * (1 - e2**k / 2) ** 5
            total += term
        lo, hi = mpmath.mpf(got.enclosure.lo), mpmath.mpf(got.enclosure.hi)
        assert lo <= total <= hi
        assert hi - lo <= total * mpmath.mpf(2) ** -(bits - 16)
