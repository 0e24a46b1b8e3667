"""Fuzzing ``verifier check`` with spec files generated from the format's grammar
(docs/spec-format.md), then mutated: every file is answered with exit 0, 1, 2 or 3,
never a traceback or an internal error, within a bounded time.

Two generators: documents built from the grammar (symbols, graphs, base and derived
mechanisms, claims of every kind, expressions of the parser's grammar) with random
structural mutations (a key removed, a value replaced by a value of another type, a
control character, a huge number), written as JSON or TOML; and byte-level mutations
of the example files.  Examples are bounded so the suite stays fast.
"""

from __future__ import annotations

import contextlib
import io
import json
import signal
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier.cli import main
from verifier.spec import CLAIM_KINDS

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: Seconds a single generated file may take (the corpus test holds bad inputs to 5 s;
#: a valid generated file may need a few exact checks more).
TIME_LIMIT = 20

# ---------------------------------------------------------------------------
# the grammar
# ---------------------------------------------------------------------------

NAMES = ["eps", "t", "a1", "x"]
NUMBERS = st.sampled_from(["0", "1", "2", "1/2", "1/3", "0.25", "1e-3", "10", "3/7", "-1", "2^-4"])


def expressions(depth: int = 3) -> st.SearchStrategy[str]:
    """Text of the expression grammar of :mod:`verifier.arithmetic.expressions`."""
    leaf = st.one_of(NUMBERS, st.sampled_from(NAMES + ["pi", "e"]))

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "^"]), inner).map(
                lambda t: f"({t[0]}){t[1]}({t[2]})"
            ),
            st.tuples(st.sampled_from(["exp", "log", "sqrt", "abs", "floor", "ceil"]), inner).map(
                lambda t: f"{t[0]}({t[1]})"
            ),
            st.tuples(st.sampled_from(["min", "max", "log", "binomial"]), inner, inner).map(
                lambda t: f"{t[0]}({t[1]}, {t[2]})"
            ),
            inner.map(lambda s: f"-{s}"),
        )

    return st.recursive(leaf, extend, max_leaves=6)


#: Values each claim parameter usually takes (a valid file now and then).
GOOD = {
    "epsilon": ["log(2)", "1", "eps", "2*eps", "log(3)", "1/10"],
    "epsilon_tilde": ["log(2)", "1", "2*eps", "log(4)"],
    "delta": ["0", "1/10", "1/100", "1/2"],
    "alpha": [2, 3, "3/2"],
    "lhs": ["exp(1)", "log(2)", "1/3", "sqrt(2)"],
    "rhs": ["3", "log(3)", "1/2", "pi/2"],
}

