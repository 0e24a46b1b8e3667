"""The suites as programs: every spec file of ``examples/programs/`` is decided as its
claims expect, and every sparse-vector and Report-Noisy-Max mechanism of the
``dp_testing`` case study, written there as a program text, lowers to the case study's
own model and has the case study's exact ε (imported from
:func:`casestudies.dp_testing.table.exact_epsilon`, never re-typed)."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path
from typing import Any

import pytest
import sympy as sp

from casestudies.dp_testing import noisy_max as cnm
from casestudies.dp_testing import svt as csvt
from casestudies.dp_testing.claims import ENTRIES
from casestudies.dp_testing.released import exact_released_value
from casestudies.dp_testing.table import exact_epsilon
from verifier.algorithms.noise import NoisyMax, SparseVector, lyu_svt, numerical_svt
from verifier.algorithms.noise.noisy_max import report_noisy_max
from verifier.algorithms.noise.text import MaxDensity, lower_text
from verifier.arithmetic.exact import Verdict
from verifier.spec import load_spec

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = ROOT / "examples" / "programs"
ENTRY = {e.name: e for e in ENTRIES}


#: examples whose every code path another example of the default run takes: the gap
#: release (gap_svt.toml) in the monotone style (svt_lyu_alg1_monotone.toml)
_SLOW_EXAMPLES = {"gap_svt_monotone.toml"}


def _files() -> list[Any]:
    """The spec files; those of the dp_testing suite (up to a minute each: ten
    queries, sixteen or thirty-two pairs) run with the slow tests, their exact values
    being held to the case study's by the tests below; so do :data:`_SLOW_EXAMPLES`."""
    return [
        pytest.param(p, marks=pytest.mark.slow)
        if p.name.startswith("dp_testing_") or p.name in _SLOW_EXAMPLES
        else p
        for p in sorted(PROGRAMS.glob("*.toml"))
    ]


def test_every_file_is_a_spec_file() -> None:
    files = sorted(PROGRAMS.iterdir())
    assert files and all(p.suffix == ".toml" for p in files)


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_every_example_is_decided_as_expected(path: Path) -> None:
    spec = load_spec(path)
    assert spec.claims
    for claim, result in spec.run():
        assert claim.expected is not None, claim.id
        want = Verdict.HOLDS if claim.expected == "holds" else Verdict.VIOLATED
        assert result.verdict is want, (claim.id, result.verdict)


def program(file: str, mechanism: str) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """The text, the parameter values and the other parameters of ``mechanism`` in
    ``examples/programs/<file>``."""
    doc = tomllib.loads((PROGRAMS / file).read_text(encoding="utf-8"))
    params = dict(doc["mechanisms"][mechanism]["params"])
    return params.pop("text"), params.pop("args"), params


def _same(a: Any, b: Any) -> bool:
    """The same model, up to its name, source and recorded claim."""

    def bare(m: Any) -> Any:
        return dataclasses.replace(m, name="", source="", claimed=None, monotone=False)

    return bool(bare(a) == bare(b))


def _equal(a: sp.Expr, b: sp.Expr) -> bool:
    return bool(a == b or (a != sp.oo and b != sp.oo and sp.simplify(a - b) == 0))


# -- the sparse vector family: answer sequences ------------------------------------

#: (entry, file, mechanism, Lyu et al.'s algorithm, the StatDP post-processing)
SVT_BITS = [
    ("sparse_vector_technique1", "dp_testing_sparse_vector_technique1.toml", "svt", 1, None),
    ("sparse_vector_technique2", "dp_testing_sparse_vector_technique2.toml", "svt", 2, None),
    ("sparse_vector_technique4", "dp_testing_sparse_vector_technique4.toml", "svt", 4, None),
    ("sparse_vector_technique5", "dp_testing_sparse_vector_technique5.toml", "svt", 5, None),
    pytest.param(
        "sparse_vector_technique6",
        "dp_testing_sparse_vector_technique6.toml",
        "svt",
        6,
        None,
        marks=pytest.mark.slow,
    ),
    # StatDP's entries at its three levels: the same text and code path at another ε,
    # each entry's exact ε decided by the main job (the dp_testing claims); the default
    # run lowers and decides each text at ε = 7/10, `pytest -m slow` at 1/5 and 3/2 too
    *[
        pytest.param(
            f"statdp_{fn}{suffix}",
            f"dp_testing_statdp_{fn}.toml",
            mech,
            k,
            post,
            marks=[pytest.mark.slow] if suffix else [],
        )
        for fn, k, post in [
            ("svt", 1, csvt.count_false),
            ("isvt1", 5, csvt.hamming),
            ("isvt3", 4, csvt.hamming),
        ]
        for mech, suffix in [("at_1_5", ".eps0_2"), ("at_7_10", ""), ("at_3_2", ".eps1_5")]
    ],
    *[
        pytest.param(
            f"statdp_isvt2{suffix}",
            "dp_testing_statdp_isvt2.toml",
            mech,
            6,
            csvt.hamming,
            marks=pytest.mark.slow,
        )
        for mech, suffix in [("at_1_5", ".eps0_2"), ("at_7_10", ""), ("at_3_2", ".eps1_5")]
    ],
]


