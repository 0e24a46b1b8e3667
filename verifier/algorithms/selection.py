"""The transformer ``selection``: a selection program in a spec file.

Spec files write a :class:`~verifier.programs.selection.SelectionProgram` as a derived
mechanism whose inputs are the candidates::

    [mechanisms.tuned]
    algorithm = "selection"
    inputs = ["rr"]
    params = { count = { law = "truncated_negative_binomial", eta = "1/2", gamma = "1/10" },
               rule = "best", release = "output", score = "self" }

``count`` is a table naming a law of :data:`~verifier.programs.counts.COUNT_LAWS` and its
parameters (exact numbers, as text or integers; ``finite`` takes ``pmf = { "1" = "1/2",
"3" = "1/2" }``); leaving it out runs rounds until halting.  The exact law is
:func:`~verifier.programs.selection.selection_mechanism`'s (``docs/programs.md``).  The
selection transformers of :mod:`~.generic`, :mod:`~.liu_talwar`, :mod:`~.repeat_select`
and :mod:`~.talwar` are presets of such programs, equal in law
(``tests/test_programs_selection.py``).

>>> import sympy as sp
>>> from verifier.mechanism.instances import randomized_response
>>> from verifier.algorithms.registry import get_transformer
>>> rr = randomized_response(sp.log(3))
>>> A = get_transformer("selection").apply(
...     [rr], {"count": {"law": "fixed", "T": 2}, "rule": "best", "score": "self"})
>>> A.p("D", 1), A.p("D'", 1)
(15/16, 7/16)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import sympy as sp

from ..errors import InvalidParameter, VerifierError
from ..mechanism.model import FiniteMechanism
from ..programs.counts import COUNT_LAWS, Count, fixed, geometric, make_count, poisson
from ..programs.selection import (
    PICKS,
    RELEASES,
    SCORE_READERS,
    TIES,
    Best,
    FirstAbove,
    KthBest,
    Rule,
    SelectionProgram,
    TopK,
    selection_mechanism,
)
from .estimates import Estimate, register_estimate, saturating
from .registry import Param, Values, choice, exact_number, positive_int, probability, transformer

__all__ = ["parse_count", "program_from_params", "RULES", "PRESETS", "preset_program"]

#: The rules by their spec-file name.
RULES = ("best", "first_above", "kth_best", "top_k")

_NUMBER_SCHEMA: dict[str, Any] = {"oneOf": [{"type": "string"}, {"type": "integer"}]}


def _count_schema() -> dict[str, Any]:
    variants = []
    for law, (_, names) in COUNT_LAWS.items():
        props: dict[str, Any] = {"law": {"const": law}}
        for n in names:
            props[n] = (
                {"type": "object", "additionalProperties": _NUMBER_SCHEMA}
                if n == "pmf"
                else _NUMBER_SCHEMA
            )
        variants.append(
            {
                "type": "object",
                "properties": props,
                "required": ["law", *names],
                "additionalProperties": False,
            }
        )
    return {"oneOf": [{"type": "null"}, *variants]}


def parse_count(raw: Any, values: Values) -> Count | None:
    """A count table ``{law = ..., <parameters>}`` (or ``None``: no count).

    >>> parse_count({"law": "poisson", "mu": "3/2"}, {}).mean
    3/2
    """
    if raw is None or isinstance(raw, Count):
        return raw
    if not isinstance(raw, Mapping) or "law" not in raw:
        raise InvalidParameter(
            f'must be a table naming a law, e.g. {{ law = "poisson", mu = "2" }} '
            f"(laws: {', '.join(COUNT_LAWS)}), got {raw!r}"
        )
    law = raw["law"]
    if not isinstance(law, str) or law not in COUNT_LAWS:
        raise InvalidParameter(f"law must be one of {', '.join(COUNT_LAWS)}, got {law!r}")
    params: dict[str, Any] = {}
    for k, v in raw.items():
        if k == "law":
            continue
        if k == "pmf":
            if not isinstance(v, Mapping):
                raise InvalidParameter(f"pmf must be a table {{k = probability}}, got {v!r}")
            params[k] = {kk: exact_number(vv, values) for kk, vv in v.items()}
        else:
            try:
                params[k] = exact_number(v, values)
            except VerifierError as err:
                raise InvalidParameter(f"{k}: {err}") from None
    return make_count(law, **params)


def program_from_params(
    inputs: Sequence[FiniteMechanism], params: Mapping[str, Any]
) -> SelectionProgram:
    """The :class:`SelectionProgram` of validated ``selection`` parameters."""
    name = params["rule"]
    rule: Rule
    if name == "best":
        rule = Best(params["ties"])
    elif name == "first_above":
        if params["tau"] is None:
            raise InvalidParameter("rule 'first_above' needs the threshold tau")
        rule = FirstAbove(params["tau"])
    else:
        if params["k"] is None:
            raise InvalidParameter(f"rule {name!r} needs k")
        rule = KthBest(params["k"]) if name == "kth_best" else TopK(params["k"])
    for p, needs in (("tau", ("first_above",)), ("k", ("kth_best", "top_k"))):
        if params[p] is not None and name not in needs:
            raise InvalidParameter(
                f"{p} is a parameter of the rule {' or '.join(map(repr, needs))}, not of {name!r}"
            )
    return SelectionProgram(
        tuple(inputs),
        params["count"],
        rule,
        params["halting"],
        params["release"],
        params["pick"],
        params["score"],
    )


def _optional(parse: Any) -> Any:
    def inner(raw: Any, values: Values) -> Any:
        return None if raw is None else parse(raw, values)

    return inner


@transformer(
    "selection",
    source="selection programs (verifier.programs.selection): Liu & Talwar 2019, §3, "
    "Theorems 3.1-3.5, App. B.3; Papernot & Steinke 2022, §2, Theorems 2 and 6; "
    "Talwar 2025, Theorems 11-14",
    params=[
        Param(
            "count",
            parse_count,
            "number of rounds: a table { law = ..., parameters } (laws: "
            + ", ".join(COUNT_LAWS)
            + "); omit: rounds until halting",
            None,
            _count_schema(),
        ),
        Param(
            "rule",
            choice(*RULES),
            "'best', 'first_above' (needs tau), 'kth_best' or 'top_k' (need k)",
            "best",
        ),
        Param(
            "ties", choice(*TIES), "ties of the best rule: 'order', 'latest', 'earliest'", "order"
        ),
        Param("tau", _optional(exact_number), "threshold of the rule 'first_above'", None),
        Param("k", _optional(positive_int), "k of the rules 'kth_best' and 'top_k'", None),
        Param("halting", probability, "halting probability after each draw", 0),
        Param("release", choice(*RELEASES), "what is released", "output"),
        Param("pick", choice(*PICKS), "several candidates: 'in_turn' or 'uniform'", "in_turn"),
        Param("score", choice(*SCORE_READERS), "where an output's score sits", "last"),
    ],
    inputs=(1, None),
)
def _t_selection(inputs: list[FiniteMechanism], params: dict[str, Any]) -> FiniteMechanism:
    """A selection program: candidates, a count, a rule, halting and a release."""
    return selection_mechanism(program_from_params(inputs, params))


# ---------------------------------------------------------------------------
# the selection transformers as programs (named presets)
# ---------------------------------------------------------------------------

#: ``(inputs, validated params) -> SelectionProgram``.
Preset = Callable[[list[FiniteMechanism], dict[str, Any]], SelectionProgram]


def _best_of(inputs: list[FiniteMechanism], ps: dict[str, Any]) -> SelectionProgram:
    ties = "latest" if ps["ties"] == "highest_index" else "earliest"
    runs = inputs if ps["k"] is None else inputs[:1]
    n = len(inputs) if ps["k"] is None else ps["k"]
    return SelectionProgram(runs, fixed(n), Best(ties), release=ps["report"], score="first")


def _hybrid(inputs: list[FiniteMechanism], ps: dict[str, Any]) -> SelectionProgram:
    inner_gamma = ps["gamma"] ** sp.Rational(1, ps["c"]) / ps["K"]
    inner = selection_mechanism(
        SelectionProgram(inputs, None, halting=inner_gamma, score=ps["score"])
    )
    return SelectionProgram((inner,), fixed(ps["c"]), score=ps["score"])


def _repeat_and_select(inputs: list[FiniteMechanism], ps: dict[str, Any]) -> SelectionProgram:
    count = poisson(ps["mean"]) if ps["count"] == "poisson" else geometric(1 / ps["mean"])
    return SelectionProgram(inputs, count, score=ps["score"])


#: Every selection transformer as the program it is a preset of (its parameters as
#: :meth:`~verifier.algorithms.registry.Transformer.parse_params` returns them); each
#: equals its program in law (``tests/test_programs_selection.py``).
PRESETS: dict[str, Preset] = {
    "best_of": _best_of,
    "lt_uniform_selection": lambda i, ps: SelectionProgram(
        i, fixed(1), pick="uniform", score=ps["score"]
    ),
    "lt_thresholding": lambda i, ps: SelectionProgram(
        i,
        None if ps["T"] is None else fixed(ps["T"]),
        FirstAbove(ps["tau"]),
        ps["gamma"],
        score=ps["score"],
    ),
    "lt_random_stopping": lambda i, ps: SelectionProgram(
        i, None, halting=ps["gamma"], score=ps["score"]
    ),
    "lt_random_stopping_hard": lambda i, ps: SelectionProgram(
        i, fixed(ps["T"]), halting=ps["gamma"], score=ps["score"]
    ),
    "lt_percentile_release": lambda i, ps: SelectionProgram(
        i, fixed(ps["n"]), KthBest(ps["k"]), score=ps["score"]
    ),
    "repeat_and_select": _repeat_and_select,
    "talwar_max_of_runs": lambda i, ps: SelectionProgram(i, fixed(ps["T"]), score=ps["score"]),
    "talwar_hybrid": _hybrid,
}


def preset_program(
    name: str, inputs: Sequence[FiniteMechanism], params: Mapping[str, Any] | None = None
) -> SelectionProgram:
    """The selection program of the transformer ``name`` run on ``inputs`` with
    ``params`` (raw or Python values, validated by the transformer's schema).

    >>> import sympy as sp
    >>> from verifier.mechanism.instances import randomized_response
    >>> prog = preset_program("lt_random_stopping_hard", [randomized_response(sp.log(3))],
    ...                       {"gamma": "1/3", "T": 4, "score": "self"})
    >>> prog.count, prog.halting
    (Count(law='fixed', ...), 1/3)
    """
    from .registry import get_transformer

    if name not in PRESETS:
        raise InvalidParameter(
            f"{name!r} is not a selection transformer (presets: {', '.join(PRESETS)})"
        )
    t = get_transformer(name)
    t.check_inputs(list(inputs))
    return PRESETS[name](list(inputs), t.parse_params(params))


@register_estimate("selection")
def _estimate(inputs: Sequence[FiniteMechanism], params: dict[str, Any]) -> Estimate:
    """Outputs: the candidates' (plus ``⊥``), or one per round for the index and count
    releases.  Work: a generating function evaluated per output with rationals of
    ``rounds`` times the bits (the ``T``-th power of :func:`fixed`), or the rounds
    enumerated (candidates in turn, index and count releases: a product per round and
    output, with rationals of up to ``rounds`` times the bits)."""
    outs = sum(len(m.outputs) for m in inputs) + 1
    count: Count | None = params.get("count")
    rounds = count.most if count is not None and count.most is not None else 1
    enumerated = len(inputs) > 1 or params.get("release") in ("index", "count")
    per = (rounds, rounds) if enumerated else (rounds,)
    released = outs + (rounds if params.get("release") in ("index", "count") else 0)
    return Estimate(saturating(released), saturating(outs, *per, len(inputs[0].datasets)))
