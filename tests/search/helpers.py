"""Helpers shared by the tests of the search and of :mod:`verifier.testing`."""

from __future__ import annotations

from pathlib import Path

from verifier.arithmetic.exact import Verdict
from verifier.spec import loads_spec

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def reverifies(text: str, target: str) -> None:
    spec = loads_spec(text, "toml")
    verdicts = {c.id: c.run().verdict for c in spec.claims}
    assert verdicts.pop(target) is Verdict.VIOLATED
    assert all(v is Verdict.HOLDS for v in verdicts.values())