@pytest.mark.parametrize(("name", "file", "mech", "k", "post"), SVT_BITS)
def test_sparse_vector_entries_from_their_texts(
    name: str, file: str, mech: str, k: int, post: Any
) -> None:
    entry = ENTRY[name]
    text, args, _ = program(file, mech)
    model = lower_text(text, args)
    assert isinstance(model, SparseVector)
    # the case study's own model of the entry
    assert _same(
        model,
        lyu_svt(k, entry.claimed, model.cutoff or 1, noise="laplace", threshold=model.threshold),
    )
    assert sp.Rational(args["eps"]) == entry.claimed
    pairs = csvt.STATDP_PAIRS if name.startswith("statdp_") else csvt.DPSNIPER_PAIRS
    got = csvt.exact_on_pairs(model, pairs, post).value
    assert _equal(got, exact_epsilon(entry).value), (name, got)


def test_numerical_svt_from_its_text() -> None:
    entry = ENTRY["numerical_svt"]
    text, args, rest = program("dp_testing_numerical_svt.toml", "svt")
    assert rest.get("answers_only") is True  # the spec file decides the answer sequence
    model = lower_text(text, args)
    assert isinstance(model, SparseVector) and model.release == "fresh"
    assert _same(model, numerical_svt(entry.claimed, 2, noise="laplace", threshold=1))
    got = csvt.exact_on_pairs(model, csvt.DPSNIPER_PAIRS, fresh_rate=model.value_noise.rate).value
    assert _equal(got, exact_epsilon(entry).value)


# -- released values with densities: Lyu et al.'s Algorithm 3 -----------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "file", "mech"),
    [
        ("sparse_vector_technique3", "dp_testing_sparse_vector_technique3.toml", "svt"),
        ("statdp_isvt4", "dp_testing_statdp_isvt4.toml", "at_7_10"),
        ("statdp_isvt4.eps0_2", "dp_testing_statdp_isvt4.toml", "at_1_5"),
        ("statdp_isvt4.eps1_5", "dp_testing_statdp_isvt4.toml", "at_3_2"),
    ],
)
def test_released_noisy_answers_from_their_texts(name: str, file: str, mech: str) -> None:
    entry = ENTRY[name]
    text, args, rest = program(file, mech)
    assert rest.get("buckets") == [0]  # the spec file decides the buckets
    model = lower_text(text, args)  # the release itself, a density
    assert isinstance(model, SparseVector) and model.has_density and model.release == "value"
    assert _same(model, lyu_svt(3, entry.claimed, 1, noise="laplace", threshold=1))
    pairs = csvt.STATDP_PAIRS if name.startswith("statdp_") else csvt.DPSNIPER_PAIRS
    got = exact_released_value(
        entry.claimed, pairs, t=int(model.threshold), c=model.cutoff or 1
    ).value
    assert _equal(got, exact_epsilon(entry).value)


def test_svt34_parallel_components_are_the_texts() -> None:
    """SVT34Parallel runs Algorithms 3 and 4 (c = 2) side by side with independent
    noise: two programs, whose texts lower to the case study's components (the
    product of two programs is not one text: its exact ε, the sum of the two
    losses per pair, stays the case study's)."""
    eps = ENTRY["svt34_parallel"].claimed
    text3, _, _ = program("dp_testing_sparse_vector_technique3.toml", "svt")
    text4, _, _ = program("dp_testing_sparse_vector_technique4.toml", "svt")
    args = {"eps": eps, "c": csvt.SVT34_C, "T": 1}
    assert _same(lower_text(text4, args), csvt._svt34_alg4())
    assert _same(
        lower_text(text3, args), lyu_svt(3, eps, csvt.SVT34_C, noise="laplace", threshold=1)
    )


# -- Report-Noisy-Max --------------------------------------------------------------

RNM = [
    ("report_noisy_max1", "laplace", "argmax"),
    ("report_noisy_max2", "exponential", "argmax"),
    ("report_noisy_max3", "laplace", "value"),
    ("report_noisy_max4", "exponential", "value"),
]


