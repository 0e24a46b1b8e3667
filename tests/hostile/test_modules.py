"""Unit tests of the pieces behind the hostile-input guarantees: limits and cost
estimates, certificate roles and judgement, checkpoint schema, option types, output
paths and terminal-safe text."""

from __future__ import annotations

import argparse
import doctest
import importlib
import json
import math

import pytest
import sympy as sp

from verifier.arithmetic.exact import Verdict, decide_le
from verifier.cli.common import float_option, int_option, output_directory, output_file, printable
from verifier.errors import InvalidParameter, SpecError, UnsupportedExpression
from verifier.spec import loads_spec
from verifier.spec.limits import DEFAULT_LIMITS, MAX_LIMITS, Limits
from verifier.spec.premises import CertificateInfo, judge, read_marker


@pytest.mark.parametrize(
    "module",
    [
        "verifier.spec.premises",
        "verifier.spec.limits",
        "verifier.algorithms.estimates",
        "verifier.cli.common",
    ],
)
def test_doctests(module):
    res = doctest.testmod(importlib.import_module(module))
    assert res.attempted > 0 and res.failed == 0


def test_limits_are_validated():
    assert DEFAULT_LIMITS.max_exponent <= MAX_LIMITS.max_exponent
    with pytest.raises(InvalidParameter, match="max_outputs"):
        Limits(max_outputs=0)
    with pytest.raises(InvalidParameter, match="exceeds its maximum"):
        Limits(max_exponent=MAX_LIMITS.max_exponent + 1)


RR = """
[graphs.g]
kind = "pair"
[mechanisms.m]
graph = "g"
outputs = [0, 1]
distributions.D = { "0" = "1/3", "1" = "2/3" }
distributions."D'" = { "0" = "2/3", "1" = "1/3" }
[mechanisms.x]
algorithm = "repeat"
inputs = ["m"]
params = { n = 12 }
[[claims]]
id = "c"
mechanism = "x"
kind = "pure_dp"
epsilon = "EPS"
"""


def test_limits_of_a_spec_can_be_raised_knowingly():
    text = RR.replace("EPS", "12*log(2)")
    assert loads_spec(text).claims[0].run().verdict is Verdict.HOLDS
    with pytest.raises(InvalidParameter, match=r"4096 outputs.*over the limit of 1000"):
        loads_spec(text, limits=Limits(max_outputs=1000))
    with pytest.raises(InvalidParameter, match=r"operations \(estimate\), over the limit of 10 "):
        loads_spec(text, limits=Limits(max_work=10))
    big = RR.replace("EPS", "2^300")
    with pytest.raises(
        InvalidParameter, match=r"claims\[0\].epsilon: .* 2\^301, over the limit of 2\^256"
    ):
        loads_spec(big)
    assert loads_spec(big, limits=Limits(max_exponent=512)).claims[0].epsilon == 2**300


def test_certified_exp_refuses_astronomic_arguments_instead_of_exhausting_memory():
    huge = sp.exp(sp.exp(sp.Integer(10) ** 9), evaluate=False)
    with pytest.raises(UnsupportedExpression, match="beyond the evaluation limit"):
        decide_le(huge, 1)


def test_certificate_roles_and_judgement():
    exp = {"p": "holds", "t": "refuted"}
    info = read_marker({"target": "t", "premises": ["p"]}, exp)
    assert info == CertificateInfo("t", ("p",), True)
    assert read_marker(None, exp, {"p": "premise: M is eps-DP"}) == CertificateInfo(
        "t", ("p",), False
    )
    assert read_marker(None, exp, {"p": "M is eps-DP"}) is None  # not written as a premise
    for raw, match in [
        ({"target": "p", "premises": []}, "must be expected 'refuted'"),
        ({"target": "t", "premises": []}, "neither the target nor a premise"),
        ({"target": "t", "premises": ["p", "p"]}, "listed twice"),
        ({"target": "t", "premises": "p"}, "array of claim ids"),
        ("t", "expected a table"),
    ]:
        with pytest.raises(SpecError, match=match):
            read_marker(raw, exp)
    v = Verdict
    cases = [
        ({"p": v.HOLDS, "t": v.VIOLATED}, False, 1, None),
        ({"p": v.HOLDS, "t": v.VIOLATED}, True, 0, None),
        ({"p": v.VIOLATED, "t": v.VIOLATED}, True, 2, "premise p fails"),
        ({"p": v.UNDECIDED, "t": v.VIOLATED}, False, 3, "premise p is undecided"),
        ({"p": v.HOLDS, "t": v.HOLDS}, False, 2, "not violated"),
        ({"p": v.HOLDS, "t": v.UNDECIDED}, True, 3, "undecided"),
    ]
    for verdicts, expected, code, problem in cases:
        j = judge(info, verdicts, expected=expected)
        assert j.code == code and (problem is None) == j.valid
        assert problem is None or problem in (j.problem or "")


def test_option_types_name_the_problem():
    assert int_option(1, 4)("4") == 4
    assert float_option(0)("0") == 0.0
    for parse, text in [
        (int_option(1), "0"),
        (int_option(1), "1.5"),
        (int_option(1), "9" * 50),
        (float_option(0), "nan"),
        (float_option(0), "inf"),
        (float_option(0), "-1e-9"),
    ]:
        with pytest.raises(argparse.ArgumentTypeError, match="must be"):
            parse(text)


def test_output_paths_are_checked_before_the_work(tmp_path):
    assert output_file(tmp_path / "x.toml", "--out") == tmp_path / "x.toml"
    (tmp_path / "d").mkdir()
    (tmp_path / "f").write_text("x")
    for raw, match in [
        (tmp_path / "d", "is a directory"),
        (tmp_path / "no" / "x.toml", "does not exist"),
        (tmp_path / "f" / "x.toml", "not a directory"),
        ("/dev/null", "not a regular file"),
        ("", "not a file name"),
    ]:
        with pytest.raises(InvalidParameter, match=match):
            output_file(raw, "--out")
    assert output_directory(tmp_path / "new" / "dir", "--certificates").is_dir()
    with pytest.raises(InvalidParameter, match="--certificates"):
        output_directory(tmp_path / "f", "--certificates")


def test_printable_escapes_every_terminal_control():
    text = "a\x1b[2J\x07\x9b\u202e\r\tb\n"
    shown = printable(text)
    assert shown == "a\\x1b[2J\\x07\\x9b\\u202e\\x0d\tb\n"
    assert printable("x\ny", newlines=False) == "x\\x0ay"


def test_checkpoint_schema_refuses_wrong_types(tmp_path):
    from verifier.search import search
    from verifier.search.engine import read_checkpoint

    ck = tmp_path / "ck.json"
    search("ghazi2025.thm9", instances=80, seconds=None, checkpoint=ck)
    doc = read_checkpoint(ck)
    assert len(doc["sha256"]) == 64
    doc.pop("sha256")
    doc["state"]["elapsed"] = -1.0
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    with pytest.raises(SpecError, match="state.elapsed"):
        read_checkpoint(tmp_path / "bad.json")
    doc["state"]["elapsed"] = math.inf  # written as Infinity, which JSON does not have
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    with pytest.raises(SpecError, match="Infinity is not allowed"):
        read_checkpoint(tmp_path / "bad.json")
