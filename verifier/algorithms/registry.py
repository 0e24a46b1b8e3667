"""The transformer registry: parameter schemas, parsers and :data:`TRANSFORMERS`.

A *transformer* is an algorithm described as data: a name, the paper it comes from,
a parameter schema, and a function that computes the **exact** output distribution
of the algorithm run on its input mechanisms (from a closed form, never by
simulation).  Each algorithm module registers its transformers where it defines
them, with the :func:`transformer` decorator; :mod:`verifier.algorithms` imports
every algorithm module, so :data:`TRANSFORMERS` is complete once that package is
imported.  This module imports no algorithm module.

A parameter's parser receives the raw value (a TOML/JSON value or a Python object)
and the symbol values of the spec file, and returns the validated value or raises a
:class:`~verifier.errors.VerifierError` subclass; the registry adds the parameter's
location to the message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp

from ..arithmetic.exact import Sign, decide_sign, exact
from ..arithmetic.expressions import parse_number
from ..errors import InvalidParameter, VerifierError
from ..mechanism.model import FiniteMechanism

__all__ = [
    "TRANSFORMERS",
    "Transformer",
    "Param",
    "REQUIRED",
    "register_transformer",
    "transformer",
    "get_transformer",
    "positive_int",
    "exact_number",
    "probability",
    "boolean",
    "choice",
    "Values",
    "ParamParser",
    "BuildFn",
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


def exact_number(raw: Any, values: Values) -> sp.Expr:
    """An exact number: an int, a sympy expression, or text parsed safely by
    :func:`verifier.arithmetic.expressions.parse_number` (symbols take their values)."""
    if isinstance(raw, str):
        return parse_number(raw, values)
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
    """One parameter of a transformer: its name, parser, description, default and
    (optionally) the JSON Schema of its value in spec files (:mod:`verifier.spec.schema`)."""

    name: str
    parse: ParamParser
    doc: str = ""
    default: Any = REQUIRED
    schema: Mapping[str, Any] | None = None

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


def get_transformer(name: str) -> Transformer:
    """The transformer registered as ``name``; :class:`~verifier.errors.InvalidParameter`
    (listing the known names) if there is none."""
    try:
        return TRANSFORMERS[name]
    except KeyError:
        known = ", ".join(sorted(TRANSFORMERS))
        raise InvalidParameter(f"unknown algorithm {name!r} (known: {known})") from None
