"""Writing spec files: documents, TOML and JSON text, files, certificates.

:func:`document_text` writes a spec document (a plain dict in the schema of the
files) as TOML or JSON text; every spec file the verifier writes goes through it.
:func:`spec_to_toml` / :func:`dump_spec` write a self-contained spec of one or more
:class:`~verifier.mechanism.model.FiniteMechanism` objects and claims on them (exact values
printed in the syntax the parser reads back), which is what certificates of
counterexamples are (:func:`certificate`).

>>> import sympy as sp
>>> from verifier.mechanism.model import FiniteMechanism
>>> from verifier.mechanism.neighbours import pair
>>> from verifier.spec.model import SpecClaim
>>> m = FiniteMechanism(pair(), {"D": {0: sp.Rational(1, 3), 1: sp.Rational(2, 3)},
...                             "D'": {0: sp.Rational(2, 3), 1: sp.Rational(1, 3)}}, name="m")
>>> print(spec_to_toml(m, SpecClaim(id="c", kind="pure_dp", mechanism=m, epsilon=sp.log(2))))
version = 1
<BLANKLINE>
[graphs.g]
kind = "edges"
datasets = ["D", "D'"]
edges = [["D", "D'"]]
<BLANKLINE>
[mechanisms.m]
graph = "g"
outputs = [0, 1]
<BLANKLINE>
[mechanisms.m.distributions]
D = { 0 = "1/3", 1 = "2/3" }
"D'" = { 0 = "2/3", 1 = "1/3" }
<BLANKLINE>
[[claims]]
id = "c"
mechanism = "m"
kind = "pure_dp"
epsilon = "log(2)"
<BLANKLINE>
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypedDict, Unpack

import networkx as nx
import sympy as sp

from ..arithmetic.exact import Verdict, exact
from ..checks.boxes import Box
from ..checks.results import CheckResult, Finding
from ..errors import InvalidParameter, SpecError, VerifierError
from ..mechanism.model import FiniteMechanism, Output
from .io import atomic_write
from .labels import (
    dataset_label,
    expression_text,
    location,
    output_label,
    toml_key,
    toml_string,
)
from .model import Spec, SpecClaim
from .premises import CERTIFICATE_KEY, certificate_marker
from .read import SPEC_VERSION, loads_spec

__all__ = [
    "document_text",
    "spec_document",
    "spec_to_toml",
    "spec_to_json",
    "dump_spec",
    "certificate",
    "counterexample_finding",
]


def _symbol_names(exprs: Iterable[sp.Expr]) -> set[sp.Symbol]:
    out: set[sp.Symbol] = set()
    for e in exprs:
        if isinstance(e, sp.Basic):
            out |= e.free_symbols
    return out


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
        from ..arithmetic.expressions import parse_expression

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
        entry: dict[str, Any] = {"kind": "edges", "datasets": names, "edges": edges}
        lonely = [labels[d] for d in g.nodes if g.degree(d) == 0]
        if lonely:
            entry["isolated"] = lonely
        rest = g.subgraph([d for d in g.nodes if g.degree(d) > 0])
        if rest.number_of_nodes() and nx.number_connected_components(rest) > 1:
            entry["components"] = nx.number_connected_components(rest)
        self.graphs[gname] = entry
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

    def claim(self, c: SpecClaim, mech_key: str | None) -> dict[str, Any]:
        out: dict[str, Any] = {"id": c.id}
        if mech_key is not None:
            out["mechanism"] = mech_key
        out["kind"] = c.kind
        for p in c.claim_kind.document_order:
            v = getattr(c, p.name)
            if p.per_output and isinstance(v, dict):  # one value when all bounds are equal
                vals = list(v.values())
                if vals and all(x == vals[0] for x in vals):
                    out[p.name] = self.text(vals[0])
                else:
                    out[p.name] = {output_label(o): self.text(x) for o, x in v.items()}
            else:
                out[p.name] = self.text(v)
        if isinstance(c.over, Box):
            out["over"] = {
                str(s): [self.text(sp.Rational(lo)), self.text(sp.Rational(hi))]
                for s, lo, hi in zip(c.over.symbols, c.over.lows, c.over.highs, strict=True)
            }
        elif c.over is not None:
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
        from ..arithmetic.expressions import validate_symbol_name

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
ClaimsArg = SpecClaim | Sequence[SpecClaim] | None


class _DocumentOptions(TypedDict, total=False):
    """The keyword arguments of :func:`spec_document` that the writers of text and
    files pass on to it (``title``, ``description``, ``certificate``)."""

    title: str | None
    description: str | None
    certificate: str | None


def spec_document(
    mechanisms: MechanismsArg,
    claims: ClaimsArg = None,
    *,
    title: str | None = None,
    description: str | None = None,
    certificate: str | None = None,
) -> dict[str, Any]:
    """A spec document (plain dict, the schema of the files) describing ``mechanisms``
    and ``claims`` self-containedly: every mechanism is written by its exact
    distributions on an explicit ``edges`` graph, derived ones included.

    ``mechanisms`` is one mechanism, a mapping name → mechanism, or a :class:`Spec`
    (whose claims are written when ``claims`` is None).  ``certificate`` names the
    target claim of a certificate: the document then carries the ``[certificate]``
    marker, every other claim being a premise (:mod:`verifier.spec.premises`).
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
        extras.extend(c.parameter_values())
        if isinstance(c.over, Box):
            extras.extend(c.over.symbols)
        elif c.over is not None:
            extras.extend([c.over.symbol, c.over.lo, c.over.hi])
    for m in mechs.values():
        w.add_symbols(m, extras)
    mech_docs = {name: w.mechanism(m) for name, m in mechs.items()}
    claim_docs = []
    for c in claim_list:
        key = None
        if c.mechanism is not None:
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
    if certificate is not None:
        doc[CERTIFICATE_KEY] = certificate_marker(certificate, claim_docs)
    if claim_docs:
        doc["claims"] = claim_docs
    return doc


