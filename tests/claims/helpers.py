"""Helpers shared by the tests of the claim model and of the registry."""

from __future__ import annotations

from verifier.arithmetic.exact import Verdict
from verifier.checks.results import CheckResult


def check_result(ok: bool = True) -> CheckResult:
    """A decided result for a claim's check: holds, or violated when ``ok`` is false."""
    return CheckResult("t", Verdict.HOLDS if ok else Verdict.VIOLATED)
