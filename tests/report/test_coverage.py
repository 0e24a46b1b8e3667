"""The coverage table (:mod:`verifier.report.coverage`): ``docs/coverage.md`` is what
the registry generates, every numbered statement of the four papers is listed, and the
statement lists agree with the registered claims."""

from __future__ import annotations

import re
from pathlib import Path

from verifier.arithmetic.exact import Verdict
from verifier.checks.results import CheckResult
from verifier.claims import PaperCoverage, Registry, Statement, load_casestudies
from verifier.report.coverage import (
    coverage_markdown,
    coverage_problems,
    coverage_record,
    coverage_totals,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "coverage.md"
REGISTRY = load_casestudies()
PAPERS = ("ghazi2025", "liu_talwar2019", "talwar2025", "hartmann2022")


def test_docs_coverage_md_is_what_the_registry_generates():
    assert DOC.read_text(encoding="utf-8") == coverage_markdown(REGISTRY), (
        "docs/coverage.md is out of date: regenerate it with "
        "`verifier casestudies --coverage > docs/coverage.md`"
    )


def test_the_four_papers_are_covered_and_consistent_with_the_registry():
    assert set(PAPERS) <= set(REGISTRY.coverage)
    assert coverage_problems(REGISTRY) == []


def test_every_proof_step_claim_names_its_proof_and_displayed_line():
    steps = [c for c in REGISTRY.claims.values() if c.kind == "proof-step"]
    for c in steps:
        assert re.search(r"[Pp]roof|construction|derivation", c.source), c.id
        assert re.search(r"§|App\.|Section", c.source), c.id
        assert re.search(r"Eqs?\.|display|line", c.source), c.id


def _demo() -> Registry:
    reg = Registry()

    @reg.claim(id="demo.a", source="none", statement="s", expected="holds")
    def _a() -> CheckResult:
        return CheckResult("t", Verdict.HOLDS)

    @reg.claim(id="demo.b", source="none", statement="s", expected="holds", kind="proof-step")
    def _b() -> CheckResult:
        return CheckResult("t", Verdict.HOLDS)

    @reg.claim(id="demo.c", source="none", statement="s", expected="refuted", kind="finding")
    def _c() -> CheckResult:
        return CheckResult("t", Verdict.VIOLATED)

    reg.add_coverage(
        PaperCoverage.of(
            "demo",
            "A demo paper",
            [
                Statement(
                    "Lemma 1",
                    "lemma",
                    "a | b",
                    claims=("demo.a", "demo.b", "demo.c"),
                    status="whole",
                ),
                Statement("Table 1", "table", "experiments", reason="empirical"),
            ],
        )
    )
    return reg


def test_markdown_separates_proof_steps_and_marks_findings():
    md = coverage_markdown(_demo())
    assert "| Lemma 1 | lemma | a \\| b | `demo.a`, `demo.c` (finding) | `demo.b` | whole |" in md
    # statements, whole, special case, ingredients only, finding, out of reach, proof steps
    assert "| `demo` | 2 | 1 | 0 | 0 | 0 | 1 | 1 | 0% |" in md
    assert "- **Table 1** (out of reach): empirical" in md
    assert "## Problems" not in md


def test_unlisted_and_unregistered_claims_are_problems():
    reg = _demo()

    @reg.claim(id="demo.d", source="none", statement="s", expected="holds")
    def _d() -> CheckResult:
        return CheckResult("t", Verdict.HOLDS)

    reg.coverage["demo"] = PaperCoverage.of(
        "demo",
        "t",
        [Statement("Lemma 1", "lemma", "s", claims=("demo.a", "demo.zz"), status="whole")],
    )
    problems = coverage_problems(reg)
    assert "demo, Lemma 1: claim 'demo.zz' is not registered" in problems
    assert "demo: claim 'demo.d' is listed under no statement" in problems
    assert "`demo.zz` (unregistered)" in coverage_markdown(reg)
    rec = coverage_record(reg)
    assert rec["problems"] == problems
    assert coverage_totals(reg, reg.coverage["demo"])["statements"] == 1
