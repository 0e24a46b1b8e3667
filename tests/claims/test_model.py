"""The claim model (:mod:`verifier.claims.model`): validation that names the problem,
a crashing check reported rather than raised, and outcomes against the expected
verdict."""

from __future__ import annotations

import pickle

import pytest
import sympy as sp

from verifier.arithmetic.exact import Verdict, decide_le
from verifier.checks.privacy import check_pure_dp
from verifier.checks.results import CheckResult
from verifier.claims import Claim, ClaimOutcome, Registry, SearchSpec
from verifier.errors import InvalidParameter
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair

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


_MECH = FiniteMechanism(
    pair(),
    {
        "D": {"a": sp.Rational(1, 2), "b": sp.Rational(1, 2)},
        "D'": {"a": sp.Rational(1, 4), "b": sp.Rational(3, 4)},
    },
)


def test_an_outcome_rendered_in_a_worker_prints_the_same_without_rendering_again():
    """A worker process sends an outcome's table cells and JSON record with it
    (``ClaimOutcome.presentation``); the outcome built from them prints those, and
    they are what the outcome renders itself."""
    c = Claim("demo.rr", "s", "t", "holds", check=lambda: check_pure_dp(_MECH, epsilon=sp.log(3)))
    here = c.run()
    shown = pickle.loads(pickle.dumps(here.presentation(record=True)))
    assert shown["worst_slack"] == here.worst_slack() != "-"
    assert shown["where"] == here.where() == "o=a, D -> D'"
    assert shown["record"] == here.to_dict()
    assert shown["scope"] == here.scope
    assert set(here.presentation()) == {"worst_slack", "where", "scope"}  # the record when asked
    # the main process prints what the worker rendered, never renders it again
    away = ClaimOutcome(c, here.result, here.seconds, shown=shown)
    assert (away.worst_slack(), away.where(), away.to_dict()) == (
        here.worst_slack(),
        here.where(),
        here.to_dict(),
    )
    fake = ClaimOutcome(
        c, here.result, 0.0, shown={"worst_slack": "7", "where": "x", "record": {"id": "r"}}
    )
    assert (fake.worst_slack(), fake.where(), fake.to_dict()) == ("7", "x", {"id": "r"})
    fake.to_dict()["id"] = "changed"  # a copy: the kept record is not changed
    assert fake.to_dict() == {"id": "r"}


def test_a_findings_record_is_handed_out_as_copies():
    r = check_pure_dp(_MECH, epsilon=sp.log(2))
    f = r.worst()
    d = f.to_dict()
    assert d["realized"] == "log(2)" and d["claimed"] == "log(2)" and d["tight"] is True
    d["realized"] = "changed"
    assert f.to_dict()["realized"] == "log(2)"
    assert r.to_dict()["worst"] == f.to_dict() == r.to_dict()["per_output"][0]


@pytest.mark.parametrize(
    "claim_id",
    [
        "hartmann2022.def2.readings_differ",  # instances, violated
        "liu_talwar2019.D2.factor_two",  # instances, holds
        "hartmann2022.theorem7.output_dependent_charge_delta0",  # range, holds
        "liu_talwar2019.B1.best_of_k_eps_all_eps",  # range, violated
        "talwar2025.thm7.equivalently_inverted",  # box, holds
        "talwar2025.prop2.extension_cube60",  # search, holds
    ],
)
def test_an_outline_sent_by_a_worker_shows_what_the_whole_result_shows(claim_id):
    """``verifier casestudies`` has its workers send a result that is not violated as
    its outline (one finding per node, no subject): the outcome rebuilt from it has
    the verdict, vacuity, match, scope, cells and JSON record of the whole one; a
    violated result comes whole (its certificate is written from it)."""
    from verifier.claims.registry import load_casestudies, registered_claim
    from verifier.search.decide import decide_registered_claim

    load_casestudies()
    claim = registered_claim(claim_id)
    outcomes = []
    for outline in (False, True):
        result, seconds, error, search, shown = pickle.loads(
            pickle.dumps(decide_registered_claim(claim_id, True, None, True, outline))
        )
        outcomes.append(ClaimOutcome(claim, result, seconds, error, search, shown=shown))
        if outline and result.verdict is not Verdict.VIOLATED:
            nodes = [result]
            while nodes:
                n = nodes.pop()
                assert len(n.findings) <= 1 and n.subject is None
                nodes += n.parts + n.premises
    whole, outlined = outcomes
    assert outlined.result.all_findings() or not whole.result.all_findings()
    if whole.verdict is Verdict.VIOLATED:
        a, b = outlined.result.subject, whole.result.subject
        assert (a is None) == (b is None)
        assert a is None or (a.kind, a.params, a.mechanism.name) == (
            b.kind,
            b.params,
            b.mechanism.name,
        )
        assert len(outlined.result.all_findings()) == len(whole.result.all_findings())
    assert (outlined.verdict, outlined.vacuous, outlined.matches) == (
        whole.verdict,
        whole.vacuous,
        whole.matches,
    )
    assert outlined.scope.to_dict() == whole.scope.to_dict()
    assert (outlined.worst_slack(), outlined.where()) == (whole.worst_slack(), whole.where())
    a, b = outlined.to_dict(), whole.to_dict()
    a.pop("seconds"), b.pop("seconds")
    assert a == b
