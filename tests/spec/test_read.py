"""Reading spec files: exact verdicts of valid files, errors with locations, junk.

Expected verdicts are derived by hand in the comments, never copied from output
(the randomized-response document is described in :mod:`.documents`).
"""

from __future__ import annotations

import json
import random

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier.algorithms import (
    TRANSFORMERS,
    Param,
    Transformer,
    get_transformer,
    output_score,
    positive_int,
    register_transformer,
)
from verifier.arithmetic.exact import Verdict
from verifier.errors import (
    InvalidMechanism,
    InvalidParameter,
    SpecError,
    UnboundSymbol,
    VerifierError,
)
from verifier.mechanism.compose import best_index, independent, postprocess
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair
from verifier.spec import load_spec, loads_spec

from .documents import EXAMPLES, RR, rr_with, verdicts

R = sp.Rational


# ---------------------------------------------------------------------------
# valid specs and exact verdicts
# ---------------------------------------------------------------------------


def test_randomized_response_pure_dp_tight_and_violated():
    spec = loads_spec(
        rr_with("""
[[claims]]
id = "half"
mechanism = "rr"
kind = "pure_dp"
epsilon = "eps"
[[claims]]
id = "quarter"
mechanism = "rr"
kind = "pure_dp"
epsilon = "1/4"
expected = "refuted"
""")
    )
    assert set(spec.mechanisms) == {"rr"} and spec.symbols["eps"].is_real
    rr = spec.mechanisms["rr"]
    assert rr.outputs == ("0", "1")
    assert rr.p("D", "1") == sp.exp(R(1, 2)) / (1 + sp.exp(R(1, 2)))
    half, quarter = (c.run() for c in spec.claims)
    # p/(1-p) = e^{1/2}: attained exactly.
    assert half.verdict is Verdict.HOLDS and half.tight
    # 1/2 > 1/4: violated at both outputs (output 1 on D -> D', output 0 on D' -> D).
    assert quarter.verdict is Verdict.VIOLATED
    assert {(f.output, f.pair) for f in quarter.violations()} == {
        ("1", ("D", "D'")),
        ("0", ("D'", "D")),
    }
    assert spec.claims[1].expected == "refuted"


def test_graph_kinds_and_dataset_names():
    text = """
[graphs.p]
kind = "pair"
[graphs.e]
kind = "edges"
datasets = ["a", "b", "c"]
edges = [["a", "b"], ["b", "c"]]
[graphs.path]
kind = "path"
n = 2
[graphs.cube]
kind = "hamming_cube"
n = 2
[graphs.lumped]
kind = "lumped_hamming_cube"
n = 3
[graphs.ar]
kind = "add_remove"
universe = ["b", "a"]
[graphs.ar1]
kind = "add_remove"
universe = ["a", "b", "c"]
max_size = 1
"""
    g = loads_spec(text).graphs
    assert set(g["p"].nodes) == {"D", "D'"}
    assert set(g["e"].edges) == {("a", "b"), ("b", "c")}
    assert set(g["path"].nodes) == {"0", "1", "2"} and g["path"].has_edge("1", "2")
    assert set(g["cube"].nodes) == {"00", "01", "10", "11"}
    assert g["cube"].has_edge("00", "01") and not g["cube"].has_edge("00", "11")
    assert [g["lumped"].nodes[k]["size"] for k in "0123"] == [1, 3, 3, 1]
    assert set(g["ar"].nodes) == {"{}", "{a}", "{b}", "{a,b}"}
    assert g["ar"].has_edge("{a}", "{a,b}") and not g["ar"].has_edge("{}", "{a,b}")
    assert set(g["ar1"].nodes) == {"{}", "{a}", "{b}", "{c}"}


