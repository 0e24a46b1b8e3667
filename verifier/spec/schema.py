"""A JSON Schema (draft 2020-12) for spec files: ``verifier schema``.

The schema is built from the tables the reader itself uses — the top-level, symbol,
mechanism and claim keys of :mod:`verifier.spec.read`, the graph kinds
(:data:`~verifier.spec.read.GRAPH_KINDS`), the claim kinds
(:data:`~verifier.spec.kinds.CLAIM_KINDS`), the transformers
(:data:`~verifier.algorithms.TRANSFORMERS`) with their parameter names, and the
built-in distribution kinds (:data:`~verifier.spec.distributions.DISTRIBUTIONS`) —
so it cannot drift from them.  It describes the *shape* of a document (keys, types,
required entries); the reader decides the rest (exact values, sums to 1, ranges,
references between entries).  Every document the reader accepts validates; the
tests hold that for every example and every certificate they write.

A TOML spec is validated as the JSON document it decodes to (``tomllib.loads``).

>>> schema = spec_schema()
>>> schema["$defs"]["claim"]["properties"]["kind"]["enum"][:3]
['pure_dp', 'ex_post', 'approx_dp']
"""

from __future__ import annotations

from typing import Any

from .distributions import DISTRIBUTIONS
from .kinds import CLAIM_KINDS
from .read import (
    _OVER_KEYS,
    _SYMBOL_KEYS,
    _TOP_KEYS,
    GRAPH_KINDS,
    SPEC_VERSION,
)

__all__ = ["spec_schema", "SCHEMA_ID"]

#: The schema's identifier.
SCHEMA_ID = f"urn:verifier:spec:{SPEC_VERSION}"

_REF = "#/$defs/"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": _REF + name}


def _keys_schema(params: Any, required: list[str]) -> dict[str, Any]:
    """An object with exactly the keys ``params`` (names, or a mapping name -> the
    schema of its value)."""
    props = dict(params) if isinstance(params, dict) else {p: {} for p in params}
    return {
        "type": "object",
        "properties": props,
        "required": required,
        "additionalProperties": False,
    }


def _graph_defs() -> dict[str, Any]:
    fields = {
        "datasets": {"type": "array", "items": _ref("name")},
        "universe": {"type": "array", "items": _ref("name")},
        "edges": {
            "type": "array",
            "items": {"type": "array", "items": _ref("name"), "minItems": 2, "maxItems": 2},
        },
        "n": {"type": "integer"},
        "max_size": {"type": "integer"},
        "isolated": {"type": "array", "items": _ref("name")},
        "components": {"type": "integer", "minimum": 1},
    }
    variants = []
    for kind, (required, optional) in GRAPH_KINDS.items():
        variants.append(
            {
                "type": "object",
                "properties": {
                    "kind": {"const": kind},
                    **{k: fields[k] for k in (*required, *optional)},
                },
                "required": ["kind", *required],
                "additionalProperties": False,
            }
        )
    return {"oneOf": variants}


def _per_name_params(table: dict[str, Any], key: str, params_of: Any) -> list[dict[str, Any]]:
    """``if key == name then params has exactly name's parameters`` for every entry."""
    rules = []
    for name, entry in table.items():
        ps = params_of(entry)
        rules.append(
            {
                "if": {"properties": {key: {"const": name}}, "required": [key]},
                "then": {
                    "properties": {
                        "params": _keys_schema(
                            {p.name: dict(getattr(p, "schema", None) or {}) for p in ps},
                            [p.name for p in ps if p.required],
                        )
                    }
                },
            }
        )
    return rules


def _mechanism_defs() -> dict[str, Any]:
    from ..algorithms import TRANSFORMERS

    base = {
        "type": "object",
        "properties": {
            "graph": _ref("graph_ref"),
            "outputs": {"type": "array", "items": _ref("output"), "minItems": 1},
            "distributions": {
                "type": "object",
                "additionalProperties": {
                    "oneOf": [
                        {"type": "object", "additionalProperties": _ref("number")},
                        {"type": "array", "items": _ref("number")},
                    ]
                },
            },
            "description": {"type": "string"},
        },
        "required": ["graph", "outputs", "distributions"],
        "additionalProperties": False,
    }
    derived = {
        "type": "object",
        "properties": {
            "algorithm": {"enum": sorted(TRANSFORMERS)},
            "inputs": {"type": "array", "items": {"type": "string"}},
            "params": {"type": "object"},
            "description": {"type": "string"},
        },
        "required": ["algorithm", "inputs"],
        "additionalProperties": False,
        "allOf": _per_name_params(TRANSFORMERS, "algorithm", lambda t: t.params),
    }
    builtin = {
        "type": "object",
        "properties": {
            "graph": _ref("graph_ref"),
            "distribution": {"enum": sorted(DISTRIBUTIONS)},
            "params": {"type": "object"},
            "description": {"type": "string"},
        },
        "required": ["graph", "distribution"],
        "additionalProperties": False,
        "allOf": _per_name_params(DISTRIBUTIONS, "distribution", lambda k: k.params),
    }
    return {"oneOf": [base, derived, builtin]}


