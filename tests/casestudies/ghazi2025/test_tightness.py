"""Ghazi et al. 2025: the extremal families behind the tightness entries, their
symbolic limits (independent hand derivations in the module docstring of
casestudies.ghazi2025.tightness), and the Lemma 7 (ii) weak spot (delta > 0 matters)."""

from __future__ import annotations

import sympy as sp

from casestudies.ghazi2025.tightness import (
    E,
    bottom_ratio,
    competitor_family,
    competitor_ratio,
    lemma7_ii_family,
)
from verifier.arithmetic.exact import Verdict, approx
from verifier.claims import load_casestudies


def test_competitor_ratio_is_the_hand_derived_rational_function():
    expected = (8 * E**2 - 2) / (E**2 + 3 * E - 1)
    for theorem in (10, 11):
        assert sp.simplify(competitor_ratio(theorem) - expected) == 0
    assert sp.simplify(bottom_ratio() - (2 * E**2 - 1) / (E**2 + E - 1)) == 0


def test_theorems_10_and_11_are_approached_with_the_registered_figures():
    t = competitor_family(10, e_value=100)
    assert t.status == "approached" and "E -> oo" in t.family
    # the module docstring's figures: 0.98582 at E = 100, 0.9999986 at E = 10^6
    assert round(t.ratio, 5) == 0.98582
    assert round(competitor_family(11).ratio, 7) == 0.9999986


def test_lemma7_ii_sup_is_one_and_not_attained():
    t = lemma7_ii_family()
    assert t.status == "approached" and 0.99 < t.ratio < 1
    k = sp.Symbol("k", positive=True)
    g = k * (k + 1) ** (-1 - 1 / k)
    assert all(approx(g.subs(k, v)) < 1 for v in (1, 10, 10**6))


def test_lemma7_ii_delta_matters_on_the_registered_instances():
    from verifier.claims.tighten import tightened

    reg = load_casestudies()
    out = reg.get("ghazi2025.lemma7.ii_near_sup").run()
    assert out.verdict is Verdict.HOLDS and out.tightness().status == "approached"
    delta = sp.Rational(1, 10) * sp.Integer(1001) ** sp.Rational(1, 1000)
    (f,) = [f for f in out.result.all_findings() if f.lhs == sp.Rational(99, 100) * delta]
    # H / delta by hand (the claim's comment): x (1 - x^1000 (1 + 9/10^4)^1000),
    # x = 1001^(-1/1000): 0.993115 * (1 - 0.0024562) = 0.990676
    ratio = approx(f.rhs / delta)
    assert round(ratio, 4) == 0.9907
    # within 1% of its bound: the claim's own decision refutes the tightened statement
    assert tightened(out).verdict is Verdict.VIOLATED
    box = reg.get("ghazi2025.lemma7.box_ii").run()
    assert box.verdict is Verdict.HOLDS and box.undecided_fraction == 0
    (premise,) = box.result.premises
    assert premise.verdict is Verdict.HOLDS  # H >= delta/10 on the whole box


def _direct_failure(alpha, beta, r, eps_prime):  # type: ignore[no-untyped-def]
    """Second method: ``Σ_k (1-p) p^k (1 - α e^{-ε_i k})^T`` summed in mpmath at 60
    digits (the hand-derived worst case: one mechanism at ``α`` exactly)."""
    import mpmath as mp

    from casestudies.ghazi2025.theory import theorem12_copies

    with mp.workdps(60):
        a, ep = mp.mpf(alpha.p) / alpha.q, mp.mpf(eps_prime.p) / eps_prime.q
        T = theorem12_copies(alpha, beta, r * eps_prime, eps_prime)
        p = mp.e ** (-ep)
        total, k = mp.mpf(0), 0
        while True:
            term = (1 - p) * p**k * mp.exp(T * mp.log1p(-a * mp.e ** (-r * ep * k)))
            total += term
            if p**k < mp.mpf(10) ** -40:
                return float(total)
            k += 1


def test_theorem12_envelope_closed_form_matches_quadrature():
    import mpmath as mp

    from casestudies.ghazi2025.tightness import theorem12_envelope

    for beta, r in ((sp.Rational(1, 100), 2), (sp.Rational(1, 1000), 7), (sp.Rational(1, 2), 1)):
        c = mp.log(2 / (mp.mpf(beta.p) / beta.q))
        quad = mp.quad(lambda w: mp.exp(-c * w**r), [0, 1, mp.e**c])  # noqa: B023
        assert abs(theorem12_envelope(beta, r) - quad) < 1e-12


