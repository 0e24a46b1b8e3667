"""Spec files: mechanisms and privacy claims described in TOML or JSON.

A spec file describes symbols, neighbour graphs, finite mechanisms (given by their
distributions, or derived by an algorithm from other mechanisms) and claims about
them; :func:`load_spec` reads one, validating everything, and
:meth:`SpecClaim.run` decides a claim exactly with :mod:`verifier.checks.privacy`.  The
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

The package:

* :mod:`~verifier.spec.kinds` -- the claim kinds, one table entry each
  (:data:`CLAIM_KINDS`);
* :mod:`~verifier.spec.distributions` -- the built-in distribution kinds
  (``distribution = "randomized_response"``, ...);
* :mod:`~verifier.spec.schema` -- the JSON Schema of spec files (``verifier schema``);
* :mod:`~verifier.spec.model` -- :class:`SpecClaim` and :class:`Spec`;
* :mod:`~verifier.spec.read` -- :func:`load_spec`, :func:`loads_spec` (strict, every
  error located in the file);
* :mod:`~verifier.spec.write` -- :func:`document_text` (the one writer of spec
  files: a document as TOML or JSON text), :func:`spec_to_toml`, :func:`dump_spec`,
  :func:`certificate` and :func:`counterexample_finding` (self-contained specs, exact
  values the parser reads back);
* :mod:`~verifier.spec.labels` -- names of outputs, datasets, expressions, locations;
* :mod:`~verifier.spec.io` -- :func:`atomic_write`.

>>> from verifier.spec import loads_spec
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

from typing import TYPE_CHECKING

from .. import _lazy

if TYPE_CHECKING:  # what the lazy attributes below are, for type checkers
    from .io import atomic_write
    from .kinds import CLAIM_KINDS, RANGE_KINDS, ClaimKind, Parameter
    from .labels import dataset_label, expression_text, output_label
    from .model import Spec, SpecClaim, precision_for
    from .read import GRAPH_KINDS, SPEC_VERSION, load_spec, loads_spec
    from .write import (
        certificate,
        counterexample_finding,
        document_text,
        dump_spec,
        spec_document,
        spec_to_json,
        spec_to_toml,
    )

#: Public names and the submodule that defines each, imported on first use (PEP 562):
#: ``verifier.spec.limits`` (the command line's defaults) loads without the reader.
_LAZY: dict[str, str] = {
    "atomic_write": "io",
    "CLAIM_KINDS": "kinds",
    "RANGE_KINDS": "kinds",
    "ClaimKind": "kinds",
    "Parameter": "kinds",
    "dataset_label": "labels",
    "expression_text": "labels",
    "output_label": "labels",
    "Spec": "model",
    "SpecClaim": "model",
    "precision_for": "model",
    "GRAPH_KINDS": "read",
    "SPEC_VERSION": "read",
    "load_spec": "read",
    "loads_spec": "read",
    "certificate": "write",
    "counterexample_finding": "write",
    "document_text": "write",
    "dump_spec": "write",
    "spec_document": "write",
    "spec_to_json": "write",
    "spec_to_toml": "write",
}


__getattr__ = _lazy(__name__, _LAZY)


__all__ = [
    "atomic_write",
    "SPEC_VERSION",
    "CLAIM_KINDS",
    "RANGE_KINDS",
    "ClaimKind",
    "Parameter",
    "GRAPH_KINDS",
    "Spec",
    "SpecClaim",
    "load_spec",
    "loads_spec",
    "spec_document",
    "document_text",
    "spec_to_toml",
    "spec_to_json",
    "dump_spec",
    "certificate",
    "counterexample_finding",
    "output_label",
    "dataset_label",
    "expression_text",
    "precision_for",
]
