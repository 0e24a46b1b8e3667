"""Reporting: every result the verifier prints or writes goes through here.

:mod:`.outcomes` renders decided claims as a terminal table or JSON; the spec writer
(:mod:`verifier.spec`) renders mechanisms, claims and certificates as TOML or JSON.
"""

from .outcomes import (
    outcomes_json,
    outcomes_record,
    outcomes_table,
    scope_counts,
    scope_table,
    tightness_table,
)

__all__ = [
    "outcomes_json",
    "outcomes_record",
    "outcomes_table",
    "scope_counts",
    "scope_table",
    "tightness_table",
]