def test_mechanisms_on_every_graph_kind():
    # path n=2, P_i(o) proportional to 2^{-|i-o|}:
    #   i=0: (4/7, 2/7, 1/7); i=1: (1/4, 1/2, 1/4); i=2: (1/7, 2/7, 4/7).
    #   Largest neighbour ratio (4/7)/(1/4) = 16/7, so eps = log(16/7) (tight).
    #   Datasets at distance 2: (4/7)/(1/7) = 4, so group privacy at distance 2 is log 4
    #   (tight) and log(16/7) ~ 0.83 < log 4 fails there.
    # hamming cube n=2, the first bit by RR with 3/4: ratio 3 across first-bit edges.
    # lumped cube n=3, P_k(hi) = (1+k)/5: ratios (k+2)/(k+1) <= 2 and (4-k)/(3-k) <= 2.
    # add/remove on {a,b}: output |S| w.p. 1/2, each other size 1/4: ratio 2.
    text = """
[graphs.path]
kind = "path"
n = 2
[graphs.cube]
kind = "hamming_cube"
n = 2
[graphs.lumped]
kind = "lumped_hamming_cube"
n = 3
[graphs.ar]
kind = "add_remove"
universe = ["a", "b"]

[mechanisms.geo]
graph = "path"
outputs = [0, 1, 2]
distributions = { "0" = ["4/7", "2/7", "1/7"], "1" = ["1/4", "1/2", "1/4"], "2" = ["1/7", "2/7", "4/7"] }

[mechanisms.bit]
graph = "cube"
outputs = ["0", "1"]
distributions."00" = { "0" = "3/4", "1" = "1/4" }
distributions."01" = { "0" = "3/4", "1" = "1/4" }
distributions."10" = { "0" = "1/4", "1" = "3/4" }
distributions."11" = { "0" = "1/4", "1" = "3/4" }

[mechanisms.count]
graph = "lumped"
outputs = ["lo", "hi"]
distributions."0" = { lo = "4/5", hi = "1/5" }
distributions."1" = { lo = "3/5", hi = "2/5" }
distributions."2" = { lo = "2/5", hi = "3/5" }
distributions."3" = { lo = "1/5", hi = "4/5" }

[mechanisms.size]
graph = "ar"
outputs = [0, 1, 2]
distributions."{}" = ["1/2", "1/4", "1/4"]
distributions."{a}" = ["1/4", "1/2", "1/4"]
distributions."{b}" = ["1/4", "1/2", "1/4"]
distributions."{a,b}" = ["1/4", "1/4", "1/2"]

[[claims]]
id = "geo"
mechanism = "geo"
kind = "pure_dp"
epsilon = "log(16/7)"
[[claims]]
id = "geo-group-2"
mechanism = "geo"
kind = "pure_dp"
epsilon = "log(4)"
distance = 2
[[claims]]
id = "geo-group-2-fails"
mechanism = "geo"
kind = "pure_dp"
epsilon = "log(16/7)"
distance = 2
[[claims]]
id = "bit"
mechanism = "bit"
kind = "pure_dp"
epsilon = "log(3)"
[[claims]]
id = "bit-fails"
mechanism = "bit"
kind = "pure_dp"
epsilon = 1
[[claims]]
id = "count"
mechanism = "count"
kind = "pure_dp"
epsilon = "log(2)"
[[claims]]
id = "size"
mechanism = "size"
kind = "pure_dp"
epsilon = "log(2)"
[[claims]]
id = "size-one-pair"
mechanism = "size"
kind = "pure_dp"
epsilon = "1/2"
pairs = [["{a}", "{}"]]
"""
    v = verdicts(text)
    assert v["geo"] == (Verdict.HOLDS, True)
    assert v["geo-group-2"] == (Verdict.HOLDS, True)
    assert v["geo-group-2-fails"][0] is Verdict.VIOLATED
    assert v["bit"] == (Verdict.HOLDS, True)
    assert v["bit-fails"][0] is Verdict.VIOLATED  # e < 3
    assert v["count"] == (Verdict.HOLDS, True)
    assert v["size"] == (Verdict.HOLDS, True)
    assert v["size-one-pair"][0] is Verdict.VIOLATED  # ratio 2 > e^{1/2}


def test_best_of_k_liu_talwar():
    # Best of 3 runs of RR (outputs scored by value): the best is 0 only if all runs are
    # 0, so P_D(0) = (1-p)^3, P_D'(0) = p^3 and the loss at 0 is exactly 3 eps; at 1 it is
    # log((1-(1-p)^3)/(1-p^3)) ~ 0.22.  So best-of-3 is 3eps-DP (tight), not 2eps-DP.
    spec = load_spec(EXAMPLES / "best_of_k.toml")
    res = {c.id: r for c, r in spec.run()}
    assert res["best-of-3-is-3eps-dp"].verdict is Verdict.HOLDS
    assert res["best-of-3-is-3eps-dp"].tight
    assert res["best-of-3-k-param"].verdict is Verdict.HOLDS
    bad = res["best-of-3-is-not-2eps-dp"]
    assert bad.verdict is Verdict.VIOLATED
    assert [(f.output, f.pair) for f in bad.violations()] == [(0, ("D'", "D"))]
    best = spec.mechanisms["best3"]
    p = sp.exp(R(1, 2)) / (1 + sp.exp(R(1, 2)))
    assert sp.simplify(best.p("D", 0) - (1 - p) ** 3) == 0
    assert sp.simplify(best.p("D'", 0) - p**3) == 0
    for c in spec.claims:
        assert c.expected == ("refuted" if "not" in c.id else "holds")


