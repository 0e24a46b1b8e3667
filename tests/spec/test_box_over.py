"""Spec files with ``over`` over several parameters (a box): read, decided for every
point by ``verifier check``, written back, and refused where no box is supported."""

from __future__ import annotations

from pathlib import Path

import pytest

from verifier.arithmetic import Verdict
from verifier.boxes import Box
from verifier.errors import SpecError
from verifier.spec import load_spec, loads_spec, spec_to_toml

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "box_two_budgets.toml"

DOC = """
version = 1
[symbols]
eps_1 = { positive = true }
eps_2 = { nonnegative = true }
[graphs.g]
kind = "pair"
datasets = ["D", "D'"]
[mechanisms.M]
graph = "g"
outputs = ["a", "b"]
distributions.D = { a = "exp(eps_1)/(1 + exp(eps_1))", b = "1/(1 + exp(eps_1))" }
distributions."D'" = { a = "1/(1 + exp(eps_1))", b = "exp(eps_1)/(1 + exp(eps_1))" }
[[claims]]
id = "c"
mechanism = "M"
kind = "KIND"
PARAMS
over = OVER
"""


def _doc(kind: str, params: str, over: str) -> str:
    return DOC.replace("KIND", kind).replace("PARAMS", params).replace("OVER", over)


def test_example_is_decided_for_every_point():
    spec = load_spec(EXAMPLE)
    results = dict((c.id, r) for c, r in spec.run())
    assert results["eps_1"].verdict is Verdict.HOLDS and results["eps_1"].tight
    assert results["half"].verdict is Verdict.VIOLATED
    c = spec.claims[0]
    assert isinstance(c.over, Box) and c.over.as_dict() == {
        "eps_1": ["1/100", "3"],
        "eps_2": ["0", "2"],
    }


def test_box_round_trips_through_the_writer():
    spec = load_spec(EXAMPLE)
    text = spec_to_toml(spec.mechanisms, spec.claims)
    again = loads_spec(text, "toml")
    assert again.claims[0].over == spec.claims[0].over
    assert [r.verdict for _, r in again.run()] == [Verdict.HOLDS, Verdict.VIOLATED]


def test_box_for_approximate_and_rdp_kinds():
    box = '{ eps_1 = ["1/10", "2"], eps_2 = ["0", "1"] }'
    spec = loads_spec(_doc("approx_dp", 'epsilon = "eps_1"\ndelta = "eps_2/100"', box), "toml")
    assert spec.run()[0][1].verdict is Verdict.HOLDS
    spec = loads_spec(_doc("ex_post_rdp", 'eps_tilde = "eps_1"\nalpha = "2 + eps_2"', box), "toml")
    assert spec.run()[0][1].verdict is Verdict.HOLDS


@pytest.mark.parametrize(
    "kind, params, over, match",
    [
        (
            "rdp",
            'alpha = "2"\nepsilon = "eps_1"',
            '{ eps_1 = ["0", "1"], eps_2 = ["0", "1"] }',
            "box",
        ),
        ("pure_dp", 'epsilon = "eps_1"', '{ eps_1 = ["0", "1"] }', "at least two"),
        (
            "pure_dp",
            'epsilon = "eps_1"',
            '{ eps_1 = ["0", "1"], zeta = ["0", "1"] }',
            "unknown symbol",
        ),
        ("pure_dp", 'epsilon = "eps_1"', '{ eps_1 = ["0"], eps_2 = ["0", "1"] }', r"\[lo, hi\]"),
        (
            "pure_dp",
            'epsilon = "eps_1"',
            '{ eps_1 = ["2", "1"], eps_2 = ["0", "1"] }',
            "empty range",
        ),
        (
            "pure_dp",
            'epsilon = "eps_1"',
            '{ eps_1 = ["log(2)", "1"], eps_2 = ["0", "1"] }',
            "rational",
        ),
    ],
)
def test_malformed_boxes_are_refused_with_their_location(kind, params, over, match):
    with pytest.raises((SpecError, Exception), match=match) as info:
        loads_spec(_doc(kind, params, over), "toml")
    assert "Traceback" not in str(info.value)