_VALID_ROWS = st.sampled_from(
    [
        ["1/2", "1/2"],
        ["1/3", "2/3"],
        ["2/3", "1/3"],
        ["1", "0"],
        ["exp(eps)/(1+exp(eps))", "1/(1+exp(eps))"],
        ["1/(1+exp(eps))", "exp(eps)/(1+exp(eps))"],
    ]
)
#: Valid rows: the mutations (and the expressions of the claims) make files invalid.
PROBABILITY_ROWS = _VALID_ROWS


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    doc: dict[str, Any] = {"version": 1}
    if draw(st.booleans()):
        doc["title"] = draw(st.text(st.characters(blacklist_categories=("Cs",)), max_size=20))
    doc["symbols"] = {
        "eps": draw(st.sampled_from(["1/2", "log(2)", "1", {"value": "1/3", "positive": True}])),
        "t": {"positive": True},
    }
    doc["graphs"] = {
        "g": draw(
            st.sampled_from(
                [
                    {"kind": "pair"},
                    {"kind": "edges", "datasets": ["D", "D'"], "edges": [["D", "D'"]]},
                ]
            )
        )
    }
    outputs = draw(st.sampled_from([[0, 1], ["0", "1"], [1, 2]]))
    mechs: dict[str, Any] = {}
    for name in ("m", "n"):
        p, q = draw(PROBABILITY_ROWS), draw(PROBABILITY_ROWS)
        mechs[name] = {
            "graph": "g",
            "outputs": outputs,
            "distributions": {
                "D": dict(zip(map(str, outputs), p, strict=True)),
                "D'": dict(zip(map(str, outputs), q, strict=True)),
            },
        }
    one, two = ["m"], ["m", "n"]
    algo, params, inputs = draw(
        st.sampled_from(
            [
                ("independent", {}, two),
                ("repeat", {"n": 2}, one),
                ("best_of", {"k": 3}, one),
                ("best_of", {"ties": "lowest_index", "report": "index"}, two),
                ("lt_random_stopping", {"gamma": "1/2"}, one),
                ("lt_random_stopping_hard", {"gamma": "1/3", "T": 3}, one),
                ("talwar_max_of_runs", {"T": 2}, one),
                ("talwar_hybrid", {"gamma": "1/10", "c": 2}, one),
                ("lt_percentile_release", {"n": 3, "k": 2}, one),
                ("lt_uniform_selection", {}, two),
                (
                    "selection",
                    {"count": {"law": "truncated_negative_binomial", "eta": "1/2", "gamma": "1/3"}},
                    one,
                ),
                ("selection", {"rule": "first_above", "tau": 1, "halting": "1/2"}, one),
            ]
        )
    )
    mechs["x"] = {"algorithm": algo, "inputs": inputs, "params": params}
    doc["mechanisms"] = mechs
    claims = []
    for i in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(sorted(CLAIM_KINDS)))
        c: dict[str, Any] = {"id": f"c{i}", "kind": kind}
        if CLAIM_KINDS[kind].mechanism:
            c["mechanism"] = draw(st.sampled_from(["m", "n", "x"]))
        for p in CLAIM_KINDS[kind].parameter_names:
            good = st.sampled_from(GOOD.get(p, ["1"]))
            c[p] = draw(st.one_of(good, good, good, expressions(), NUMBERS, st.integers(0, 5)))
        if draw(st.booleans()):
            c["expected"] = draw(st.sampled_from(["holds", "refuted"]))
        claims.append(c)
    doc["claims"] = claims
    return doc


ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(["\x1b[2J", "\u202e", "exp(10^10)", "10^10^10", "__import__('os')", "1/0"]),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any]:
    doc = draw(documents())
    for _ in range(draw(st.integers(0, 3))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        if draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(ODD_VALUES)
    return doc


# ---------------------------------------------------------------------------
# serialisation (TOML written here: a small writer that quotes every key)
# ---------------------------------------------------------------------------


def _toml_value(v: Any) -> str | None:
    if v is None:
        return None
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return (
            repr(v)
            if v == v and abs(v) != float("inf")
            else ("nan" if v != v else ("inf" if v > 0 else "-inf"))
        )
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        items = [_toml_value(x) for x in v]
        return None if any(x is None for x in items) else "[" + ", ".join(items) + "]"  # type: ignore[arg-type]
    if isinstance(v, dict):
        items = [(json.dumps(str(k)), _toml_value(x)) for k, x in v.items()]
        if any(x is None for _, x in items):
            return None
        return "{ " + ", ".join(f"{k} = {x}" for k, x in items) + " }"
    return None


def to_toml(doc: dict[str, Any]) -> str:
    lines = []
    for k, v in doc.items():
        if k == "claims" and isinstance(v, list) and all(isinstance(c, dict) for c in v):
            continue
        text = _toml_value(v)
        if text is not None:
            lines.append(f"{json.dumps(str(k))} = {text}")
    for c in doc.get("claims", []) if isinstance(doc.get("claims"), list) else []:
        if isinstance(c, dict):
            lines.append("[[claims]]")
            for k, v in c.items():
                text = _toml_value(v)
                if text is not None:
                    lines.append(f"{json.dumps(str(k))} = {text}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# running
# ---------------------------------------------------------------------------


class _Slow(Exception):
    pass


def _alarm(*_: Any) -> None:
    raise _Slow


def check_file(name: str, data: bytes) -> None:
    """``verifier check`` on ``data``: exit 0-3, no traceback, within TIME_LIMIT."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / name
        path.write_bytes(data)
        out, err = io.StringIO(), io.StringIO()
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(TIME_LIMIT)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(["check", str(path)])
        except _Slow:
            pytest.fail(f"verifier check took more than {TIME_LIMIT} s on:\n{data[:2000]!r}")
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
    text = err.getvalue()
    assert code in (0, 1, 2, 3), (code, text, data[:2000])
    assert "Traceback" not in text and "internal error" not in text, (text, data[:2000])
    assert "\x1b" not in out.getvalue() + text


#: Derandomized: every run draws the same examples (from the test's name), so a
#: failure in CI reproduces on any machine and the suite's time does not vary.
FUZZ = settings(
    max_examples=60,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)


@FUZZ
@given(doc=mutated(), as_json=st.booleans())
def test_generated_spec_files_are_answered(doc, as_json):
    if as_json:
        check_file("spec.json", json.dumps(doc, allow_nan=True).encode())
    else:
        check_file("spec.toml", to_toml(doc).encode())


EXAMPLE_TEXTS = [p.read_bytes() for p in sorted(EXAMPLES.glob("*.toml"))]


@FUZZ
@given(
    base=st.sampled_from(EXAMPLE_TEXTS),
    edits=st.lists(
        st.tuples(st.integers(0, 10**6), st.integers(0, 8), st.binary(max_size=6)), max_size=4
    ),
)
def test_byte_mutations_of_the_examples_are_answered(base, edits):
    data = bytearray(base)
    for pos, cut, insert in edits:
        i = pos % (len(data) + 1)
        data[i : i + cut] = insert
    check_file("mutant.toml", bytes(data))
