"""Writing spec files: documents, TOML and JSON text, files, certificates.

:func:`spec_to_toml` / :func:`dump_spec` write a self-contained spec of one or more
:class:`~verifier.mechanism.FiniteMechanism` objects and claims on them (exact values
printed in the syntax the parser reads back), which is what certificates of
counterexamples are (:func:`certificate`).

>>> import sympy as sp
>>> from verifier.mechanism import FiniteMechanism
>>> from verifier.neighbours import pair
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
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import networkx as nx
import sympy as sp

from ..arithmetic import Verdict, exact
from ..boxes import Box
from ..errors import InvalidParameter, SpecError, VerifierError
from ..mechanism import FiniteMechanism, Output
from ..results import CheckResult, Finding
from .io import atomic_write
from .labels import dataset_label, expression_text, output_label, toml_key, toml_string
from .model import Spec, SpecClaim
from .read import SPEC_VERSION, loads_spec

__all__ = [
    "spec_document",
    "spec_to_toml",
    "spec_to_json",
    "dump_spec",
    "certificate",
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
        from ..expressions import parse_expression

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
        from ..expressions import validate_symbol_name

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
    if claim_docs:
        doc["claims"] = claim_docs
    return doc


def _toml_value(v: Any, multiline: bool = False) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return toml_string(v)
    if isinstance(v, (list, tuple)):
        items = [_toml_value(x) for x in v]
        one_line = "[" + ", ".join(items) + "]"
        if len(one_line) <= 88 or not multiline:
            return one_line
        return "[\n" + "".join(f"    {x},\n" for x in items) + "]"
    if isinstance(v, dict):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{toml_key(k)} = {_toml_value(x)}" for k, x in v.items()) + " }"
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
        lines.append(f"{toml_key(k)} = {_toml_value(v, multiline=True)}")
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
            lines.append("[" + ".".join(toml_key(x) for x in p) + "]")
        _emit(lines, p, v)
    for k, v in arrays:
        p = [*path, k]
        for item in v:
            lines.append("")
            lines.append("[[" + ".".join(toml_key(x) for x in p) + "]]")
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
    (:func:`dump_spec`) is small and re-checks to *violated*.  A claim about no
    mechanism (an ``inequality``) is its own certificate: ``None`` too.
    """
    if result.verdict is not Verdict.VIOLATED or claim.mechanism is None:
        return None
    bad = [f for f in result.violations() if f.pair is not None]
    if not bad:
        return None
    worst = min(bad, key=_finding_key)
    assert worst.pair is not None
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


def _finding_key(f: Finding) -> float:
    try:
        v = f.slack_value()
    except VerifierError:
        return float("inf")
    return v if v == v else float("inf")
