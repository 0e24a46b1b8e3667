"""``verifier check FILE``: decide every claim of a spec file.

::

    verifier check FILE [--json] [--max-bits N] [--claim ID ...] [--expected]
                        [--certificates DIR]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..arithmetic import Verdict
from ..errors import (
    EXIT_OK,
    EXIT_UNDECIDED,
    EXIT_VIOLATED,
    UnknownClaim,
)
from .common import Command, json_dump, number_text, safe_filename, version

__all__ = ["COMMAND", "configure", "run"]


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``verifier check``."""
    p.add_argument("file", metavar="FILE", help="spec file (.toml, or .json)")
    p.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    p.add_argument(
        "--max-bits",
        type=int,
        metavar="N",
        default=None,
        help="precision limit (bits) of certified comparisons; beyond it a comparison is "
        "undecided (default 4096, or each claim's max_bits)",
    )
    p.add_argument(
        "--claim",
        action="append",
        metavar="ID",
        default=None,
        help="check only this claim (repeatable)",
    )
    p.add_argument(
        "--expected",
        action="store_true",
        help="exit 0 iff every claim's verdict matches its 'expected' field (a claim without "
        "one must hold); 1 on a decided mismatch, 3 if some claim is undecided",
    )
    p.add_argument(
        "--certificates",
        metavar="DIR",
        default=None,
        help="write a minimal counterexample spec for every violated claim into DIR",
    )


def _counterexample(claim: Any, result: Any) -> dict[str, Any] | None:
    """The exact numbers behind the worst violation of a spec claim.

    The finding is :func:`verifier.spec.counterexample_finding`'s, the one
    :func:`verifier.spec.certificate` writes.
    """
    from ..spec import counterexample_finding, dataset_label, output_label

    f = counterexample_finding(result)
    if f is None:
        return None
    out: dict[str, Any] = {
        "output": None if f.output is None else output_label(f.output),
        "pair": None if f.pair is None else [dataset_label(d) for d in f.pair],
    }
    rows: list[tuple[str, Any]] = []
    mech = claim.mechanism
    if f.output is not None and f.pair is not None:
        d, d2 = f.pair
        a, b, o = dataset_label(d), dataset_label(d2), output_label(f.output)
        rows = [
            (f"P_{a}({o})", mech.p(d, f.output)),
            (f"P_{b}({o})", mech.p(d2, f.output)),
            (f"bound exp(eps({o})) * P_{b}({o})", f.rhs),
            (f"realized eps({o}) = log(P_{a}({o}) / P_{b}({o}))", f.realized),
            (f"claimed eps({o})", f.claimed),
        ]
    else:
        rows = [
            ("value", f.lhs),
            ("must be <=", f.rhs),
            ("realized", f.realized),
            ("claimed", f.claimed),
        ]
    out["numbers"] = {name: {"exact": str(v), "display": number_text(v)} for name, v in rows}
    if f.failing:
        out["failing"] = [str(x) for x in f.failing]
    out["_rows"] = rows
    return out


def _matches(expected: str | None, verdict: Verdict) -> bool:
    if expected == "refuted":
        return verdict is Verdict.VIOLATED
    return verdict is Verdict.HOLDS


