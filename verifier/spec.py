"""Spec files: mechanisms and privacy claims described in TOML or JSON.

A spec file describes symbols, neighbour graphs, finite mechanisms (given by their
distributions, or derived by an algorithm from other mechanisms) and claims about
them; :func:`load_spec` reads one, validating everything, and
:meth:`SpecClaim.run` decides a claim exactly with :mod:`verifier.privacy`.  The
format is documented in ``docs/spec-format.md``; in short::

    version = 1
    [symbols]
    eps = "1/2"

    [graphs.g]
    kind = "pair"
    datasets = ["D", "D'"]

    [mechanisms.rr]
    graph = "g"
    outputs = ["0", "1"]
    distributions.D = { "1" = "exp(eps)/(1+exp(eps))", "0" = "1/(1+exp(eps))" }
    distributions."D'" = { "1" = "1/(1+exp(eps))", "0" = "exp(eps)/(1+exp(eps))" }

    [[claims]]
    id = "rr-is-eps-dp"
    mechanism = "rr"
    kind = "pure_dp"
    epsilon = "eps"

Reading is strict: unknown keys are errors, numbers are exact (strings parsed by the
whitelisting parser of :mod:`verifier.expressions`, or integers; floats are
refused), and every problem raises a :class:`~verifier.errors.VerifierError`
subclass whose message starts with the location in the file, e.g.
``mechanisms.rr.distributions.D: the distribution at dataset 'D' sums to 9/10, not 1``.

:func:`spec_to_toml` / :func:`dump_spec` write the reverse: a self-contained spec of
one or more :class:`~verifier.mechanism.FiniteMechanism` objects and claims on them
(exact values printed in the syntax the parser reads back), which is what
certificates of counterexamples are.

>>> spec = loads_spec('''
... [symbols]
... eps = "1/2"
... [graphs.g]
... kind = "pair"
... [mechanisms.rr]
... graph = "g"
... outputs = [0, 1]
... distributions.D = { "1" = "exp(eps)/(1+exp(eps))", "0" = "1/(1+exp(eps))" }
... distributions."D'" = { "1" = "1/(1+exp(eps))", "0" = "exp(eps)/(1+exp(eps))" }
... [[claims]]
... id = "rr"
... mechanism = "rr"
... kind = "pure_dp"
... epsilon = "eps"
... ''')
>>> result = spec.claims[0].run()
>>> result.verdict.value, result.tight
('holds', True)
"""

from __future__ import annotations

import difflib
import json
import math
import os
import re
import tempfile
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeAlias

import networkx as nx
import sympy as sp
from sympy.printing.str import StrPrinter

from . import neighbours
from .arithmetic import (
    DEFAULT_PRECISION,
    Precision,
    Sign,
    Verdict,
    decide_le,
    decide_sign,
    exact,
)
from .errors import (
    InvalidMechanism,
    InvalidParameter,
    SpecError,
    UnboundSymbol,
    VerifierError,
)
from .mechanism import Dataset, FiniteMechanism, Output
from .privacy import (
    ParameterRange,
    check_alpha,
    check_approx_dp,
    check_delta,
    check_epsilon,
    check_ex_post,
    check_ex_post_approx,
    check_ex_post_rdp,
    check_lemma7,
    check_pure_dp,
    check_rdp,
)
from .results import CheckResult

__all__ = [
    "atomic_write",
    "SPEC_VERSION",
    "CLAIM_KINDS",
    "GRAPH_KINDS",
    "Spec",
    "SpecClaim",
    "load_spec",
    "loads_spec",
    "spec_document",
    "spec_to_toml",
    "spec_to_json",
    "dump_spec",
    "certificate",
    "output_label",
    "dataset_label",
    "expression_text",
    "precision_for",
]

#: The version of the format this module reads and writes.
SPEC_VERSION = 1

#: Claim kinds and the parameters each needs (all required).
CLAIM_KINDS: dict[str, tuple[str, ...]] = {
    "pure_dp": ("epsilon",),
    "ex_post": ("eps_tilde",),
    "approx_dp": ("epsilon", "delta"),
    "ex_post_approx": ("eps_tilde", "delta"),
    "rdp": ("alpha", "epsilon"),
    "ex_post_rdp": ("eps_tilde", "alpha"),
    "lemma7": ("eps_tilde", "alpha", "delta"),
}

#: Kinds that may be decided for every value of a parameter (``over = {...}``).
RANGE_KINDS = frozenset({"pure_dp", "ex_post"})

#: Graph kinds and their keys (besides ``kind``): (required, optional).
GRAPH_KINDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "pair": ((), ("datasets",)),
    "edges": (("datasets", "edges"), ()),
    "path": (("n",), ()),
    "hamming_cube": (("n",), ()),
    "lumped_hamming_cube": (("n",), ()),
    "add_remove": (("universe",), ("max_size",)),
}

_TOP_KEYS = ("version", "title", "description", "symbols", "graphs", "mechanisms", "claims")
_SYMBOL_KEYS = ("value", "positive", "nonnegative", "real", "integer")
_BASE_MECH_KEYS = ("graph", "outputs", "distributions", "description")
_DERIVED_MECH_KEYS = ("algorithm", "inputs", "params", "description")
_CLAIM_COMMON = (
    "id",
    "mechanism",
    "kind",
    "statement",
    "source",
    "expected",
    "over",
    "distance",
    "pairs",
    "max_bits",
)
_OVER_KEYS = ("symbol", "lo", "hi")
_EXPECTED = ("holds", "refuted")
#: Key of an ``eps_tilde`` table giving the bound of every output not listed.
DEFAULT_KEY = "default"
#: Largest explicit graph a spec file may ask for.
MAX_DATASETS = 100_000
_MAX_LUMPED_N = 10_000


# ---------------------------------------------------------------------------
# labels and locations
# ---------------------------------------------------------------------------

_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _key(k: str) -> str:
    """A key as TOML writes it (bare when possible, else quoted)."""
    return k if _BARE.fullmatch(k) else _toml_string(k)


def _loc(base: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{base}[{key}]"
    return f"{base}.{_key(key)}" if base else _key(key)


def _located(err: VerifierError, where: str) -> VerifierError:
    """The same kind of error with ``where: `` in front of its message."""
    if not where:
        return err
    new = type(err)(f"{where}: {err}")
    return new


def output_label(o: Output) -> str:
    """The label of an output in spec files: ``str`` of numbers and strings,
    ``(a, b)`` for tuples, ``{a,b}`` for sets.

    >>> output_label(3), output_label("x"), output_label((1, "a")), output_label(frozenset("ba"))
    ('3', 'x', '(1, a)', '{a,b}')
    """
    if isinstance(o, tuple):
        return "(" + ", ".join(output_label(c) for c in o) + ")"
    if isinstance(o, (frozenset, set)):
        return "{" + ",".join(sorted(output_label(c) for c in o)) + "}"
    return str(o)


def dataset_label(d: Dataset) -> str:
    """The name of a dataset in spec files: strings as they are, ``"010"`` for a bit
    tuple (Hamming cube), ``{a,b}`` for a set (add/remove), ``str`` otherwise.

    >>> dataset_label((0, 1, 0)), dataset_label(frozenset({"b", "a"})), dataset_label(3)
    ('010', '{a,b}', '3')
    """
    if isinstance(d, str):
        return d
    if isinstance(d, tuple) and d and all(x in (0, 1) and isinstance(x, int) for x in d):
        return "".join(str(x) for x in d)
    return output_label(d)


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, float):
        return f"the float {value!r}"
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, str):
        return f"the string {value!r}"
    return type(value).__name__


# ---------------------------------------------------------------------------
# precision
# ---------------------------------------------------------------------------


def precision_for(max_bits: int | None) -> Precision:
    """The working precision for a limit of ``max_bits`` (default precision if None)."""
    if max_bits is None:
        return DEFAULT_PRECISION
    if isinstance(max_bits, bool) or not isinstance(max_bits, int):
        raise InvalidParameter(f"max_bits must be an integer, got {max_bits!r}")
    if max_bits < 16:
        raise InvalidParameter(f"max_bits must be at least 16, got {max_bits}")
    return Precision(start_bits=min(DEFAULT_PRECISION.start_bits, max_bits), max_bits=max_bits)