def test_randomized_response_example_file():
    spec = load_spec(EXAMPLES / "randomized_response.toml")
    assert all(r.verdict is Verdict.HOLDS for _, r in spec.run())
    assert all(c.expected == "holds" for c in spec.claims)


def test_derived_independent_and_repeat():
    # Two independent runs of RR: the loss adds up, exactly 2 eps = 1 at (1, 1).
    text = rr_with("""
[mechanisms.two]
algorithm = "repeat"
inputs = ["rr"]
params = { n = 2 }
[mechanisms.pair_of]
algorithm = "independent"
inputs = ["rr", "rr"]
[[claims]]
id = "two"
mechanism = "two"
kind = "pure_dp"
epsilon = "2*eps"
[[claims]]
id = "pair-of"
mechanism = "pair_of"
kind = "pure_dp"
epsilon = "eps"
""")
    spec = loads_spec(text)
    assert spec.mechanisms["two"].outputs == (("0", "0"), ("0", "1"), ("1", "0"), ("1", "1"))
    v = {c.id: (r.verdict, r.tight) for c, r in spec.run()}
    assert v["two"] == (Verdict.HOLDS, True)
    assert v["pair-of"][0] is Verdict.VIOLATED


@pytest.mark.parametrize("ties", ["highest_index", "lowest_index"])
@pytest.mark.parametrize("seed", [1, 2])
def test_best_of_closed_form_matches_enumeration(ties, seed):
    # The O(K m) closed form equals the argmax of the explicit product distribution,
    # including ties between equal scores of distinct (score, name) candidates.
    rng = random.Random(seed)
    outputs = [(0, "x"), (1, "y"), (1, "z"), (2, "w")]

    def dist():
        w = [rng.randint(0, 4) for _ in outputs]
        w[rng.randrange(len(w))] += 1
        return {o: R(x, sum(w)) for o, x in zip(outputs, w, strict=True) if x}

    mechs = [
        FiniteMechanism(pair(), {"D": dist(), "D'": dist()}, outputs, name=f"m{i}")
        for i in range(3)
    ]
    fast = TRANSFORMERS["best_of"].apply(mechs, {"ties": ties})
    pick = best_index(output_score, ties=ties)
    slow = postprocess(independent(*mechs), lambda t: t[pick(t)], outputs=outputs)
    for d in ("D", "D'"):
        for o in outputs:
            assert sp.nsimplify(fast.p(d, o) - slow.p(d, o)) == 0
    index = TRANSFORMERS["best_of"].apply(mechs, {"ties": ties, "report": "index"})
    slow_index = postprocess(independent(*mechs), pick, outputs=[0, 1, 2])
    for d in ("D", "D'"):
        assert [index.p(d, i) for i in range(3)] == [slow_index.p(d, i) for i in range(3)]


def test_transformer_registry():
    assert {"independent", "repeat", "best_of"} <= set(TRANSFORMERS)
    assert "Liu & Talwar" in TRANSFORMERS["best_of"].source
    assert "ties" in TRANSFORMERS["best_of"].describe()
    with pytest.raises(InvalidParameter, match="unknown algorithm 'nope'"):
        get_transformer("nope")

    def double(inputs, params):
        """Repeat twice (test transformer)."""
        return independent(inputs[0], inputs[0])

    t = register_transformer(
        Transformer("test_double", double, (Param("n", positive_int, "unused", 1),), (1, 1), "test")
    )
    try:
        with pytest.raises(InvalidParameter, match="already registered"):
            register_transformer(Transformer("test_double", double))
        spec = loads_spec(rr_with('[mechanisms.d]\nalgorithm = "test_double"\ninputs = ["rr"]\n'))
        assert len(spec.mechanisms["d"].outputs) == 4
        with pytest.raises(InvalidParameter, match=r"mechanisms\.d\.params\.n: must be"):
            loads_spec(
                rr_with(
                    '[mechanisms.d]\nalgorithm = "test_double"\ninputs = ["rr"]\n'
                    "params = { n = 0 }\n"
                )
            )
        with pytest.raises(InvalidParameter, match=r"mechanisms\.d\.inputs: .*exactly 1"):
            loads_spec(
                rr_with('[mechanisms.d]\nalgorithm = "test_double"\ninputs = ["rr", "rr"]\n')
            )
    finally:
        TRANSFORMERS.pop(t.name)


