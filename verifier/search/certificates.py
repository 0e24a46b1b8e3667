"""Certificates: spec documents for instances, written as TOML (or JSON) and
re-verified before they are written.

A certificate is a self-contained spec file (``docs/spec-format.md``) in which

* the **base instance** is written by its exact distributions (or, for a function
  table or query vectors, as deterministic mechanisms),
* the **algorithm** is a derived mechanism (``algorithm = "ghazi_hyperparameter_tuning"``,
  ``"lt_random_stopping"``, ``"best_of"``, ``"sparse_vector"``, ...), so the file
  shows the base instance and the algorithm rather than only its output;
  where no transformer exists the exact output distribution is written instead,
* the **premises** are claims expected to hold (each base mechanism is ε_i-DP, ...),
* the **target** claim is expected to be refuted.

``verifier check CERT`` then exits 1 (a violation proved exactly), and
``verifier check --expected CERT`` exits 0 (every verdict as recorded).
:func:`write_certificate` proves both before writing, atomically.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..arithmetic.exact import Verdict, exact
from ..errors import CertificateError
from ..mechanism.model import Output
from ..spec import (
    atomic_write,
    dataset_label,
    document_text,
    expression_text,
    loads_spec,
    output_label,
)
from ..spec.premises import CERTIFICATE_KEY, certificate_marker
from .core import load_document
from .spaces import PairMech

__all__ = [
    "frac_text",
    "log_text",
    "expr_text",
    "pair_graph",
    "distribution_table",
    "deterministic_mechanism",
    "claim_entry",
    "derived_outputs",
    "skeleton_document",
    "pair_mechanism_document",
    "add_base_mechanisms",
    "float_rows",
    "to_toml",
    "write_certificate",
    "atomic_write",
    "CertificateError",
]

#: The neighbour graph of every built-in instance space.
DATASETS = ("D", "D'")


def frac_text(x: Fraction | int) -> str | int:
    """An exact rational in spec syntax (an int when integral)."""
    f = Fraction(x)
    if f.denominator == 1 and abs(f.numerator) < 2**63:
        return f.numerator
    return f"{f.numerator}/{f.denominator}"


def log_text(a: Fraction | int, factor: int = 1) -> str:
    """``"log(a)"`` (or ``"factor*log(a)"``) in spec syntax."""
    f = Fraction(a)
    inner = str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"
    return f"log({inner})" if factor == 1 else f"{factor}*log({inner})"


def expr_text(e: Any) -> str | int:
    """An exact sympy value in spec syntax."""
    v = exact(e)
    if v.is_Integer and abs(int(v)) < 2**63:
        return int(v)
    return expression_text(v)


def pair_graph() -> dict[str, Any]:
    return {"kind": "pair", "datasets": list(DATASETS)}


def distribution_table(p: Sequence[Fraction], outputs: Sequence[Output]) -> dict[str, str | int]:
    """``{output label: probability}`` (zeros omitted)."""
    return {output_label(o): frac_text(x) for o, x in zip(outputs, p, strict=True) if x != 0}


def deterministic_mechanism(graph: str, values: dict[str, Any]) -> dict[str, Any]:
    """A mechanism releasing ``values[D]`` with probability 1 at each dataset ``D``
    (a function table column, a query-answer vector)."""
    outs: list[Any] = []
    for v in values.values():
        if v not in outs:
            outs.append(v)
    outs.sort(key=lambda v: (len(v), v) if isinstance(v, tuple) else (0, v))
    return {
        "graph": graph,
        "outputs": [list(v) if isinstance(v, tuple) else v for v in outs],
        "distributions": {d: {output_label(v): 1} for d, v in values.items()},
    }


def claim_entry(
    claim_id: str, mechanism: str, kind: str, expected: str, **params: Any
) -> dict[str, Any]:
    """A ``[[claims]]`` entry (``params``: epsilon, epsilon_tilde, alpha, delta,
    statement, source)."""
    entry: dict[str, Any] = {"id": claim_id, "mechanism": mechanism, "kind": kind}
    for k in ("epsilon", "epsilon_tilde", "delta", "alpha"):
        if k in params and params[k] is not None:
            entry[k] = params[k]
    entry["expected"] = expected
    for k in ("statement", "source"):
        if params.get(k):
            entry[k] = params[k]
    return entry


def derived_outputs(doc: dict[str, Any], mechanism: str) -> list[Output]:
    """The outputs (in order) of ``mechanism`` in ``doc`` (loaded without claims)."""
    bare = {k: v for k, v in doc.items() if k != "claims"}
    return list(load_document(bare).mechanisms[mechanism].outputs)


def skeleton_document(title: str) -> dict[str, Any]:
    """An empty spec document on the pair graph ``g`` (``D``, ``D'``)."""
    return {
        "version": 1,
        "title": title,
        "graphs": {"g": pair_graph()},
        "mechanisms": {},
        "claims": [],
    }


def pair_mechanism_document(pm: PairMech) -> dict[str, Any]:
    """The spec entry of a mechanism on the pair graph with outputs ``0..m-1``."""
    outs = list(range(pm.m))
    return {
        "graph": "g",
        "outputs": outs,
        "distributions": {
            "D": distribution_table(pm.p, outs),
            "D'": distribution_table(pm.q, outs),
        },
    }


def add_base_mechanisms(
    doc: dict[str, Any], mechs: Sequence[PairMech], premise: bool = True
) -> list[str]:
    """Add ``M1, M2, ...`` to ``doc`` (with the premise claims "``M_j`` is
    ``log(a_j)``-DP" unless ``premise`` is false) and return their names."""
    names = []
    for j, pm in enumerate(mechs):
        name = f"M{j + 1}"
        doc["mechanisms"][name] = pair_mechanism_document(pm)
        names.append(name)
        if premise:
            doc["claims"].append(
                claim_entry(
                    f"premise-{name}",
                    name,
                    "pure_dp",
                    "holds",
                    epsilon=log_text(pm.a),
                    statement=f"premise: {name} is log({pm.a})-DP",
                )
            )
    return names


def float_rows(mechs: Sequence[PairMech]) -> list[tuple[list[float], list[float]]]:
    """The distributions of ``mechs`` in floats (screening only)."""
    return [([float(x) for x in pm.p], [float(x) for x in pm.q]) for pm in mechs]


def to_toml(doc: dict[str, Any], comment: str | None = None) -> str:
    """``doc`` as TOML text headed by ``comment``: :func:`verifier.spec.document_text`
    (the name this module had for it)."""
    return document_text(doc, "toml", comment=comment)


def certificate_text(doc: dict[str, Any], target: str, fmt: str, comment: str | None) -> str:
    """The certificate as text, with its ``[certificate]`` marker
    (:mod:`verifier.spec.premises`), after proving that it re-verifies: loaded by the
    spec reader, the target claim is violated and every other claim holds."""
    doc = {**doc, CERTIFICATE_KEY: certificate_marker(target, doc.get("claims", []))}
    text = document_text(doc, fmt, comment=comment)
    spec = loads_spec(text, fmt, source="<certificate>")
    seen = False
    for c in spec.claims:
        v = c.run().verdict
        if c.id == target:
            seen = True
            if v is not Verdict.VIOLATED:
                raise CertificateError(f"the certificate's target claim {target!r} is {v.value}")
        elif v is not Verdict.HOLDS:
            raise CertificateError(f"the certificate's premise {c.id!r} is {v.value}")
    if not seen:
        raise CertificateError(f"the certificate has no claim {target!r}")
    return text


def write_certificate(
    path: str | os.PathLike[str], doc: dict[str, Any], target: str, comment: str | None = None
) -> tuple[Path, str]:
    """Prove and write a certificate (TOML unless the suffix is ``.json``).

    Returns the path and the text.  Raises :class:`CertificateError` (and writes
    nothing) if the document does not re-verify.
    """
    p = Path(path)
    fmt = "json" if p.suffix.lower() == ".json" else "toml"
    text = certificate_text(doc, target, fmt, comment)
    return atomic_write(p, text), text


def dataset_names(names: list[Any]) -> list[str]:
    return [dataset_label(d) for d in names]
