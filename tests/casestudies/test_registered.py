"""Every registered claim is a regression check of a theorem: its verdict must match
the expected outcome recorded with it (from the paper or a derivation)."""

import pytest

from verifier.claims import load_casestudies

REGISTRY = load_casestudies()
# Claims over boxes of parameters are a benchmark figure (benchmarks/bench_boxes.py);
# tests/casestudies/test_boxes.py decides a few small ones.  Claims decided by search only
# (no registered instances) are decided by their searches (tests/search).
CLAIMS = [c for c in REGISTRY.claims.values() if c.domain is None and c.check is not None]


def test_required_case_studies_are_registered():
    ids = set(REGISTRY.claims)
    assert any(i.startswith("talwar2025.prop4") for i in ids)
    assert any(i.startswith("talwar2025.prop5") for i in ids)
    assert any(i.startswith("ghazi2025.lemma7") for i in ids)
    assert {"liu_talwar2019.B1.best_of_k_eps", "liu_talwar2019.B1.best_of_k_Keps"} <= ids


# the main job (`verifier casestudies`, exit 1 on any mismatch) decides every claim too:
# here they run with `pytest -m slow`, one test per claim to locate a failure
@pytest.mark.slow
@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_claim_matches_expectation(claim):
    outcome = claim.run()
    assert outcome.error is None, outcome.error
    assert outcome.matches, (
        f"{claim.id}: expected {claim.expected}, got {outcome.verdict}\n{outcome.result}"
    )


def test_best_of_k_is_attained_exactly():
    out = REGISTRY.get("liu_talwar2019.B1.best_of_k_Keps").run()
    assert out.result is not None and out.result.tight


def test_noise_program_and_odp_case_studies_are_registered():
    ids = {c.id for c in REGISTRY.select(["noise_programs", "hartmann2022"])}
    for k in range(1, 7):
        assert f"lyu2017.alg{k}" in ids
    assert {"hartmann2022.lemma8.svt", "hartmann2022.lemma10.ptr"} <= ids
    assert "hartmann2022.theorem7.output_dependent_charge" in ids
    refuted = {c.id for c in REGISTRY.select(["noise_programs"]) if c.expected == "refuted"}
    assert {f"lyu2017.alg{k}" for k in (3, 4, 5, 6)} <= refuted