def test_json_spec_same_schema():
    doc = {
        "symbols": {"eps": "1/2"},
        "graphs": {"g": {"kind": "pair"}},
        "mechanisms": {
            "rr": {
                "graph": "g",
                "outputs": [0, 1],
                "distributions": {
                    "D": {"1": "exp(eps)/(1+exp(eps))", "0": "1/(1+exp(eps))"},
                    "D'": {"1": "1/(1+exp(eps))", "0": "exp(eps)/(1+exp(eps))"},
                },
            }
        },
        "claims": [{"id": "c", "mechanism": "rr", "kind": "pure_dp", "epsilon": "eps"}],
    }
    assert verdicts(json.dumps(doc), "json") == {"c": (Verdict.HOLDS, True)}


def test_symbols_may_use_earlier_symbols():
    spec = loads_spec(
        rr_with("""
[[claims]]
id = "c"
mechanism = "rr"
kind = "pure_dp"
epsilon = "e2/2"
""").replace('eps = "1/2"', 'eps = "1/2"\ne2 = "2*eps"\nn = { value = 3, integer = true }')
    )
    assert spec.values[spec.symbols["e2"]] == 1
    assert spec.values[spec.symbols["n"]] == 3
    assert spec.claims[0].run().tight


# ---------------------------------------------------------------------------
# bad input: the right error, naming the problem and its location
# ---------------------------------------------------------------------------

BAD_DIST = RR.replace(
    '"1" = "exp(eps)/(1+exp(eps))", "0" = "1/(1+exp(eps))"', '"1" = "1/2", "0" = "2/5"'
)
NEG = RR.replace(
    '"1" = "exp(eps)/(1+exp(eps))", "0" = "1/(1+exp(eps))"', '"1" = "11/10", "0" = "-1/10"'
)
CLAIM = '\n[[claims]]\nid = "c"\nmechanism = "rr"\n'