def run(args: argparse.Namespace) -> int:
    """Run ``verifier check``; return the exit code."""
    from ..spec import certificate, dump_spec, load_spec, precision_for

    precision = precision_for(args.max_bits) if args.max_bits is not None else None
    spec = load_spec(args.file)
    claims = spec.claims
    if args.claim:
        known = {c.id for c in claims}
        for cid in args.claim:
            if cid not in known:
                raise UnknownClaim(f"{args.file}: no claim with id {cid!r}")
        claims = [c for c in claims if c.id in set(args.claim)]
    cert_dir = Path(args.certificates) if args.certificates else None
    records: list[dict[str, Any]] = []
    verdicts: list[Verdict] = []
    mismatched_decided = False
    for i, claim in enumerate(claims, 1):
        result = claim.run(precision)
        verdicts.append(result.verdict)
        match = _matches(claim.expected, result.verdict)
        if not match and result.verdict is not Verdict.UNDECIDED:
            mismatched_decided = True
        cex = _counterexample(claim, result) if result.verdict is Verdict.VIOLATED else None
        cert_path = None
        if cert_dir is not None and cex is not None:
            cert = certificate(claim, result)
            if cert is not None:
                target = cert_dir / f"{safe_filename(claim.id)}.toml"
                cert_path = str(
                    dump_spec(
                        target,
                        {cert.mechanism_name: cert.mechanism},
                        cert,
                        title=f"Counterexample to claim {claim.id!r} of {args.file}",
                        comment=(
                            f"Certificate written by verifier {version()}: claim {claim.id!r} "
                            f"of {args.file} is violated.\nRe-check it with: verifier check "
                            f"{target.name}  (exit code 1 = the violation is reproduced)"
                        ),
                    )
                )
        rec: dict[str, Any] = {
            "id": claim.id,
            "kind": claim.kind,
            "mechanism": claim.mechanism_name,
            "statement": claim.statement or claim.describe(),
            "source": claim.source,
            "expected": claim.expected,
            "verdict": result.verdict.value,
            "matches_expected": match if claim.expected is not None else None,
            "result": result.to_dict(),
            "counterexample": None
            if cex is None
            else {k: v for k, v in cex.items() if not k.startswith("_")},
            "certificate": cert_path,
        }
        records.append(rec)
        if not args.json:
            _print_claim(i, len(claims), claim, result, cex, cert_path)
    if args.expected:
        if mismatched_decided:
            code = EXIT_VIOLATED
        elif any(v is Verdict.UNDECIDED for v in verdicts):
            code = EXIT_UNDECIDED
        else:
            code = EXIT_OK
    elif any(v is Verdict.VIOLATED for v in verdicts):
        code = EXIT_VIOLATED
    elif any(v is Verdict.UNDECIDED for v in verdicts):
        code = EXIT_UNDECIDED
    else:
        code = EXIT_OK
    counts = {v.value: sum(1 for x in verdicts if x is v) for v in Verdict}
    if args.json:
        overall = (
            Verdict.VIOLATED
            if counts["violated"]
            else (Verdict.UNDECIDED if counts["undecided"] else Verdict.HOLDS)
        )
        json_dump(
            {
                "file": str(args.file),
                "title": spec.title,
                "verdict": overall.value,
                "exit_code": code,
                "counts": counts,
                "claims": records,
            }
        )
    else:
        if not claims:
            print(f"{args.file}: the spec is valid and has no claims to check")
        else:
            print(
                f"{len(claims)} claim(s): {counts['holds']} hold, {counts['violated']} violated, "
                f"{counts['undecided']} undecided"
                + (
                    f"; {sum(1 for r in records if r['matches_expected'] is False)} differ "
                    f"from their expected outcome"
                    if any(c.expected for c in claims)
                    else ""
                )
            )
    return code


def _print_claim(
    i: int, n: int, claim: Any, result: Any, cex: dict[str, Any] | None, cert: str | None
) -> None:
    head = f"[{i}/{n}] claim {claim.id} ({claim.kind} on {claim.mechanism_name}): "
    head += result.verdict.value.upper()
    if claim.expected is not None:
        ok = _matches(claim.expected, result.verdict)
        head += f"  (expected {claim.expected}: {'ok' if ok else 'MISMATCH'})"
    print(head)
    if claim.statement:
        print(f"  statement: {claim.statement}")
    if claim.source:
        print(f"  source: {claim.source}")
    for line in result.table().splitlines():
        print("  " + line)
    if cex is not None:
        where = []
        if cex["output"] is not None:
            where.append(f"output {cex['output']}")
        if cex["pair"] is not None:
            where.append(f"pair {cex['pair'][0]} -> {cex['pair'][1]}")
        print("  counterexample: " + (", ".join(where) or "(aggregate)"))
        rows = cex["_rows"]
        width = max(len(name) for name, _ in rows)
        for name, v in rows:
            print(f"    {name.ljust(width)} = {number_text(v)}")
        for f in cex.get("failing", []):
            print(f"    fails on {f}")
    if cert is not None:
        print(f"  certificate: {cert}")
    print()


COMMAND = Command(
    "check",
    "check every claim of a spec file",
    configure,
    run,
    description="Check every claim of a spec file (TOML or JSON, see docs/spec-format.md).",
    exit_codes={
        EXIT_OK: "every claim holds (--expected: every verdict is the expected one)",
        EXIT_VIOLATED: "some claim is violated (--expected: a decided verdict differs "
        "from the expected one)",
        EXIT_UNDECIDED: "some claim is undecided at the precision limit and none is "
        "violated (--expected: and no decided verdict differs)",
    },
)