# ---------------------------------------------------------------------------
# claims
# ---------------------------------------------------------------------------

EpsTilde: TypeAlias = sp.Expr | dict[Output, sp.Expr]


def _nonnegative(value: sp.Expr, what: str, precision: Precision = DEFAULT_PRECISION) -> None:
    if value is sp.oo or value.free_symbols:
        if value.is_negative:
            raise InvalidParameter(f"{what} must be >= 0, got {value}")
        return
    if decide_sign(value, precision).sign is Sign.NEGATIVE:
        raise InvalidParameter(f"{what} must be >= 0, got {value}")


def _validate_param(name: str, value: sp.Expr, kind: str) -> sp.Expr:
    if name == "epsilon":
        if kind == "rdp":
            _nonnegative(value, "epsilon")
            return value
        return check_epsilon(value)
    if name == "alpha":
        return check_alpha(value)
    if name == "delta":
        d = check_delta(value)
        if kind == "lemma7" and d == 0:
            raise InvalidParameter("Lemma 7 (ii) needs delta > 0")
        return d
    raise InvalidParameter(f"unknown parameter {name!r}")


@dataclass
class SpecClaim:
    """A claim about one mechanism, as read from a spec file (or built in Python).

    Parameters
    ----------
    id : str
        Unique within its spec.
    kind : str
        One of :data:`CLAIM_KINDS`.
    mechanism : FiniteMechanism
        The mechanism the claim is about.
    epsilon, delta, alpha : sympy.Expr, optional
        The claim's parameters (those its kind needs; see :data:`CLAIM_KINDS`).
    eps_tilde : sympy.Expr, mapping or callable, optional
        An ex-post bound: one expression for every output, a mapping output →
        expression covering every output, or a function of the output (evaluated on
        every output at construction).
    over : ParameterRange, optional
        Decide a ``pure_dp`` / ``ex_post`` claim for every value of one free symbol.
    pairs : list of (dataset, dataset), optional
        The ordered pairs to check (default: both directions of every edge).
    distance : int, optional
        Check the ordered pairs at graph distance exactly ``distance`` (group
        privacy); exclusive with ``pairs``.
    expected : {"holds", "refuted"}, optional
        Informational: the outcome the author expects.
    max_bits : int, optional
        Precision limit of certified comparisons for this claim.
    """

    id: str
    kind: str
    mechanism: FiniteMechanism
    epsilon: sp.Expr | None = None
    eps_tilde: Any = None
    delta: sp.Expr | None = None
    alpha: sp.Expr | None = None
    over: ParameterRange | None = None
    pairs: list[tuple[Dataset, Dataset]] | None = None
    distance: int | None = None
    expected: str | None = None
    statement: str = ""
    source: str = ""
    max_bits: int | None = None
    mechanism_name: str = ""

    def __post_init__(self) -> None:
        if not self.mechanism_name:
            self.mechanism_name = self.mechanism.name
        if self.kind not in CLAIM_KINDS:
            raise SpecError(f"unknown claim kind {self.kind!r} (kinds: {', '.join(CLAIM_KINDS)})")
        needed = CLAIM_KINDS[self.kind]
        for name in ("epsilon", "eps_tilde", "delta", "alpha"):
            value = getattr(self, name)
            if name in needed and value is None:
                raise SpecError(f"a {self.kind} claim needs {name!r}")
            if name not in needed and value is not None:
                raise SpecError(
                    f"a {self.kind} claim takes no {name!r} (it takes {', '.join(needed)})"
                )
        for name in ("epsilon", "delta", "alpha"):
            value = getattr(self, name)
            if value is not None:
                setattr(self, name, _validate_param(name, exact(value), self.kind))
        if self.eps_tilde is not None:
            self.eps_tilde = self._normalise_eps_tilde(self.eps_tilde)
        if self.over is not None:
            if self.kind not in RANGE_KINDS:
                raise SpecError(
                    f"'over' (a parameter range) is supported for "
                    f"{' and '.join(sorted(RANGE_KINDS))} claims only, not {self.kind}"
                )
            self.over = ParameterRange.of(self.over)
        if self.expected is not None and self.expected not in _EXPECTED:
            raise SpecError(f"expected must be 'holds' or 'refuted', got {self.expected!r}")
        if self.pairs is not None and self.distance is not None:
            raise SpecError("give either 'pairs' or 'distance', not both")
        if self.distance is not None and (
            isinstance(self.distance, bool) or not isinstance(self.distance, int)
        ):
            raise InvalidParameter(f"distance must be a positive integer, got {self.distance!r}")
        if self.distance is not None and self.distance < 1:
            raise InvalidParameter(f"distance must be a positive integer, got {self.distance}")
        if self.pairs is not None:
            checked: list[tuple[Dataset, Dataset]] = []
            for raw in self.pairs:
                p = tuple(raw)
                if (
                    len(p) != 2
                    or p[0] not in self.mechanism.graph
                    or p[1] not in self.mechanism.graph
                ):
                    raise InvalidParameter(f"pair {raw!r} names a dataset the mechanism lacks")
                checked.append((p[0], p[1]))
            self.pairs = checked
        if self.max_bits is not None:
            precision_for(self.max_bits)
        self._check_symbols()

    def _normalise_eps_tilde(self, value: Any) -> EpsTilde:
        outputs = self.mechanism.outputs
        if isinstance(value, Mapping):
            missing = [o for o in outputs if o not in value]
            if missing:
                raise InvalidParameter(
                    f"eps_tilde gives no bound for output(s) "
                    f"{', '.join(output_label(o) for o in missing[:5])}"
                    + (" ..." if len(missing) > 5 else "")
                )
            extra = [o for o in value if o not in set(outputs)]
            if extra:
                raise InvalidParameter(
                    f"eps_tilde names output {output_label(extra[0])}, which the mechanism lacks"
                )
            table = {o: _bound_value(value[o], o) for o in outputs}
            return table
        if callable(value) and not isinstance(value, sp.Basic):
            return {o: _bound_value(value(o), o) for o in outputs}
        return _bound_value(value, None)

    def _check_symbols(self) -> None:
        allowed = {self.over.symbol} if self.over is not None else set()
        free = set(self.mechanism.free_symbols)
        for v in self._param_values():
            if v is not sp.oo:
                free |= v.free_symbols
        extra = free - allowed
        if extra:
            names = sorted(map(str, extra))
            hint = (
                "give them values in [symbols]"
                if self.over is not None or self.kind not in RANGE_KINDS
                else "give them values in [symbols], or decide the claim for every value of "
                "one symbol with over = { symbol = ..., lo = ..., hi = ... }"
            )
            raise UnboundSymbol(f"symbol(s) {', '.join(names)} have no value; {hint}")

    def _param_values(self) -> list[sp.Expr]:
        out = [v for v in (self.epsilon, self.delta, self.alpha) if v is not None]
        if isinstance(self.eps_tilde, dict):
            out.extend(self.eps_tilde.values())
        elif self.eps_tilde is not None:
            out.append(self.eps_tilde)
        return out

    # -- running ------------------------------------------------------------
    def pair_list(self) -> list[tuple[Dataset, Dataset]] | None:
        """The ordered pairs checked (``None``: both directions of every edge)."""
        if self.pairs is not None:
            return list(self.pairs)
        if self.distance is not None:
            return list(neighbours.pairs_at_distance(self.mechanism.graph, self.distance))
        return None

    def describe(self) -> str:
        """A one-line statement of the claim."""
        m = self.mechanism_name
        k = self.kind
        if k == "pure_dp":
            text = f"{m} is {self.epsilon}-DP"
        elif k == "ex_post":
            text = f"{m} is ex-post eps~-DP"
        elif k == "approx_dp":
            text = f"{m} is ({self.epsilon}, {self.delta})-DP"
        elif k == "ex_post_approx":
            text = f"{m} is ex-post (eps~, {self.delta})-DP"
        elif k == "rdp":
            text = f"{m} is ({self.alpha}, {self.epsilon})-RDP"
        elif k == "ex_post_rdp":
            text = f"{m} is ex-post ({self.alpha}, eps~)-RDP"
        else:
            text = f"Lemma 7 on {m} (alpha = {self.alpha}, delta = {self.delta})"
        if self.distance is not None:
            text += f" for datasets at distance {self.distance}"
        elif self.pairs is not None:
            text += f" on {len(self.pairs)} given pair(s)"
        if self.over is not None:
            text += f" for every {self.over}"
        return text

    def run(self, precision: Precision | None = None) -> CheckResult:
        """Decide the claim (exactly, or with certified enclosures up to the
        precision limit: ``precision``, else the claim's ``max_bits``, else the
        default)."""
        prec = precision or precision_for(self.max_bits)
        try:
            return self._run(prec)
        except VerifierError as err:
            raise _located(err, f"claim {self.id!r}") from None

    def _eps_tilde_arg(self) -> Any:
        e = self.eps_tilde
        return dict(e) if isinstance(e, dict) else e

    def _run(self, prec: Precision) -> CheckResult:
        m, k = self.mechanism, self.kind
        pairs = self.pair_list()
        title = f"{self.id}: {self.describe()}"
        if k == "pure_dp":
            return check_pure_dp(
                m, self.epsilon, pairs=pairs, over=self.over, precision=prec, title=title
            )
        if k == "ex_post":
            return check_ex_post(
                m, self._eps_tilde_arg(), pairs=pairs, over=self.over, precision=prec, title=title
            )
        if k == "approx_dp":
            return check_approx_dp(
                m, self.epsilon, self.delta, pairs=pairs, precision=prec, title=title
            )
        if k == "ex_post_approx":
            return check_ex_post_approx(
                m, self._eps_tilde_arg(), self.delta, pairs=pairs, precision=prec, title=title
            )
        if k == "rdp":
            return check_rdp(m, self.alpha, self.epsilon, pairs=pairs, precision=prec, title=title)
        if k == "ex_post_rdp":
            return check_ex_post_rdp(
                m, self._eps_tilde_arg(), self.alpha, pairs=pairs, precision=prec, title=title
            )
        result = check_lemma7(
            m, self._eps_tilde_arg(), self.alpha, self.delta, pairs=pairs, precision=prec
        )
        result.title = title
        return result


