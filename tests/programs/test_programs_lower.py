"""Lowering noise programs written as text to the exact models: every program of the
catalogue lowers to the hand-written model of :mod:`verifier.algorithms.noise`; the
exact law of the lowered model agrees with a seeded run of the *text* itself (the
syntax tree executed by :func:`verifier.programs.syntax.run_program`, independent of
the closed forms); and everything outside the two shapes is refused with the
statement and the reason."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import pytest
import sympy as sp

from verifier.algorithms.noise import NoisyMax, SparseVector, program_mechanism, query_graph
from verifier.algorithms.noise.noisy_max import report_noisy_max
from verifier.algorithms.noise.samplers import chi_square_pvalue
from verifier.algorithms.noise.svt import _VARIANTS
from verifier.algorithms.noise.text import Refused, lower, lower_text
from verifier.errors import InvalidParameter
from verifier.programs.syntax import parse_program, run_program


def svt_text(
    rho: str,
    nu: str | None,
    out: str = "top",
    cutoff: bool = True,
    resample: str | None = None,
    xi: str | None = None,
    fam: str = "laplace",
) -> str:
    s = f"program p(eps, c = 1, T = 0)\nclaim epsilon = eps\nrho = {fam}({rho})\n"
    if cutoff:
        s += "count = 0\n"
    s += "for i in queries:\n"
    if nu:
        s += f"    nu = {fam}({nu})\n"
    if xi:
        s += f"    xi = {fam}({xi})\n"
    lhs = "q[i] + nu" if nu else "q[i]"
    s += f"    if {lhs} >= T + rho:\n        output {out}\n"
    if resample:
        s += f"        rho = {fam}({resample})\n"
    if cutoff:
        s += "        count = count + 1\n        if count == c:\n            break\n"
    return s + "    else:\n        output bottom\n"


#: The sparse-vector catalogue as text, by the name of its hand-written model
#: (:data:`verifier.algorithms.noise.svt._VARIANTS`; Lyu, Su, Li 2017, Figure 1 and
#: Table 1; NumericalSVT, Wang et al. 2019; GapSVT, Ding et al. 2019).
SVT_TEXTS: dict[str, dict[str, Any]] = {
    "lyu1": dict(rho="2/eps", nu="4*c/eps"),
    "lyu2": dict(rho="2*c/eps", nu="4*c/eps", resample="2*c/eps"),
    "lyu3": dict(rho="2/eps", nu="2*c/eps", out="q[i] + nu"),
    "lyu4": dict(rho="4/eps", nu="4/(3*eps)"),
    "lyu5": dict(rho="2/eps", nu=None, cutoff=False),
    "lyu6": dict(rho="2/eps", nu="2/eps", cutoff=False),
    "lyu1_monotone": dict(rho="2/eps", nu="2*c/eps"),
    "numerical": dict(rho="3/eps", nu="6*c/eps", out="q[i] + xi", xi="3*c/eps"),
    "gap": dict(rho="2/eps", nu="4*c/eps", out="q[i] + nu - T - rho"),
    "gap_monotone": dict(rho="2/eps", nu="2*c/eps", out="q[i] + nu - T - rho"),
}

RNM = """\
program rnm(eps)
claim epsilon = eps
best = -inf
arg = 0
for i in queries:
    nu = {fam}(2/eps)
    if q[i] + nu > best:
        best = q[i] + nu
        arg = i
