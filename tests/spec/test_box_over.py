"""Spec files with ``over`` over several parameters (a box): read, decided for every
point by ``verifier check``, written back, and refused where no box is supported."""

from __future__ import annotations

from pathlib import Path

import pytest

from verifier.arithmetic.exact import Verdict
from verifier.checks.boxes import Box
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
    spec = loads_spec(
        _doc("ex_post_rdp", 'epsilon_tilde = "eps_1"\nalpha = "2 + eps_2"', box), "toml"
    )
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


# -- soundness and limits ---------------------------------------------------------------

#: P_D(a) = (1 + |eps_1|)/(2 + |eps_1|) against P_D'(a) = 3/5 with eps~(a) = eps_2: at
#: eps_1 = -1 the ratio is (2/3)/(3/5) = 10/9 > e^{1/20} >= e^{eps_2}, so the claim fails
#: on the face eps_1 = -1 (and near it); the box decision used to read |eps_1| as eps_1
#: and "prove" it.  (Output b: 1/(2 + |eps_1|) <= e^{eps_2 + 1} 2/5 holds, as
#: 1/2 <= 2e/5.)
ABS_SPEC = """
version = 1
[symbols]
eps_1 = { real = true }
eps_2 = { positive = true }
[graphs.g]
kind = "pair"
datasets = ["D", "D'"]
[mechanisms.m]
graph = "g"
outputs = ["a", "b"]
distributions.D = { a = "(1 + abs(eps_1))/(2 + abs(eps_1))", b = "1/(2 + abs(eps_1))" }
distributions."D'" = { a = "3/5", b = "2/5" }
[[claims]]
id = "box"
mechanism = "m"
kind = "ex_post"
epsilon_tilde = { a = "eps_2", b = "eps_2 + 1" }
pairs = [["D", "D'"]]
over = { eps_1 = ["-1", "1/2"], eps_2 = ["1/100", "1/20"] }
"""


def test_abs_of_a_parameter_reaching_negative_values_is_refuted(tmp_path, capsys):
    from verifier import cli
    from verifier.errors import EXIT_VIOLATED

    path = tmp_path / "abs.toml"
    path.write_text(ABS_SPEC)
    assert cli.main(["check", str(path)]) == EXIT_VIOLATED
    out = capsys.readouterr().out
    assert "VIOLATED" in out and "fails exactly at eps_1 = " in out
    # the failing sub-boxes: the first five, then a count with their share of the volume
    assert out.count("    fails on ") == 5
    assert "more sub-boxes (" in out and "% of the box's volume)" in out
    line = next(x for x in out.splitlines() if "fails for the parameter in" in x)
    assert line.count(" × ") == 5 and "more sub-boxes" in line


@pytest.mark.parametrize(
    "symbols, over, match",
    [
        (
            "eps_1 = { positive = true }\neps_2 = { positive = true }",
            '{ eps_1 = ["-1", "1"], eps_2 = ["1/2", "1"] }',
            "eps_1 is declared positive, but its range \\[-1, 1\\] reaches -1",
        ),
        (
            "eps_1 = { positive = true }\neps_2 = { positive = true }",
            '{ eps_1 = ["0", "1"], eps_2 = ["1/2", "1"] }',
            "eps_1 is declared positive, but its range \\[0, 1\\] reaches 0",
        ),
        (
            "eps_1 = { nonnegative = true }\neps_2 = { positive = true }",
            '{ eps_1 = ["-1/2", "1"], eps_2 = ["1/2", "1"] }',
            "declared nonnegative",
        ),
        (
            "eps_1 = { positive = true }\neps_2 = { positive = true }",
            '{ eps_1 = ["1/2", "1e308"], eps_2 = ["1/2", "1"] }',
            "magnitude about 2\\^1024, over the limit of 2\\^256",
        ),
        (
            "eps_1 = { positive = true }\neps_2 = { positive = true }",
            '{ symbol = "eps_1", lo = "0", hi = "1" }',
            "eps_1 is declared positive, but its range \\[0, 1\\] reaches 0",
        ),
    ],
)
def test_box_and_range_ends_must_respect_assumptions_and_limits(symbols, over, match):
    doc = _doc("pure_dp", 'epsilon = "eps_1"', over).replace(
        "eps_1 = { positive = true }\neps_2 = { nonnegative = true }", symbols
    )
    with pytest.raises(Exception, match=match) as info:
        loads_spec(doc, "toml")
    assert info.value.exit_code == 2 and "Traceback" not in str(info.value)


def _many(n: int) -> str:
    names = [f"e{i}" for i in range(n)]
    symbols = "\n".join(f"{s} = {{ positive = true }}" for s in names)
    box = ", ".join(f'{s} = ["1/10", "1"]' for s in names)
    return (
        DOC.replace("eps_1 = { positive = true }\neps_2 = { nonnegative = true }", symbols)
        .replace("eps_1", "e0")
        .replace("KIND", "pure_dp")
        .replace("PARAMS", 'epsilon = "e0"')
        .replace("OVER", "{ " + box + " }")
    )


def test_the_number_of_box_parameters_is_limited(tmp_path, capsys):
    from verifier import cli
    from verifier.errors import EXIT_BAD_INPUT, EXIT_OK
    from verifier.spec.limits import Limits

    with pytest.raises(Exception, match="a box of 20 parameters, over the limit of 8") as info:
        loads_spec(_many(20), "toml")
    assert info.value.exit_code == 2
    path = tmp_path / "nine.toml"
    path.write_text(_many(9))
    assert cli.main(["check", str(path)]) == EXIT_BAD_INPUT
    assert "--max-box-parameters" in capsys.readouterr().err
    assert loads_spec(_many(9), "toml", limits=Limits(max_box_parameters=9)).claims
    assert cli.main(["check", "--max-box-parameters", "9", str(path)]) == EXIT_OK
