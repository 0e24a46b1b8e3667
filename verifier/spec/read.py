"""Reading spec files: :func:`load_spec` and :func:`loads_spec`.

Reading is strict: unknown keys are errors, numbers are exact (strings parsed by the
whitelisting parser of :mod:`verifier.arithmetic.expressions`, or integers; floats are
refused), and every problem raises a :class:`~verifier.errors.VerifierError`
subclass whose message starts with the location in the file, e.g.
``mechanisms.rr.distributions.D: the distribution at dataset 'D' sums to 9/10 ≈ 0.9, not 1``.
The format is documented in ``docs/spec-format.md``.

>>> loads_spec('''
... [mechanisms.m]
... graph = { kind = "pair" }
... outputs = [0]
... distributions.D = { "0" = "1/2" }
... distributions."D'" = { "0" = 1 }
... ''')
Traceback (most recent call last):
...
verifier.errors.InvalidMechanism: mechanisms.m.distributions.D: the distribution at dataset 'D' sums to 1/2 ≈ 0.5, not 1
>>> spec = loads_spec('''
... [[claims]]
... id = "step"
... kind = "inequality"
... lhs = "exp(1)"
... rhs = "2718281828/10^9 + 1/10^9"
... ''')
>>> spec.claims[0].run().verdict.value
'holds'
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import tomllib
import unicodedata
import warnings
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import networkx as nx
import sympy as sp

from ..arithmetic.exact import Sign, Verdict, decide_le, decide_sign, exact
from ..checks.boxes import Box
from ..checks.privacy import ParameterRange
from ..checks.ranges import check_interval_assumptions
from ..errors import (
    InvalidMechanism,
    InvalidParameter,
    SpecError,
    UnboundSymbol,
    VerifierError,
)
from ..mechanism import neighbours
from ..mechanism.model import Dataset, FiniteMechanism, Output
from .io import file_status, read_at_most
from .kinds import BOX_KINDS, CLAIM_KINDS, RANGE_KINDS, ClaimKind, Parameter
from .labels import dataset_label, did_you_mean, located, location, output_label
from .limits import DEFAULT_LIMITS, Limits, count_text, magnitude_bits
from .model import EXPECTED, Spec, SpecClaim
from .premises import CERTIFICATE_KEY, read_marker

__all__ = [
    "SPEC_VERSION",
    "GRAPH_KINDS",
    "DEFAULT_KEY",
    "MAX_DATASETS",
    "load_spec",
    "loads_spec",
    "read_spec_bytes",
    "read_spec_text",
]

#: The version of the format this package reads and writes.
SPEC_VERSION = 1

#: Graph kinds and their keys (besides ``kind``): (required, optional).
GRAPH_KINDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "pair": ((), ("datasets",)),
    "edges": (("datasets", "edges"), ("isolated", "components")),
    "path": (("n",), ()),
    "hamming_cube": (("n",), ()),
    "lumped_hamming_cube": (("n",), ()),
    "add_remove": (("universe",), ("max_size",)),
}

_TOP_KEYS = (
    "version",
    "title",
    "description",
    "symbols",
    "graphs",
    "mechanisms",
    "claims",
    CERTIFICATE_KEY,
)
#: Claim parameters that checking exponentiates (``exp(epsilon)``, ``P^alpha``): their
#: magnitude is limited by ``Limits.max_exponent``.
_EXPONENTIATED = ("epsilon", "epsilon_tilde", "alpha")
_SYMBOL_KEYS = ("value", "positive", "nonnegative", "real", "integer")
_BASE_MECH_KEYS = ("graph", "outputs", "distributions", "description")
_DERIVED_MECH_KEYS = ("algorithm", "inputs", "params", "description")
#: Keys of a mechanism given by a built-in distribution kind (:mod:`.distributions`).
_BUILTIN_MECH_KEYS = ("graph", "distribution", "params", "description")
#: The forms of a mechanism table, each as (its keys, its required keys, what messages
#: call it): one with ``algorithm`` is derived, one with ``distribution`` and no
#: ``outputs`` built-in, any other given by its distributions.
_MECH_FORMS: dict[str, tuple[tuple[str, ...], tuple[str, ...], str]] = {
    "derived": (_DERIVED_MECH_KEYS, ("algorithm", "inputs"), "a derived mechanism"),
    "builtin": (
        _BUILTIN_MECH_KEYS,
        ("graph", "distribution"),
        "a mechanism with a built-in distribution",
    ),
    "base": (_BASE_MECH_KEYS, ("graph", "outputs", "distributions"), "a mechanism"),
}
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
#: Claim keys that only a claim about a mechanism takes.
_MECHANISM_KEYS = ("mechanism", "over", "distance", "pairs")
_OVER_KEYS = ("symbol", "lo", "hi")
#: Key of a table of bounds per output (``epsilon_tilde``) giving the bound of every
#: output not listed.
DEFAULT_KEY = "default"
#: Largest explicit graph a spec file may ask for.
MAX_DATASETS = 100_000
_MAX_LUMPED_N = 10_000


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


def load_spec(path: str | os.PathLike[str], *, limits: Limits | None = None) -> Spec:
    """Read a spec file (``.json`` as JSON, anything else as TOML).

    Only a regular file of at most ``limits.max_file_bytes`` is read (its size is
    checked before reading; a device such as ``/dev/zero``, a pipe or a directory is
    refused).  Raises a :class:`~verifier.errors.VerifierError` subclass whose
    message starts with the file name and the location of the problem in the file.
    """
    lim = limits or DEFAULT_LIMITS
    p = Path(path)
    text = read_spec_text(p, lim.max_file_bytes, hint=lim.hint("max_file_bytes"))
    fmt = "json" if p.suffix.lower() == ".json" else "toml"
    try:
        return loads_spec(text, fmt, source=str(p), limits=lim)
    except VerifierError as err:
        raise located(err, str(p)) from None


def read_spec_bytes(
    path: str | os.PathLike[str], max_bytes: int | None = None, *, hint: str = "--max-file-size"
) -> bytes:
    """The bytes of the spec file ``path``: only a regular file is read, and only when
    it has at most ``max_bytes`` (default ``DEFAULT_LIMITS.max_file_bytes``), checked
    with ``stat`` before reading and again while reading.  Raises
    :class:`~verifier.errors.SpecError` or :class:`~verifier.errors.InvalidParameter`
    (whose message names ``hint``, what raises the limit)."""
    limit = DEFAULT_LIMITS.max_file_bytes if max_bytes is None else max_bytes
    p = Path(path)
    if "\x00" in os.fspath(path):
        raise SpecError(f"{str(p)!r}: a path cannot contain a NUL character")
    st = file_status(p, "no such file", "cannot read")
    if stat.S_ISDIR(st.st_mode):
        raise SpecError(f"{p}: is a directory, not a spec file")
    if not stat.S_ISREG(st.st_mode):
        raise SpecError(f"{p}: not a regular file (a device, a pipe or a socket); not read")
    if st.st_size > limit:
        raise InvalidParameter(_too_large(p, st.st_size, limit, hint))
    # bounded: a file may grow, /proc files report size 0
    data = read_at_most(p, limit, "cannot read")
    if len(data) > limit:
        raise InvalidParameter(_too_large(p, len(data), limit, hint))
    return data


def read_spec_text(
    path: str | os.PathLike[str], max_bytes: int | None = None, *, hint: str = "--max-file-size"
) -> str:
    """The text of the spec file ``path``: :func:`read_spec_bytes` decoded as UTF-8 (a
    :class:`~verifier.errors.SpecError` naming the first byte that is not)."""
    data = read_spec_bytes(path, max_bytes, hint=hint)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise SpecError(f"{Path(path)}: not UTF-8 text (byte {err.start})") from None


def _too_large(p: Path, size: int, limit: int, hint: str) -> str:
    return (
        f"{p}: the file has {'more than ' if size > limit else ''}{size} bytes, over the "
        f"limit of {limit} bytes ({hint} raises it)"
    )


def loads_spec(
    text: str, fmt: str = "toml", *, source: str = "<string>", limits: Limits | None = None
) -> Spec:
    """Read a spec from ``text`` in ``fmt`` (``"toml"`` or ``"json"``), within
    ``limits`` (default :data:`~verifier.spec.limits.DEFAULT_LIMITS`).

    Error messages start with the location in the document (not with ``source``,
    which only names the spec).
    """
    doc = _decode(text, fmt)
    if _SURROGATE.search(text) or (fmt == "json" and _SURROGATE_ESCAPE.search(text)):
        _check_text(doc)  # only a text that can hold one is walked
    return _Loader(doc, source, limits or DEFAULT_LIMITS).load()


def _distinct_when_printed(names: Iterable[tuple[str, str]], what: str) -> None:
    """Refuse two different names (``(where, name)`` pairs) that are the same text
    after Unicode normalisation (NFKC: ``"\u00e9"`` and ``"e\u0301"``, ``"\uff21"``
    and ``"A"``): they print alike, so a report could not tell them apart."""
    seen: dict[str, tuple[str, str]] = {}
    for where, name in names:
        key = unicodedata.normalize("NFKC", name)
        other = seen.get(key)
        if other is not None and other[1] != name:
            raise SpecError(
                f"{where}: {what} {ascii(name)} and {ascii(other[1])} ({other[0]}) differ "
                f"only in Unicode normalisation (NFKC) and would print the same; rename one"
            )
        seen.setdefault(key, (where, name))


_SURROGATE = re.compile("[\ud800-\udfff]")
#: A JSON escape of a surrogate (``\\ud800``; a pair such as an emoji's matches too).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _check_text(doc: dict[str, Any]) -> None:
    """Refuse a key or string holding a lone surrogate (``"\\ud800"`` in JSON): not a
    Unicode character, it can be neither printed nor written back as UTF-8."""
    stack: list[tuple[str, Any]] = [("", doc)]
    while stack:
        where, node = stack.pop()
        items: Any = ()
        if isinstance(node, dict):
            items = node.items()
        elif isinstance(node, list):
            items = enumerate(node)
        elif isinstance(node, str) and _SURROGATE.search(node):
            c = _SURROGATE.search(node).group()  # type: ignore[union-attr]
            raise SpecError(
                f"{where or 'the document'}: the string holds the lone surrogate "
                f"\\u{ord(c):04x}, which is not a Unicode character"
            )
        for k, v in items:
            if isinstance(k, str) and _SURROGATE.search(k):
                c = _SURROGATE.search(k).group()  # type: ignore[union-attr]
                raise SpecError(
                    f"{where or 'the document'}: a key holds the lone surrogate "
                    f"\\u{ord(c):04x}, which is not a Unicode character"
                )
            stack.append((location(where, k if isinstance(k, str) else int(k)), v))


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
    if fmt not in ("toml", "json"):
        raise SpecError(f"unknown spec format {fmt!r} (use 'toml' or 'json')")
    try:
        if fmt == "toml":
            doc = tomllib.loads(text)
        else:
            doc = json.loads(text, object_pairs_hook=_json_object, parse_constant=_reject_constant)
    except RecursionError:
        raise SpecError(f"invalid {fmt.upper()}: nested too deeply") from None
    # a decoding error, or e.g. an integer literal beyond Python's digit limit
    except ValueError as err:
        raise SpecError(f"invalid {fmt.upper()}: {err}") from None
    if not isinstance(doc, dict):
        raise SpecError(f"invalid spec: the JSON document is {_describe(doc)}, not an object")
    return doc


def _check_keys(
    table: Mapping[str, Any],
    where: str,
    allowed: Sequence[str],
    required: Sequence[str] = (),
    what: str = "",
) -> None:
    for k in table:
        if k not in allowed:
            listed = ", ".join(allowed)
            raise SpecError(
                f"{location(where, k)}: unknown key{' in ' + what if what else ''} "
                f"(allowed: {listed}){did_you_mean(k, allowed)}"
            )
    for k in required:
        if k not in table:
            raise SpecError(f"{where}: missing required key {k!r}")


#: Claim keys read under a former name for one release (the spec format shares the
#: Python API's vocabulary, :mod:`verifier.checks.vocabulary`).
FORMER_CLAIM_KEYS: dict[str, str] = {"eps_tilde": "epsilon_tilde"}


def _former_keys(c: dict[str, Any], where: str) -> dict[str, Any]:
    """``c`` with every former key renamed (a ``FutureWarning`` says so), in place
    of its position; both names at once are refused."""
    if not any(k in c for k in FORMER_CLAIM_KEYS):
        return c
    renamed: dict[str, Any] = {}
    for k, v in c.items():
        new = FORMER_CLAIM_KEYS.get(k)
        if new is None:
            renamed[k] = v
            continue
        if new in c:
            raise SpecError(f"{where}: give either {new!r} or its former name {k!r}, not both")
        warnings.warn(
            f"{location(where, k)}: the key {k!r} is now {new!r} (the former name is read "
            f"for one release)",
            FutureWarning,
            stacklevel=2,
        )
        renamed[new] = v
    return renamed


def _table(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise SpecError(f"{where}: expected a table, got {_describe(value)}")
    return value


def _array(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise SpecError(f"{where}: expected an array, got {_describe(value)}")
    return value


def _kind(table: Mapping[str, Any], where: str, kinds: Mapping[str, Any], what: str) -> str:
    """The ``kind`` of ``table``, one of ``kinds`` (``what``: what has kinds, for the
    message)."""
    name = _string(table["kind"], location(where, "kind"))
    if name not in kinds:
        raise SpecError(
            f"{location(where, 'kind')}: unknown {what} kind {name!r} "
            f"(kinds: {', '.join(kinds)}){did_you_mean(name, kinds)}"
        )
    return name


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
        return tuple(_output_value(v, location(where, i), depth + 1) for i, v in enumerate(value))
    raise SpecError(
        f"{where}: an output must be a string, an integer or an array, got {_describe(value)}"
    )


class _Loader:
    """One pass over a decoded document."""

    def __init__(self, doc: dict[str, Any], source: str, limits: Limits = DEFAULT_LIMITS) -> None:
        self.doc = doc
        self.source = source
        self.limits = limits
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
        from ..arithmetic.expressions import parse_expression

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
            raise located(err, where) from None
        try:
            return exact(value)
        except VerifierError as err:
            raise located(err, where) from None

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
        graph_tables = _table(doc.get("graphs", {}), "graphs")
        _distinct_when_printed(((location("graphs", n), n) for n in graph_tables), "graph")
        for name, g in graph_tables.items():
            self.graphs[name] = self._graph(g, location("graphs", name))
        self.mech_tables = _table(doc.get("mechanisms", {}), "mechanisms")
        _distinct_when_printed(
            ((location("mechanisms", n), n) for n in self.mech_tables), "mechanism"
        )
        for name in self.mech_tables:
            self._mechanism(name)
        claims = self._load_claims(_array(doc.get("claims", []), "claims"))
        certificate = read_marker(
            doc.get(CERTIFICATE_KEY),
            {c.id: c.expected for c in claims},
            {c.id: c.statement for c in claims},
        )
        return Spec(
            symbols=dict(self.symbols),
            values=dict(self.values),
            graphs=self.graphs,
            mechanisms=self.mechanisms,
            claims=claims,
            title=title,
            description=description,
            source=self.source,
            certificate=certificate,
        )

    # -- symbols --------------------------------------------------------------
    def _load_symbols(self, table: dict[str, Any]) -> None:
        from ..arithmetic.expressions import validate_symbol_name

        for name, entry in table.items():
            where = location("symbols", name)
            try:
                validate_symbol_name(name)
            except VerifierError as err:
                raise located(err, where) from None
            raw_value: Any = None
            assumptions: dict[str, bool] = {}
            if isinstance(entry, dict):
                _check_keys(entry, where, _SYMBOL_KEYS, what="a symbol")
                for k in _SYMBOL_KEYS[1:]:
                    if k in entry:
                        if not isinstance(entry[k], bool):
                            raise SpecError(
                                f"{location(where, k)}: expected true or false, got "
                                f"{_describe(entry[k])}"
                            )
                        if entry[k]:
                            assumptions[k] = True
                        elif k == "real":
                            raise SpecError(f"{location(where, k)}: symbols are always real")
                raw_value = entry.get("value")
            else:
                raw_value = entry
            if not assumptions.get("positive") and not assumptions.get("nonnegative"):
                assumptions.setdefault("real", True)
            sym = sp.Symbol(name, **assumptions)
            if raw_value is not None:
                value = self.number(
                    raw_value,
                    where if not isinstance(entry, dict) else location(where, "value"),
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
        kind = _kind(g, where, GRAPH_KINDS, "graph")
        required, optional = GRAPH_KINDS[kind]
        _check_keys(g, where, ("kind", *required, *optional), required, what=f"a {kind} graph")
        try:
            return self._build_graph(kind, g, where)
        except VerifierError as err:
            if str(err).startswith(where):
                raise
            raise located(err, where) from None

    def _datasets(self, raw: Any, where: str) -> list[str]:
        names = [_name(x, location(where, i)) for i, x in enumerate(_array(raw, where))]
        seen: set[str] = set()
        for i, n in enumerate(names):
            if n in seen:
                raise InvalidMechanism(f"{location(where, i)}: dataset {n!r} is listed twice")
            seen.add(n)
        if not names:
            raise InvalidMechanism(f"{where}: no datasets")
        _distinct_when_printed(((location(where, i), n) for i, n in enumerate(names)), "dataset")
        if len(names) > MAX_DATASETS:
            raise InvalidParameter(f"{where}: more than {MAX_DATASETS} datasets")
        return names

    def _check_connected(self, graph: nx.Graph, g: dict[str, Any], where: str) -> None:
        """A dataset with no neighbour is never compared with another one, and a graph
        in several pieces is never compared across them: both make every claim hold
        vacuously there, so both must be said (``isolated = [...]``, ``components =
        N``), never left to chance (a forgotten edge)."""
        iwhere = location(where, "isolated")
        declared = [
            _name(x, location(iwhere, i))
            for i, x in enumerate(_array(g.get("isolated", []), iwhere))
        ]
        for i, d in enumerate(declared):
            if d not in graph:
                raise InvalidMechanism(f"{location(iwhere, i)}: unknown dataset {d!r}")
            if graph.degree(d):
                raise InvalidMechanism(
                    f"{location(iwhere, i)}: dataset {d!r} is declared isolated but has "
                    f"neighbours ({_preview(sorted(map(str, graph.neighbors(d))))})"
                )
        lonely = [d for d in graph.nodes if graph.degree(d) == 0 and d not in declared]
        if lonely:
            raise InvalidMechanism(
                f"{location(where, 'edges')}: dataset{'s' if len(lonely) > 1 else ''} "
                f"{_preview(lonely)} ha{'ve' if len(lonely) > 1 else 's'} no neighbour, so no "
                f"claim would ever compare {'them' if len(lonely) > 1 else 'it'} with another "
                f"dataset: add the missing edges, or declare isolated = "
                f"[{', '.join(json.dumps(str(d)) for d in lonely[:10])}]"
            )
        rest = graph.subgraph([d for d in graph.nodes if d not in declared])
        pieces = nx.number_connected_components(rest) if rest.number_of_nodes() else 0
        if "components" in g:
            want = _int(g["components"], location(where, "components"), lo=1)
            if want != pieces:
                raise InvalidMechanism(
                    f"{location(where, 'components')}: the graph has {pieces} connected "
                    f"component{'s' if pieces != 1 else ''} (isolated datasets aside), not {want}"
                )
        elif pieces > 1:
            comps = sorted((sorted(map(str, c)) for c in nx.connected_components(rest)), key=len)
            raise InvalidMechanism(
                f"{location(where, 'edges')}: the graph falls into {pieces} pieces that no "
                f"edge joins (the smallest: {_preview(comps[0])}), so no claim would compare "
                f"datasets across them: add the missing edges, or declare components = {pieces}"
            )

    def _build_graph(self, kind: str, g: dict[str, Any], where: str) -> nx.Graph:
        if kind == "pair":
            names = self._datasets(g.get("datasets", ["D", "D'"]), location(where, "datasets"))
            if len(names) != 2:
                raise InvalidMechanism(
                    f"{location(where, 'datasets')}: a pair has 2 datasets, got {len(names)}"
                )
            return neighbours.pair(names[0], names[1])
        if kind == "edges":
            names = self._datasets(g["datasets"], location(where, "datasets"))
            graph = nx.Graph()
            graph.add_nodes_from(names)
            known = set(names)
            ewhere = location(where, "edges")
            for i, e in enumerate(_array(g["edges"], ewhere)):
                ew = location(ewhere, i)
                e = _array(e, ew)
                if len(e) != 2:
                    raise SpecError(f"{ew}: an edge is a pair [a, b], got {len(e)} entries")
                a, b = _name(e[0], location(ew, 0)), _name(e[1], location(ew, 1))
                for j, x in ((0, a), (1, b)):
                    if x not in known:
                        raise InvalidMechanism(
                            f"{location(ew, j)}: edge to unknown dataset {x!r} "
                            f"(datasets: {_preview(names)})"
                        )
                if a == b:
                    raise InvalidMechanism(f"{ew}: dataset {a!r} cannot be its own neighbour")
                graph.add_edge(a, b)
            self._check_connected(graph, g, where)
            return graph
        if kind == "path":
            n = _int(g["n"], location(where, "n"), hi=MAX_DATASETS - 1)
            return nx.relabel_nodes(neighbours.path(n), {i: str(i) for i in range(n + 1)})
        if kind == "hamming_cube":
            n = _int(g["n"], location(where, "n"), hi=int(math.log2(MAX_DATASETS)))
            cube = neighbours.hamming_cube(n)
            return nx.relabel_nodes(cube, {x: dataset_label(x) for x in cube.nodes})
        if kind == "lumped_hamming_cube":
            n = _int(g["n"], location(where, "n"), hi=_MAX_LUMPED_N)
            return nx.relabel_nodes(
                neighbours.lumped_hamming_cube(n), {i: str(i) for i in range(n + 1)}
            )
        # add_remove
        uwhere = location(where, "universe")
        universe = self._datasets(g["universe"], uwhere)
        max_size = None
        if "max_size" in g:
            max_size = _int(g["max_size"], location(where, "max_size"), lo=0)
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
        where = location("mechanisms", name)
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
                            f"{location(where, k)}: a derived mechanism (one with "
                            f"'algorithm') takes no {k!r}; its distributions come from the "
                            f"algorithm"
                        )
                form, build = "derived", self._derived
            elif "distribution" in table and "outputs" not in table:
                form, build = "builtin", self._builtin
            else:
                form, build = "base", self._base
            keys, required, what = _MECH_FORMS[form]
            _check_keys(table, where, keys, required, what=what)
            mech = build(name, table, where)
        finally:
            self._building.pop()
        if "description" in table:
            _string(table["description"], location(where, "description"))
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
        graph = self._graph_ref(table["graph"], location(where, "graph"))
        owhere = location(where, "outputs")
        raw_outputs = _array(table["outputs"], owhere)
        if not raw_outputs:
            raise InvalidMechanism(f"{owhere}: no outputs")
        outputs = [_output_value(x, location(owhere, i)) for i, x in enumerate(raw_outputs)]
        by_label: dict[str, Output] = {}
        for i, o in enumerate(outputs):
            lab = output_label(o)
            if lab in by_label:
                raise InvalidMechanism(
                    f"{location(owhere, i)}: output {lab!r} appears twice in the output order"
                )
            by_label[lab] = o
        _distinct_when_printed(
            ((location(owhere, i), lab) for i, lab in enumerate(by_label)), "output"
        )
        dwhere = location(where, "distributions")
        dists_raw = _table(table["distributions"], dwhere)
        used: set[sp.Symbol] = set()
        dists: dict[Dataset, dict[Output, sp.Expr]] = {}
        for d, row_raw in dists_raw.items():
            rwhere = location(dwhere, d)
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
                    value = self.parse(pr, location(rwhere, output_label(o)), "probability")
                    if value != 0:
                        row[o] = value
            elif isinstance(row_raw, dict):
                for lab, pr in row_raw.items():
                    pwhere = location(rwhere, lab)
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
                raise located(err, rwhere) from None
            dists[d] = row
        missing = [d for d in graph.nodes if d not in dists]
        if missing:
            raise InvalidMechanism(
                f"{dwhere}: no distribution for dataset {missing[0]!r}"
                + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else "")
            )
        values = {s: v for s, v in self.values.items() if s in used}
        return FiniteMechanism(graph, dists, outputs, values=values, name=name, validate=False)

    def _builtin(self, name: str, table: dict[str, Any], where: str) -> FiniteMechanism:
        """A mechanism of a built-in distribution kind (:mod:`.distributions`), held to
        the limits of derived mechanisms: its estimated outputs and work
        (``--max-outputs``, ``--max-work``) before its tables are parsed, and the
        numbers it exponentiates (``--max-exponent``) before it is built."""
        from .distributions import build_distributions, distribution_kind

        graph = self._graph_ref(table["graph"], location(where, "graph"))
        kwhere = location(where, "distribution")
        try:
            kind = distribution_kind(_string(table["distribution"], kwhere))
        except VerifierError as err:
            raise located(err, kwhere) from None
        pwhere = location(where, "params")
        raw = _table(table.get("params", {}), pwhere)
        unknown = [k for k in raw if k not in kind.schema]
        if unknown:
            kind.parse_params(raw, self.values_by_name, pwhere)  # the message for it
        parsed: dict[str, Any] = {}

        def param(key: str) -> Any:
            if key not in parsed:
                parsed[key] = kind.parse_param(raw, key, self.values_by_name, pwhere)
            return parsed[key]

        outputs_count, work = kind.size(graph.number_of_nodes(), raw, param)
        self._check_size(f"distribution {kind.name!r}", outputs_count, work, where)
        params = kind.parse_params(raw, self.values_by_name, pwhere)
        for keys, x in kind.exponents([str(d) for d in graph.nodes], params):
            xwhere = pwhere
            for key in keys:
                xwhere = location(xwhere, key)
            self._check_magnitude(x, xwhere)
        try:
            outputs, dists = build_distributions(kind, graph, params)
            _distinct_when_printed(((pwhere, output_label(o)) for o in outputs), "output")
            # a distribution by construction (see verifier.spec.distributions)
            return FiniteMechanism(graph, dists, outputs, name=name, validate=False)
        except VerifierError as err:
            raise located(err, pwhere) from None

    def _derived(self, name: str, table: dict[str, Any], where: str) -> FiniteMechanism:
        from ..algorithms import get_transformer

        awhere = location(where, "algorithm")
        algo = _string(table["algorithm"], awhere)
        try:
            t = get_transformer(algo)
        except VerifierError as err:
            raise located(err, awhere) from None
        iwhere = location(where, "inputs")
        inputs: list[FiniteMechanism] = []
        for i, ref in enumerate(_array(table["inputs"], iwhere)):
            ref = _string(ref, location(iwhere, i))
            if ref not in self.mech_tables:
                raise SpecError(
                    f"{location(iwhere, i)}: unknown mechanism {ref!r} "
                    f"(mechanisms: {_preview(list(self.mech_tables))})"
                )
            inputs.append(self._mechanism(ref))
        try:
            t.check_inputs(inputs)
        except VerifierError as err:
            raise located(err, iwhere) from None
        pwhere = location(where, "params")
        params = t.parse_params(
            _table(table.get("params", {}), pwhere), self.values_by_name, where=pwhere
        )
        self._check_cost(algo, inputs, params, where)
        try:
            mech = t.build(inputs, params)
        except VerifierError as err:
            raise located(err, where) from None
        if any(mech is m for m in self.mechanisms.values()):
            mech = mech.restrict(mech.datasets)  # a transformer returned an input: copy it
        mech.name = name
        return mech

    def _check_cost(
        self, algo: str, inputs: list[FiniteMechanism], params: dict[str, Any], where: str
    ) -> None:
        """Refuse a derived mechanism whose estimated size or work exceeds the limits
        (:mod:`verifier.algorithms.estimates`), before it is built."""
        from ..algorithms.estimates import estimate

        est = estimate(algo, inputs, params)
        if est is None:
            return
        self._check_size(f"algorithm {algo!r}", est.outputs, est.work, where)

    def _check_size(self, what: str, outputs: int, work: int, where: str) -> None:
        """Refuse a mechanism of ``outputs`` outputs built with ``work`` exact
        operations (estimates) over the limits."""
        lim = self.limits
        if outputs > lim.max_outputs:
            raise InvalidParameter(
                f"{where}: {what} would build a mechanism with "
                f"{count_text(outputs)} outputs (estimate), over the limit of "
                f"{lim.max_outputs} ({lim.hint('max_outputs')} raises it)"
            )
        if work > lim.max_work:
            raise InvalidParameter(
                f"{where}: {what} would need {count_text(work)} exact "
                f"operations (estimate), over the limit of {lim.max_work} "
                f"({lim.hint('max_work')} raises it)"
            )

    def _check_magnitude(self, value: Any, where: str) -> None:
        """Refuse a parameter that checking would exponentiate when it exceeds
        ``2^max_exponent`` in absolute value."""
        values = value.values() if isinstance(value, dict) else [value]
        limit = self.limits.max_exponent
        for v in values:
            bits = magnitude_bits(v)
            if bits is not None and bits > limit:
                raise InvalidParameter(
                    f"{where}: the value has magnitude about 2^{bits}, over the limit of "
                    f"2^{limit} for a number that checking exponentiates "
                    f"({self.limits.hint('max_exponent')} raises it)"
                )

    # -- claims ---------------------------------------------------------------
    def _load_claims(self, entries: list[Any]) -> list[SpecClaim]:
        claims: list[SpecClaim] = []
        ids: dict[str, int] = {}
        _distinct_when_printed(
            (
                (location(location("claims", i), "id"), e["id"])
                for i, e in enumerate(entries)
                if isinstance(e, dict) and isinstance(e.get("id"), str)
            ),
            "claim id",
        )
        for i, entry in enumerate(entries):
            where = location("claims", i)
            c = _former_keys(_table(entry, where), where)
            if "kind" in c:
                name = _kind(c, where, CLAIM_KINDS, "claim")
                kind = CLAIM_KINDS[name]
            else:
                raise SpecError(f"{where}: missing required key 'kind' ({', '.join(CLAIM_KINDS)})")
            params = kind.parameter_names
            allowed: tuple[str, ...]
            required: tuple[str, ...]
            if kind.mechanism:
                allowed, required = _CLAIM_COMMON, ("id", "mechanism", "kind")
            else:
                allowed = tuple(k for k in _CLAIM_COMMON if k not in _MECHANISM_KEYS)
                required = ("id", "kind")
            _check_keys(c, where, (*allowed, *params), (*required, *params), what=f"a {name} claim")
            cid = _string(c["id"], location(where, "id"))
            if not cid:
                raise SpecError(f"{location(where, 'id')}: a claim id cannot be empty")
            if cid in ids:
                raise SpecError(
                    f"{location(where, 'id')}: duplicate claim id {cid!r} (also claims[{ids[cid]}])"
                )
            ids[cid] = i
            claims.append(self._claim(c, kind, cid, where))
        return claims

    def _claim(self, c: dict[str, Any], kind: ClaimKind, cid: str, where: str) -> SpecClaim:
        # The keys of a claim about no mechanism exclude 'mechanism', 'over', 'pairs'
        # and 'distance' (checked by _load_claims).
        mech: FiniteMechanism | None = None
        mname = ""
        if kind.mechanism:
            mwhere = location(where, "mechanism")
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
            over = self._over(c["over"], location(where, "over"), kind)
            allow = over.symbols if isinstance(over, Box) else (over.symbol,)
        kwargs: dict[str, Any] = {}
        for p in kind.parameters:
            pw = location(where, p.name)
            if p.per_output:
                outputs = mech.outputs if mech is not None else ()
                kwargs[p.name] = self._per_output(p, c[p.name], pw, outputs, allow)
            else:
                value = self.number(c[p.name], pw, p.name, allow)
                try:
                    kwargs[p.name] = p.check(value, p.name)
                except VerifierError as err:
                    raise located(err, pw) from None
            if p.name in _EXPONENTIATED:
                self._check_magnitude(kwargs[p.name], pw)
        expected = None
        if "expected" in c:
            expected = _string(c["expected"], location(where, "expected"))
            if expected not in EXPECTED:
                raise SpecError(
                    f"{location(where, 'expected')}: must be 'holds' or 'refuted', got {expected!r}"
                )
        pairs = None
        if "pairs" in c and mech is not None:
            if "distance" in c:
                raise SpecError(f"{where}: give either 'pairs' or 'distance', not both")
            pairs = self._pairs(c["pairs"], location(where, "pairs"), mech)
        distance = None
        if "distance" in c:
            distance = _int(c["distance"], location(where, "distance"), hi=MAX_DATASETS)
        max_bits = None
        if "max_bits" in c:
            max_bits = _int(c["max_bits"], location(where, "max_bits"), lo=16, hi=1 << 20)
        try:
            return SpecClaim(
                id=cid,
                kind=kind.name,
                mechanism=mech,
                over=over,
                pairs=pairs,
                distance=distance,
                expected=expected,
                statement=_string(c.get("statement", ""), location(where, "statement")),
                source=_string(c.get("source", ""), location(where, "source")),
                max_bits=max_bits,
                mechanism_name=mname,
                **kwargs,
            )
        except VerifierError as err:
            raise located(err, f"{where} ({cid!r})") from None

    def _free_symbol(self, name: str, where: str, needs: str) -> sp.Symbol:
        """The declared symbol ``name``, which must have no value (``needs``: what
        needs it free, for the message)."""
        if name not in self.symbols:
            raise SpecError(
                f"{where}: unknown symbol {name!r} (declare it in [symbols], without a value)"
            )
        sym = self.symbols[name]
        if sym in self.values:
            raise InvalidParameter(
                f"{where}: symbol {name!r} has a value ({self.values[sym]}); {needs}"
            )
        return sym

    def _over(self, raw: Any, where: str, kind: ClaimKind) -> ParameterRange | Box:
        t = _table(raw, where)
        if "symbol" not in t:
            return self._box(t, where, kind)
        if not kind.over:
            raise SpecError(
                f"{where}: a parameter range is supported for "
                f"{', '.join(sorted(RANGE_KINDS))} claims only, not {kind.name}"
            )
        _check_keys(t, where, _OVER_KEYS, _OVER_KEYS, what="a parameter range")
        sname = _string(t["symbol"], location(where, "symbol"))
        sym = self._free_symbol(sname, location(where, "symbol"), "a range needs a free symbol")
        lo = self.number(t["lo"], location(where, "lo"), "lower end")
        hi = self.number(t["hi"], location(where, "hi"), "upper end")
        self._check_magnitude(lo, location(where, "lo"))
        self._check_magnitude(hi, location(where, "hi"))
        if decide_le(lo, hi).verdict is Verdict.VIOLATED:
            raise InvalidParameter(f"{where}: empty range: lo = {lo} > hi = {hi}")
        for end, w in ((lo, "lo"), (hi, "hi")):
            if end in (sp.oo, -sp.oo, sp.zoo, sp.nan):
                raise InvalidParameter(f"{location(where, w)}: the ends of a range must be finite")
        try:
            check_interval_assumptions(sym, lo, hi, f"symbol {sname}")
        except VerifierError as err:
            raise located(err, where) from None
        return ParameterRange(sym, lo, hi)

    def _box(self, t: dict[str, Any], where: str, kind: ClaimKind) -> Box:
        """``over = { name = [lo, hi], ... }``: a box of at least two free symbols with
        rational ends."""
        if not kind.box:
            raise SpecError(
                f"{where}: a box of parameters is supported for "
                f"{', '.join(sorted(BOX_KINDS))} claims only, not {kind.name}"
            )
        if len(t) < 2:
            raise SpecError(
                f"{where}: a box needs at least two parameters (name = [lo, hi]); for one, "
                f"write over = {{ symbol = ..., lo = ..., hi = ... }}"
            )
        if len(t) > self.limits.max_box_parameters:
            raise InvalidParameter(
                f"{where}: a box of {len(t)} parameters, over the limit of "
                f"{self.limits.max_box_parameters} ({self.limits.hint('max_box_parameters')} "
                f"raises it; the exact "
                f"rewrite of a box decision grows exponentially with the number of parameters)"
            )
        domain: dict[sp.Symbol, tuple[sp.Expr, sp.Expr]] = {}
        for name, ends in t.items():
            w = location(where, name)
            sym = self._free_symbol(name, w, "a box needs free symbols")
            if not isinstance(ends, list) or len(ends) != 2:
                raise SpecError(f"{w}: the range of {name!r} must be a list [lo, hi]")
            lo = self.number(ends[0], location(w, 0), "lower end")
            hi = self.number(ends[1], location(w, 1), "upper end")
            self._check_magnitude(lo, location(w, 0))
            self._check_magnitude(hi, location(w, 1))
            domain[sym] = (lo, hi)
        try:
            return Box.of(domain)
        except VerifierError as err:
            raise located(err, where) from None

    def _per_output(
        self,
        param: Parameter,
        raw: Any,
        where: str,
        outputs: Sequence[Output],
        allow: tuple[sp.Symbol, ...],
    ) -> sp.Expr | dict[Output, sp.Expr]:
        """A bound per output: one value for every output, or a table output label ->
        value in which :data:`DEFAULT_KEY` gives the bound of every output not listed."""
        if not isinstance(raw, dict):
            value = self.number(raw, where, param.name, allow)
            try:
                return param.check(value, param.name)
            except VerifierError as err:
                raise located(err, where) from None
        by_label = {output_label(o): o for o in outputs}
        if DEFAULT_KEY in by_label and DEFAULT_KEY in raw:
            raise SpecError(
                f"{where}: the mechanism has an output named {DEFAULT_KEY!r}, which clashes "
                f"with the fallback key; list every output instead"
            )
        default = None
        table: dict[Output, sp.Expr] = {}
        for lab, v in raw.items():
            w = location(where, lab)
            value = self.number(v, w, param.name, allow)
            try:
                value = param.check(value, param.name)
            except VerifierError as err:
                raise located(err, w) from None
            if lab == DEFAULT_KEY and DEFAULT_KEY not in by_label:
                default = value
            elif lab in by_label:
                table[by_label[lab]] = value
            else:
                raise SpecError(
                    f"{w}: output {lab!r} is not an output of the mechanism "
                    f"(outputs: {_preview(list(by_label))})"
                )
        missing = [o for o in outputs if o not in table]
        if missing and default is None:
            raise SpecError(
                f"{where}: no bound for output(s) "
                f"{', '.join(repr(output_label(o)) for o in missing[:5])}"
                f"{' ...' if len(missing) > 5 else ''}; add them or a {DEFAULT_KEY!r} entry"
            )
        return {o: table.get(o, default) for o in outputs}

    def _pairs(self, raw: Any, where: str, mech: FiniteMechanism) -> list[tuple[Dataset, Dataset]]:
        out: list[tuple[Dataset, Dataset]] = []
        by_name = {dataset_label(d): d for d in mech.graph.nodes}
        for i, p in enumerate(_array(raw, where)):
            pw = location(where, i)
            p = _array(p, pw)
            if len(p) != 2:
                raise SpecError(f"{pw}: a pair is [D, D'], got {len(p)} entries")
            ds = []
            for j, x in enumerate(p):
                n = _name(x, location(pw, j))
                if n not in by_name:
                    raise InvalidMechanism(
                        f"{location(pw, j)}: unknown dataset {n!r} (datasets: "
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