output {out}
"""


def _bare(m: Any) -> Any:
    return dataclasses.replace(m, name="", source="", claimed=None, monotone=False)


@pytest.mark.parametrize("variant", sorted(SVT_TEXTS))
@pytest.mark.parametrize("fam", ["laplace", "geometric"])
def test_sparse_vector_texts_lower_to_the_catalogue(variant: str, fam: str) -> None:
    text = svt_text(**SVT_TEXTS[variant], fam=fam)
    eps = sp.Rational(2, 5)
    for c in (1, 3):
        m = lower_text(text, {"eps": eps, "c": c, "T": 1})
        assert isinstance(m, SparseVector)
        assert _bare(m) == _bare(_VARIANTS[variant](eps, c, fam, 1, None))
        assert m.claimed == eps


@pytest.mark.parametrize("fam", ["laplace", "geometric", "exponential"])
def test_noisy_max_texts_lower_to_the_catalogue(fam: str) -> None:
    eps = sp.Rational(1, 10)
    m = lower_text(RNM.format(fam=fam, out="arg"), {"eps": eps})
    ref = report_noisy_max(eps, noise=fam)
    assert isinstance(m, NoisyMax) and _bare(m) == _bare(ref)
    if fam == "geometric":
        v = lower_text(RNM.format(fam=fam, out="best"), {"eps": eps})
        assert _bare(v) == _bare(report_noisy_max(eps, noise=fam, release="value"))


def test_equivalent_spellings_lower_alike() -> None:
    """The comparison turned around, its branches swapped, a named linear form and
    a strict test under continuous noise denote the same program."""
    ref = lower_text(svt_text(**SVT_TEXTS["lyu1"]), {"eps": 1, "c": 2})
    other = """\
program p(eps, c = 1, T = 0)
claim epsilon = eps
rho = laplace(2/eps)
count = 0
for i in queries:
    nu = laplace(2*(2*c)/eps)
    x = q[i] + nu - rho
    if T > x:
        output bottom
    else:
        output top
        count = count + 1
        if count >= c:
            break
"""
    assert lower_text(other, {"eps": 1, "c": 2}) == dataclasses.replace(ref, name="p")
    strict = svt_text(**SVT_TEXTS["lyu1"]).replace(">= T + rho", "> T + rho")
    assert lower_text(strict, {"eps": 1, "c": 2}) == ref
    # integer noise: x > T is x >= T + 1
    g = lower_text(strict.replace("laplace", "geometric"), {"eps": 1, "c": 2, "T": 3})
    assert isinstance(g, SparseVector) and g.threshold == 4


# ---------------------------------------------------------------------------
# the exact law of the lowered model against a seeded run of the text
# ---------------------------------------------------------------------------


def _label(model: Any, out: tuple[Any, ...]) -> str:
    if isinstance(model, NoisyMax):
        (x,) = out
        return f"argmax={x}" if model.release == "argmax" else f"[max={round(x)}]"
    what = "g" if model.release == "gap" else "v"
    return "".join(o if isinstance(o, str) else f"[{what}={round(o)}]" for o in out)


CASES = [
    ("lyu1, c = 2", svt_text(**SVT_TEXTS["lyu1"], fam="geometric"), {"c": 2}, (0, 1, -1, 1)),
    ("lyu2, c = 2", svt_text(**SVT_TEXTS["lyu2"], fam="geometric"), {"c": 2}, (1, 0, 1)),
    ("lyu5", svt_text(**SVT_TEXTS["lyu5"], fam="geometric"), {}, (0, 1, -1)),
    ("lyu3, value", svt_text(**SVT_TEXTS["lyu3"], fam="geometric"), {}, (0, 1, 1)),
    ("numerical", svt_text(**SVT_TEXTS["numerical"], fam="geometric"), {}, (1, 0, 1)),
    ("gap", svt_text(**SVT_TEXTS["gap"], fam="geometric"), {}, (0, 1, 0)),
    (
        "strict test, swapped",
        svt_text(**SVT_TEXTS["lyu1"], fam="geometric")
        .replace("if q[i] + nu >= T + rho:", "if T + rho < q[i] + nu:")
        .replace("T = 0", "T = 1"),
        {"c": 2},
        (1, 2, 0, 2),
    ),
    ("lyu1 Laplace, T = 1/2", svt_text(**SVT_TEXTS["lyu1"]), {"T": "1/2"}, (0, 1, 1)),
    ("argmax, geometric ties", RNM.format(fam="geometric", out="arg"), {}, (0, 1, 1)),
    ("argmax, exponential", RNM.format(fam="exponential", out="arg"), {}, (1, 0, 1)),
    ("max value, geometric", RNM.format(fam="geometric", out="best"), {}, (0, 1, 0)),
]


@pytest.mark.parametrize(("what", "text", "args", "q"), CASES, ids=[c[0] for c in CASES])
def test_exact_law_matches_a_seeded_run_of_the_text(
    what: str, text: str, args: dict[str, Any], q: tuple[int, ...]
) -> None:
    full = {"eps": 2, **args}
    model = lower_text(text, full)
    other = tuple(x + 1 for x in q)
    pm = program_mechanism(model, query_graph([q, other]))
    prog = parse_program(text)
    rng = random.Random(20261127)
    n = 6000
    counts: Counter[str] = Counter(
        pm.classify(_label(model, run_program(prog, q, full, rng))) for _ in range(n)
    )
    probs = {o: pm.mechanism.p(q, o) for o in pm.mechanism.outputs}
    assert sum(probs.values()) == 1 or abs(float(sum(probs.values())) - 1) < 1e-12
    assert chi_square_pvalue(counts, probs, n) > 1e-4, (what, counts.most_common(5))


def test_a_wrong_law_is_caught_by_the_same_statistic() -> None:
    """The statistic has power here: the text of Alg. 1 sampled against the law of
    the program with the query noise drawn at four times the rate fails."""
    text = svt_text(**SVT_TEXTS["lyu1"], fam="geometric")
    right = lower_text(text, {"eps": 2})
    assert isinstance(right, SparseVector)
    wrong = dataclasses.replace(
        right, query_noise=dataclasses.replace(right.query_noise, rate=4 * right.query_noise.rate)
    )
    q = (0, 1, 0, 1)
    pm = program_mechanism(wrong, query_graph([q]))
    prog = parse_program(text)
    rng = random.Random(7)
    n = 6000
    counts = Counter("".join(run_program(prog, q, {"eps": 2}, rng)) for _ in range(n))
    probs = {o: pm.mechanism.p(q, o) for o in pm.mechanism.outputs}
    assert chi_square_pvalue(counts, probs, n) < 1e-6


# ---------------------------------------------------------------------------
# refusals: the statement and the reason
# ---------------------------------------------------------------------------

SMART_SUM = """\
program two_thresholds(eps, T = 0)
rho = laplace(2/eps)
for i in queries:
    nu = laplace(4/eps)
    if q[i] + nu >= T + rho + 5:
        output top
    else:
        if q[i] + nu >= T + rho:
            output top
        else:
            output bottom
