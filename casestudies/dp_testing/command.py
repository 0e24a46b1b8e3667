"""``verifier export``: the DP testing suite as data a tool author can use.

::

    verifier export dp_testing [--format json | --json] [-o FILE] [--only NAME ...]

One JSON document: for every decided mechanism of the suite
(:data:`casestudies.dp_testing.claims.ENTRIES`), its claimed ε, its exact ε (closed
form as text and a float, per ordered input pair too), the verdict of the certified
comparison, where the supremum is attained, and — where the entry provides it — the
exact output distributions (finite mechanisms) or the densities' closed forms on each
input of its pairs; the mechanisms out of reach with the reason.  ``-o FILE`` writes
it atomically (a reader sees the old file or the new one), otherwise it goes to stdout.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from verifier.cli.common import Command, json_dump, output_file
from verifier.errors import (
    EXIT_OK,
    EXIT_UNDECIDED,
    EXIT_VIOLATED,
    InvalidParameter,
    VerifierError,
)

if TYPE_CHECKING:  # the engine is imported when the command runs, not when it is listed
    from .suite import SuiteEntry

__all__ = ["COMMAND", "configure", "run", "export_entry", "export_document", "FORMAT_VERSION"]

#: Version of the document's layout (raised when a field changes meaning).
FORMAT_VERSION = 1

#: The case studies ``verifier export`` knows.
CASESTUDIES = ("dp_testing",)


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``verifier export``."""
    p.add_argument("casestudy", choices=CASESTUDIES, help="the case study to export")
    p.add_argument(
        "--format", choices=["json"], default="json", help="the output format (default json)"
    )
    p.add_argument(
        "--json",
        action="store_const",
        const="json",
        dest="format",
        help="the same as --format json (the document is JSON; every subcommand takes --json)",
    )
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        default=None,
        help="write the document to FILE (atomically) instead of stdout",
    )
    p.add_argument(
        "--only",
        nargs="+",
        metavar="NAME",
        default=None,
        help="export only these entries (names as in the claim ids, e.g. rappor prefix_sum)",
    )


def _number(value: Any, name: str) -> dict[str, Any]:
    from verifier.checks.results import measured_record

    rec = measured_record({name: value})
    return {name: rec[f"exact_{name}"], f"{name}_approx": rec[f"exact_{name}_approx"]}


def export_entry(entry: SuiteEntry) -> dict[str, Any]:
    """The record of one entry: what it claims, its exact ε and verdict, per ordered
    pair, and its exact laws on its inputs (``distributions``) when it exports them."""
    from verifier.arithmetic.exact import decide_le, exact
    from verifier.checks.results import measured_record

    rec: dict[str, Any] = {
        "name": entry.name,
        "id": entry.id,
        "tool": entry.tool,
        "source": entry.source,
        "kind": entry.kind,
        "expected": entry.expected,
        **_number(exact(entry.claimed), "claimed"),
        "pairs": entry.pairs,
    }
    if entry.exact is None:
        rec["out_of_reach"] = entry.out_of_reach
        return rec
    try:
        eps = entry.exact()
        verdict = decide_le(eps.value, exact(entry.claimed)).verdict
        distributions = entry.export() if entry.export is not None else None
    except VerifierError as err:
        raise type(err)(f"{entry.id}: {err}") from err
    rec.update(measured_record({"epsilon": eps.value}))
    rec["verdict"] = verdict.value
    rec["witness"] = eps.witness
    rec["method"] = eps.method
    rec["per_pair"] = [{"pair": label, **_number(v, "epsilon")} for label, v in eps.per_pair]
    if distributions is not None:
        rec["distributions"] = distributions
    return rec


def export_document(entries: list[SuiteEntry], casestudy: str = "dp_testing") -> dict[str, Any]:
    """The whole document: a header and one record per entry (in the suite's order)."""
    return {
        "casestudy": casestudy,
        "format_version": FORMAT_VERSION,
        "description": "Exact epsilon of each mechanism of the DP testing benchmark suites "
        "(DP-Sniper's default experiment, StatDP's algorithms) on the tools' own parameters "
        "and input pairs. exact_epsilon is a closed form (sympy syntax), "
        "exact_epsilon_approx a float for display; verdict compares them with the claimed "
        "epsilon by certified arithmetic. distributions gives the exact output law on each "
        "input (finite mechanisms) or its density in closed form.",
        "entries": [export_entry(e) for e in entries],
    }


def _select(entries: list[SuiteEntry], only: list[str] | None) -> list[SuiteEntry]:
    if not only:
        return entries
    names = {e.name: e for e in entries}
    unknown = [n for n in only if n not in names]
    if unknown:
        raise InvalidParameter(
            f"--only: no entry named {', '.join(unknown)} (known: {', '.join(names)})"
        )
    return [e for e in entries if e.name in set(only)]


def run(args: argparse.Namespace) -> int:
    """Run ``verifier export``; return the exit code."""
    if args.output is not None:  # checked before the work starts
        output_file(args.output, "-o")
    from verifier.spec.io import atomic_write

    from .claims import ENTRIES

    doc = export_document(_select(ENTRIES, args.only), args.casestudy)
    if args.output is None:
        json_dump(doc)
    else:
        atomic_write(args.output, json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    undecided = any(e.get("verdict") == "undecided" for e in doc["entries"])
    return EXIT_UNDECIDED if undecided else EXIT_OK


COMMAND = Command(
    "export",
    "export a case study's exact results as data (the DP testing suite)",
    configure,
    run,
    description=(
        "Write, for every decided mechanism of the DP testing suite (DP-Sniper's default\n"
        "experiment and StatDP's algorithms, on the tools' own parameters and input\n"
        "pairs), its claimed and exact epsilon (closed form and float, per input pair),\n"
        "the certified verdict, and its exact output distributions or density closed\n"
        "forms on each input, as one JSON document."
    ),
    exit_codes={
        EXIT_OK: "the document was written",
        EXIT_VIOLATED: "never: a violated claim is a verdict in the document, not an error",
        EXIT_UNDECIDED: "the document was written, and some comparison of an exact epsilon "
        "with its claim is undecided at the precision limit",
    },
)
