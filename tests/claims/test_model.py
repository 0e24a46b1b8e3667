"""The claim model (:mod:`verifier.claims.model`): validation that names the problem,
a crashing check reported rather than raised, and outcomes against the expected
verdict."""

from __future__ import annotations

import pytest
import sympy as sp

from verifier.arithmetic.exact import Verdict, decide_le
from verifier.checks.results import CheckResult
from verifier.claims import Claim, Registry, SearchSpec
from verifier.errors import InvalidParameter

from .helpers import check_result


def test_claim_validation_names_the_problem():
    with pytest.raises(InvalidParameter, match="negative control is expected refuted"):
        Claim("demo.x", "s", "t", "holds", check=check_result, kind="negative-control")
    with pytest.raises(InvalidParameter, match="kind must be one of"):
        Claim("demo.x", "s", "t", "holds", check=check_result, kind="lemma")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameter, match="no way to be decided"):
        Claim("demo.x", "s", "t", "holds")
    with pytest.raises(InvalidParameter, match="expected must be"):
        Claim("demo.x", "s", "t", "maybe", check=check_result)  # type: ignore[arg-type]
    with pytest.raises(InvalidParameter, match="default_instances"):
        SearchSpec(space=None, screen=float, document=dict, default_instances=0)
    reg = Registry()
    with pytest.raises(InvalidParameter, match="paper.label"):
        reg.add(Claim("Theorem 11", "s", "t", "holds", check=check_result))


def test_a_crashing_check_is_reported_not_raised():
    def boom() -> CheckResult:
        raise RuntimeError("bug in a claim")

    out = Claim("demo.crash", "s", "t", "holds", check=boom).run()
    assert not out.matches and out.error is not None and "bug in a claim" in out.error


def test_outcome_matches_expected_refuted_and_slack_text():
    c = Claim(
        "demo.le",
        "s",
        "1/2 <= 1/3",
        "refuted",
        kind="negative-control",
        check=lambda: CheckResult(
            "1/2 <= 1/3", decide_le(sp.Rational(1, 2), sp.Rational(1, 3)).verdict
        ),
    )
    out = c.run()
    assert out.matches and out.verdict is Verdict.VIOLATED
    d = out.to_dict()
    assert d["kind"] == "negative-control" and d["verdict"] == "violated"