def test_theorem12_failure_grows_with_the_ratio_towards_half_beta():
    from casestudies.ghazi2025.tightness import theorem12_envelope, theorem12_worst_failure

    alpha = beta = sp.Rational(1, 100)
    ep = sp.Rational(1, 10)
    previous = 0.0
    for r in (1, 2, 4, 8, 16, 32, 64):
        s = theorem12_worst_failure(alpha, beta, r, ep)
        lo, hi = (approx(sp.Rational(b.numerator, b.denominator)) for b in s.enclosure.bounds())
        direct = _direct_failure(alpha, beta, r, ep)
        assert lo <= direct * (1 + 1e-9) and direct <= hi * (1 + 1e-9)
        # the proved envelope (beta/2) g_c(r) < beta/2 bounds the exact algorithm
        assert hi < float(theorem12_envelope(beta, r)) / 2 * 0.01 < 0.005
        assert hi > previous
        previous = hi
    # the registered figures: 0.183 beta at r = 2 (unchanged) and 0.452 beta at r = 64
    assert round(_direct_failure(alpha, beta, 2, ep) / 0.01, 3) == 0.183
    assert round(previous / 0.01, 3) == 0.452


def test_theorem12_limit_at_fixed_prior_and_the_entry():
    from casestudies.ghazi2025.tightness import theorem12_entry, theorem12_fixed_prior_limit

    # k* = 10 ln 200 = 52.98: Pr[k > k*] = e^(-53/10), by hand 0.0049916
    assert (
        sp.simplify(
            theorem12_fixed_prior_limit(sp.Rational(1, 100), sp.Rational(1, 10))
            - sp.exp(-sp.Rational(53, 10))
        )
        == 0
    )
    t = theorem12_entry()
    assert t.status == "loose" and 0.49 < t.ratio < 0.5
    assert "r -> oo" in t.family and "1/2" in t.limit
    reg = load_casestudies()
    assert reg.get("ghazi2025.thm12").tightness is theorem12_entry


def test_theorem13_split_matches_the_hand_derived_single_mechanism_forms():
    from casestudies.ghazi2025.tightness import (
        theorem13_parts,
        theorem13_single,
        theorem13_single_closed_forms,
    )

    # one RR(log 3): Q = (3/4, 1/4) against (1/4, 3/4); D_2 = log(9/4*... ) by hand:
    # sum Q^2/Q' = (9/16)/(1/4) + (1/16)/(3/4) = 9/4 + 1/12 = 7/3
    A, bound, e1, tau = theorem13_single(3, sp.Rational(1, 5))
    assert sp.simplify(e1 - sp.log(sp.Rational(7, 3))) == 0
    assert sp.simplify(tau - sp.Rational(1, 5) / (sp.Rational(1, 5) + e1)) == 0
    bot, data = theorem13_parts(A, bound, 2, "D", "D'")
    # A(o, 1) = tau Q(o): data = tau/(tau+1) e^(-(e1 + 1/5)); bot = (1 - tau)/(1 + tau)
    expected_data = tau / (tau + 1) * sp.exp(-(e1 + sp.Rational(1, 5)))
    assert abs(approx(data - expected_data)) < 1e-30
    assert abs(approx(bot - (1 - tau) / (1 + tau))) < 1e-30
    closed, closed_bot = theorem13_single_closed_forms(e1, sp.Rational(1, 5), 2)
    assert abs(approx(data / (tau / (tau + 1)) - closed)) < 1e-30
    assert abs(approx(bot * (tau + 1) - closed_bot)) < 1e-30


def test_theorem13_whole_sum_is_the_bottom_term_and_the_data_part_is_separate():
    from casestudies.ghazi2025.tightness import theorem13_data_entry, theorem13_entry

    whole = theorem13_entry()
    # one RR(log 100), eps' = 1/1000 (a registered instance of ghazi2025.thm13);
    # D_2 = log((10^6 + 1)/10100) by hand
    e1 = sp.log(sp.Rational(10**6 + 1, 10100))
    tau = sp.Rational(1, 1000) / (sp.Rational(1, 1000) + e1)
    bot = (1 - tau) / (1 + tau)  # A(bot) = 1 - tau, over tau + 1
    assert round(approx(bot), 4) == 0.9996  # the data-independent bot term
    total = bot + tau / (1 + tau) * sp.exp(-(e1 + sp.Rational(1, 1000)))
    assert whole.status == "approached" and round(whole.ratio, 7) == round(approx(total), 7)
    data = theorem13_data_entry()
    # degenerate for the factor 2 (eps_1 -> 0): registered loose, with what was searched
    assert data.status == "loose" and 0.998 < data.ratio < 1 and "3/2" in data.searched
    # e^(-(eps_1 + eps')) at E = 101/100, eps' = 1/1000, hand: D_2 = log(1 + (1/201)^2 ...)
    q = sp.Rational(101, 201)
    e1 = sp.log(q**2 / (1 - q) + (1 - q) ** 2 / q)
    assert round(data.ratio, 6) == round(approx(sp.exp(-(e1 + sp.Rational(1, 1000)))), 6)
    reg = load_casestudies()
    out = reg.get("ghazi2025.thm13.data_dependent").run()
    assert out.verdict is Verdict.HOLDS
    assert reg.get("ghazi2025.thm13").tightness is theorem13_entry
