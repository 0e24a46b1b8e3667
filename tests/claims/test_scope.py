"""What a verdict covers: scopes derived from decisions, vacuous outcomes, tightening."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp

from verifier.arithmetic.exact import Verdict
from verifier.checks.certified import check_eq, check_le
from verifier.checks.privacy import check_pure_dp
from verifier.checks.results import conjunction, implication
from verifier.claims import Claim, ClaimOutcome, Scope, SearchRecord, scope_of
from verifier.claims.steps import Step, decide_steps
from verifier.claims.tighten import tightened
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair

R = sp.Rational
t, a, b = sp.symbols("t a b", nonnegative=True)


def _claim(check, **kw):
    kw.setdefault("expected", "holds")
    return Claim(id="demo.c", source="-", statement="s", check=check, **kw)


def _rr(eps):
    e = sp.exp(eps)
    return FiniteMechanism(
        pair("D", "D'"),
        {"D": {"y": e / (1 + e), "n": 1 / (1 + e)}, "D'": {"y": 1 / (1 + e), "n": e / (1 + e)}},
    )


def test_points_are_instances_and_are_counted():
    c = _claim(lambda: conjunction("three", [check_le(R(1, k + 2), 1) for k in range(3)]))
    s = c.run().scope
    assert (s.kind, s.instances, s.label()) == ("instances", 3, "3 instances")


def test_a_range_decision_is_range_and_a_box_decision_is_box():
    rng = _claim(lambda: check_pure_dp(_rr(t), epsilon=t, over=(t, R(1, 100), 3)))
    assert rng.run().scope.kind == "range"
    box = _claim(lambda: check_le(a * b, a + b, over={a: (0, 1), b: (0, 1)}))
    assert box.run().scope.kind == "box"
    # one point among domain decisions: the verdict covers the points only
    mixed = _claim(
        lambda: conjunction(
            "mixed", [check_le(t**2, t, over=(t, 0, 1)), check_le(R(1, 3), R(1, 2))]
        )
    )
    assert mixed.run().scope.kind == "instances"


def test_an_identity_in_symbols_covers_every_value():
    c = _claim(lambda: check_eq(sp.exp(t) / (1 + sp.exp(t)), 1 / (1 + sp.exp(-t))))
    s = c.run().scope
    assert s.kind == "range" and "identity in t" in s.covered


def test_a_declared_finite_domain_is_exhaustive_and_instances_say_why():
    c = _claim(lambda: check_le(1, 2), exhaustive="every event of a 3-point space")
    assert c.run().scope.kind == "exhaustive"
    d = _claim(lambda: check_le(1, 2), scope_note="the statement quantifies over all graphs")
    assert d.run().scope.why == "the statement quantifies over all graphs"


def test_a_search_that_finds_nothing_is_the_scope_and_one_that_finds_refutes():
    c = _claim(lambda: check_le(1, 2))
    quiet = SearchRecord(instances=2000, seed=0, space="grid", violated=False)
    o = ClaimOutcome(c, c.check(), 0.0, search=quiet)
    assert o.verdict is Verdict.HOLDS and o.scope.label() == "searched 2,000, no proof"
    found = SearchRecord(instances=40, seed=0, space="grid", violated=True)
    o = ClaimOutcome(c, c.check(), 0.0, search=found)
    assert o.verdict is Verdict.VIOLATED and not o.matches
    assert o.to_dict()["search"]["violated"] is True


def test_a_claim_whose_premise_fails_everywhere_is_vacuous_not_holds():
    false_premise = check_le(2, 1)
    c = _claim(
        lambda: conjunction(
            "all vacuous",
            [implication("i", false_premise, check_le(5, 1)) for _ in range(2)],
        )
    )
    o = c.run()
    assert o.result.verdict is Verdict.HOLDS  # the implication itself is true
    assert o.vacuous and o.verdict_label == "vacuous" and not o.matches
    assert o.scope.vacuous_instances == 2 and "2 vacuous" in o.scope.label()
    assert o.to_dict()["vacuous"] is True
    # one instance with a true premise is enough to test the claim
    c2 = _claim(
        lambda: conjunction(
            "one tested",
            [
                implication("i", false_premise, check_le(5, 1)),
                implication("j", check_le(1, 2), check_le(1, 5)),
            ],
        )
    )
    o2 = c2.run()
    assert not o2.vacuous and o2.matches and o2.scope.vacuous_instances == 1


def test_scope_kind_is_validated():
    with pytest.raises(ValueError, match="scope kind"):
        Scope("grid", "x")


def test_scope_of_a_box_claim_names_its_box_and_undecided_share():
    c = _claim(
        lambda: check_le(a * b, a + b, over={a: (0, 1), b: (0, 1)}),
        domain={a: (0, 1), b: (0, 1)},
    )
    s = scope_of(c, c.check(), None, 0.25)
    assert s.kind == "box" and s.box == {"a": ["0", "1"], "b": ["0", "1"]}
    assert s.label() == "box, 0.25 undecided"


def test_tightening_refutes_an_attained_bound_and_not_a_loose_one():
    attained = _claim(lambda: check_pure_dp(_rr(sp.log(3)), epsilon=sp.log(3)))
    assert tightened(attained.run()).verdict is Verdict.VIOLATED
    loose = _claim(lambda: check_pure_dp(_rr(sp.log(3)), epsilon=sp.log(4)))
    assert tightened(loose.run()).verdict is Verdict.HOLDS
    # over a range: attained for every eps, so 1% less fails
    rng = _claim(lambda: check_pure_dp(_rr(t), epsilon=t, over=(t, R(1, 100), 3)))
    assert tightened(rng.run()).verdict is Verdict.VIOLATED
    # a zero bound moves by eta
    zero = _claim(lambda: check_le(0, 0))
    assert tightened(zero.run(), Fraction(1, 10)).verdict is Verdict.VIOLATED
    # a lower bound (realized >= claimed) is tightened upwards
    from verifier.checks.results import CheckResult, Finding

    def lower_bound(realized):
        f = Finding(
            Verdict.HOLDS, None, None, realized, R(1, 2), R(1, 2), realized, lower_bound=True
        )
        return CheckResult("lower", Verdict.HOLDS, [f])

    assert tightened(_claim(lambda: lower_bound(R(1, 2))).run()).verdict is Verdict.VIOLATED
    assert tightened(_claim(lambda: lower_bound(R(1))).run()).verdict is Verdict.HOLDS


def test_proof_steps_decided_over_their_domain_have_that_scope():
    ok = _claim(
        lambda: decide_steps(
            "chain",
            [
                Step("one", t**2, t, domain={t: (0, 1)}),
                Step("two", a * b, a + b, domain={a: (0, 1), b: (0, 1)}),
                Step("three", (a + b) ** 2, a**2 + 2 * a * b + b**2, "=="),
            ],
            domain={a: (0, 1), b: (0, 1)},
        )
    )
    o = ok.run()
    assert o.verdict is Verdict.HOLDS and o.scope.kind == "box"
    bad = decide_steps("chain", [Step("sq", t**2, t, domain={t: (0, 2)})])
    assert bad.verdict is Verdict.VIOLATED and bad.notes[0] == "first failing step: 'sq'"
    # the failing point comes first: a violated inequality between numbers
    point = bad.parts[0].parts[0]
    assert point.findings[0].lhs == R(9, 4) and point.findings[0].rhs == R(3, 2)


def test_a_step_with_free_parameters_needs_a_domain():
    from verifier.errors import InvalidParameter

    with pytest.raises(InvalidParameter, match="no domain"):
        decide_steps("c", [Step("x", t, 1)])
    with pytest.raises(InvalidParameter, match="relation"):
        Step("x", t, 1, "<")


def test_the_outcome_table_fits_80_and_120_columns_and_wide_keeps_every_column():
    from verifier.report import outcomes_table

    c = Claim(
        id="liu_talwar2019.thm31.step.bottom_ratio_over_the_whole_box",
        source="Liu & Talwar 2019, Theorem 3.1, proof (the ratio at the bottom output)",
        statement="s",
        check=lambda: check_le(sp.log(2) + sp.Rational(1, 3) * sp.log(3), 2),
        expected="holds",
        kind="proof-step",
    )
    outcomes = [ClaimOutcome(c, c.check(), 12.5)]
    for width in (80, 120):
        text = outcomes_table(outcomes, width=width)
        table = text.split("\n1 of 1 claims")[0]
        assert all(len(line) <= width for line in table.splitlines()), table
        assert f"(not shown, to fit {width} columns: source, at" in table
        header = table.splitlines()[0].split()
        assert {"claim", "verdict", "expected"} <= set(header)
        assert "source" not in header and "at" not in header
    at_120 = outcomes_table(outcomes, width=120).splitlines()[0].split()
    assert "kind" in at_120 and "time" in at_120
    every = outcomes_table(outcomes, width=120, wide=True)
    assert every.splitlines()[0].split()[:4] == ["claim", "kind", "source", "expected"]
    assert "not shown" not in every