def _bound_value(value: Any, o: Output | None) -> sp.Expr:
    v = exact(value)
    where = "eps_tilde" if o is None else f"eps_tilde for output {output_label(o)}"
    _nonnegative(v, where)
    return v


# ---------------------------------------------------------------------------
# the spec
# ---------------------------------------------------------------------------


@dataclass
class Spec:
    """A loaded spec file: symbols, graphs, mechanisms and claims."""

    symbols: dict[str, sp.Symbol] = field(default_factory=dict)
    values: dict[sp.Symbol, sp.Expr] = field(default_factory=dict)
    graphs: dict[str, nx.Graph] = field(default_factory=dict)
    mechanisms: dict[str, FiniteMechanism] = field(default_factory=dict)
    claims: list[SpecClaim] = field(default_factory=list)
    title: str = ""
    description: str = ""
    source: str = "<string>"

    def claim(self, claim_id: str) -> SpecClaim:
        """The claim with id ``claim_id``."""
        for c in self.claims:
            if c.id == claim_id:
                return c
        raise SpecError(f"{self.source}: no claim with id {claim_id!r}")

    def run(self, precision: Precision | None = None) -> list[tuple[SpecClaim, CheckResult]]:
        """Decide every claim, in file order."""
        return [(c, c.run(precision)) for c in self.claims]


# ---------------------------------------------------------------------------
# reading
# ---------------------------------------------------------------------------