def document_text(doc: dict[str, Any], fmt: str = "toml", *, comment: str | None = None) -> str:
    """A spec document (a plain dict in the schema of the files) as TOML or JSON text.

    This is the one writer of spec files: :func:`spec_to_toml`, :func:`dump_spec` and
    the certificates of the search (:mod:`verifier.search.certificates`) use it.

    Parameters
    ----------
    doc : dict
        The document: tables (dicts with string keys), arrays (lists, tuples),
        strings, integers and booleans; exact numbers are strings (``"1/3"``).
    fmt : {"toml", "json"}
        The format of the text.
    comment : str, optional
        Heads the TOML text as ``#`` lines and a blank line.  JSON has no comments:
        it is not written there.

    Returns
    -------
    str
        The text, ending in a newline.  The TOML text is read back with
        :mod:`tomllib` before it is returned and must give ``doc`` again.

    Raises
    ------
    InvalidParameter
        A value of another type (a float, ``None``, ...), a key that is not a string,
        or (TOML) an integer beyond 64 bits or a control character in ``comment``.
    SpecError
        An unknown ``fmt``.

    Notes
    -----
    The TOML layout: the plain values of the top level first (``version``,
    ``title``, ...); a section for every top-level table (``[symbols]``), for every
    definition in ``graphs`` and ``mechanisms`` (``[mechanisms.rr]``) and for every
    table whose values are all tables (``[mechanisms.rr.distributions]``, holding one
    inline table per dataset); then one ``[[claims]]`` section per entry of a
    top-level array of tables.  Every other value is written on one line, in the
    order of ``doc``: inline tables ``{ k = v }`` and arrays ``[a, b]``; keys are
    bare when TOML allows and quoted otherwise (``"D'"``).

    >>> print(document_text({"version": 1, "symbols": {"t": {"positive": True}},
    ...                      "claims": [{"id": "c", "over": {"lo": 0, "hi": "1/2"}}]},
    ...                     comment="made by hand"))
    # made by hand
    <BLANKLINE>
    version = 1
    <BLANKLINE>
    [symbols]
    t = { positive = true }
    <BLANKLINE>
    [[claims]]
    id = "c"
    over = { lo = 0, hi = "1/2" }
    <BLANKLINE>
    """
    if fmt not in ("toml", "json"):
        raise SpecError(f"unknown spec format {fmt!r} (use 'toml' or 'json')")
    if not isinstance(doc, dict):
        raise InvalidParameter(f"a spec document is a dict, not {type(doc).__name__}")
    _check_value(doc, "", toml=fmt == "toml")
    if fmt == "json":
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    lines = ["# " + line if line else "#" for line in (comment or "").splitlines()]
    bad = sorted({c for line in lines for c in line if c in _NOT_IN_COMMENTS})
    if bad:
        raise InvalidParameter(f"the comment holds control characters TOML forbids: {bad}")
    if lines:
        lines.append("")
    _table_lines(lines, [], doc)
    text = "\n".join(lines).strip("\n") + "\n"
    if tomllib.loads(text) != json.loads(json.dumps(doc)):  # pragma: no cover - a bug
        raise VerifierError("the TOML writer did not reproduce the document")
    return text


