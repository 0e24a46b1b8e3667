"""Command-line interface: ``verifier check``, ``verifier casestudies``,
``verifier tradeoff``.

Exit codes (the same for every subcommand):

====  =====================================================================
0     every claim certified to hold (``casestudies``: every outcome matches
      its expectation)
1     some claim violated (``casestudies``: some outcome does not match)
2     bad input: unreadable or invalid spec, unknown name, bad option —
      one line ``error: <message>`` on stderr, never a traceback
3     undecided at the precision limit (and nothing violated)
4     internal error (a bug: the traceback is printed)
130   interrupted
====  =====================================================================

Subcommands are registered in :data:`COMMANDS`; adding one (``search``,
``tradeoff``) is a function configuring its :mod:`argparse` sub-parser and a
function running it, passed to :func:`register_command`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sympy as sp

from .arithmetic import Verdict, format_number
from .errors import (
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNDECIDED,
    EXIT_VIOLATED,
    UnknownClaim,
    VerifierError,
)

__all__ = [
    "main",
    "build_parser",
    "Command",
    "COMMANDS",
    "register_command",
    "EXIT_OK",
    "EXIT_VIOLATED",
    "EXIT_BAD_INPUT",
    "EXIT_UNDECIDED",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
]


@dataclass(frozen=True)
class Command:
    """A subcommand: its name, one-line help, parser set-up and runner.

    ``run(args)`` returns the exit code; it may raise
    :class:`~verifier.errors.VerifierError` for bad input (exit 2).
    """

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    description: str = ""


#: Subcommands by name, in the order ``verifier --help`` lists them.
COMMANDS: dict[str, Command] = {}


def register_command(cmd: Command) -> Command:
    """Add a subcommand (a later registration of the same name replaces it)."""
    COMMANDS[cmd.name] = cmd
    return cmd


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("verifier")
    except Exception:  # pragma: no cover - not installed as a distribution
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="verifier",
        description="Exact verification of differential-privacy claims on finite mechanisms.",
        epilog="exit codes: 0 holds, 1 violated, 2 bad input, 3 undecided, 4 internal error",
    )
    parser.add_argument("--version", action="version", version=f"verifier {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for cmd in COMMANDS.values():
        p = sub.add_parser(
            cmd.name,
            help=cmd.help,
            description=cmd.description or cmd.help,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        cmd.configure(p)
        p.set_defaults(_run=cmd.run)
    return parser


def _one_line(text: str) -> str:
    """The first line of a message (parse errors add the text with a caret below)."""
    lines = str(text).strip().splitlines() or [""]
    first = " ".join(lines[0].split())
    return first[:-1] if first.endswith(":") and len(lines) > 1 else first


def _json_dump(doc: Any) -> None:
    sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False, default=str) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); return the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version, or a usage error (argparse: 2)
        code = exit_.code
        return code if isinstance(code, int) else (EXIT_OK if code is None else EXIT_BAD_INPUT)
    run = getattr(args, "_run", None)
    if run is None:
        parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT
    want_json = bool(getattr(args, "json", False))
    try:
        return int(run(args))
    except VerifierError as err:
        msg = _one_line(str(err))
        print(f"error: {msg}", file=sys.stderr)
        if want_json:
            _json_dump({"error": msg, "exit_code": err.exit_code})
        return err.exit_code
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # output piped into a closed reader (e.g. `| head`)
        try:  # silence the failing flush at interpreter exit
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return EXIT_OK
    except Exception:
        print("internal error (please report it):", file=sys.stderr)
        traceback.print_exc()
        return EXIT_INTERNAL


# ---------------------------------------------------------------------------
# formatting helpers
# ---------------------------------------------------------------------------


def _num(x: Any) -> str:
    """Exact text and, for constants, a decimal value."""
    if x is None:
        return "-"
    if x is sp.oo:
        return "inf"
    if x is -sp.oo:
        return "-inf"
    if isinstance(x, sp.Basic):
        text = str(x)
        if len(text) > 300:
            text = text[:280] + " ... (exact value in --json)"
        if x.free_symbols or x.is_Integer:
            return text
        try:
            return f"{text} {format_number(x, digits=10, max_len=0)}"  # "<exact> ≈ <decimal>"
        except VerifierError:
            return text
    return str(x)


def _counterexample(claim: Any, result: Any) -> dict[str, Any] | None:
    """The exact numbers behind the worst violation of a spec claim."""
    from .spec import dataset_label, output_label

    bad = result.violations()
    if not bad:
        return None

    def key(f: Any) -> float:
        try:
            v = f.slack_value()
        except VerifierError:
            return float("inf")
        return v if v == v else float("inf")

    f = min(bad, key=key)
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
    out["numbers"] = {name: {"exact": str(v), "display": _num(v)} for name, v in rows}
    if f.failing:
        out["failing"] = [str(x) for x in f.failing]
    out["_rows"] = rows
    return out


def _verdict_word(v: Verdict) -> str:
    return v.value.upper()


def _safe_filename(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("._") or "claim"


# ---------------------------------------------------------------------------
# verifier check
# ---------------------------------------------------------------------------


def _configure_check(p: argparse.ArgumentParser) -> None:
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


def _matches(expected: str | None, verdict: Verdict) -> bool:
    if expected == "refuted":
        return verdict is Verdict.VIOLATED
    return verdict is Verdict.HOLDS


def _run_check(args: argparse.Namespace) -> int:
    from .spec import certificate, dump_spec, load_spec, precision_for

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
                target = cert_dir / f"{_safe_filename(claim.id)}.toml"
                cert_path = str(
                    dump_spec(
                        target,
                        {cert.mechanism_name: cert.mechanism},
                        cert,
                        title=f"Counterexample to claim {claim.id!r} of {args.file}",
                        comment=(
                            f"Certificate written by verifier {_version()}: claim {claim.id!r} "
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
        _json_dump(
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
    head += _verdict_word(result.verdict)
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
            print(f"    {name.ljust(width)} = {_num(v)}")
        for f in cex.get("failing", []):
            print(f"    fails on {f}")
    if cert is not None:
        print(f"  certificate: {cert}")
    print()


register_command(
    Command(
        "check",
        "check every claim of a spec file",
        _configure_check,
        _run_check,
        description=(
            "Check every claim of a spec file (TOML or JSON, see docs/spec-format.md).\n\n"
            "exit 0: every claim holds; 1: some claim is violated; 2: bad input;\n"
            "3: some claim is undecided at the precision limit (none violated)."
        ),
    )
)


# ---------------------------------------------------------------------------
# verifier casestudies
# ---------------------------------------------------------------------------


def _configure_casestudies(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="case studies, claim ids or id prefixes to run (default: all)",
    )
    p.add_argument("--list", action="store_true", help="list case studies and their claims")
    p.add_argument("--json", action="store_true", help="print one JSON document on stdout")


def _registry() -> Any:
    from .claims import REGISTRY, load_casestudies

    try:
        return load_casestudies()
    except ModuleNotFoundError as err:
        if err.name == "casestudies":
            return REGISTRY
        raise


def _run_casestudies(args: argparse.Namespace) -> int:
    from .claims import outcomes_json, outcomes_table

    reg = _registry()
    if not reg.claims:
        if args.names:
            raise UnknownClaim(
                f"no case study or claim named {args.names[0]!r} (no case studies are registered)"
            )
        if args.json:
            _json_dump({"casestudies": [], "claims": [], "matched": 0, "total": 0})
        else:
            print("no case-study claims are registered")
        return EXIT_OK
    claims = reg.select(args.names or None)
    if args.list:
        return _list_claims(reg, claims, args.json)
    outcomes = reg.run(claims)
    if args.json:
        sys.stdout.write(outcomes_json(outcomes) + "\n")
    else:
        print(outcomes_table(outcomes))
    return EXIT_OK if all(o.matches for o in outcomes) else EXIT_VIOLATED


def _list_claims(reg: Any, claims: list[Any], as_json: bool) -> int:
    studies: dict[str, list[Any]] = {}
    for c in claims:
        studies.setdefault(c.casestudy, []).append(c)
    if as_json:
        _json_dump(
            {
                "casestudies": [
                    {
                        "name": name,
                        "claims": [
                            {
                                "id": c.id,
                                "source": c.source,
                                "statement": c.statement,
                                "expected": c.expected,
                            }
                            for c in cs
                        ],
                    }
                    for name, cs in studies.items()
                ]
            }
        )
        return EXIT_OK
    for name, cs in studies.items():
        print(f"{name} ({len(cs)} claim{'s' if len(cs) != 1 else ''})")
        width = max(len(c.id) for c in cs)
        for c in cs:
            print(f"  {c.id.ljust(width)}  expected {c.expected:<7}  {c.source}")
            if c.statement:
                print(f"  {' ' * width}  {c.statement}")
    return EXIT_OK


register_command(
    Command(
        "casestudies",
        "run the registered case-study claims (theorems checked on instances)",
        _configure_casestudies,
        _run_casestudies,
        description=(
            "Run the claims registered by the casestudies package and compare each\n"
            "verdict with its expected outcome.\n\n"
            "exit 0: every outcome matches; 1: some outcome does not; 2: unknown name."
        ),
    )
)


# ---------------------------------------------------------------------------
# verifier tradeoff
# ---------------------------------------------------------------------------


def _configure_tradeoff(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "setting",
        choices=["repetition", "metaselection", "both"],
        help="left panel of Figure 1 (repetition), right panel (metaselection), or both",
    )
    p.add_argument(
        "--gamma",
        nargs="+",
        metavar="G",
        default=None,
        help="target failure probabilities, exact (1e-30, 1/1000, 2^-100); "
        "default: 1e-2 down to 1e-40",
    )
    p.add_argument("--K", type=int, default=4, help="number of settings (metaselection)")
    p.add_argument(
        "--c",
        nargs="+",
        type=int,
        default=None,
        metavar="C",
        help="repetition counts of the hybrids (overhead 3c); default: 2 3 4 6 8",
    )
    p.add_argument("--eps", default="1", help="epsilon of the lower-bound instances (exact)")
    p.add_argument(
        "--no-hard", action="store_true", help="skip the evaluation on the lower-bound instances"
    )
    p.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    p.add_argument(
        "--plot",
        metavar="FILE",
        default=None,
        help="write Figure 1 (the computed panels) to FILE (.png, .pdf, .svg); needs matplotlib",
    )


def _run_tradeoff(args: argparse.Namespace) -> int:
    from .errors import InvalidParameter
    from .expressions import parse_number
    from .tradeoff import DEFAULT_CS, plot_tradeoff, tradeoff

    gammas = None if args.gamma is None else [parse_number(g, {}) for g in args.gamma]
    eps = parse_number(args.eps, {})
    cs = tuple(args.c) if args.c else DEFAULT_CS
    if any(c < 2 for c in cs):
        raise InvalidParameter(f"--c: hybrid repetition counts must be >= 2, got {list(cs)}")
    settings = ["repetition", "metaselection"] if args.setting == "both" else [args.setting]
    panels = [
        tradeoff(s, gammas, K=args.K, cs=cs, eps=eps, hard_instances=not args.no_hard)
        for s in settings
    ]
    if args.plot:
        plot_tradeoff(panels, args.plot)
    verdict = panels[0].check().verdict
    for panel in panels[1:]:
        v = panel.check().verdict
        if v is Verdict.VIOLATED or (v is Verdict.UNDECIDED and verdict is Verdict.HOLDS):
            verdict = v
    if args.json:
        _json_dump(
            {
                "panels": [panel.to_dict() for panel in panels],
                "plot": args.plot,
                "verdict": verdict.value,
            }
        )
    else:
        for panel in panels:
            print(panel.table())
        if args.plot:
            print(f"Figure 1 written to {args.plot}")
    if verdict is Verdict.HOLDS:
        return EXIT_OK
    return EXIT_VIOLATED if verdict is Verdict.VIOLATED else EXIT_UNDECIDED


register_command(
    Command(
        "tradeoff",
        "Talwar 2025's privacy-computation trade-off (Figure 1), computed exactly",
        _configure_tradeoff,
        _run_tradeoff,
        description=(
            "For A_max^T, A_LT and the hybrids of Talwar 2025 (Theorems 11-14), tuned to\n"
            "each target failure probability gamma: the privacy overhead c, the exact\n"
            "expected number of oracle calls T, the exact failure probability, their\n"
            "values on the lower-bound instances (Theorems 7 and 10), and a certified\n"
            "comparison of T with the lower bound.\n\n"
            "exit 0: every point lies on the allowed side of the lower bound and fails\n"
            "with probability <= gamma; 1: some point does not; 2: bad input;\n"
            "3: undecided."
        ),
    )
)


from . import cli_search  # noqa: E402,F401  (registers `verifier search`)

if __name__ == "__main__":
    sys.exit(main())