"""

REFUSED = [
    (
        "two outer noises",
        svt_text(**SVT_TEXTS["lyu1"]).replace("count = 0\n", "count = 0\nrho2 = laplace(1/eps)\n"),
        "6:1",
        "exactly one outer noise",
    ),
    (
        "nested threshold (adaptive SVT)",
        SMART_SUM,
        "8:9",
        "must be exactly 'output bottom'",
    ),
    (
        "product of noises",
        svt_text(**SVT_TEXTS["lyu1"]).replace("q[i] + nu >=", "q[i] + nu * nu >="),
        "7:18",
        "product of two noisy quantities",
    ),
    (
        "threshold noise scaled",
        svt_text(**SVT_TEXTS["lyu1"]).replace("T + rho", "T + 2*rho"),
        "7:18",
        "subtract the outer noise",
    ),
    (
        "query answer doubled",
        svt_text(**SVT_TEXTS["lyu1"]).replace("q[i] + nu >=", "2*q[i] + nu >="),
        "7:20",
        "q[i] with coefficient 1",
    ),
    (
        "equality test",
        svt_text(**SVT_TEXTS["lyu1"]).replace(">= T + rho", "== T + rho"),
        "7:18",
        "equality test",
    ),
    (
        "released mixture",
        svt_text(**SVT_TEXTS["lyu1"]).replace("output top", "output q[i] + nu + rho"),
        "8:9",
        "no one-dimensional law",
    ),
    (
        "index released",
        svt_text(**SVT_TEXTS["lyu1"]).replace("output top", "output i"),
        "8:9",
        "releasing an index",
    ),
    (
        "counter never tested",
        svt_text(**SVT_TEXTS["lyu1"]).replace("        if count == c:\n            break\n", ""),
        "7:5",
        "never tested",
    ),
    (
        "mixed families",
        svt_text(**SVT_TEXTS["lyu1"]).replace("nu = laplace", "nu = geometric"),
        "5:1",
        "different families",
    ),
    (
        "output after a threshold loop",
        svt_text(**SVT_TEXTS["lyu1"]) + "output top\n",
        "14:1",
        "ends with its loop",
    ),
    (
        "two loops",
        "program p(eps)\nfor i in queries:\n    output top\nfor j in queries:\n    output top\n",
        "4:1",
        "exactly one loop",
    ),
    (
        "ties to the highest index under integer noise",
        RNM.format(fam="geometric", out="arg").replace("> best", ">= best"),
        "7:18",
        "ties to the highest index",
    ),
    (
        "noisy maximum with a density",
        RNM.format(fam="laplace", out="best"),
        "10:1",
        "has a density",
    ),
    (
        "maximum of something else",
        RNM.format(fam="laplace", out="arg").replace("best = q[i] + nu", "best = q[i]"),
        "8:9",
        "a new maximum sets",
    ),
]


@pytest.mark.parametrize(("what", "text", "where", "why"), REFUSED, ids=[r[0] for r in REFUSED])
def test_refused_with_statement_and_reason(what: str, text: str, where: str, why: str) -> None:
    with pytest.raises(Refused) as err:
        lower_text(text, {"eps": 1})
    assert why in str(err.value)
    assert f"line {where}:" in str(err.value)


def test_parameters() -> None:
    text = svt_text(**SVT_TEXTS["lyu1"])
    with pytest.raises(InvalidParameter, match="no value for parameter 'eps'"):
        lower_text(text, {})
    with pytest.raises(InvalidParameter, match="no parameter 'delta'"):
        lower_text(text, {"eps": 1, "delta": 0})
    with pytest.raises(Refused, match="cutoff must be a positive integer"):
        lower_text(text, {"eps": 1, "c": "1/2"})
    with pytest.raises(Refused, match="must be positive"):
        lower_text(text, {"eps": -1})
    m = lower(parse_program(text), {"eps": "1/10", "T": "1/2"})
    assert isinstance(m, SparseVector) and m.claimed == sp.Rational(1, 10)


# ---------------------------------------------------------------------------
# the spec-file form: the transformer noise_program
# ---------------------------------------------------------------------------

SPEC = """\
[graphs.g]
kind = "edges"
datasets = ["a", "b", "c", "d"]
edges = [["a", "b"], ["c", "d"]]
components = 2

