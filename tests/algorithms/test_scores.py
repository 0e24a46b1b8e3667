"""One rule for scores: every selection algorithm reads the same numbers, and an
output without a score gets a message saying what to write."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp

from verifier.algorithms import TRANSFORMERS
from verifier.algorithms.scores import numeric_score
from verifier.errors import InvalidParameter
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair
from verifier.spec import loads_spec

R = sp.Rational


@pytest.mark.parametrize(
    ("value", "score"),
    [
        (3, 3),
        ("3", 3),
        ("-1/2", R(-1, 2)),
        ("0.25", R(1, 4)),
        (Fraction(2, 3), R(2, 3)),
        (R(5, 7), R(5, 7)),
    ],
)
def test_numbers_and_rational_text_are_scores(value, score):
    s = R(score)
    assert numeric_score(value, value) == Fraction(int(s.p), int(s.q))


@pytest.mark.parametrize("value", [True, "zero", "1/0", 0.5, None, ("a",)])
def test_anything_else_says_what_to_write(value):
    with pytest.raises(InvalidParameter, match=r'no numeric score.*"-1/2"'):
        numeric_score(value, value)


def _rr(outputs: tuple[str, str]) -> FiniteMechanism:
    hi, lo = outputs
    return FiniteMechanism(
        pair(), {"D": {hi: R(3, 4), lo: R(1, 4)}, "D'": {hi: R(1, 4), lo: R(3, 4)}}, [lo, hi]
    )


@pytest.mark.parametrize("name", ["best_of", "lt_random_stopping", "talwar_max_of_runs"])
def test_string_outputs_are_scored_alike_by_every_selector(name):
    params = {
        "best_of": {"k": 2},
        "lt_random_stopping": {"gamma": "1/2", "score": "self"},
        "talwar_max_of_runs": {"T": 2, "score": "self"},
    }[name]
    m = TRANSFORMERS[name].apply([_rr(("1", "0"))], params)
    assert m.outputs[-1] == "1"  # "1" outranks "0"


def test_random_stopping_reads_string_outputs_of_a_spec_file():
    spec = loads_spec(
        """
[mechanisms.rr]
graph = { kind = "pair" }
outputs = ["0", "1"]
distributions.D = { "1" = "3/4", "0" = "1/4" }
distributions."D'" = { "1" = "1/4", "0" = "3/4" }
[mechanisms.rs]
algorithm = "lt_random_stopping"
inputs = ["rr"]
params = { gamma = "1/10" }
"""
    )
    rs = spec.mechanisms["rs"]
    # Liu & Talwar 2019, Theorem 3.2's closed form: Pr[0] = γ q / (1 - (1-γ) q)
    g = R(1, 10)
    assert rs.p("D", "0") == g * R(1, 4) / (1 - (1 - g) * R(1, 4))


@pytest.mark.parametrize(
    ("algorithm", "hint"),
    [("best_of", "first component"), ("lt_random_stopping", "score parameter")],
)
def test_unscorable_outputs_name_how_the_algorithm_reads_scores(algorithm, hint):
    params = {"k": 2} if algorithm == "best_of" else {"gamma": "1/2"}
    with pytest.raises(InvalidParameter, match=hint):
        TRANSFORMERS[algorithm].apply([_rr(("yes", "no"))], params)
