"""Spec documents shared by the tests of :mod:`verifier.spec`.

Randomized response with parameter eps (``p = e^eps / (1 + e^eps)``) on a pair:

    output   0        1
    D        1 - p    p
    D'       p        1 - p

``p / (1 - p) = e^eps``, so RR is eps-DP with equality (tight) and not eps'-DP
for eps' < eps.
"""

from __future__ import annotations

from pathlib import Path

from verifier.arithmetic.exact import Verdict
from verifier.spec import loads_spec

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"

RR = """
version = 1
[symbols]
eps = "1/2"
[graphs.g]
kind = "pair"
datasets = ["D", "D'"]
[mechanisms.rr]
graph = "g"
outputs = ["0", "1"]
distributions.D = { "1" = "exp(eps)/(1+exp(eps))", "0" = "1/(1+exp(eps))" }
distributions."D'" = { "1" = "1/(1+exp(eps))", "0" = "exp(eps)/(1+exp(eps))" }
"""


def rr_with(claims: str) -> str:
    return RR + claims


def verdicts(text: str, fmt: str = "toml") -> dict[str, tuple[Verdict, bool]]:
    spec = loads_spec(text, fmt)
    return {c.id: (r.verdict, r.tight) for c, r in spec.run()}