[mechanisms.answers]
graph = "g"
outputs = [[0], [1], [0, 1], [1, 1]]
distributions.a = { "(0)" = "1" }
distributions.b = { "(1)" = "1" }
distributions.c = { "(0, 1)" = "1" }
distributions.d = { "(1, 1)" = "1" }

[mechanisms.m]
algorithm = "noise_program"
inputs = ["answers"]
params.args = { eps = "1" }
params.text = \"\"\"
TEXT
\"\"\"

[[claims]]
id = "c"
mechanism = "m"
kind = "pure_dp"
epsilon = "1"
"""


def _spec(text: str) -> Any:
    from verifier.spec import loads_spec

    return loads_spec(SPEC.replace("TEXT", text), "toml")


def test_spec_form_joins_answer_vectors_of_several_lengths() -> None:
    text = svt_text(**SVT_TEXTS["lyu1"], fam="geometric")
    spec = _spec(text)
    mech = spec.mechanisms["m"]
    model = lower_text(text, {"eps": 1})
    one = program_mechanism(model, query_graph([(0,), (1,)])).mechanism
    two = program_mechanism(model, query_graph([(0, 1), (1, 1)])).mechanism
    for d, law, q in [("a", one, (0,)), ("b", one, (1,)), ("c", two, (0, 1)), ("d", two, (1, 1))]:
        for o in mech.outputs:
            want = law.p(q, o) if o in law.outputs else 0
            assert mech.p(d, o) == want
    ((_, result),) = spec.run()
    assert result.verdict.value == "holds"  # Lyu et al. 2017, Theorem 2


def test_spec_form_reports_the_line_and_the_reason() -> None:
    from verifier.errors import VerifierError

    with pytest.raises(VerifierError, match=r"line 2:5: unknown function 'eval'"):
        _spec("program p(eps)\nx = eval(1)")
    two_outer = svt_text(**SVT_TEXTS["lyu1"]).replace(
        "count = 0\n", "count = 0\nrho2 = laplace(1/eps)\n"
    )
    with pytest.raises(VerifierError, match=r"line 6:1: a threshold program draws exactly one"):
        _spec(two_outer)
    with pytest.raises(VerifierError, match="has a density"):
        _spec(RNM.format(fam="laplace", out="best"))


@pytest.mark.parametrize(
    ("variant", "text", "params"),
    [
        ("lyu1", svt_text(**SVT_TEXTS["lyu1"], fam="geometric"), {"c": 2}),
        ("lyu2", svt_text(**SVT_TEXTS["lyu2"], fam="geometric"), {"c": 2}),
        ("gap", svt_text(**SVT_TEXTS["gap"], fam="geometric"), {}),
        ("numerical", svt_text(**SVT_TEXTS["numerical"], fam="geometric"), {}),
        ("report_noisy_max", RNM.format(fam="geometric", out="arg"), {}),
    ],
)
def test_the_transformers_are_presets_of_their_texts(
    variant: str, text: str, params: dict[str, Any]
) -> None:
    """``sparse_vector`` / ``report_noisy_max`` and ``noise_program`` on the text of the
    same program give the same mechanism, probability for probability."""
    from verifier.algorithms import get_transformer
    from verifier.mechanism.model import FiniteMechanism
    from verifier.mechanism.neighbours import pair

    base = FiniteMechanism(pair(), {"D": {(0, 1, 1): 1}, "D'": {(1, 0, 1): 1}})
    if variant == "report_noisy_max":
        ref = get_transformer("report_noisy_max").apply([base], {"epsilon": 1})
    else:
        ref = get_transformer("sparse_vector").apply(
            [base], {"variant": variant, "epsilon": 1, **params}
        )
    got = get_transformer("noise_program").apply(
        [base], {"text": text, "args": {"eps": 1, **params}}
    )
    assert list(got.outputs) == list(ref.outputs)
    for d in ("D", "D'"):
        for o in ref.outputs:
            assert got.p(d, o) == ref.p(d, o)


def test_sparse_vector_buckets_the_values_of_lyu3_and_refuses_buckets_of_bits() -> None:
    """Lyu et al.'s constructors take no buckets: ``sparse_vector`` buckets the values
    Algorithm 3 releases, as the text of the same program does (``noise_program``),
    and refuses buckets for a variant that releases only ⊤/⊥ (they were ignored)."""
    from casestudies.dp_testing.programs import TEXTS
    from verifier.algorithms import get_transformer
    from verifier.errors import InvalidParameter
    from verifier.mechanism.model import FiniteMechanism
    from verifier.mechanism.neighbours import pair

    base = FiniteMechanism(pair(), {"D": {(0, 1, 1): 1}, "D'": {(1, 0, 1): 1}})
    params = {"epsilon": 1, "noise": "laplace", "threshold": 1, "buckets": [0]}
    ref = get_transformer("sparse_vector").apply([base], {"variant": "lyu3", **params})
    got = get_transformer("noise_program").apply(
        [base], {"text": TEXTS["lyu3"], "args": {"eps": 1, "T": 1}, "buckets": [0]}
    )
    assert list(got.outputs) == list(ref.outputs)
    for d in ("D", "D'"):
        for o in ref.outputs:
            assert got.p(d, o) == ref.p(d, o)
    with pytest.raises(InvalidParameter, match="releases only"):
        get_transformer("sparse_vector").apply([base], {"variant": "lyu1", **params})
    # without buckets the Laplace value has a density (what the ignored buckets gave)
    with pytest.raises(InvalidParameter, match="integer buckets"):
        unbucketed = {k: v for k, v in params.items() if k != "buckets"}
        get_transformer("sparse_vector").apply([base], {"variant": "lyu3", **unbucketed})
