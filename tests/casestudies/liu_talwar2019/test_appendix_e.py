"""Liu & Talwar 2019, App. E: the search space of Lemmas E.2/E.3 and the hand-derived
counterexamples of NOTES.md, decided by the event decider."""

from __future__ import annotations

import math
import random
from fractions import Fraction as F

import sympy as sp

from casestudies.liu_talwar2019 import events
from verifier.arithmetic.exact import Verdict
from verifier.checks.privacy import check_pure_off_event, event_removal
from verifier.claims import load_casestudies
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair

R = sp.Rational


def _mech(P, Q):  # type: ignore[no-untyped-def]
    outs = list(range(len(P)))
    return FiniteMechanism(
        pair(), {"D": dict(zip(outs, P, strict=True)), "D'": dict(zip(outs, Q, strict=True))}, outs
    )


def test_the_hand_counterexample_to_the_sqrt_case():
    # NOTES.md: eps = 0, delta = 1/100, P = (6, 5, 89)/100, Q = (5, 6, 89)/100 need P(B) = 11/100
    P = (R(6, 100), R(5, 100), R(89, 100))
    Q = (R(5, 100), R(6, 100), R(89, 100))
    assert events.is_close(
        [F(6, 100), F(5, 100), F(89, 100)], [F(5, 100), F(6, 100), F(89, 100)], F(1), F(1, 100)
    )
    r = event_removal(dict(enumerate(P)), dict(enumerate(Q)), sp.sqrt(R(2, 100)))
    assert r.mass == R(11, 100) and r.removed == {0: 1, 1: 1, 2: 0}
    res = check_pure_off_event(
        _mech(P, Q), epsilon=sp.sqrt(R(2, 100)), delta=R(1, 10), pairs=[("D", "D'")]
    )
    assert res.verdict is Verdict.VIOLATED


def test_the_searched_counterexample_by_hand():
    # NOTES.md: delta = 10^-4, the bulk alone is kept, P(B) = 45/10^4 + 61/10^4
    P = (R(4947, 5000), R(9, 2000), R(61, 10000))
    Q = (R(4947, 5000), R(11, 2500), R(31, 5000))
    r = event_removal(dict(enumerate(P)), dict(enumerate(Q)), sp.sqrt(R(2, 10**4)))
    assert r.mass == R(53, 5000) and r.mass > R(1, 100)


def test_the_general_statement_with_randomised_events():
    # NOTES.md: least P(B) = 1/3 > 11/36
    P, Q = (R(1, 9), R(2, 9), R(2, 3)), (R(1, 6), R(1, 6), R(2, 3))
    r = event_removal(dict(enumerate(P)), dict(enumerate(Q)), sp.log(R(11, 9)))
    assert r.mass == R(1, 3)  # the bulk alone, or {1, 4/3} with 2/3 of the bulk: both 1/3


def test_the_corrected_lemma_bound_m():
    d = R(1, 100)
    s = sp.sqrt(2 * d)
    m = d * (sp.exp(s) + 1) / (sp.exp(s) - 1)
    assert math.isclose(float(m), 0.01 / math.tanh(math.sqrt(0.005)), rel_tol=1e-12)
    assert math.isclose(float(m), 0.141657, rel_tol=1e-5)


def test_the_space_makes_close_pairs_at_the_boundary():
    space = events.ClosePairSpace()
    rng = random.Random(4)
    on_boundary = 0
    for _ in range(60):
        inst = space.random(rng) if rng.random() < 0.5 else space.extreme(rng)
        assert sum(inst.p) == 1 and sum(inst.q) == 1 and min(inst.q) >= 0
        assert events.is_close(inst.p, inst.q, inst.a, inst.delta)
        hs = max(events.hockey(inst.p, inst.q, inst.a), events.hockey(inst.q, inst.p, inst.a))
        on_boundary += hs == inst.delta
        nb = space.neighbour(inst, rng, 0.5)
        assert events.is_close(nb.p, nb.q, nb.a, nb.delta)
    assert on_boundary > 40


def test_the_float_screen_agrees_with_the_exact_decider():
    rng = random.Random(9)
    space = events.ClosePairSpace()
    for _ in range(15):
        inst = space.extreme(rng)
        A = float(inst.a) * math.exp(math.sqrt(2 * float(inst.delta)))
        mass, both = events.float_event_removal(
            [float(x) for x in inst.p], [float(x) for x in inst.q], A
        )
        r = event_removal(
            {i: R(x.numerator, x.denominator) for i, x in enumerate(inst.p)},
            {i: R(x.numerator, x.denominator) for i, x in enumerate(inst.q)},
            sp.log(R(inst.a.numerator, inst.a.denominator))
            + sp.sqrt(2 * R(inst.delta.numerator, inst.delta.denominator)),
        )
        assert math.isclose(mass, float(r.mass), abs_tol=1e-9)
        assert math.isclose(both, float(r.mass_both), abs_tol=1e-9)


def test_lemma_e3_is_checked_in_both_directions():
    reg = load_casestudies()
    out = reg.get("liu_talwar2019.lemmaE3.as_printed").run()
    concl = out.result.parts[0]
    assert {f.pair for f in concl.findings} == {("D", "D'"), ("D'", "D")}
    assert all(f.verdict is Verdict.VIOLATED for f in concl.findings)


def test_the_search_refutes_the_sqrt_case_with_a_certificate():
    from verifier.search.decide import run_search
    from verifier.spec import loads_spec

    claim = load_casestudies().get("liu_talwar2019.lemmaE2.sqrt_case")
    rec = run_search(claim, claim.search.default_instances)
    assert rec.violated and rec.best_ratio is not None and rec.best_ratio > 1
    spec = loads_spec(rec.certificate, "toml", source="<certificate>")
    verdicts = {c.id: c.run().verdict for c in spec.claims}
    assert verdicts.pop(claim.id) is Verdict.VIOLATED
    assert set(verdicts.values()) == {
        Verdict.HOLDS
    }  # the premises: (eps, delta)-close, delta < 1/10
