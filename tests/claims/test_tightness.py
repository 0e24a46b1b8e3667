"""Tightness entries of theorem claims: the record, what a decided result shows, the
JSON field and the ``--tightness`` table."""

from __future__ import annotations

import pytest
import sympy as sp

from verifier import cli
from verifier.arithmetic.exact import Verdict
from verifier.checks.certified import check_le
from verifier.checks.results import CheckResult, Finding
from verifier.claims import Claim, Registry, Tightness, observed_tightness
from verifier.cli import casestudies
from verifier.errors import InvalidParameter

R = sp.Rational


def test_tightness_record_validation():
    t = Tightness("approached", 0.99, "E = 100", family="RR(log E)", limit="-> 1")
    assert t.to_dict() == {
        "status": "approached",
        "ratio": 0.99,
        "instance": "E = 100",
        "family": "RR(log E)",
        "limit": "-> 1",
    }
    with pytest.raises(InvalidParameter, match="family"):
        Tightness("approached", 0.99, "x")
    with pytest.raises(InvalidParameter, match="searched"):
        Tightness("loose", 0.5, "x")
    with pytest.raises(InvalidParameter, match="status"):
        Tightness("tight", 1.0, "x")  # type: ignore[arg-type]


def test_observed_tightness_attained_and_loose():
    r = check_le(R(1, 2), R(1, 2))
    t = observed_tightness(r, "here")
    assert t is not None and t.status == "attained" and t.ratio == 1.0
    r = check_le(R(1, 4), R(1, 2))
    t = observed_tightness(r, "here")
    assert t is not None and t.status == "loose" and t.ratio == pytest.approx(0.5)
    assert t.searched == "here"
    # a lower bound: claimed/realized
    f = Finding(Verdict.HOLDS, None, None, R(1, 2), R(1, 4), R(1, 4), R(1, 2), lower_bound=True)
    t = observed_tightness(CheckResult("lower", Verdict.HOLDS, [f]), "x")
    assert t is not None and t.ratio == pytest.approx(0.5)


def test_box_tightness_is_taken_at_the_vertices():
    x, y = sp.symbols("x y", nonnegative=True)
    r = check_le(x * y, 2 + x + y, over={"x": (0, 1), "y": (0, 1)})
    t = observed_tightness(r, "box")
    assert t is not None and t.status == "loose" and t.ratio == pytest.approx(1 / 4)
    assert "vertex" in t.instance and "x = 1, y = 1" in t.instance


def _registry() -> Registry:
    reg = Registry()

    @reg.claim(id="demo.t1", source="s", statement="s", expected="holds")
    def _t1() -> CheckResult:
        return check_le(R(1, 3), R(1, 2))

    @reg.claim(
        id="demo.t2",
        source="s",
        statement="s",
        expected="holds",
        tightness=lambda: Tightness("approached", 0.9, "n = 10", family="F", limit="L"),
    )
    def _t2() -> CheckResult:
        return check_le(R(1, 3), R(1, 2))

    @reg.claim(id="demo.nc", source="s", statement="s", expected="refuted", kind="negative-control")
    def _nc() -> CheckResult:
        return check_le(1, 0)

    return reg


def test_json_and_table(monkeypatch, capsys):
    import json

    monkeypatch.setattr(casestudies, "_registry", _registry)
    assert cli.main(["casestudies", "--json"]) == 0
    rec = {c["id"]: c for c in json.loads(capsys.readouterr().out)["claims"]}
    assert rec["demo.t1"]["tightness"]["status"] == "loose"
    assert rec["demo.t2"]["tightness"] == {
        "status": "approached",
        "ratio": 0.9,
        "instance": "n = 10",
        "family": "F",
        "limit": "L",
    }
    assert rec["demo.nc"]["tightness"] is None  # only theorems have one
    assert cli.main(["casestudies", "--tightness"]) == 0
    out = capsys.readouterr().out
    assert "demo.t2" in out and "approached" in out and "demo.nc" not in out
    assert "2 theorems: 0 attained, 1 approached, 1 loose" in out
    assert "demo.t2: family F; limit: L" in out


def test_point_claim_tightness_of_a_declared_claim():
    c = Claim(
        id="demo.decl",
        source="s",
        statement="s",
        expected="holds",
        check=lambda: check_le(1, 2),
        tightness=Tightness("attained", 1.0, "elsewhere"),
    )
    assert c.run().tightness() == Tightness("attained", 1.0, "elsewhere")
