"""The noise-program parser: the syntax tree of valid texts, the line and column of
every error, the limits, and the direct sampler of the tree."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from verifier.errors import SpecError
from verifier.programs.syntax import (
    MAX_DEPTH,
    MAX_TEXT,
    Assign,
    BinOp,
    Break,
    Draw,
    For,
    If,
    Neg,
    Num,
    Output,
    Query,
    Sym,
    Var,
    parse_program,
    run_program,
)

SVT = """\
# Lyu et al. 2017, Alg. 1
program svt(eps, c = 1, T = 1/2)
claim epsilon = eps
rho = laplace(2/eps)
count = 0
for i in queries:
    nu = laplace(4*c/eps)
    if q[i] + nu >= T + rho:   # above the noisy threshold
        output top
        count = count + 1
        if count == c:
            break
    else:
        output bottom
"""


def test_tree_of_a_sparse_vector_program() -> None:
    p = parse_program(SVT)
    assert p.name == "svt"
    assert [x.name for x in p.params] == ["eps", "c", "T"]
    assert p.params[0].default is None
    c_default = p.params[1].default
    assert isinstance(c_default, Num) and c_default.value == 1
    T_default = p.params[2].default
    assert isinstance(T_default, BinOp) and T_default.op == "/"
    assert isinstance(p.claim, Var) and p.claim.name == "eps"
    rho, count, loop = p.body
    assert isinstance(rho, Assign) and isinstance(rho.value, Draw)
    assert rho.value.kind == "laplace" and rho.pos.line == 4 and rho.pos.col == 1
    assert isinstance(count, Assign) and isinstance(count.value, Num)
    assert isinstance(loop, For) and loop.var == "i"
    nu, test = loop.body
    assert isinstance(nu, Assign) and isinstance(nu.value, Draw)
    scale = nu.value.scale  # 4*c/eps: (4*c)/eps, left associative
    assert isinstance(scale, BinOp) and scale.op == "/" and isinstance(scale.left, BinOp)
    assert isinstance(test, If) and test.cond.op == ">="
    assert isinstance(test.cond.left, BinOp) and isinstance(test.cond.left.left, Query)
    out, inc, stop = test.then
    assert isinstance(out, Output) and isinstance(out.value, Sym) and out.value.name == "top"
    assert isinstance(inc, Assign) and inc.name == "count"
    assert isinstance(stop, If) and isinstance(stop.then[0], Break)
    (bottom,) = test.orelse
    assert isinstance(bottom, Output) and isinstance(bottom.value, Sym)


def test_precedence_and_negation() -> None:
    p = parse_program("program p(a)\nx = -a - 2 * 3 / 4 + (1 - a)\n")
    (x,) = p.body
    assert isinstance(x, Assign)
    e = x.value
    # ((-a) - ((2*3)/4)) + (1 - a)
    assert isinstance(e, BinOp) and e.op == "+"
    assert isinstance(e.left, BinOp) and e.left.op == "-" and isinstance(e.left.left, Neg)
    assert isinstance(e.left.right, BinOp) and e.left.right.op == "/"


def test_decimal_literal_is_exact() -> None:
    p = parse_program("program p(T = 0.1)\nx = T\n")
    d = p.params[0].default
    assert isinstance(d, Num) and d.value == Fraction(1, 10)


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("x = 1\n", "1:1", "expected the header"),
        ("program p(eps)\nx = eval(1)\n", "2:5", "unknown function 'eval'"),
        ("program p(eps)\nx = __import__\n", "2:5", "'__import__' is not defined"),
        ("program p(eps)\nx = 1 +\n", "2:8", "expected an expression"),
        ("program p(eps)\nx = 1 $ 2\n", "2:7", "unexpected character '$'"),
        ("program p(eps)\nfor i in queries:\noutput i\n", "3:1", "expected an indented block"),
        (
            "program p(eps)\nfor i in queries:\n    x = 1\n  y = 2\n",
            "4:3",
            "matches no enclosing block",
        ),
        ("program p(eps)\nfor i in range:\n    x = 1\n", "2:10", "'queries'"),
        ("program p(eps)\nbreak\n", "2:1", "'break' outside a loop"),
        ("program p(eps)\nx = q[i]\n", "2:5", "outside a loop"),
        ("program p(eps)\neps = 1\n", "2:1", "parameter 'eps' cannot be assigned"),
        ("program p(eps)\nx = y\n", "2:5", "'y' is not defined"),
        ("program p(eps)\nx = 1 + laplace(1)\n", "2:9", "whole right-hand side"),
        ("program p(eps)\nif 1 2:\n    x = 1\n", "2:6", "expected a comparison"),
        ("program p(eps)\nelse:\n    x = 1\n", "2:1", "'else' without"),
        ("program p(eps, eps)\nx = 1\n", "1:16", "named twice"),
        (
            "program p(eps)\nfor i in queries:\n    for j in queries:\n        x = 1\n",
            "3:5",
            "cannot be nested",
        ),
        ("program p(eps)\nx =\t1\n", "2:4", "tabs"),
        ("program p(eps)\n", "", "no statement"),
        ("program for(eps)\nx = 1\n", "1:9", "word of the language"),
    ],
)
def test_errors_name_line_and_column(text: str, where: str, message: str) -> None:
    with pytest.raises(SpecError) as err:
        parse_program(text)
    assert message in str(err.value)
    if where:
        assert f"line {where}:" in str(err.value)


def test_limits() -> None:
    with pytest.raises(SpecError, match="longer than"):
        parse_program("program p(a)\n" + "x = 1\n" * (MAX_TEXT // 6 + 1))
    deep = (
        "program p(a)\n"
        + "".join(
            "    " * k + "for i in queries:\n" if k == 0 else "    " * k + "if 1 < 2:\n"
            for k in range(MAX_DEPTH + 2)
        )
        + "    " * (MAX_DEPTH + 2)
        + "x = 1\n"
    )
    with pytest.raises(SpecError, match="nested deeper"):
        parse_program(deep)
    with pytest.raises(SpecError, match="nested too deeply"):
        parse_program("program p(a)\nx = " + "(" * 100 + "1" + ")" * 100 + "\n")
    with pytest.raises(SpecError, match="control character"):
        parse_program("program p(a)\nx = 1\x00\n")
    with pytest.raises(SpecError, match="expected text"):
        parse_program(3)  # type: ignore[arg-type]


def test_sampler_runs_the_tree() -> None:
    p = parse_program(SVT)
    rng = random.Random(1)
    seen = set()
    for _ in range(200):
        out = run_program(p, [0, 5, 0, 5], {"eps": 1}, rng)
        assert out and all(o in ("⊤", "⊥") for o in out)
        # the cutoff c = 1: at most one top, and it ends the run
        assert out.count("⊤") <= 1 and ("⊤" not in out or out[-1] == "⊤")
        seen.add(out)
    assert len(seen) > 2
    # deterministic branches: no noise, answers far from the threshold
    det = parse_program(
        "program d(T)\nfor i in queries:\n    if q[i] >= T:\n        output i\n"
        "    else:\n        output bottom\n"
    )
    assert run_program(det, [3, 1, 7], {"T": 2}, rng) == (0, "⊥", 2)
    with pytest.raises(SpecError, match="no value for parameter 'T'"):
        run_program(det, [1], {}, rng)