@pytest.mark.parametrize(("name", "fam", "release"), RNM)
def test_noisy_max_entries_from_their_texts(name: str, fam: str, release: str) -> None:
    entry = ENTRY[name]
    text, args, _ = program(f"dp_testing_{name}.toml", "rnm")
    model = lower_text(text, args, densities=True)
    ref = report_noisy_max(entry.claimed, noise=fam)
    assert model.noise == ref.noise
    if release == "argmax":
        assert isinstance(model, NoisyMax) and _same(model, ref)
        got = cnm.exact_argmax(entry.claimed, model.noise.kind, cnm.DPSNIPER_PAIRS).value
    else:
        assert isinstance(model, MaxDensity)
        got = cnm.exact_value(entry.claimed, model.noise.kind, cnm.DPSNIPER_PAIRS).value
    assert _equal(got, exact_epsilon(entry).value)


#: the released values (densities) run with `pytest -m slow`; so do the other levels
#: of the argmax entries (the same text and code path at another ε, each entry's exact
#: ε decided by the main job)
STATDP_RNM = [
    pytest.param(
        fn,
        name,
        suffix,
        release,
        marks=[pytest.mark.slow] if release == "value" or suffix else [],
        id=f"{fn}{suffix}",
    )
    for fn, name, release in [
        ("v1a", "report_noisy_max1", "argmax"),
        ("v2a", "report_noisy_max2", "argmax"),
        ("v1b", "report_noisy_max3", "value"),
        ("v2b", "report_noisy_max4", "value"),
    ]
    for suffix in ("", ".eps0_2", ".eps1_5")
]


@pytest.mark.parametrize(("fn", "name", "suffix", "release"), STATDP_RNM)
def test_statdp_noisy_max_is_the_same_text(fn: str, name: str, suffix: str, release: str) -> None:
    """StatDP's noisy_max_v1a/v2a/v1b/v2b are DP-Sniper's ReportNoisyMax1..4 at other
    levels and on other pairs: the same texts at StatDP's ε, the case study's values."""
    text, _, _ = program(f"dp_testing_{name}.toml", "rnm")
    entry = ENTRY[f"statdp_noisy_max_{fn}{suffix}"]
    model = lower_text(text, {"eps": entry.claimed}, densities=True)
    if release == "argmax":
        assert isinstance(model, NoisyMax)
        got = cnm.exact_argmax(entry.claimed, model.noise.kind, csvt.STATDP_PAIRS).value
    else:
        assert isinstance(model, MaxDensity)
        got = cnm.exact_value(entry.claimed, model.noise.kind, csvt.STATDP_PAIRS).value
    assert _equal(got, exact_epsilon(entry).value)


def test_the_case_study_runs_from_the_same_texts() -> None:
    """``casestudies.dp_testing`` builds its sparse-vector and Report-Noisy-Max
    programs from :data:`casestudies.dp_testing.programs.TEXTS`: the texts of the spec
    files, character for character."""
    from casestudies.dp_testing.programs import TEXTS

    where = {
        "lyu1": ("dp_testing_sparse_vector_technique1.toml", "svt"),
        "lyu2": ("dp_testing_sparse_vector_technique2.toml", "svt"),
        "lyu3": ("dp_testing_sparse_vector_technique3.toml", "svt"),
        "lyu4": ("dp_testing_sparse_vector_technique4.toml", "svt"),
        "lyu5": ("dp_testing_sparse_vector_technique5.toml", "svt"),
        "lyu6": ("dp_testing_sparse_vector_technique6.toml", "svt"),
        "numerical": ("dp_testing_numerical_svt.toml", "svt"),
        "rnm_laplace": ("dp_testing_report_noisy_max1.toml", "rnm"),
        "rnm_exponential": ("dp_testing_report_noisy_max2.toml", "rnm"),
        "rnm_value_laplace": ("dp_testing_report_noisy_max3.toml", "rnm"),
        "rnm_value_exponential": ("dp_testing_report_noisy_max4.toml", "rnm"),
    }
    assert set(where) == set(TEXTS)
    for name, (file, mech) in where.items():
        assert program(file, mech)[0].strip() == TEXTS[name].strip(), name
    # the StatDP files repeat the texts of DP-Sniper's
    for file, name in [
        ("dp_testing_statdp_svt.toml", "lyu1"),
        ("dp_testing_statdp_isvt1.toml", "lyu5"),
        ("dp_testing_statdp_isvt2.toml", "lyu6"),
        ("dp_testing_statdp_isvt3.toml", "lyu4"),
        ("dp_testing_statdp_isvt4.toml", "lyu3"),
    ]:
        for mech in ("at_1_5", "at_7_10", "at_3_2"):
            assert program(file, mech)[0].strip() == TEXTS[name].strip(), (file, mech)
