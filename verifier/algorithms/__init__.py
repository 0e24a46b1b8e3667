"""Transformers: algorithms that turn base mechanisms into a new mechanism.

A *transformer* is an algorithm described as data: a name, the paper it comes from,
a parameter schema, and a function that computes the **exact** output distribution
of the algorithm run on its input mechanisms (from a closed form, never by
simulation).  Spec files refer to transformers by name::

    [mechanisms.best]
    algorithm = "best_of"
    inputs = ["rr", "rr", "rr"]
    params = { ties = "highest_index" }

and :data:`TRANSFORMERS` maps each name to its :class:`Transformer`.

Generic transformers registered here (built on :mod:`verifier.compose`):

``independent``
    independent runs of the inputs on the same dataset; the output is the tuple
    of their outputs.
``repeat``
    ``n`` independent runs of one mechanism.
``best_of``
    independent runs, then the best output by its numeric score (the output itself
    when it is a number, the first component of a ``(score, ...)`` tuple), with an
    explicit tie-breaking rule — the best-of-K selector of hyperparameter tuning
    (Liu & Talwar 2019, "Private selection from private candidates", §3).

Adding a transformer
--------------------
Write a module in this package (it is imported automatically the first time a name
is not found among the registered ones) and decorate the function that computes the
exact distribution::

    from verifier.algorithms import Param, positive_int, transformer

    @transformer(
        "my_algorithm",
        source="Some et al. 2025, Algorithm 2 / Theorem 4",
        params=[Param("k", positive_int, "number of rounds")],
        inputs=(1, 1),
    )
    def my_algorithm(inputs, params):
        '''One-line summary shown by ``verifier`` listings.'''
        (base,) = inputs
        ...
        return FiniteMechanism(...)

A parameter's parser receives the raw value (a TOML/JSON value or a Python object)
and the symbol values of the spec file, and returns the validated value or raises a
:class:`~verifier.errors.VerifierError` subclass; the registry adds the parameter's
location to the message.

>>> from verifier.mechanism import FiniteMechanism
>>> from verifier.neighbours import pair
>>> import sympy as sp
>>> half, third = sp.Rational(1, 2), sp.Rational(1, 3)
>>> coin = FiniteMechanism(pair(), {"D": {0: half, 1: half}, "D'": {0: third, 1: 2 * third}})
>>> best = TRANSFORMERS["best_of"].apply([coin, coin])
>>> best.p("D", 0), best.p("D'", 0)
(1/4, 1/9)
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp

from ..arithmetic import Sign, decide_sign, exact
from ..compose import independent, repeat, same_neighbour_graph
from ..errors import InvalidParameter, VerifierError
from ..mechanism import FiniteMechanism, Output

__all__ = [
    "TRANSFORMERS",
    "Transformer",
    "Param",
    "REQUIRED",
    "register_transformer",
    "transformer",
    "get_transformer",
    "load_plugins",
    "PLUGIN_ERRORS",
    "positive_int",
    "exact_number",
    "probability",
    "boolean",
    "choice",
    "output_score",
]

#: Values of the symbols of a spec file, by name (passed to parameter parsers).
Values = Mapping[str, sp.Expr]
#: A parameter parser: ``(raw value, symbol values) -> validated value``.
ParamParser = Callable[[Any, Values], Any]
#: The function computing a transformer's output mechanism.
BuildFn = Callable[[list[FiniteMechanism], dict[str, Any]], FiniteMechanism]


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


#: Marker for a parameter without a default.
REQUIRED: Any = _Required()


# ---------------------------------------------------------------------------
# parameter parsers
# ---------------------------------------------------------------------------


def _parse_text(raw: str, values: Values) -> sp.Expr:
    from ..expressions import parse_number  # deferred: keeps this registry importable

    return parse_number(raw, values)


def exact_number(raw: Any, values: Values) -> sp.Expr:
    """An exact number: an int, a sympy expression, or text parsed safely by
    :func:`verifier.expressions.parse_number` (symbols take their values)."""
    if isinstance(raw, str):
        return _parse_text(raw, values)
    if isinstance(raw, float):
        raise InvalidParameter(
            f"{raw!r} is a floating-point number, which is not exact; write it as a "
            f'string such as "1/2"'
        )
    if isinstance(raw, (bool, int, Fraction, sp.Basic)):
        if isinstance(raw, bool):
            raise InvalidParameter(f"expected a number, got the boolean {raw!r}")
        value = exact(raw)
        if value.free_symbols:
            raise InvalidParameter(f"{value} is not a number: symbols without value")
        return value
    raise InvalidParameter(f"expected a number, got {type(raw).__name__} {raw!r}")


def positive_int(raw: Any, values: Values) -> int:
    """A positive integer (an int, or text whose exact value is one)."""
    value = exact_number(raw, values)
    if not value.is_Integer or value < 1:
        raise InvalidParameter(f"must be a positive integer, got {value}")
    return int(value)


def probability(raw: Any, values: Values) -> sp.Expr:
    """An exact number in ``[0, 1]``."""
    value = exact_number(raw, values)
    lo, hi = decide_sign(value).sign, decide_sign(1 - value).sign
    if lo is Sign.NEGATIVE or hi is Sign.NEGATIVE:
        raise InvalidParameter(f"must lie in [0, 1], got {value}")
    if lo is Sign.UNDECIDED or hi is Sign.UNDECIDED:
        raise InvalidParameter(f"could not decide that {value} lies in [0, 1]")
    return value


def boolean(raw: Any, values: Values) -> bool:
    """``true`` or ``false``."""
    if not isinstance(raw, bool):
        raise InvalidParameter(f"must be true or false, got {raw!r}")
    return raw


def choice(*options: str) -> ParamParser:
    """A parser accepting one of ``options`` (strings)."""

    def parse(raw: Any, values: Values) -> str:
        if not isinstance(raw, str) or raw not in options:
            listed = ", ".join(repr(o) for o in options)
            raise InvalidParameter(f"must be one of {listed}, got {raw!r}")
        return raw

    parse.__doc__ = "one of " + ", ".join(repr(o) for o in options)
    return parse


# ---------------------------------------------------------------------------
# the registry
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    """One parameter of a transformer: its name, parser, description and default."""

    name: str
    parse: ParamParser
    doc: str = ""
    default: Any = REQUIRED

    @property
    def required(self) -> bool:
        return self.default is REQUIRED


@dataclass(frozen=True)
class Transformer:
    """An algorithm as data: base mechanisms + parameters in, a mechanism out.

    Parameters
    ----------
    name : str
        The name spec files use (``algorithm = "best_of"``).
    build : callable
        ``build(inputs, params) -> FiniteMechanism`` computing the exact output
        distribution; ``params`` holds every declared parameter, validated.
    params : tuple of Param
        The parameter schema; unknown parameter names are errors.
    inputs : (int, int or None)
        Minimum and maximum number of input mechanisms (``None``: unbounded).
    source : str
        The paper, algorithm and theorem the closed form implements.
    summary : str
        One line describing the algorithm.
    """

    name: str
    build: BuildFn
    params: tuple[Param, ...] = ()
    inputs: tuple[int, int | None] = (1, None)
    source: str = ""
    summary: str = ""
    schema: dict[str, Param] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "schema", {p.name: p for p in self.params})
        if len(self.schema) != len(self.params):
            raise InvalidParameter(f"transformer {self.name!r} declares a parameter twice")

    def parse_params(
        self,
        raw: Mapping[str, Any] | None = None,
        values: Values | None = None,
        *,
        where: str = "params",
    ) -> dict[str, Any]:
        """Validate ``raw`` against the schema; fill in defaults.

        Errors name the parameter as ``{where}.{name}``.
        """
        raw = dict(raw or {})
        vals = dict(values or {})
        unknown = [k for k in raw if k not in self.schema]
        if unknown:
            known = ", ".join(self.schema) or "none"
            raise InvalidParameter(
                f"{where}.{unknown[0]}: unknown parameter of algorithm {self.name!r} "
                f"(its parameters: {known})"
            )
        out: dict[str, Any] = {}
        for p in self.params:
            if p.name not in raw:
                if p.required:
                    raise InvalidParameter(
                        f"{where}: algorithm {self.name!r} needs the parameter {p.name!r}"
                        + (f" ({p.doc})" if p.doc else "")
                    )
                out[p.name] = p.default
                continue
            try:
                out[p.name] = p.parse(raw[p.name], vals)
            except VerifierError as err:
                raise type(err)(f"{where}.{p.name}: {err}") from None
        return out

    def check_inputs(self, inputs: Sequence[FiniteMechanism]) -> None:
        lo, hi = self.inputs
        n = len(inputs)
        if n < lo or (hi is not None and n > hi):
            want = f"exactly {lo}" if lo == hi else f"at least {lo}"
            if hi is not None and lo != hi:
                want = f"between {lo} and {hi}"
            raise InvalidParameter(
                f"algorithm {self.name!r} takes {want} input mechanism(s), got {n}"
            )
        for m in inputs:
            if not isinstance(m, FiniteMechanism):
                raise InvalidParameter(
                    f"algorithm {self.name!r}: inputs must be FiniteMechanism, got {type(m).__name__}"
                )

    def apply(
        self,
        inputs: Sequence[FiniteMechanism],
        params: Mapping[str, Any] | None = None,
        *,
        values: Values | None = None,
        name: str | None = None,
        where: str = "params",
    ) -> FiniteMechanism:
        """Run the algorithm on ``inputs``: the exact output mechanism.

        ``params`` may hold raw values (as in a spec file) or Python values; both go
        through the parsers.  ``name`` names the result (default: ``name(inputs)``).
        """
        self.check_inputs(inputs)
        parsed = self.parse_params(params, values, where=where)
        result = self.build(list(inputs), parsed)
        if any(result is m for m in inputs):  # never rename an input in place
            result = result.restrict(result.datasets)
        result.name = name or f"{self.name}({', '.join(m.name for m in inputs)})"
        return result

    def describe(self) -> str:
        """A short text: summary, source and parameters."""
        lines = [f"{self.name}: {self.summary}".rstrip(": ")]
        if self.source:
            lines.append(f"  source: {self.source}")
        lo, hi = self.inputs
        lines.append(f"  inputs: {lo}{'+' if hi is None else ('' if hi == lo else f'..{hi}')}")
        for p in self.params:
            default = "required" if p.required else f"default {p.default!r}"
            lines.append(f"  {p.name} ({default}): {p.doc}")
        return "\n".join(lines)


#: Every registered transformer, by name.
TRANSFORMERS: dict[str, Transformer] = {}

_plugins_loaded = False


def register_transformer(t: Transformer, *, replace: bool = False) -> Transformer:
    """Add ``t`` to :data:`TRANSFORMERS` (refusing a second use of a name unless
    ``replace``) and return it."""
    if not isinstance(t, Transformer):
        raise InvalidParameter(f"expected a Transformer, got {type(t).__name__}")
    if t.name in TRANSFORMERS and not replace and TRANSFORMERS[t.name] is not t:
        raise InvalidParameter(f"a transformer named {t.name!r} is already registered")
    TRANSFORMERS[t.name] = t
    return t


def transformer(
    name: str,
    *,
    source: str,
    params: Sequence[Param] = (),
    inputs: tuple[int, int | None] = (1, None),
    summary: str | None = None,
    replace: bool = False,
) -> Callable[[BuildFn], BuildFn]:
    """Decorator registering ``build(inputs, params)`` as the transformer ``name``.

    The summary defaults to the first line of the function's docstring.
    """

    def deco(fn: BuildFn) -> BuildFn:
        doc = (fn.__doc__ or "").strip().splitlines()
        register_transformer(
            Transformer(
                name,
                fn,
                tuple(params),
                inputs,
                source,
                summary if summary is not None else (doc[0] if doc else ""),
            ),
            replace=replace,
        )
        return fn

    return deco


#: Algorithm modules that failed to import, with the error (reported by
#: :func:`get_transformer` when a name is not found).
PLUGIN_ERRORS: dict[str, str] = {}


def load_plugins() -> None:
    """Import every module of this package once (they register their transformers).

    A module that fails to import does not prevent the others from registering;
    its error is kept in :data:`PLUGIN_ERRORS`.
    """
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_"):
            try:
                importlib.import_module(f"{__name__}.{info.name}")
            except Exception as err:  # a broken algorithm module must not hide the others
                PLUGIN_ERRORS[info.name] = f"{type(err).__name__}: {err}"


def get_transformer(name: str) -> Transformer:
    """The transformer registered as ``name`` (loading the algorithm modules of this
    package if needed); :class:`~verifier.errors.InvalidParameter` if unknown."""
    if name not in TRANSFORMERS:
        load_plugins()
    try:
        return TRANSFORMERS[name]
    except KeyError:
        known = ", ".join(sorted(TRANSFORMERS))
        broken = "".join(
            f"; module {mod!r} failed to import ({msg})" for mod, msg in PLUGIN_ERRORS.items()
        )
        raise InvalidParameter(f"unknown algorithm {name!r} (known: {known}){broken}") from None


# ---------------------------------------------------------------------------
# generic transformers
# ---------------------------------------------------------------------------


def output_score(o: Output) -> Any:
    """The numeric score of an output: the output itself when it is a number (an
    int, a rational, or a string such as ``"3"`` or ``"-1/2"``), or the score of the
    first component of a tuple ``(score, ...)``.

    >>> output_score((3, "a")), output_score("1/2"), output_score(-2)
    (3, Fraction(1, 2), -2)
    """
    if isinstance(o, tuple):
        if not o:
            raise InvalidParameter("the empty tuple has no score")
        return output_score(o[0])
    if isinstance(o, bool):
        raise InvalidParameter(f"output {o!r} has no numeric score")
    if isinstance(o, (int, Fraction)):
        return o
    if isinstance(o, sp.Rational):
        return Fraction(int(o.p), int(o.q))
    if isinstance(o, str):
        try:
            return Fraction(o.strip())
        except (ValueError, ZeroDivisionError):
            pass
    raise InvalidParameter(
        f"output {o!r} has no numeric score (best_of needs numbers or (score, ...) tuples)"
    )


@transformer(
    "independent",
    source="composition of independent runs (verifier.compose.independent)",
    inputs=(1, None),
)
def _independent(inputs: list[FiniteMechanism], params: dict[str, Any]) -> FiniteMechanism:
    """Independent runs of the inputs on the same dataset; outputs are tuples."""
    return independent(*inputs)


@transformer(
    "repeat",
    source="composition of independent runs (verifier.compose.repeat)",
    params=[Param("n", positive_int, "number of independent runs")],
    inputs=(1, 1),
)
def _repeat(inputs: list[FiniteMechanism], params: dict[str, Any]) -> FiniteMechanism:
    """n independent runs of one mechanism; outputs are n-tuples."""
    return repeat(inputs[0], params["n"])


_TIES = choice("highest_index", "lowest_index")
_REPORT = choice("output", "index")


@transformer(
    "best_of",
    source='Liu & Talwar 2019, "Private selection from private candidates", §3 (best of K)',
    params=[
        Param(
            "k",
            positive_int,
            "number of runs when a single input is given (default: one run per input)",
            None,
        ),
        Param(
            "ties",
            _TIES,
            "which run wins among equal scores: 'highest_index' (the later run) or 'lowest_index'",
            "highest_index",
        ),
        Param(
            "report",
            _REPORT,
            "'output': release the best output; 'index': release the index (0-based) "
            "of the winning run",
            "output",
        ),
    ],
)
def _best_of(inputs: list[FiniteMechanism], params: dict[str, Any]) -> FiniteMechanism:
    """Independent runs, then the output with the highest numeric score."""
    k = params["k"]
    if k is not None:
        if len(inputs) != 1:
            raise InvalidParameter(
                f"best_of: k = {k} repeats a single input, but {len(inputs)} inputs are given"
            )
        runs = inputs * k
    else:
        runs = list(inputs)
    return best_of(runs, ties=params["ties"], report=params["report"])


def best_of(
    runs: Sequence[FiniteMechanism], *, ties: str = "highest_index", report: str = "output"
) -> FiniteMechanism:
    """Exact distribution of the best of independent runs (closed form, O(K·m)).

    With ``ties="highest_index"`` run ``i`` wins with output ``o`` of score ``s``
    iff every earlier run scores ``<= s`` and every later run scores ``< s``:

        ``P(winner = (i, o)) = P_i(o) · Π_{j<i} P_j(score <= s) · Π_{j>i} P_j(score < s)``

    (``lowest_index`` swaps the strict and non-strict inequalities).  This is the
    argmax of :func:`verifier.compose.best_index` applied to
    :func:`verifier.compose.independent`, without enumerating the ``m^K`` tuples.
    """
    graph = same_neighbour_graph(runs)
    scores: list[dict[Output, Any]] = [{o: output_score(o) for o in m.outputs} for m in runs]
    if report == "output":
        order: list[Output] = []
        seen: set[Output] = set()
        for m in runs:
            for o in m.outputs:
                if o not in seen:
                    seen.add(o)
                    order.append(o)
        first = {o: i for i, o in enumerate(order)}
        all_scores = {o: s for sc in scores for o, s in sc.items()}
        order.sort(key=lambda o: (all_scores[o], first[o]))
        outputs: list[Output] = order
    else:
        outputs = list(range(len(runs)))
    later_strict = ties == "highest_index"
    dists: dict[Any, dict[Output, sp.Expr]] = {}
    for d in graph.nodes:
        row: dict[Output, sp.Expr] = {}
        supp = [
            [(o, m.prob(d, o), scores[j][o]) for o in m.outputs if m.prob(d, o) != 0]
            for j, m in enumerate(runs)
        ]
        for i, run in enumerate(supp):
            for o, pr, s in run:
                term = pr
                for j, other in enumerate(supp):
                    if j == i:
                        continue
                    strict = (j > i) == later_strict
                    mass = [q for _, q, t in other if (t < s if strict else t <= s)]
                    # every outcome of run j counts: its total mass, exactly 1 (the
                    # inputs are validated distributions) -- not a complement.
                    term = term * (sp.Integer(1) if len(mass) == len(other) else sp.Add(*mass))
                    if term == 0:
                        break
                if term != 0:
                    key = o if report == "output" else i
                    row[key] = row.get(key, sp.Integer(0)) + term
        dists[d] = row
    values: dict[sp.Symbol, sp.Expr] = {}
    for m in runs:
        values.update(m.values)
    return FiniteMechanism(graph, dists, outputs, values=values, validate=False)
