"""Certificates of claims refuted on their registered instances: each re-verifies with
``verifier check`` (exit 1; ``--expected``: 0), premises included."""

from __future__ import annotations

import json

import pytest
import sympy as sp

from verifier.arithmetic import decide_le
from verifier.claims import Claim, load_casestudies
from verifier.cli import main
from verifier.errors import CertificateError
from verifier.instances import randomized_response
from verifier.privacy import check_ex_post, check_pure_dp
from verifier.report.certificates import claim_certificate, write_claim_certificate
from verifier.results import CheckResult, Finding, conjunction, implication
from verifier.spec import loads_spec

REGISTRY = load_casestudies()
REFUTED = [c for c in REGISTRY.claims.values() if c.expected == "refuted"]
#: refuted claims whose certificate cannot be written today, and why
NO_CERTIFICATE = {
    # the best of K = 100 candidates: its distributions are sums the spec reader cannot
    # prove to be 1 exactly, and the hockey-stick value is too large for the writer
    "liu_talwar2019.B1.delta.half_ln",
}


@pytest.mark.parametrize("claim", REFUTED, ids=[c.id for c in REFUTED])
def test_every_refuted_claim_has_a_certificate_that_reverifies(claim, tmp_path, capsys):
    outcome = claim.run()
    assert outcome.matches
    if claim.id in NO_CERTIFICATE:  # known limitation: refused with a reason, never wrong
        with pytest.raises(CertificateError, match="cannot be written"):
            write_claim_certificate(claim, outcome.result, tmp_path)
        assert not list(tmp_path.iterdir())
        return
    path = write_claim_certificate(claim, outcome.result, tmp_path)
    assert path is not None and path.name == f"{claim.id}.certificate.toml"
    spec = loads_spec(path.read_text(), "toml")
    target = spec.claim(claim.id)
    assert target.expected == "refuted"
    assert main(["check", str(path)]) == 1
    assert main(["check", "--expected", str(path)]) == 0
    capsys.readouterr()


def test_premises_of_an_implication_are_written_and_hold():
    claim = REGISTRY.get("ghazi2025.thm16.no_filter")
    cert = claim_certificate(claim, claim.run().result)
    assert cert is not None and cert.premises >= 1
    results = dict((c.id, r) for c, r in loads_spec(cert.text).run())
    premises = [cid for cid in results if cid.startswith(f"{claim.id}.premise")]
    assert len(premises) == cert.premises
    assert all(results[p].holds for p in premises) and results[claim.id].violated


def test_a_claim_that_holds_has_no_certificate():
    claim = REGISTRY.get("ghazi2025.thm8.tight")
    assert claim_certificate(claim, claim.run().result) is None


def test_an_implication_with_a_failing_premise_is_not_certified():
    rr = randomized_response(sp.log(3))
    premise = check_pure_dp(rr, sp.log(2))  # violated: RR(log 3) is not log 2-DP
    conclusion = check_pure_dp(rr, 1)
    r = implication("vacuous", premise, conclusion)
    claim = Claim("demo.vacuous", "none", "s", "holds", check=lambda: r)
    assert claim_certificate(claim, r) is None


def test_a_violated_inequality_without_a_mechanism_becomes_an_inequality_claim():
    lhs, rhs = sp.exp(1), sp.Rational(271828, 100000)
    c = decide_le(lhs, rhs)
    f = Finding(c.verdict, None, None, lhs, rhs, lhs, rhs)
    result = conjunction("a proof step", [CheckResult("e <= 2.71828", c.verdict, [f])])
    claim = Claim(
        "demo.step", "none", "e <= 2.71828", "refuted", kind="finding", check=lambda: result
    )
    cert = claim_certificate(claim, result)
    assert cert is not None
    doc = loads_spec(cert.text)
    assert doc.claim("demo.step").kind == "inequality"
    assert doc.claim("demo.step").run().violated


def test_the_mechanism_is_restricted_to_a_violating_pair():
    rr = randomized_response(sp.log(3))
    r = check_ex_post(rr, sp.log(2))
    claim = Claim(
        "demo.rr",
        "none",
        "RR(log 3) is log 2-DP",
        "refuted",
        kind="negative-control",
        check=lambda: r,
    )
    cert = claim_certificate(claim, r)
    assert cert is not None
    spec = loads_spec(cert.text)
    (mech,) = spec.mechanisms.values()
    assert mech.graph.number_of_nodes() == 2
    assert spec.claim("demo.rr").pairs is not None and len(spec.claim("demo.rr").pairs) == 1


def test_casestudies_certificates_option(tmp_path, capsys):
    out = tmp_path / "certs"
    code = main(
        ["casestudies", "liu_talwar2019.B1.best_of_k_eps", "--json", "--certificates", str(out)]
    )
    assert code == 0
    (entry,) = json.loads(capsys.readouterr().out)["claims"]
    assert entry["certificate"] == str(out / "liu_talwar2019.B1.best_of_k_eps.certificate.toml")
    assert main(["check", entry["certificate"]]) == 1


def test_casestudies_certificates_directory_is_checked_before_running(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["casestudies", "ghazi2025", "--certificates", str(blocker / "sub")]) == 2
    assert "--certificates" in capsys.readouterr().err