#: Characters a TOML comment cannot hold (the control characters but tab).
_NOT_IN_COMMENTS = frozenset(map(chr, [*range(0x09), *range(0x0A, 0x20), 0x7F]))


def _check_value(value: Any, where: str, *, toml: bool) -> None:
    """Raise :class:`InvalidParameter` unless ``value`` can be written in a spec file."""
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise InvalidParameter(f"{where or 'the document'}: the key {k!r} is not a string")
            _check_value(v, location(where, k), toml=toml)
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _check_value(v, location(where, i), toml=toml)
    elif isinstance(value, int) and not isinstance(value, bool):
        if toml and not -(2**63) <= value < 2**63:
            raise InvalidParameter(
                f"{where}: the integer {value} does not fit in TOML's 64 bits "
                "(write it as a string)"
            )
    elif not isinstance(value, (str, bool)):
        raise InvalidParameter(
            f"{where}: cannot write {type(value).__name__} {value!r} in a spec file "
            '(exact numbers are strings such as "1/3")'
        )


def _inline(v: Any) -> str:
    """``v`` on one line: a TOML value, an inline table or an array."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return toml_string(v)
    if isinstance(v, dict):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{toml_key(k)} = {_inline(x)}" for k, x in v.items()) + " }"
    return "[" + ", ".join(_inline(x) for x in v) + "]"


def _is_section(path: list[str], v: Any) -> bool:
    """Whether the table ``v`` inside the table at ``path`` is written as a section."""
    if not isinstance(v, dict) or not v:
        return False
    if not path or path in (["graphs"], ["mechanisms"]):
        return True
    return all(isinstance(x, dict) for x in v.values())


def _is_array_of_tables(path: list[str], v: Any) -> bool:
    return (
        not path
        and isinstance(v, (list, tuple))
        and bool(v)
        and all(isinstance(x, dict) for x in v)
    )


def _table_lines(lines: list[str], path: list[str], table: dict[str, Any]) -> None:
    """Append the table at ``path`` (its header when it has plain values) and its
    sections to ``lines``; layout in :func:`document_text`."""
    plain, sections, arrays = [], [], []
    for k, v in table.items():
        if _is_section(path, v):
            sections.append((k, v))
        elif _is_array_of_tables(path, v):
            arrays.append((k, v))
        else:
            plain.append((k, v))
    if path and (plain or not sections):
        lines += ["", "[" + ".".join(toml_key(p) for p in path) + "]"]
    lines += [f"{toml_key(k)} = {_inline(v)}" for k, v in plain]
    for k, v in sections:
        _table_lines(lines, [*path, k], v)
    for k, v in arrays:
        for item in v:
            lines += ["", f"[[{toml_key(k)}]]"]
            lines += [f"{toml_key(ik)} = {_inline(iv)}" for ik, iv in item.items()]


def spec_to_toml(
    mechanisms: MechanismsArg,
    claims: ClaimsArg = None,
    *,
    comment: str | None = None,
    **document: Unpack[_DocumentOptions],
) -> str:
    """A self-contained TOML spec of ``mechanisms`` and ``claims`` (see
    :func:`spec_document`, also for ``certificate``), optionally headed by a ``#``
    comment."""
    return document_text(spec_document(mechanisms, claims, **document), "toml", comment=comment)


def spec_to_json(
    mechanisms: MechanismsArg, claims: ClaimsArg = None, **document: Unpack[_DocumentOptions]
) -> str:
    """The same document as :func:`spec_to_toml`, as JSON."""
    return document_text(spec_document(mechanisms, claims, **document), "json")


def dump_spec(
    path: str | os.PathLike[str],
    mechanisms: MechanismsArg,
    claims: ClaimsArg = None,
    *,
    comment: str | None = None,
    fmt: str | None = None,
    verify: bool = True,
    **document: Unpack[_DocumentOptions],
) -> Path:
    """Write a self-contained spec file atomically (temporary file + ``os.replace``).

    The format follows the suffix (``.json``: JSON, else TOML) unless ``fmt`` is
    given.  With ``verify`` (default) the text is read back with :func:`loads_spec`
    before it is written, so a file that would not load is never produced.
    ``certificate`` names the target claim of a certificate (:func:`spec_document`).
    """
    p = Path(path)
    fmt = fmt or ("json" if p.suffix.lower() == ".json" else "toml")
    if fmt == "toml":
        text = spec_to_toml(mechanisms, claims, comment=comment, **document)
    elif fmt == "json":
        text = spec_to_json(mechanisms, claims, **document)
    else:
        raise SpecError(f"unknown spec format {fmt!r} (use 'toml' or 'json')")
    if verify:
        loads_spec(text, fmt, source=str(p))
    atomic_write(p, text)
    return p


def certificate(claim: SpecClaim, result: CheckResult) -> SpecClaim | None:
    """A minimal counterexample for a violated claim: the claim restricted to the
    mechanism on the two datasets of the pair of :func:`counterexample_finding`
    (``None`` unless violated, or when that finding has no pair).

    The returned claim checks only that ordered pair, so a spec written from it
    (:func:`dump_spec`) is small and re-checks to *violated*.  A claim about no
    mechanism (an ``inequality``) is its own certificate: ``None`` too.
    """
    if claim.mechanism is None:
        return None
    worst = counterexample_finding(result)
    if worst is None or worst.pair is None:
        return None
    d, d2 = worst.pair
    mech = claim.mechanism.restrict([d, d2], name=claim.mechanism_name)
    params = {p.name: _copy(getattr(claim, p.name)) for p in claim.claim_kind.parameters}
    return SpecClaim(
        id=f"{claim.id}-counterexample",
        kind=claim.kind,
        mechanism=mech,
        over=claim.over,
        pairs=[(d, d2)],
        expected="refuted",
        statement=(claim.statement or claim.describe())
        + f" -- fails on the pair {dataset_label(d)} -> {dataset_label(d2)}",
        source=claim.source,
        max_bits=claim.max_bits,
        mechanism_name=claim.mechanism_name,
        **params,
    )


def _copy(value: Any) -> Any:
    return dict(value) if isinstance(value, dict) else value


def counterexample_finding(result: CheckResult) -> Finding | None:
    """The finding a violated result is shown by: the violation with the smallest
    slack (``None`` unless ``result`` is violated).

    ``verifier check`` prints its numbers and :func:`certificate` restricts the
    mechanism to its pair.  The slack is compared in floats (for choosing only, the
    verdicts are exact); a slack that cannot be evaluated ranks last.
    """
    if result.verdict is not Verdict.VIOLATED:
        return None
    bad = result.violations()
    if not bad:
        return None

    def key(f: Finding) -> float:
        try:
            v = f.slack_value()
        except VerifierError:
            return float("inf")
        return v if v == v else float("inf")

    return min(bad, key=key)
