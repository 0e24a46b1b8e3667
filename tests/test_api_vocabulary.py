"""One vocabulary for privacy parameters across the public API
(:mod:`verifier.checks.vocabulary`): every checker or query that takes a mechanism
names its privacy parameters ``epsilon_tilde``, ``epsilon``, ``delta``, ``alpha``,
keyword-only and in that order; a string in the spec grammar is an exact number; a
float is refused with the fix; the former calling style still works for one release
and warns; something other than a mechanism is refused naming what converts it.  The
other shared keywords (``pairs``, ``precision``, ``title``, ``over``, ``budget``) are
one of the option groups of :mod:`verifier.checks.vocabulary`, each documented in the
checker's docstring, and any other keyword is refused as Python refuses it."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import warnings

import pytest
import sympy as sp

import verifier
from verifier import check_approx_dp, check_pure_dp, check_rdp, delta, epsilon_for_delta
from verifier.arithmetic.exact import DEFAULT_PRECISION
from verifier.checks.privacy import Attained, check_ex_post, check_lemma7, rdp_epsilon
from verifier.checks.vocabulary import (
    FORMER_NAMES,
    OPTION_DEFAULTS,
    VOCABULARY,
    CheckOptions,
    PointOptions,
    QueryOptions,
    fill_options,
    privacy_parameters,
)
from verifier.errors import BadInput, InvalidMechanism, InvalidParameter
from verifier.mechanism.instances import randomized_response

PRIVACY_NAME = re.compile(r"^(eps|epsilon|delta|alpha)(_|$)")
RR3 = randomized_response(sp.log(3))


def _checkers() -> list[tuple[str, inspect.Signature]]:
    """Public functions of the engine whose first parameter is a mechanism."""
    return [(name, inspect.signature(f)) for name, f in _checker_functions()]


def _checker_functions() -> list[tuple[str, object]]:
    """Public functions of the engine whose first parameter is a mechanism."""
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for m in pkgutil.walk_packages(verifier.__path__, "verifier."):
            if m.name.endswith("__main__") or ".cli" in m.name:
                continue
            mod = importlib.import_module(m.name)
            for name, f in vars(mod).items():
                if name.startswith("_") or not inspect.isfunction(f):
                    continue
                if f.__module__ != mod.__name__:
                    continue
                sig = inspect.signature(f)
                first = next(iter(sig.parameters), None)
                if first in ("mech", "mechanism"):
                    out.append((f"{m.name}.{name}", f))
    return out


CHECKERS = _checkers()
#: The option groups, by name.
GROUPS = {g.__name__: g for g in (QueryOptions, PointOptions, CheckOptions)}
#: The checkers that take ``**options``, with their option group.
WITH_OPTIONS = [
    (name, f, GROUPS[m[1]])
    for name, f in _checker_functions()
    for p in inspect.signature(f).parameters.values()
    if p.kind is p.VAR_KEYWORD and (m := re.fullmatch(r"Unpack\[(\w+)\]", str(p.annotation)))
]


def test_the_walk_sees_the_checkers():
    names = {n.rsplit(".", 1)[1] for n, _ in CHECKERS}
    assert {
        "check_pure_dp",
        "check_approx_dp",
        "delta",
        "rdp_epsilon",
        "epsilon_for_delta",
    } <= names


@pytest.mark.parametrize("name,sig", CHECKERS, ids=[n for n, _ in CHECKERS])
def test_privacy_parameters_are_keyword_only_in_the_vocabulary(name, sig):
    seen = []
    for p in list(sig.parameters.values())[1:]:
        if PRIVACY_NAME.match(p.name) or p.name in FORMER_NAMES:
            assert p.name in VOCABULARY, f"{name}: {p.name} is outside the vocabulary"
            assert p.kind is p.KEYWORD_ONLY, f"{name}: {p.name} is not keyword-only"
            seen.append(VOCABULARY.index(p.name))
    assert seen == sorted(seen), f"{name}: privacy parameters out of order"


def test_the_option_groups_nest_and_have_one_default_each():
    assert list(QueryOptions.__annotations__) == ["pairs", "precision"]
    assert list(PointOptions.__annotations__) == ["pairs", "precision", "title"]
    assert list(CheckOptions.__annotations__) == ["pairs", "precision", "title", "over", "budget"]
    assert set(OPTION_DEFAULTS) == set(CheckOptions.__annotations__)
    for g in GROUPS.values():
        assert g.__required_keys__ == frozenset()  # every option is optional
    assert OPTION_DEFAULTS["precision"] is DEFAULT_PRECISION


def test_every_keyword_catch_all_of_a_checker_is_an_option_group():
    names = {n.rsplit(".", 1)[1]: g for n, _, g in WITH_OPTIONS}
    # the walk sees the checkers of every group (not vacuous)
    assert names["check_pure_dp"] is CheckOptions and names["check_lemma7"] is CheckOptions
    assert names["check_rdp"] is PointOptions and names["check_odp"] is PointOptions
    assert names["delta"] is QueryOptions and names["epsilon_for_delta"] is QueryOptions
    assert len(names) >= 16
    for name, sig in CHECKERS:
        for p in sig.parameters.values():
            if p.kind is p.VAR_KEYWORD:
                assert name in {n for n, _, _ in WITH_OPTIONS}, f"{name}: **{p.name} {p.annotation}"


def _required(f: object) -> tuple[list[object], dict[str, object]]:
    """Placeholder values for the required parameters after the mechanism (the
    options are read before any parameter is)."""
    args, kwargs = [], {}
    for p in list(inspect.signature(f).parameters.values())[1:]:
        if p.default is p.empty and p.kind is p.POSITIONAL_OR_KEYWORD:
            args.append([])
        elif p.default is p.empty and p.kind is p.KEYWORD_ONLY:
            kwargs[p.name] = 1
    return args, kwargs


@pytest.mark.parametrize("name,f,group", WITH_OPTIONS, ids=[n for n, _, _ in WITH_OPTIONS])
def test_options_are_only_the_documented_ones(name, f, group):
    doc = inspect.getdoc(f) or ""
    params = doc.split("Parameters\n----------\n", 1)[1].split("\n\n", 1)[0]
    documented = re.findall(r"^(\w+) :", params, re.M)
    # every option of the group is documented, in the group's order
    options = [k for k in documented if k in OPTION_DEFAULTS]
    assert options == list(group.__annotations__), f"{name} documents {options}"
    # and every other keyword is refused, an option of another group included
    short = name.rsplit(".", 1)[1]
    args, kwargs = _required(f)
    for other in ["nonsense", *(k for k in OPTION_DEFAULTS if k not in group.__annotations__)]:
        message = f"{short}() got an unexpected keyword argument '{other}'"
        with pytest.raises(TypeError, match=re.escape(message) + "$"):
            f(RR3, *args, **kwargs, **{other: None})


def test_the_refusal_is_the_one_python_gives():
    def check_x(mech, *, pairs=None): ...

    with pytest.raises(TypeError) as python:
        check_x(RR3, over=None)
    with pytest.raises(TypeError) as ours:
        fill_options(QueryOptions, "check_x", {"over": None})
    assert str(ours.value) == str(python.value).rsplit(".", 1)[-1]


def test_every_option_is_taken_by_keyword():
    pairs = [("D", "D'")]
    r = check_pure_dp(
        RR3, epsilon="log(3)", pairs=pairs, precision=DEFAULT_PRECISION, title="t", over=None
    )
    assert r.holds and r.title == "t" and [f.pair for f in r.findings] == [("D", "D'")] * 2
    r = check_rdp(RR3, epsilon="log(7/3)", alpha=2, pairs=iter(pairs), title="u")
    assert r.holds and r.tight and r.title == "u" and r.subject.pairs == (("D", "D'"),)
    assert delta(RR3, epsilon=sp.log(2), pairs=pairs).pair == ("D", "D'")
    # check_lemma7 takes every option of its group, its title among them
    r = check_lemma7(RR3, epsilon_tilde=sp.log(3), alpha=2, delta="1/10", title="L7", pairs=pairs)
    assert r.holds and r.title == "L7" and r.parts[0].title.startswith("Lemma 7 (i)")


def test_the_walk_would_see_a_positional_or_foreign_name():
    def bad(mech, eps, *, delta_claim=0): ...

    sig = inspect.signature(bad)
    with pytest.raises(AssertionError, match="outside the vocabulary"):
        test_privacy_parameters_are_keyword_only_in_the_vocabulary("bad", sig)
    with pytest.raises(TypeError, match="former name"):
        privacy_parameters()(bad)


def test_strings_are_exact_numbers_and_floats_are_refused_with_the_fix():
    assert check_pure_dp(RR3, epsilon="log(3)").holds
    assert check_pure_dp(RR3, epsilon="log(2.9)").violated
    assert check_approx_dp(RR3, epsilon="log(2)", delta="1/4").holds
    assert check_approx_dp(RR3, epsilon="log(2)", delta="0.2499").violated
    assert check_rdp(RR3, epsilon="log(3)", alpha="2").holds
    with pytest.raises(InvalidParameter, match=r'Fraction\(1, 10\) \(or the string "0.1"'):
        check_pure_dp(RR3, epsilon=0.1)
    with pytest.raises(InvalidParameter, match="unknown name"):
        check_pure_dp(RR3, epsilon="log(three)")


def test_one_result_type_for_the_smallest_parameter():
    d = delta(RR3, epsilon=sp.log(2))
    e = epsilon_for_delta(RR3, delta=sp.Rational(1, 4))
    r = rdp_epsilon(RR3, alpha=2)
    p = verifier.pure_epsilon(RR3)
    for got in (d, e, r, p):
        assert isinstance(got, Attained) and got.pair in (("D", "D'"), ("D'", "D"))
    assert d.value == sp.Rational(1, 4) and d.output is None
    assert e.value == sp.log(2) and p.value == sp.log(3) and p.output is not None
    assert float(d) == 0.25


def test_the_former_style_works_for_one_release_and_warns():
    with pytest.warns(DeprecationWarning, match="pass epsilon=... by keyword"):
        assert check_pure_dp(RR3, sp.log(3)).holds
    with pytest.warns(DeprecationWarning, match="delta_claim= is now delta="):
        assert check_approx_dp(RR3, epsilon=sp.log(2), delta_claim=sp.Rational(1, 4)).holds
    with pytest.warns(DeprecationWarning, match="eps_tilde= is now epsilon_tilde="):
        assert check_ex_post(RR3, eps_tilde=sp.log(3)).holds
    with pytest.warns(DeprecationWarning, match="use .value and .pair"):
        value, pair = delta(RR3, epsilon=sp.log(2))
    assert value == sp.Rational(1, 4)
    # options that were positional before 0.2 are taken by position, with the warning
    with pytest.warns(
        DeprecationWarning, match=r"delta: pass epsilon=\.\.\., pairs=\.\.\., precision=\.\.\. by"
    ):
        d = delta(RR3, sp.log(2), [("D'", "D")], DEFAULT_PRECISION)
    assert d.value == sp.Rational(1, 4) and d.pair == ("D'", "D")  # RR is symmetric
    with pytest.warns(DeprecationWarning, match="epsilon_for_delta: pass delta=..., pairs=..."):
        assert epsilon_for_delta(RR3, 0, [("D", "D'")]).value == sp.log(3)
    with pytest.raises(TypeError, match="multiple values"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_pure_dp(RR3, sp.log(3), epsilon=sp.log(3))


def test_a_non_mechanism_is_refused_naming_the_conversion():
    with pytest.raises(InvalidMechanism, match="got dict"):
        check_pure_dp({"D": {"a": 1}}, epsilon=1)
    dp_event = pytest.importorskip("dp_accounting.dp_event")
    event = dp_event.RandomizedResponseDpEvent(0.5, 2)
    with pytest.raises(BadInput, match="from_dp_event"):
        check_pure_dp(event, epsilon=1)
    with pytest.raises(BadInput, match="from_dp_event"):
        delta(event, epsilon=1)


def test_constructors_take_the_spec_kinds_epsilon():
    from verifier.mechanism.instances import truncated_geometric

    assert randomized_response("log(3)").p("D", 1) == sp.Rational(3, 4)
    assert randomized_response(epsilon=sp.log(3)).p("D'", 1) == sp.Rational(1, 4)
    a = truncated_geometric(3, epsilon="log(2)")
    b = truncated_geometric(3, sp.Rational(1, 2))
    assert all(a.p(d, o) == b.p(d, o) for d in range(4) for o in range(4))
    with pytest.raises(InvalidParameter, match="one of them"):
        truncated_geometric(3, sp.Rational(1, 2), epsilon=1)
    with pytest.raises(InvalidParameter, match="one of them"):
        truncated_geometric(3)
    with pytest.raises(InvalidParameter, match="float"):
        randomized_response(1.1)