BAD_CASES = [
    # (name, text, error class, substrings of the message)
    ("not-sum-1", BAD_DIST, InvalidMechanism, ["mechanisms.rr.distributions.D:", "9/10", "not 1"]),
    ("negative", NEG, InvalidMechanism, ["mechanisms.rr.distributions.D:", "negative"]),
    (
        "edge-unknown",
        '[graphs.g]\nkind = "edges"\ndatasets = ["a", "b"]\nedges = [["a", "c"]]\n',
        InvalidMechanism,
        ["graphs.g.edges[0][1]", "unknown dataset 'c'"],
    ),
    (
        "output-not-in-order",
        RR.replace('outputs = ["0", "1"]', 'outputs = ["0", "2"]'),
        InvalidMechanism,
        ["mechanisms.rr.distributions.D.1:", "missing from the output order"],
    ),
    (
        "eps-zero",
        rr_with(CLAIM + 'kind = "pure_dp"\nepsilon = 0\n'),
        InvalidParameter,
        ["claims[0].epsilon", "> 0"],
    ),
    (
        "eps-negative",
        rr_with(CLAIM + 'kind = "pure_dp"\nepsilon = "-1/2"\n'),
        InvalidParameter,
        ["claims[0].epsilon", "> 0"],
    ),
    (
        "alpha-one",
        rr_with(CLAIM + 'kind = "rdp"\nalpha = 1\nepsilon = "1"\n'),
        InvalidParameter,
        ["claims[0].alpha", "> 1"],
    ),
    (
        "delta-big",
        rr_with(CLAIM + 'kind = "approx_dp"\nepsilon = "1"\ndelta = "3/2"\n'),
        InvalidParameter,
        ["claims[0].delta", "[0, 1]"],
    ),
    (
        "delta-negative",
        rr_with(CLAIM + 'kind = "approx_dp"\nepsilon = "1"\ndelta = "-1/10"\n'),
        InvalidParameter,
        ["claims[0].delta", "[0, 1]"],
    ),
    (
        "unparsable",
        RR.replace('"0" = "1/(1+exp(eps))"', '"0" = "1/(1+"', 1),
        SpecError,
        ["mechanisms.rr.distributions.D.0:"],
    ),
    (
        "float",
        RR.replace('"0" = "1/(1+exp(eps))"', '"0" = 0.5', 1),
        SpecError,
        ["mechanisms.rr.distributions.D.0:", "float"],
    ),
    (
        "unbound-symbol",
        rr_with(CLAIM + 'kind = "pure_dp"\nepsilon = "t"\n').replace(
            'eps = "1/2"', 'eps = "1/2"\nt = { positive = true }'
        ),
        UnboundSymbol,
        ["claims[0].epsilon", "t", "no value"],
    ),
    (
        "unbound-in-mechanism",
        RR.replace('eps = "1/2"', "eps = { positive = true }")
        + CLAIM
        + 'kind = "pure_dp"\nepsilon = "1"\n',
        UnboundSymbol,
        ["claims[0]", "eps", "no value"],
    ),
    (
        "code-injection",
        RR.replace(
            '"0" = "1/(1+exp(eps))"', "\"0\" = \"__import__('os').system('echo pwned')\"", 1
        ),
        SpecError,
        ["mechanisms.rr.distributions.D.0:"],
    ),
    ("invalid-toml", RR + "\n[mechanisms.rr\n", SpecError, ["invalid TOML"]),
    ("unknown-top-key", RR + "\nmechanism = 1\n", SpecError, ["mechanism", "unknown key"]),
    (
        "unknown-mech-key",
        RR.replace("distributions.D =", "distribution.D =").replace(
            'distributions."D\'"', 'distribution."D\'"'
        ),
        SpecError,
        ["mechanisms.rr.distribution", "did you mean 'distributions'"],
    ),
    (
        "unknown-claim-key",
        rr_with(CLAIM + 'kind = "pure_dp"\nepsilon = "1"\nepsilom = "2"\n'),
        SpecError,
        ["claims[0].epsilom", "unknown key"],
    ),
    (
        "param-of-other-kind",
        rr_with(CLAIM + 'kind = "pure_dp"\nepsilon = "1"\ndelta = "0"\n'),
        SpecError,
        ["claims[0].delta", "unknown key"],
    ),
    (
        "unknown-mechanism",
        rr_with(CLAIM.replace('"rr"', '"rx"') + 'kind = "pure_dp"\nepsilon = "1"\n'),
        SpecError,
        ["claims[0].mechanism", "unknown mechanism 'rx'"],
    ),
    (
        "unknown-graph",
        RR.replace('graph = "g"', 'graph = "h"'),
        SpecError,
        ["mechanisms.rr.graph", "unknown graph 'h'"],
    ),
    (
        "unknown-algorithm",
        RR + '[mechanisms.b]\nalgorithm = "bset_of"\ninputs = ["rr"]\n',
        InvalidParameter,
        ["mechanisms.b.algorithm", "unknown algorithm 'bset_of'"],
    ),
    (
        "bad-algorithm-param",
        RR
        + '[mechanisms.b]\nalgorithm = "best_of"\ninputs = ["rr"]\nparams = { ties = "middle" }\n',
        InvalidParameter,
        ["mechanisms.b.params.ties", "highest_index"],
    ),
    (
        "best-of-unscorable",
        RR.replace('outputs = ["0", "1"]', 'outputs = ["0", "1"]').replace('"0"', '"zero"')
        + '[mechanisms.b]\nalgorithm = "best_of"\ninputs = ["rr", "rr"]\n',
        InvalidParameter,
        ["mechanisms.b", "no numeric score"],
    ),
    (
        "cycle",
        RR + '[mechanisms.a]\nalgorithm = "independent"\ninputs = ["b"]\n'
        '[mechanisms.b]\nalgorithm = "independent"\ninputs = ["a"]\n',
        SpecError,
        ["cycle"],
    ),
    (
        "duplicate-id",
        rr_with((CLAIM + 'kind = "pure_dp"\nepsilon = "1"\n') * 2),
        SpecError,
        ["claims[1].id", "duplicate claim id 'c'"],
    ),
    (
        "missing-distribution",
        RR.replace('distributions."D\'"', 'distributions."E"'),
        InvalidMechanism,
        ["mechanisms.rr.distributions", "'E'", "not in the mechanism's graph"],
    ),
    ("bad-version", "version = 2\n", SpecError, ["version", "2"]),
    (
        "range-on-rdp",
        rr_with(
            CLAIM + 'kind = "rdp"\nalpha = 2\nepsilon = "1"\n'
            'over = { symbol = "eps", lo = "0", hi = "1" }\n'
        ),
        SpecError,
        ["claims[0].over", "pure_dp"],
    ),
    ("reserved-symbol", '[symbols]\nexp = "1"\n', SpecError, ["symbols.exp"]),
]