def load_spec(path: str | os.PathLike[str]) -> Spec:
    """Read a spec file (``.json`` as JSON, anything else as TOML).

    Raises a :class:`~verifier.errors.VerifierError` subclass whose message starts
    with the file name and the location of the problem in the file.
    """
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise SpecError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise SpecError(f"{p}: is a directory, not a spec file") from None
    except OSError as err:
        raise SpecError(f"{p}: cannot read: {err.strerror or err}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise SpecError(f"{p}: not UTF-8 text (byte {err.start})") from None
    fmt = "json" if p.suffix.lower() == ".json" else "toml"
    try:
        return loads_spec(text, fmt, source=str(p))
    except VerifierError as err:
        raise _located(err, str(p)) from None


def loads_spec(text: str, fmt: str = "toml", *, source: str = "<string>") -> Spec:
    """Read a spec from ``text`` in ``fmt`` (``"toml"`` or ``"json"``).

    Error messages start with the location in the document (not with ``source``,
    which only names the spec).
    """
    doc = _decode(text, fmt)
    return _Loader(doc, source).load()


def _reject_constant(name: str) -> Any:
    raise SpecError(f"invalid JSON: {name} is not a number")


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise SpecError(f"invalid JSON: key {k!r} appears twice in one object")
        out[k] = v
    return out


def _decode(text: str, fmt: str) -> dict[str, Any]:
    if not isinstance(text, str):
        raise SpecError(f"a spec must be text, got {type(text).__name__}")
    if fmt == "toml":
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            raise SpecError(f"invalid TOML: {err}") from None
        except RecursionError:
            raise SpecError("invalid TOML: nested too deeply") from None
        except ValueError as err:  # e.g. an integer literal beyond Python's digit limit
            raise SpecError(f"invalid TOML: {err}") from None
        return doc
    if fmt == "json":
        try:
            doc = json.loads(text, object_pairs_hook=_json_object, parse_constant=_reject_constant)
        except json.JSONDecodeError as err:
            raise SpecError(f"invalid JSON: {err}") from None
        except RecursionError:
            raise SpecError("invalid JSON: nested too deeply") from None
        except ValueError as err:  # e.g. an integer literal beyond Python's digit limit
            raise SpecError(f"invalid JSON: {err}") from None
        if not isinstance(doc, dict):
            raise SpecError(f"invalid spec: the JSON document is {_describe(doc)}, not an object")
        return doc
    raise SpecError(f"unknown spec format {fmt!r} (use 'toml' or 'json')")


def _check_keys(
    table: Mapping[str, Any],
    where: str,
    allowed: Sequence[str],
    required: Sequence[str] = (),
    what: str = "",
) -> None:
    for k in table:
        if k not in allowed:
            close = difflib.get_close_matches(k, allowed, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            listed = ", ".join(allowed)
            raise SpecError(
                f"{_loc(where, k)}: unknown key{' in ' + what if what else ''} "
                f"(allowed: {listed}){hint}"
            )
    for k in required:
        if k not in table:
            raise SpecError(f"{where}: missing required key {k!r}")


def _table(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise SpecError(f"{where}: expected a table, got {_describe(value)}")
    return value


def _array(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise SpecError(f"{where}: expected an array, got {_describe(value)}")
    return value


def _string(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise SpecError(f"{where}: expected a string, got {_describe(value)}")
    return value


def _int(value: Any, where: str, *, lo: int = 1, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SpecError(f"{where}: expected an integer, got {_describe(value)}")
    if value < lo:
        raise InvalidParameter(f"{where}: must be an integer >= {lo}, got {value}")
    if hi is not None and value > hi:
        raise InvalidParameter(f"{where}: {value} exceeds the limit of {hi}")
    return value


def _name(value: Any, where: str) -> str:
    """A dataset or output name: a string (an integer is taken as its decimal text)."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise SpecError(f"{where}: expected a name (a string), got {_describe(value)}")
    return str(value)


def _output_value(value: Any, where: str, depth: int = 0) -> Output:
    if isinstance(value, bool):
        raise SpecError(
            f"{where}: an output must be a string, an integer or an array, got {_describe(value)}"
        )
    if isinstance(value, (str, int)):
        return value
    if isinstance(value, list) and depth < 4:
        if not value:
            raise SpecError(f"{where}: an output cannot be an empty array")
        return tuple(_output_value(v, _loc(where, i), depth + 1) for i, v in enumerate(value))
    raise SpecError(
        f"{where}: an output must be a string, an integer or an array, got {_describe(value)}"
    )


class _Loader:
    """One pass over a decoded document."""

    def __init__(self, doc: dict[str, Any], source: str) -> None:
        self.doc = doc
        self.source = source
        self.symbols: dict[str, sp.Symbol] = {}
        self.values: dict[sp.Symbol, sp.Expr] = {}
        self.values_by_name: dict[str, sp.Expr] = {}
        self.graphs: dict[str, nx.Graph] = {}
        self.mechanisms: dict[str, FiniteMechanism] = {}
        self._building: list[str] = []

    # -- numbers --------------------------------------------------------------
    def parse(self, raw: Any, where: str, what: str, *, substitute: bool = False) -> sp.Expr:
        """An exact expression from a string or an int; symbols stay symbols, or with
        ``substitute`` are replaced by their values *during* parsing, so that the
        parser's size limits apply to the values too (``2^n`` with ``n = 10^9`` is
        refused instead of computed)."""
        from .expressions import parse_expression

        if isinstance(raw, bool) or not isinstance(raw, (str, int)):
            raise SpecError(
                f'{where}: expected a number written as a string (e.g. "1/2") or an '
                f"integer, got {_describe(raw)}"
            )
        if isinstance(raw, int):
            return sp.Integer(raw)
        names: Mapping[str, sp.Expr] = (
            {**self.symbols, **self.values_by_name} if substitute else self.symbols
        )
        try:
            value = parse_expression(raw, names, what=what)
        except VerifierError as err:
            raise _located(err, where) from None
        try:
            return exact(value)
        except VerifierError as err:
            raise _located(err, where) from None

    def number(self, raw: Any, where: str, what: str, allow: Iterable[sp.Symbol] = ()) -> sp.Expr:
        """An exact value: symbols are replaced by their values; symbols without one
        (other than ``allow``) raise :class:`UnboundSymbol`."""
        value = self.parse(raw, where, what, substitute=True)
        free = value.free_symbols - set(allow)
        if free:
            names = ", ".join(sorted(map(str, free)))
            raise UnboundSymbol(
                f"{where}: symbol(s) {names} have no value; a number is needed here "
                f"(give values in [symbols])"
            )
        return value

    # -- top level ------------------------------------------------------------
    def load(self) -> Spec:
        doc = self.doc
        _check_keys(doc, "", _TOP_KEYS, what="the top level")
        if "version" in doc:
            v = doc["version"]
            if type(v) is not int or v != SPEC_VERSION:
                raise SpecError(
                    f"version: this verifier reads spec version {SPEC_VERSION}, got {v!r}"
                )
        title = _string(doc.get("title", ""), "title")
        description = _string(doc.get("description", ""), "description")
        self._load_symbols(_table(doc.get("symbols", {}), "symbols"))
        for name, g in _table(doc.get("graphs", {}), "graphs").items():
            self.graphs[name] = self._graph(g, _loc("graphs", name))
        self.mech_tables = _table(doc.get("mechanisms", {}), "mechanisms")
        for name in self.mech_tables:
            self._mechanism(name)
        claims = self._load_claims(_array(doc.get("claims", []), "claims"))
        return Spec(
            symbols=dict(self.symbols),
            values=dict(self.values),
            graphs=self.graphs,
            mechanisms=self.mechanisms,
            claims=claims,
            title=title,
            description=description,
            source=self.source,
        )

    # -- symbols --------------------------------------------------------------
    def _load_symbols(self, table: dict[str, Any]) -> None:
        from .expressions import validate_symbol_name

        for name, entry in table.items():
            where = _loc("symbols", name)
            try:
                validate_symbol_name(name)
            except VerifierError as err:
                raise _located(err, where) from None
            raw_value: Any = None
            assumptions: dict[str, bool] = {}
            if isinstance(entry, dict):
                _check_keys(entry, where, _SYMBOL_KEYS, what="a symbol")
                for k in _SYMBOL_KEYS[1:]:
                    if k in entry:
                        if not isinstance(entry[k], bool):
                            raise SpecError(
                                f"{_loc(where, k)}: expected true or false, got "
                                f"{_describe(entry[k])}"
                            )
                        if entry[k]:
                            assumptions[k] = True
                        elif k == "real":
                            raise SpecError(f"{_loc(where, k)}: symbols are always real")
                raw_value = entry.get("value")
            else:
                raw_value = entry
            if not assumptions.get("positive") and not assumptions.get("nonnegative"):
                assumptions.setdefault("real", True)
            sym = sp.Symbol(name, **assumptions)
            if raw_value is not None:
                value = self.number(
                    raw_value,
                    where if not isinstance(entry, dict) else _loc(where, "value"),
                    f"value of {name}",
                )
                self._check_assumptions(sym, value, where)
                self.values[sym] = value
                self.values_by_name[name] = value
            self.symbols[name] = sym

    @staticmethod
    def _check_assumptions(sym: sp.Symbol, value: sp.Expr, where: str) -> None:
        if sym.is_integer and not value.is_Integer:
            raise InvalidParameter(f"{where}: symbol {sym} is declared integer, got {value}")
        if sym.is_positive or sym.is_nonnegative:
            s = decide_sign(value).sign
            if s is Sign.NEGATIVE or (sym.is_positive and s is Sign.ZERO):
                want = "positive" if sym.is_positive else "nonnegative"
                raise InvalidParameter(f"{where}: symbol {sym} is declared {want}, got {value}")

    # -- graphs ---------------------------------------------------------------
    def _graph(self, g: Any, where: str) -> nx.Graph:
        g = _table(g, where)
        if "kind" not in g:
            raise SpecError(
                f"{where}: missing required key 'kind' (one of {', '.join(GRAPH_KINDS)})"
            )
        kind = _string(g["kind"], _loc(where, "kind"))
        if kind not in GRAPH_KINDS:
            close = difflib.get_close_matches(kind, GRAPH_KINDS, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise SpecError(
                f"{_loc(where, 'kind')}: unknown graph kind {kind!r} "
                f"(kinds: {', '.join(GRAPH_KINDS)}){hint}"
            )
        required, optional = GRAPH_KINDS[kind]
        _check_keys(g, where, ("kind", *required, *optional), required, what=f"a {kind} graph")
        try:
            return self._build_graph(kind, g, where)
        except VerifierError as err:
            if str(err).startswith(where):
                raise
            raise _located(err, where) from None

    def _datasets(self, raw: Any, where: str) -> list[str]:
        names = [_name(x, _loc(where, i)) for i, x in enumerate(_array(raw, where))]
        seen: set[str] = set()
        for i, n in enumerate(names):
            if n in seen:
                raise InvalidMechanism(f"{_loc(where, i)}: dataset {n!r} is listed twice")
            seen.add(n)
        if not names:
            raise InvalidMechanism(f"{where}: no datasets")
        if len(names) > MAX_DATASETS:
            raise InvalidParameter(f"{where}: more than {MAX_DATASETS} datasets")
        return names

    def _build_graph(self, kind: str, g: dict[str, Any], where: str) -> nx.Graph:
        if kind == "pair":
            names = self._datasets(g.get("datasets", ["D", "D'"]), _loc(where, "datasets"))
            if len(names) != 2:
                raise InvalidMechanism(
                    f"{_loc(where, 'datasets')}: a pair has 2 datasets, got {len(names)}"
                )
            return neighbours.pair(names[0], names[1])
        if kind == "edges":
            names = self._datasets(g["datasets"], _loc(where, "datasets"))
            graph = nx.Graph()
            graph.add_nodes_from(names)
            known = set(names)
            ewhere = _loc(where, "edges")
            for i, e in enumerate(_array(g["edges"], ewhere)):
                ew = _loc(ewhere, i)
                e = _array(e, ew)
                if len(e) != 2:
                    raise SpecError(f"{ew}: an edge is a pair [a, b], got {len(e)} entries")
                a, b = _name(e[0], _loc(ew, 0)), _name(e[1], _loc(ew, 1))
                for j, x in ((0, a), (1, b)):
                    if x not in known:
                        raise InvalidMechanism(
                            f"{_loc(ew, j)}: edge to unknown dataset {x!r} "
                            f"(datasets: {_preview(names)})"
                        )
                if a == b:
                    raise InvalidMechanism(f"{ew}: dataset {a!r} cannot be its own neighbour")
                graph.add_edge(a, b)
            return graph
        if kind == "path":
            n = _int(g["n"], _loc(where, "n"), hi=MAX_DATASETS - 1)
            return nx.relabel_nodes(neighbours.path(n), {i: str(i) for i in range(n + 1)})
        if kind == "hamming_cube":
            n = _int(g["n"], _loc(where, "n"), hi=int(math.log2(MAX_DATASETS)))
            cube = neighbours.hamming_cube(n)
            return nx.relabel_nodes(cube, {x: dataset_label(x) for x in cube.nodes})
        if kind == "lumped_hamming_cube":
            n = _int(g["n"], _loc(where, "n"), hi=_MAX_LUMPED_N)
            return nx.relabel_nodes(
                neighbours.lumped_hamming_cube(n), {i: str(i) for i in range(n + 1)}
            )
        # add_remove
        uwhere = _loc(where, "universe")
        universe = self._datasets(g["universe"], uwhere)
        max_size = None
        if "max_size" in g:
            max_size = _int(g["max_size"], _loc(where, "max_size"), lo=0)
        top = len(universe) if max_size is None else min(max_size, len(universe))
        count = 0
        for k in range(top + 1):  # stop as soon as the limit is passed
            count += math.comb(len(universe), k)
            if count > MAX_DATASETS:
                raise InvalidParameter(
                    f"{where}: more than {MAX_DATASETS} datasets (subsets of {len(universe)} "
                    f"records{'' if max_size is None else f' of size <= {max_size}'}); "
                    f"set or lower max_size"
                )
        graph = neighbours.add_remove(universe, max_size)
        mapping = {s: dataset_label(s) for s in graph.nodes}
        if len(set(mapping.values())) != len(mapping):
            raise InvalidMechanism(
                f"{uwhere}: record names must not contain ',', '{{' or '}}' (dataset names "
                f"would be ambiguous)"
            )
        return nx.relabel_nodes(graph, mapping)

    # -- mechanisms -----------------------------------------------------------
    def _mechanism(self, name: str) -> FiniteMechanism:
        if name in self.mechanisms:
            return self.mechanisms[name]
        where = _loc("mechanisms", name)
        if name in self._building:
            cycle = " -> ".join([*self._building[self._building.index(name) :], name])
            raise SpecError(f"{where}: mechanisms are defined in a cycle ({cycle})")
        table = _table(self.mech_tables[name], where)
        self._building.append(name)
        try:
            if "algorithm" in table:
                for k in _BASE_MECH_KEYS:
                    if k in table and k != "description":
                        raise SpecError(
                            f"{_loc(where, k)}: a derived mechanism (one with 'algorithm') takes "
                            f"no {k!r}; its distributions come from the algorithm"
                        )
                _check_keys(
                    table,
                    where,
                    _DERIVED_MECH_KEYS,
                    ("algorithm", "inputs"),
                    what="a derived mechanism",
                )
                mech = self._derived(name, table, where)
            else:
                _check_keys(
                    table,
                    where,
                    _BASE_MECH_KEYS,
                    ("graph", "outputs", "distributions"),
                    what="a mechanism",
                )
                mech = self._base(name, table, where)
        finally:
            self._building.pop()
        if "description" in table:
            _string(table["description"], _loc(where, "description"))
        self.mechanisms[name] = mech
        return mech

    def _graph_ref(self, raw: Any, where: str) -> nx.Graph:
        if isinstance(raw, dict):
            return self._graph(raw, where)
        ref = _string(raw, where)
        if ref not in self.graphs:
            raise SpecError(
                f"{where}: unknown graph {ref!r} (graphs: {_preview(list(self.graphs)) or 'none'})"
            )
        return self.graphs[ref]

    def _base(self, name: str, table: dict[str, Any], where: str) -> FiniteMechanism:
        graph = self._graph_ref(table["graph"], _loc(where, "graph"))
        owhere = _loc(where, "outputs")
        raw_outputs = _array(table["outputs"], owhere)
        if not raw_outputs:
            raise InvalidMechanism(f"{owhere}: no outputs")
        outputs = [_output_value(x, _loc(owhere, i)) for i, x in enumerate(raw_outputs)]
        by_label: dict[str, Output] = {}
        for i, o in enumerate(outputs):
            lab = output_label(o)
            if lab in by_label:
                raise InvalidMechanism(
                    f"{_loc(owhere, i)}: output {lab!r} appears twice in the output order"
                )
            by_label[lab] = o
        dwhere = _loc(where, "distributions")
        dists_raw = _table(table["distributions"], dwhere)
        used: set[sp.Symbol] = set()
        dists: dict[Dataset, dict[Output, sp.Expr]] = {}
        for d, row_raw in dists_raw.items():
            rwhere = _loc(dwhere, d)
            if d not in graph:
                raise InvalidMechanism(
                    f"{rwhere}: dataset {d!r} is not in the mechanism's graph "
                    f"(datasets: {_preview([str(x) for x in graph.nodes])})"
                )
            row: dict[Output, sp.Expr] = {}
            if isinstance(row_raw, list):
                if len(row_raw) != len(outputs):
                    raise InvalidMechanism(
                        f"{rwhere}: {len(row_raw)} probabilities for {len(outputs)} outputs"
                    )
                for o, pr in zip(outputs, row_raw, strict=True):
                    value = self.parse(pr, _loc(rwhere, output_label(o)), "probability")
                    if value != 0:
                        row[o] = value
            elif isinstance(row_raw, dict):
                for lab, pr in row_raw.items():
                    pwhere = _loc(rwhere, lab)
                    if lab not in by_label:
                        raise InvalidMechanism(
                            f"{pwhere}: output {lab!r} is missing from the output order "
                            f"(outputs: {_preview(list(by_label))})"
                        )
                    value = self.parse(pr, pwhere, "probability")
                    if value != 0:
                        row[by_label[lab]] = value
            else:
                raise SpecError(
                    f"{rwhere}: expected a table output -> probability (or an array in the "
                    f"order of 'outputs'), got {_describe(row_raw)}"
                )
            for value in row.values():
                used |= value.free_symbols
            unknown = {s for v in row.values() for s in v.free_symbols} - set(self.symbols.values())
            if unknown:  # pragma: no cover - the parser only yields declared symbols
                raise SpecError(f"{rwhere}: unknown symbol(s) {sorted(map(str, unknown))}")
            values = {s: v for s, v in self.values.items() if s in used}
            # Validate one dataset at a time so that errors name the dataset's entry.
            single = nx.Graph()
            single.add_node(d)
            try:
                FiniteMechanism(single, {d: row}, outputs, values=values, name=name)
            except VerifierError as err:
                raise _located(err, rwhere) from None
            dists[d] = row
        missing = [d for d in graph.nodes if d not in dists]
        if missing:
            raise InvalidMechanism(
                f"{dwhere}: no distribution for dataset {missing[0]!r}"
                + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else "")
            )
        values = {s: v for s, v in self.values.items() if s in used}
        return FiniteMechanism(graph, dists, outputs, values=values, name=name, validate=False)

    def _derived(self, name: str, table: dict[str, Any], where: str) -> FiniteMechanism:
        from .algorithms import get_transformer

        awhere = _loc(where, "algorithm")
        algo = _string(table["algorithm"], awhere)
        try:
            t = get_transformer(algo)
        except VerifierError as err:
            raise _located(err, awhere) from None
        iwhere = _loc(where, "inputs")
        inputs: list[FiniteMechanism] = []
        for i, ref in enumerate(_array(table["inputs"], iwhere)):
            ref = _string(ref, _loc(iwhere, i))
            if ref not in self.mech_tables:
                raise SpecError(
                    f"{_loc(iwhere, i)}: unknown mechanism {ref!r} "
                    f"(mechanisms: {_preview(list(self.mech_tables))})"
                )
            inputs.append(self._mechanism(ref))
        try:
            t.check_inputs(inputs)
        except VerifierError as err:
            raise _located(err, iwhere) from None
        pwhere = _loc(where, "params")
        params = t.parse_params(
            _table(table.get("params", {}), pwhere), self.values_by_name, where=pwhere
        )
        try:
            mech = t.build(inputs, params)
        except VerifierError as err:
            raise _located(err, where) from None
        if any(mech is m for m in self.mechanisms.values()):
            mech = mech.restrict(mech.datasets)  # a transformer returned an input: copy it
        mech.name = name
        return mech

    # -- claims ---------------------------------------------------------------
    def _load_claims(self, entries: list[Any]) -> list[SpecClaim]:
        claims: list[SpecClaim] = []
        ids: dict[str, int] = {}
        for i, entry in enumerate(entries):
            where = _loc("claims", i)
            c = _table(entry, where)
            if "kind" in c:
                kind = _string(c["kind"], _loc(where, "kind"))
                if kind not in CLAIM_KINDS:
                    close = difflib.get_close_matches(kind, CLAIM_KINDS, n=1)
                    hint = f"; did you mean {close[0]!r}?" if close else ""
                    raise SpecError(
                        f"{_loc(where, 'kind')}: unknown claim kind {kind!r} "
                        f"(kinds: {', '.join(CLAIM_KINDS)}){hint}"
                    )
                params = CLAIM_KINDS[kind]
            else:
                raise SpecError(f"{where}: missing required key 'kind' ({', '.join(CLAIM_KINDS)})")
            _check_keys(
                c,
                where,
                (*_CLAIM_COMMON, *params),
                ("id", "mechanism", "kind", *params),
                what=f"a {kind} claim",
            )
            cid = _string(c["id"], _loc(where, "id"))
            if not cid:
                raise SpecError(f"{_loc(where, 'id')}: a claim id cannot be empty")
            if cid in ids:
                raise SpecError(
                    f"{_loc(where, 'id')}: duplicate claim id {cid!r} (also claims[{ids[cid]}])"
                )
            ids[cid] = i
            claims.append(self._claim(c, kind, cid, where))
        return claims

    def _claim(self, c: dict[str, Any], kind: str, cid: str, where: str) -> SpecClaim:
        mwhere = _loc(where, "mechanism")
        mname = _string(c["mechanism"], mwhere)
        if mname not in self.mechanisms:
            raise SpecError(
                f"{mwhere}: unknown mechanism {mname!r} "
                f"(mechanisms: {_preview(list(self.mechanisms)) or 'none'})"
            )
        mech = self.mechanisms[mname]
        over = None
        allow: tuple[sp.Symbol, ...] = ()
        if "over" in c:
            over = self._over(c["over"], _loc(where, "over"), kind)
            allow = (over.symbol,)
        kwargs: dict[str, Any] = {}
        for p in CLAIM_KINDS[kind]:
            pw = _loc(where, p)
            if p == "eps_tilde":
                kwargs[p] = self._eps_tilde(c[p], pw, mech, allow)
                continue
            value = self.number(c[p], pw, p, allow)
            try:
                kwargs[p] = _validate_param(p, value, kind)
            except VerifierError as err:
                raise _located(err, pw) from None
        expected = None
        if "expected" in c:
            expected = _string(c["expected"], _loc(where, "expected"))
            if expected not in _EXPECTED:
                raise SpecError(
                    f"{_loc(where, 'expected')}: must be 'holds' or 'refuted', got {expected!r}"
                )
        pairs = None
        if "pairs" in c:
            if "distance" in c:
                raise SpecError(f"{where}: give either 'pairs' or 'distance', not both")
            pairs = self._pairs(c["pairs"], _loc(where, "pairs"), mech)
        distance = None
        if "distance" in c:
            distance = _int(c["distance"], _loc(where, "distance"), hi=MAX_DATASETS)
        max_bits = None
        if "max_bits" in c:
            max_bits = _int(c["max_bits"], _loc(where, "max_bits"), lo=16, hi=1 << 20)
        try:
            return SpecClaim(
                id=cid,
                kind=kind,
                mechanism=mech,
                over=over,
                pairs=pairs,
                distance=distance,
                expected=expected,
                statement=_string(c.get("statement", ""), _loc(where, "statement")),
                source=_string(c.get("source", ""), _loc(where, "source")),
                max_bits=max_bits,
                mechanism_name=mname,
                **kwargs,
            )
        except VerifierError as err:
            raise _located(err, f"{where} ({cid!r})") from None

    def _over(self, raw: Any, where: str, kind: str) -> ParameterRange:
        if kind not in RANGE_KINDS:
            raise SpecError(
                f"{where}: a parameter range is supported for "
                f"{' and '.join(sorted(RANGE_KINDS))} claims only, not {kind}"
            )
        t = _table(raw, where)
        _check_keys(t, where, _OVER_KEYS, _OVER_KEYS, what="a parameter range")
        sname = _string(t["symbol"], _loc(where, "symbol"))
        if sname not in self.symbols:
            raise SpecError(
                f"{_loc(where, 'symbol')}: unknown symbol {sname!r} (declare it in [symbols], "
                f"without a value)"
            )
        sym = self.symbols[sname]
        if sym in self.values:
            raise InvalidParameter(
                f"{_loc(where, 'symbol')}: symbol {sname!r} has a value ({self.values[sym]}); "
                f"a range needs a free symbol"
            )
        lo = self.number(t["lo"], _loc(where, "lo"), "lower end")
        hi = self.number(t["hi"], _loc(where, "hi"), "upper end")
        if decide_le(lo, hi).verdict is Verdict.VIOLATED:
            raise InvalidParameter(f"{where}: empty range: lo = {lo} > hi = {hi}")
        for end, w in ((lo, "lo"), (hi, "hi")):
            if end in (sp.oo, -sp.oo, sp.zoo, sp.nan):
                raise InvalidParameter(f"{_loc(where, w)}: the ends of a range must be finite")
        return ParameterRange(sym, lo, hi)

    def _eps_tilde(
        self, raw: Any, where: str, mech: FiniteMechanism, allow: tuple[sp.Symbol, ...]
    ) -> EpsTilde:
        if not isinstance(raw, dict):
            value = self.number(raw, where, "eps_tilde", allow)
            try:
                return _bound_value(value, None)
            except VerifierError as err:
                raise _located(err, where) from None
        by_label = {output_label(o): o for o in mech.outputs}
        if DEFAULT_KEY in by_label and DEFAULT_KEY in raw:
            raise SpecError(
                f"{where}: the mechanism has an output named {DEFAULT_KEY!r}, which clashes "
                f"with the fallback key; list every output instead"
            )
        default = None
        table: dict[Output, sp.Expr] = {}
        for lab, v in raw.items():
            w = _loc(where, lab)
            value = self.number(v, w, "eps_tilde", allow)
            try:
                value = _bound_value(value, None)
            except VerifierError as err:
                raise _located(err, w) from None
            if lab == DEFAULT_KEY and DEFAULT_KEY not in by_label:
                default = value
            elif lab in by_label:
                table[by_label[lab]] = value
            else:
                raise SpecError(
                    f"{w}: output {lab!r} is not an output of the mechanism "
                    f"(outputs: {_preview(list(by_label))})"
                )
        missing = [o for o in mech.outputs if o not in table]
        if missing and default is None:
            raise SpecError(
                f"{where}: no bound for output(s) "
                f"{', '.join(repr(output_label(o)) for o in missing[:5])}"
                f"{' ...' if len(missing) > 5 else ''}; add them or a {DEFAULT_KEY!r} entry"
            )
        return {o: table.get(o, default) for o in mech.outputs}

    def _pairs(self, raw: Any, where: str, mech: FiniteMechanism) -> list[tuple[Dataset, Dataset]]:
        out: list[tuple[Dataset, Dataset]] = []
        by_name = {dataset_label(d): d for d in mech.graph.nodes}
        for i, p in enumerate(_array(raw, where)):
            pw = _loc(where, i)
            p = _array(p, pw)
            if len(p) != 2:
                raise SpecError(f"{pw}: a pair is [D, D'], got {len(p)} entries")
            ds = []
            for j, x in enumerate(p):
                n = _name(x, _loc(pw, j))
                if n not in by_name:
                    raise InvalidMechanism(
                        f"{_loc(pw, j)}: unknown dataset {n!r} (datasets: "
                        f"{_preview(list(by_name))})"
                    )
                ds.append(by_name[n])
            if ds[0] == ds[1]:
                raise InvalidParameter(f"{pw}: a pair needs two distinct datasets")
            out.append((ds[0], ds[1]))
        if not out:
            raise SpecError(f"{where}: no pairs")
        return out


def _preview(names: Sequence[str], n: int = 8) -> str:
    shown = ", ".join(repr(x) for x in names[:n])
    return shown + (f", ... ({len(names)} in all)" if len(names) > n else "")


# ---------------------------------------------------------------------------
# writing
# ---------------------------------------------------------------------------


def _toml_string(s: str) -> str:
    # JSON string escapes are a subset of TOML's basic-string escapes; DEL must be escaped.
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def _symbol_names(exprs: Iterable[sp.Expr]) -> set[sp.Symbol]:
    out: set[sp.Symbol] = set()
    for e in exprs:
        if isinstance(e, sp.Basic):
            out |= e.free_symbols
    return out


class _SpecPrinter(StrPrinter):
    """sympy's ``str`` printer with the spelling of :mod:`verifier.expressions`:
    ``e`` for Euler's number, ``min``/``max``/``abs``/``ceil`` in lower case."""

    def _print_Exp1(self, expr: Any) -> str:
        return "e"

    def _print_Min(self, expr: Any) -> str:
        return "min(" + ", ".join(self._print(a) for a in expr.args) + ")"

    def _print_Max(self, expr: Any) -> str:
        return "max(" + ", ".join(self._print(a) for a in expr.args) + ")"

    def _print_Abs(self, expr: Any) -> str:
        return "abs(" + self._print(expr.args[0]) + ")"

    def _print_ceiling(self, expr: Any) -> str:
        return "ceil(" + self._print(expr.args[0]) + ")"

    def _print_floor(self, expr: Any) -> str:
        return "floor(" + self._print(expr.args[0]) + ")"


def expression_text(expr: sp.Expr) -> str:
    """``expr`` in the syntax of :mod:`verifier.expressions` (not checked here).

    >>> x = sp.Symbol("x")
    >>> expression_text(sp.E / 2 + sp.Abs(x)), expression_text(sp.Max(x, sp.Rational(1, 3)))
    ('e/2 + abs(x)', 'max(1/3, x)')
    """
    return str(_SpecPrinter({"order": "none"}).doprint(expr))


class _Writer:
    """Turns mechanisms and claims into a spec document (a plain dict)."""

    def __init__(self) -> None:
        self.symbols: dict[str, sp.Symbol] = {}
        self.values: dict[sp.Symbol, sp.Expr] = {}
        self.graphs: dict[str, dict[str, Any]] = {}
        self._graph_keys: dict[tuple[Any, ...], str] = {}

    def add_symbols(self, mech: FiniteMechanism, extra: Iterable[sp.Expr] = ()) -> None:
        syms = set(mech.values) | _symbol_names(
            mech.prob(d, o) for d in mech.graph.nodes for o in mech.outputs
        )
        syms |= _symbol_names(extra)
        for s in syms:
            name = str(s)
            if name in self.symbols and self.symbols[name] != s:
                raise InvalidParameter(
                    f"two different symbols are named {name!r} (different assumptions)"
                )
            if s in mech.values:
                if s in self.values and self.values[s] != mech.values[s]:
                    raise InvalidParameter(
                        f"symbol {name!r} has the values {self.values[s]} and {mech.values[s]}"
                    )
                self.values[s] = mech.values[s]
            self.symbols[name] = s

    def text(self, e: Any) -> str | int:
        """Exact text of ``e`` that the parser reads back to the same value."""
        from .expressions import parse_expression

        value = exact(e)
        if value.is_Integer and abs(int(value)) < 2**63:
            return int(value)
        text = expression_text(value)
        try:
            back = parse_expression(text, self.symbols, what="expression")
        except VerifierError as err:
            raise InvalidParameter(f"cannot write {text} in the spec syntax: {err}") from None
        if back != value:
            diff = sp.simplify(back - value) if sp.count_ops(value) < 200 else None
            if diff != 0:
                raise InvalidParameter(f"cannot write {text} exactly: it reads back as {back}")
        return text

    def graph(self, g: nx.Graph) -> str:
        labels = {d: dataset_label(d) for d in g.nodes}
        if len(set(labels.values())) != len(labels):
            raise InvalidParameter("two datasets have the same name in the spec syntax")
        names = [labels[d] for d in g.nodes]
        edges = sorted(sorted((labels[u], labels[v])) for u, v in g.edges)
        key = (tuple(names), tuple(map(tuple, edges)))
        if key in self._graph_keys:
            return self._graph_keys[key]
        gname = f"g{len(self.graphs) + 1}" if self.graphs else "g"
        self.graphs[gname] = {"kind": "edges", "datasets": names, "edges": edges}
        self._graph_keys[key] = gname
        return gname

    @staticmethod
    def output(o: Output) -> Any:
        if isinstance(o, bool):
            return str(o)
        if isinstance(o, str):
            return o
        if isinstance(o, int):
            return o if abs(o) < 2**63 else str(o)
        if isinstance(o, tuple) and o:
            return [_Writer.output(c) for c in o]
        return output_label(o)

    def mechanism(self, mech: FiniteMechanism) -> dict[str, Any]:
        labels = [output_label(o) for o in mech.outputs]
        if len(set(labels)) != len(labels):
            raise InvalidParameter(
                f"two outputs of {mech.name!r} have the same label in the spec syntax"
            )
        outputs = [self.output(o) for o in mech.outputs]
        dists: dict[str, Any] = {}
        for d in mech.graph.nodes:
            row = {
                output_label(o): self.text(mech.prob(d, o))
                for o in mech.outputs
                if mech.prob(d, o) != 0
            }
            dists[dataset_label(d)] = row
        return {"graph": self.graph(mech.graph), "outputs": outputs, "distributions": dists}

    def claim(self, c: SpecClaim, mech_key: str) -> dict[str, Any]:
        out: dict[str, Any] = {"id": c.id, "mechanism": mech_key, "kind": c.kind}
        for p in ("epsilon", "delta", "alpha"):
            v = getattr(c, p)
            if v is not None:
                out[p] = self.text(v)
        if c.eps_tilde is not None:
            e = c.eps_tilde
            if isinstance(e, dict):
                vals = list(e.values())
                if vals and all(v == vals[0] for v in vals):
                    out["eps_tilde"] = self.text(vals[0])
                else:
                    out["eps_tilde"] = {output_label(o): self.text(v) for o, v in e.items()}
            else:
                out["eps_tilde"] = self.text(e)
        if c.over is not None:
            out["over"] = {
                "symbol": str(c.over.symbol),
                "lo": self.text(c.over.lo),
                "hi": self.text(c.over.hi),
            }
        if c.pairs is not None:
            out["pairs"] = [[dataset_label(a), dataset_label(b)] for a, b in c.pairs]
        if c.distance is not None:
            out["distance"] = c.distance
        if c.max_bits is not None:
            out["max_bits"] = c.max_bits
        if c.expected is not None:
            out["expected"] = c.expected
        if c.statement:
            out["statement"] = c.statement
        if c.source:
            out["source"] = c.source
        return out

    def symbol_table(self) -> dict[str, Any]:
        from .expressions import validate_symbol_name

        out: dict[str, Any] = {}
        for name in sorted(self.symbols):
            s = self.symbols[name]
            validate_symbol_name(name)
            flags: dict[str, Any] = {}
            if s.is_integer:
                flags["integer"] = True
            if s.is_positive:
                flags["positive"] = True
            elif s.is_nonnegative:
                flags["nonnegative"] = True
            if s in self.values:
                v = self.text(self.values[s])
                out[name] = {"value": v, **flags} if (flags.keys() - {"real"}) else v
            else:
                out[name] = flags or {"real": True}
        return out


MechanismsArg = FiniteMechanism | Mapping[str, FiniteMechanism] | Spec


def spec_document(
    mechanisms: MechanismsArg,
    claims: SpecClaim | Sequence[SpecClaim] | None = None,
    *,
    title: str | None = None,
    description: str | None = None,
) -> dict[str, Any]:
    """A spec document (plain dict, the schema of the files) describing ``mechanisms``
    and ``claims`` self-containedly: every mechanism is written by its exact
    distributions on an explicit ``edges`` graph, derived ones included.

    ``mechanisms`` is one mechanism, a mapping name → mechanism, or a :class:`Spec`
    (whose claims are written when ``claims`` is None).
    """
    if isinstance(mechanisms, Spec):
        if claims is None:
            claims = mechanisms.claims
        title = title if title is not None else mechanisms.title
        description = description if description is not None else mechanisms.description
        mechs: dict[str, FiniteMechanism] = dict(mechanisms.mechanisms)
    elif isinstance(mechanisms, FiniteMechanism):
        mechs = {mechanisms.name if mechanisms.name else "M": mechanisms}
    else:
        mechs = dict(mechanisms)
    claim_list: list[SpecClaim]
    if claims is None:
        claim_list = []
    elif isinstance(claims, SpecClaim):
        claim_list = [claims]
    else:
        claim_list = list(claims)
    w = _Writer()
    extras: list[sp.Expr] = []
    for c in claim_list:
        extras.extend(c._param_values())
        if c.over is not None:
            extras.extend([c.over.symbol, c.over.lo, c.over.hi])
    for m in mechs.values():
        w.add_symbols(m, extras)
    mech_docs = {name: w.mechanism(m) for name, m in mechs.items()}
    claim_docs = []
    for c in claim_list:
        key = next((k for k, m in mechs.items() if m is c.mechanism), None)
        if key is None:
            key = c.mechanism_name if c.mechanism_name in mechs else None
        if key is None:
            raise InvalidParameter(f"claim {c.id!r} is about a mechanism that is not written")
        claim_docs.append(w.claim(c, key))
    doc: dict[str, Any] = {"version": SPEC_VERSION}
    if title:
        doc["title"] = title
    if description:
        doc["description"] = description
    symbols = w.symbol_table()
    if symbols:
        doc["symbols"] = symbols
    doc["graphs"] = w.graphs
    doc["mechanisms"] = mech_docs
    if claim_docs:
        doc["claims"] = claim_docs
    return doc


def _toml_value(v: Any, multiline: bool = False) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return _toml_string(v)
    if isinstance(v, (list, tuple)):
        items = [_toml_value(x) for x in v]
        one_line = "[" + ", ".join(items) + "]"
        if len(one_line) <= 88 or not multiline:
            return one_line
        return "[\n" + "".join(f"    {x},\n" for x in items) + "]"
    if isinstance(v, dict):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{_key(k)} = {_toml_value(x)}" for k, x in v.items()) + " }"
    raise InvalidParameter(f"cannot write {type(v).__name__} to TOML")


def _inline(v: Any) -> bool:
    if not isinstance(v, dict):
        return False
    if any(isinstance(x, dict) for x in v.values()):
        return False
    return len(v) <= 4 and len(_toml_value(v)) <= 88


def _emit(lines: list[str], path: list[str], table: dict[str, Any]) -> None:
    # Sections and the definitions directly in them are tables; deeper small tables
    # (a symbol's assumptions, a short distribution, a range) are written inline.
    top = len(path) == 0 or (len(path) == 1 and path[0] in ("graphs", "mechanisms"))
    simple, tables, arrays = [], [], []
    for k, v in table.items():
        if isinstance(v, dict) and (top or not _inline(v)):
            tables.append((k, v))
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            arrays.append((k, v))
        else:
            simple.append((k, v))
    for k, v in simple:
        lines.append(f"{_key(k)} = {_toml_value(v, multiline=True)}")
    for k, v in tables:
        p = [*path, k]
        sub_top = len(p) == 1 and p[0] in ("graphs", "mechanisms")
        has_simple = any(
            not (isinstance(x, dict) and (sub_top or not _inline(x)))
            and not (isinstance(x, list) and x and all(isinstance(y, dict) for y in x))
            for x in v.values()
        )
        if has_simple or not v:
            lines.append("")
            lines.append("[" + ".".join(_key(x) for x in p) + "]")
        _emit(lines, p, v)
    for k, v in arrays:
        p = [*path, k]
        for item in v:
            lines.append("")
            lines.append("[[" + ".".join(_key(x) for x in p) + "]]")
            _emit(lines, p, item)


def _comment(text: str | None) -> list[str]:
    if not text:
        return []
    return ["# " + line if line else "#" for line in text.splitlines()] + [""]


def spec_to_toml(
    mechanisms: MechanismsArg,
    claims: SpecClaim | Sequence[SpecClaim] | None = None,
    *,
    title: str | None = None,
    description: str | None = None,
    comment: str | None = None,
) -> str:
    """A self-contained TOML spec of ``mechanisms`` and ``claims`` (see
    :func:`spec_document`), optionally headed by a ``#`` comment."""
    doc = spec_document(mechanisms, claims, title=title, description=description)
    lines = _comment(comment)
    _emit(lines, [], doc)
    return "\n".join(lines).strip("\n") + "\n"


def spec_to_json(
    mechanisms: MechanismsArg,
    claims: SpecClaim | Sequence[SpecClaim] | None = None,
    *,
    title: str | None = None,
    description: str | None = None,
) -> str:
    """The same document as :func:`spec_to_toml`, as JSON."""
    doc = spec_document(mechanisms, claims, title=title, description=description)
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def atomic_write(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` to ``path`` atomically (temporary file in the same directory,
    ``fsync``, ``os.replace``): readers see the old file or the new one, never a
    partial write."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return p


def dump_spec(
    path: str | os.PathLike[str],
    mechanisms: MechanismsArg,
    claims: SpecClaim | Sequence[SpecClaim] | None = None,
    *,
    title: str | None = None,
    description: str | None = None,
    comment: str | None = None,
    fmt: str | None = None,
    verify: bool = True,
) -> Path:
    """Write a self-contained spec file atomically (temporary file + ``os.replace``).

    The format follows the suffix (``.json``: JSON, else TOML) unless ``fmt`` is
    given.  With ``verify`` (default) the text is read back with :func:`loads_spec`
    before it is written, so a file that would not load is never produced.
    """
    p = Path(path)
    fmt = fmt or ("json" if p.suffix.lower() == ".json" else "toml")
    if fmt == "toml":
        text = spec_to_toml(
            mechanisms, claims, title=title, description=description, comment=comment
        )
    elif fmt == "json":
        text = spec_to_json(mechanisms, claims, title=title, description=description)
    else:
        raise SpecError(f"unknown spec format {fmt!r} (use 'toml' or 'json')")
    if verify:
        loads_spec(text, fmt, source=str(p))
    atomic_write(p, text)
    return p


def certificate(claim: SpecClaim, result: CheckResult) -> SpecClaim | None:
    """A minimal counterexample for a violated claim: the claim restricted to the
    mechanism on the two datasets of a violating pair (``None`` unless violated).

    The returned claim checks only that ordered pair, so a spec written from it
    (:func:`dump_spec`) is small and re-checks to *violated*.
    """
    if result.verdict is not Verdict.VIOLATED:
        return None
    bad = [f for f in result.violations() if f.pair is not None]
    if not bad:
        return None
    worst = min(bad, key=_finding_key)
    assert worst.pair is not None
    d, d2 = worst.pair
    mech = claim.mechanism.restrict([d, d2], name=claim.mechanism_name)
    eps = claim.eps_tilde
    return SpecClaim(
        id=f"{claim.id}-counterexample",
        kind=claim.kind,
        mechanism=mech,
        epsilon=claim.epsilon,
        eps_tilde=dict(eps) if isinstance(eps, dict) else eps,
        delta=claim.delta,
        alpha=claim.alpha,
        over=claim.over,
        pairs=[(d, d2)],
        expected="refuted",
        statement=(claim.statement or claim.describe())
        + f" -- fails on the pair {dataset_label(d)} -> {dataset_label(d2)}",
        source=claim.source,
        max_bits=claim.max_bits,
        mechanism_name=claim.mechanism_name,
    )


def _finding_key(f: Any) -> float:
    try:
        v = f.slack_value()
    except VerifierError:
        return float("inf")
    return v if v == v else float("inf")