def _claim_defs() -> dict[str, Any]:
    params = {p.name: p for k in CLAIM_KINDS.values() for p in k.parameters}
    props: dict[str, Any] = {
        "id": {"type": "string", "minLength": 1},
        "mechanism": {"type": "string"},
        "kind": {"enum": list(CLAIM_KINDS)},
        "statement": {"type": "string"},
        "source": {"type": "string"},
        "expected": {"enum": ["holds", "refuted"]},
        # one parameter (a range) or a box of two or more: name = [lo, hi]
        "over": {
            "oneOf": [
                {
                    "type": "object",
                    "properties": {
                        "symbol": {"type": "string"},
                        "lo": _ref("number"),
                        "hi": _ref("number"),
                    },
                    "required": list(_OVER_KEYS),
                    "additionalProperties": False,
                },
                {
                    "type": "object",
                    "not": {"required": ["symbol"]},
                    "minProperties": 2,
                    "additionalProperties": {
                        "type": "array",
                        "items": _ref("number"),
                        "minItems": 2,
                        "maxItems": 2,
                    },
                },
            ]
        },
        "distance": {"type": "integer"},
        "pairs": {
            "type": "array",
            "items": {"type": "array", "items": _ref("name"), "minItems": 2, "maxItems": 2},
            "minItems": 1,
        },
        "max_bits": {"type": "integer"},
    }
    for name, p in params.items():
        if p.per_output:
            props[name] = {
                "oneOf": [
                    _ref("number"),
                    {"type": "object", "additionalProperties": _ref("number")},
                ]
            }
        else:
            props[name] = _ref("number")
    rules = []
    mechanism_only = ["mechanism", "over", "distance", "pairs"]
    for kind in CLAIM_KINDS.values():
        own = set(kind.parameter_names)
        forbidden = [n for n in params if n not in own]
        if not kind.mechanism:
            forbidden += mechanism_only
        required = ["id", "kind", *(["mechanism"] if kind.mechanism else []), *own]
        rules.append(
            {
                "if": {"properties": {"kind": {"const": kind.name}}, "required": ["kind"]},
                "then": {
                    "required": sorted(required),
                    "properties": {n: False for n in forbidden},
                },
            }
        )
    return {
        "type": "object",
        "properties": props,
        "required": ["id", "kind"],
        "additionalProperties": False,
        "allOf": rules,
    }


def spec_schema() -> dict[str, Any]:
    """The JSON Schema of spec files (see the module docstring)."""
    symbol = {
        "oneOf": [
            _ref("number"),
            {
                "type": "object",
                "properties": {
                    "value": _ref("number"),
                    **{k: {"type": "boolean"} for k in _SYMBOL_KEYS if k != "value"},
                },
                "additionalProperties": False,
            },
        ]
    }
    top: dict[str, Any] = {
        "version": {"const": SPEC_VERSION},
        "title": {"type": "string"},
        "description": {"type": "string"},
        "symbols": {"type": "object", "additionalProperties": symbol},
        "graphs": {"type": "object", "additionalProperties": _ref("graph")},
        "mechanisms": {"type": "object", "additionalProperties": _ref("mechanism")},
        "claims": {"type": "array", "items": _ref("claim")},
    }
    for key in _TOP_KEYS:  # a key the reader knows and this schema does not detail
        top.setdefault(key, {})
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"verifier spec file, version {SPEC_VERSION} (docs/spec-format.md)",
        "description": "Finite mechanisms and privacy claims about them; every number is "
        "exact: an integer or a string holding an expression (floats are refused).",
        "type": "object",
        "properties": top,
        "additionalProperties": False,
        "$defs": {
            "number": {
                "description": "an integer, or an exact expression as text ('1/2', 'log(3)')",
                "type": ["integer", "string"],
            },
            "name": {"type": ["string", "integer"]},
            "output": {
                "oneOf": [
                    {"type": ["string", "integer"]},
                    {"type": "array", "items": _ref("output"), "minItems": 1},
                ]
            },
            "graph": _graph_defs(),
            "graph_ref": {"oneOf": [{"type": "string"}, _ref("graph")]},
            "mechanism": _mechanism_defs(),
            "claim": _claim_defs(),
        },
    }