@pytest.mark.parametrize(("name", "text", "cls", "parts"), BAD_CASES, ids=[c[0] for c in BAD_CASES])
def test_bad_input_raises_a_located_error(name, text, cls, parts):
    with pytest.raises(cls) as info:
        loads_spec(text)
    msg = str(info.value)
    assert parts[0] in msg.splitlines()[0]  # the location leads the message
    for part in parts:
        assert part in msg, f"{part!r} not in {msg!r}"


def test_code_injection_does_not_run(tmp_path, monkeypatch):
    marker = tmp_path / "marker"
    monkeypatch.chdir(tmp_path)
    payloads = [
        f"__import__('os').system('touch {marker}')",
        f"exec(\"open('{marker}', 'w')\")",
        "().__class__.__base__.__subclasses__()",
        f'eval(\'open("{marker}", "w")\')',
        "lambda: 1",
    ]
    for payload in payloads:
        text = RR.replace('"0" = "1/(1+exp(eps))"', f'"0" = {json.dumps(payload)}', 1)
        with pytest.raises(SpecError):
            loads_spec(text)
    assert not marker.exists()


def test_invalid_json_and_files(tmp_path):
    with pytest.raises(SpecError, match="invalid JSON"):
        loads_spec("{", "json")
    with pytest.raises(SpecError, match="appears twice"):
        loads_spec('{"graphs": {}, "graphs": {}}', "json")
    with pytest.raises(SpecError, match="not an object"):
        loads_spec("[1]", "json")
    with pytest.raises(SpecError, match="NaN is not a number"):
        loads_spec('{"version": NaN}', "json")
    with pytest.raises(SpecError, match="no such file"):
        load_spec(tmp_path / "missing.toml")
    with pytest.raises(SpecError, match="is a directory"):
        load_spec(tmp_path)
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD_DIST)
    with pytest.raises(InvalidMechanism, match=r"^.*bad\.toml: mechanisms\.rr\.distributions\.D: "):
        load_spec(bad)
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe")
    with pytest.raises(SpecError, match="UTF-8"):
        load_spec(binary)


# ---------------------------------------------------------------------------
# robustness: junk never escapes as anything but a VerifierError
# ---------------------------------------------------------------------------

_JUNK = st.text(
    alphabet=st.sampled_from(list("0123456789+-*/^().,_ eEpsxlogqrtinaIO'\"[]{}=\\#%!~<>")),
    max_size=24,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(junk=_JUNK)
def test_junk_probability_values(junk):
    text = RR.replace('"0" = "1/(1+exp(eps))"', f'"0" = {json.dumps(junk)}', 1)
    try:
        loads_spec(text)
    except VerifierError:
        pass


_VALID = rr_with("""
[mechanisms.best]
algorithm = "best_of"
inputs = ["rr"]
params = { k = 2 }
[[claims]]
id = "c"
mechanism = "best"
kind = "approx_dp"
epsilon = "eps"
delta = "1/10"
""").replace('outputs = ["0", "1"]', "outputs = [0, 1]")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    edits=st.lists(
        st.tuples(
            st.sampled_from(["delete", "insert", "replace"]),
            st.integers(min_value=0, max_value=len(_VALID) - 1),
            st.sampled_from(list("0123456789\"'[]{}=.,-+*/\n #abcDepsx_")),
        ),
        min_size=1,
        max_size=3,
    )
)
def test_mutated_documents(edits):
    text = _VALID
    for op, pos, ch in edits:
        pos = min(pos, len(text) - 1)
        if op == "delete":
            text = text[:pos] + text[pos + 1 :]
        elif op == "insert":
            text = text[:pos] + ch + text[pos:]
        else:
            text = text[:pos] + ch + text[pos + 1 :]
    try:
        loads_spec(text)
    except VerifierError:
        pass


def test_symbol_values_are_subject_to_the_parser_limits():
    """``2^n`` with ``n = 10^9`` must be refused quickly, not computed: values are
    substituted during parsing, where the exponent limit applies."""
    text = """
version = 1
[symbols]
n = "10^9"
[graphs.g]
kind = "pair"
datasets = ["D", "E"]
[mechanisms.m]
graph = "g"
outputs = ["0"]
distributions.D = { "0" = "1" }
distributions.E = { "0" = "1" }
[[claims]]
id = "huge"
mechanism = "m"
kind = "pure_dp"
epsilon = "2^n"
"""
    with pytest.raises(SpecError, match="exponent .* too large"):
        loads_spec(text)
