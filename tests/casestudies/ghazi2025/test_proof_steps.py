"""The proof steps of Ghazi et al. 2025 (casestudies/ghazi2025/proof_steps.py): every box
starts where its parameters' declared signs allow (a box end at 0 only for a parameter
declared nonnegative, and only where the step's expression is defined there), Eq. (5)'s
``a^α a^{1-α} = a`` is proved for every ``a > 0`` (not decided on its fallback box), and
``τ_i`` is the exact closed form ``ε'/(ε'+ε_i)``."""

from __future__ import annotations

import functools

import mpmath
import pytest
import sympy as sp

from casestudies.ghazi2025 import proof_steps as ps
from verifier.claims import load_casestudies

REGISTRY = load_casestudies()

#: The claims whose boxes reach 0 (the steps declared nonnegative there, or split).
AT_ZERO = [
    "ghazi2025.thm8.step.prefix",
    *(
        f"ghazi2025.thm10.step.{s}"
        for s in (
            "closed_form",
            "dp_bounds",
            "chain_first",
            "chain_equal",
            "chain_last",
            "bottom_chain",
        )
    ),
    *(
        f"ghazi2025.thm11.step.{s}"
        for s in ("closed_form", "dp_bounds", "chain_first", "chain_equal", "chain_last")
    ),
    *(f"ghazi2025.thm12.step.{s}" for s in ("fixed_k", "choice_of_T", "prior_tail")),
    *(
        f"ghazi2025.thm13.step.{s}"
        for s in ("eq5", "factor_A", "substitute", "plug_in", "choice_of_eps", "final_sum")
    ),
    "ghazi2025.lemma14.step.rearrange",
    "ghazi2025.lemma15.step.chain_eq4",
]

BUILDERS = [
    ps._prefix,
    ps._dp_bounds,
    ps._chain_first,
    ps._chain_equal,
    ps._chain_last,
    ps._thm10_bottom,
    ps._thm10_closed,
    functools.partial(ps._thm11_closed, "geometric"),
    functools.partial(ps._thm11_closed, "exponential"),
    ps._thm12_fixed_k,
    ps._thm12_choice_of_T,
    ps._thm12_prior_tail,
    ps._thm13_eq5,
    ps._thm13_substitute,
    ps._thm13_plug_in,
    ps._thm13_choice_of_eps,
    ps._thm13_final_sum,
    ps._lemma14_rearrange,
    ps._lemma15_chain_eq4,
    ps._lemma15_eq4,
]


@pytest.mark.parametrize("cid", AT_ZERO)
def test_step_claims_decided_without_error(cid):
    outcome = REGISTRY.get(cid).run()
    assert outcome.error is None, outcome.error
    assert outcome.matches, f"{cid}: {outcome.verdict}"


def _builder_id(b: object) -> str:
    """A stable id (a partial's repr carries an address, which differs between the
    xdist workers' collections)."""
    func = getattr(b, "func", None)
    if func is not None:
        return "-".join([func.__name__, *map(str, getattr(b, "args", ()))])
    return getattr(b, "__name__", str(b))


@pytest.mark.parametrize("build", BUILDERS, ids=_builder_id)
def test_boxes_respect_signs_and_steps_are_defined_at_zero_ends(build):
    for st in build():
        zero_end = {}
        for sym, (lo, _hi) in st.domain.items():
            lo = sp.Rational(lo)
            if sym.is_positive:
                assert lo > 0, f"{st.label}: {sym} is positive but its box starts at {lo}"
            # the corner of the box: each parameter at its lower end (0 where it starts there)
            zero_end[sym] = lo
        for side in (st.lhs, st.rhs):
            v = sp.sympify(side).subs(zero_end)
            assert not v.has(sp.zoo, sp.nan, sp.oo, sp.Piecewise), (st.label, side, v)


def test_eq5_power_identity_is_proved_for_every_positive_a():
    out = ps.decide_chain("eq5", ps._thm13_eq5(), (ps._A,))
    part = next(p for p in out.parts if "a**alpha" in p.title)
    assert any("identity proved exactly" in n for n in part.notes), part.notes
    # and a = 0 is a step of its own
    assert any("= 0: the ⊥ term is 0" in p.title for p in out.parts)


def test_tau_i_closed_form_against_quadrature():
    step = ps._thm13_plug_in()[0]
    assert not step.lhs.has(sp.Piecewise, sp.Integral)
    ep, ei = sorted(step.lhs.free_symbols, key=str)[::-1]  # eps_prime, eps_i
    for e_p, e_i in ((sp.Rational(1, 2), 0), (sp.Rational(1, 10), 3), (2, sp.Rational(1, 7))):
        exact = step.lhs.subs({ep: e_p, ei: e_i})
        assert exact == sp.Rational(e_p) / (e_p + e_i)
        rate, scale = float(e_p + e_i), float(e_p)
        quad = mpmath.quad(lambda x, r=rate, c=scale: c * mpmath.exp(-r * x), [0, mpmath.inf])
        assert abs(float(exact) - float(quad)) < 1e-12
