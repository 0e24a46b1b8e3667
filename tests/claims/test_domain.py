"""Claims over a box of parameters: the ``domain`` field, the ``box`` decider and the
JSON fields ``domain`` / ``undecided_fraction`` / ``failing_fraction``."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp

from verifier.arithmetic.exact import Verdict
from verifier.checks.boxes import BoxBudget
from verifier.checks.certified import check_le
from verifier.checks.privacy import check_pure_dp
from verifier.checks.results import CheckResult
from verifier.claims import Claim, Registry
from verifier.errors import InvalidParameter
from verifier.mechanism.instances import randomized_response

x, y = sp.symbols("x y", nonnegative=True)
BOX = {"x": (0, 1), "y": (0, 1)}


def test_domain_claim_reports_box_fields():
    c = Claim(
        id="demo.box",
        source="none",
        statement="xy <= x + y on [0, 1]^2",
        expected="holds",
        check=lambda: check_le(x * y, x + y, over=BOX),
        domain=BOX,
    )
    assert c.deciders == ("box",)
    out = c.run()
    d = out.to_dict()
    assert d["verdict"] == "holds" and d["domain"] == {"x": ["0", "1"], "y": ["0", "1"]}
    assert d["undecided_fraction"] == 0.0 and d["failing_fraction"] == 0.0
    assert c.summary()["domain"] == d["domain"]


def test_point_claims_have_null_box_fields():
    c = Claim(
        id="demo.point",
        source="none",
        statement="1 <= 2",
        expected="holds",
        check=lambda: check_le(1, 2),
    )
    d = c.run().to_dict()
    assert d["domain"] is None and d["undecided_fraction"] is None
    assert c.deciders == ("instances",)


def test_undecided_budget_gives_the_undecided_share():
    budget = BoxBudget(max_depth=3, max_boxes=20, seconds=None)
    # zero on the diagonal: never settled by enclosures
    lhs, rhs = 2 * x * y, x**2 + y**2 + 0 * sp.log(1 + x)
    c = Claim(
        id="demo.open",
        source="none",
        statement="2xy <= x^2 + y^2",
        expected="holds",
        check=lambda: check_le(lhs + sp.log(1 + x) - sp.log(1 + x), rhs, over=BOX, budget=budget),
        domain=BOX,
    )
    out = c.run()
    if out.verdict is Verdict.UNDECIDED:
        assert 0 < out.undecided_fraction <= 1 and not out.matches
    else:  # decided outright (e.g. by the exact rewrite): nothing left open
        assert out.undecided_fraction == 0


def test_a_failing_box_claim_reports_the_failing_share():
    rr = randomized_response(x)
    c = Claim(
        id="demo.fail",
        source="none",
        statement="RR(x) is x/2-DP",
        expected="refuted",
        kind="negative-control",
        check=lambda: check_pure_dp(rr, epsilon=x / 2 + 0 * y, over={"x": (1, 2), "y": (0, 1)}),
        domain={"x": (1, 2), "y": (0, 1)},
    )
    out = c.run()
    assert out.verdict is Verdict.VIOLATED and out.matches
    assert out.box_fractions() == (Fraction(0), Fraction(1))


def test_domain_validation():
    with pytest.raises(InvalidParameter, match="at least two parameters"):
        Claim(
            id="demo.one",
            source="s",
            statement="s",
            expected="holds",
            check=lambda: CheckResult("t", Verdict.HOLDS),
            domain={"x": (0, 1)},
        )
    with pytest.raises(InvalidParameter, match="check function"):
        from verifier.claims import SearchSpec

        Claim(
            id="demo.nocheck",
            source="s",
            statement="s",
            expected="holds",
            search=SearchSpec(space=None, screen=lambda i: 0.0, document=lambda i: {}),
            domain=BOX,
        )


def test_registry_selects_box_claims():
    reg = Registry()

    @reg.claim(id="demo.b", source="s", statement="s", expected="holds", domain=BOX)
    def _b() -> CheckResult:
        return check_le(x * y, x + y, over=BOX)

    @reg.claim(id="demo.p", source="s", statement="s", expected="holds")
    def _p() -> CheckResult:
        return check_le(1, 2)

    assert [c.id for c in reg.select(decider="box")] == ["demo.b"]
    assert [c.id for c in reg.select(decider="instances")] == ["demo.p"]
    assert {c.id for c in reg.select(decider="instances|box")} == {"demo.b", "demo.p"}
