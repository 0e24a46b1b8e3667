"""``verifier check FILE``: decide every claim of a spec file.

::

    verifier check FILE [FILE ...] [--json] [--max-bits N] [--claim ID ...]
                        [--expected] [--certificates DIR] [--max-outputs N]
                        [--max-work N] [--max-exponent N] [--max-box-parameters N]
                        [--max-file-size BYTES]
                        [--workers W | --dask local[:N] | --dask tcp://HOST:PORT]

Several files (as a pre-commit hook passes them) are checked one after another; the
exit code is the most severe of theirs (2 bad input, then 1, then 3, then 0), and a
file that cannot be read is reported and skipped.

A file whose claims are a certificate's (a target expected refuted and premises
expected to hold, :mod:`verifier.spec.premises`) is judged as a certificate: the
premises are decided first, and the target's violation counts only when every premise
holds (exit 2 "invalid certificate: premise P fails" otherwise, whatever the flags).

A claim over a box of parameters whose decision needs more than a first depth-first
pass splits the box into pieces (:mod:`verifier.checks.boxes`); ``--workers W`` settles them
in W local processes and ``--dask`` on a dask cluster, with the same verdicts.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import json
import sys
from typing import TYPE_CHECKING, Any

from ..errors import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    EXIT_UNDECIDED,
    EXIT_VIOLATED,
    InvalidParameter,
    SpecError,
    UnknownClaim,
    VerifierError,
)
from .common import (
    MAX_WORKERS,
    Command,
    add_json_option,
    add_progress_option,
    add_runner_options,
    exact_text,
    int_option,
    json_dump,
    number_text,
    one_line,
    output_directory,
    progress_wanted,
    say,
    version,
)

if TYPE_CHECKING:
    from ..arithmetic.exact import Verdict

__all__ = ["COMMAND", "configure", "run"]


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``verifier check``."""
    p.add_argument("file", metavar="FILE", nargs="+", help="spec file(s) (.toml, or .json)")
    add_json_option(p)
    p.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="print only the claims that count against the exit code (violated or undecided; "
        "with --expected, those whose verdict is not the expected one) and the summary of "
        "their files: a run where everything is as it should be prints nothing",
    )
    add_progress_option(p)
    p.add_argument(
        "--max-bits",
        type=int_option(16, 1 << 20),
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
        help="write a minimal counterexample spec for every violated claim into DIR, as "
        "DIR/<claim id>.toml (an id that is not a safe file name, or one another file "
        "already used, gets a digest added: no certificate overwrites another)",
    )
    add_runner_options(
        p,
        "--workers",
        metavar="W",
        help="decide the pieces of a claim over a box of parameters in W local worker "
        "processes (default 1: in this process; the same verdicts)",
        dask="decide the pieces of a claim over a box on dask.distributed: local[:N] starts "
        "a LocalCluster of N worker processes, tcp://HOST:PORT connects to a running "
        "scheduler (needs the dask extra; the same verdicts); opened only when a claim "
        "needs it",
    )
    add_limit_options(p)


def _indented_width(indent: int) -> int | None:
    """The terminal's width less ``indent`` when standard output is a terminal (a table
    printed ``indent`` columns in then fits it), else ``None`` (no folding)."""
    import shutil

    from ..runtime.terminal import is_terminal

    if not is_terminal(sys.stdout):
        return None
    return max(20, shutil.get_terminal_size().columns - indent)


def add_limit_options(p: argparse.ArgumentParser) -> None:
    """The options raising the resource limits of spec files
    (:class:`verifier.spec.limits.Limits`; docs/spec-format.md, "Limits")."""
    from ..spec.limits import DEFAULT_LIMITS, MAX_LIMITS

    for flag, field, metavar, text in _LIMIT_OPTIONS:
        default, ceiling = getattr(DEFAULT_LIMITS, field), getattr(MAX_LIMITS, field)
        p.add_argument(
            flag,
            type=int_option(1, ceiling),
            metavar=metavar,
            default=default,
            help=text.format(default=default, ceiling=ceiling),
        )


#: The limit options: flag, field of :class:`~verifier.spec.limits.Limits`, metavar and
#: help text (``{default}`` and ``{ceiling}`` stand for the field's default and maximum).
_LIMIT_OPTIONS = (
    (
        "--max-outputs",
        "max_outputs",
        "N",
        "largest estimated number of outputs of a derived mechanism (default {default}, "
        "at most {ceiling})",
    ),
    (
        "--max-work",
        "max_work",
        "N",
        "largest estimated number of exact operations to build a derived mechanism "
        "(default {default})",
    ),
    (
        "--max-exponent",
        "max_exponent",
        "N",
        "privacy parameters (epsilon, epsilon_tilde, alpha) and range ends may reach 2^N in "
        "absolute value (default {default}, at most {ceiling})",
    ),
    (
        "--max-box-parameters",
        "max_box_parameters",
        "N",
        "most parameters of a box (over = {{ a = [lo, hi], ... }}) (default {default}, at "
        "most {ceiling})",
    ),
    (
        "--max-file-size",
        "max_file_bytes",
        "BYTES",
        "largest spec file read (default {default} bytes)",
    ),
)


def limits_from(args: argparse.Namespace) -> Any:
    """The :class:`~verifier.spec.limits.Limits` given by :func:`add_limit_options`."""
    from ..spec.limits import DEFAULT_LIMITS, Limits

    return Limits(
        max_file_bytes=args.max_file_size,
        max_outputs=args.max_outputs,
        max_work=args.max_work,
        max_exponent=args.max_exponent,
        max_box_parameters=getattr(args, "max_box_parameters", DEFAULT_LIMITS.max_box_parameters),
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
    out["numbers"] = {name: {"exact": exact_text(v), "display": number_text(v)} for name, v in rows}
    if f.failing:
        from ..checks.results import failing_parts

        # the first 20 in JSON (as a finding's own record), the first few in text
        out["failing"] = [str(x) for x in f.failing[:_JSON_FAILING]]
        count = f.region.failing_count if f.region is not None else len(f.failing)
        if count > len(out["failing"]):
            out["failing_total"] = count
        out["_failing_text"] = failing_parts(f)
    if f.region is not None and f.region.witness:
        out["_witness"] = ", ".join(f"{k} = {v}" for k, v in f.region.witness.items())
    out["_rows"] = rows
    return out


#: Failing sub-boxes of a counterexample listed in JSON (text lists fewer).
_JSON_FAILING = 20


def _result_record(result: Any) -> dict[str, Any]:
    """``result.to_dict()``; for a result whose exact numbers have more digits than
    Python converts to text (an ``rdp`` claim of order 100000 computes rationals of
    tens of thousands of digits), its verdict and a note instead of the numbers."""
    try:
        rec: dict[str, Any] = result.to_dict()
    except ValueError as err:
        if "digits" not in str(err):
            raise
        rec = {
            "verdict": result.verdict.value,
            "note": "the exact numbers of this result have more digits than can be printed "
            "(sys.get_int_max_str_digits); the text output shows them as decimals",
        }
    return rec


def _matches(expected: str | None, verdict: Verdict) -> bool:
    from ..arithmetic.exact import Verdict

    if expected == "refuted":
        return verdict is Verdict.VIOLATED
    return verdict is Verdict.HOLDS


#: Exit codes of several files, most severe first.
_SEVERITY = (EXIT_BAD_INPUT, EXIT_VIOLATED, EXIT_UNDECIDED, EXIT_OK)


def run(args: argparse.Namespace) -> int:
    """Run ``verifier check``; return the exit code.  On a terminal, a claim over a box
    shows a progress bar of its inequalities while it is decided."""
    from ..checks.boxes import box_budget, current_box_budget, sub_boxes_on
    from ..runtime.executors import open_runner
    from ..runtime.terminal import progress_display

    # the budget in effect (a caller's box_budget, else the default), with the
    # command's limit on the number of parameters
    budget = dataclasses.replace(
        current_box_budget(), max_parameters=limits_from(args).max_box_parameters
    )
    with (
        progress_display(progress_wanted(args)),
        open_runner(
            getattr(args, "workers", 1),
            getattr(args, "dask", None),
            max_workers=getattr(args, "max_workers", MAX_WORKERS),
            lazy=True,
        ) as runner,
        sub_boxes_on(runner),
        box_budget(budget),
    ):
        return _run_files(args)


def _run_files(args: argparse.Namespace) -> int:
    files = args.file if isinstance(args.file, list) else [args.file]
    if len(files) == 1:
        return _run_one(argparse.Namespace(**{**vars(args), "file": files[0]}))
    if args.claim:
        raise InvalidParameter("--claim selects claims of one FILE; give a single file")
    from ..spec.io import FileNames

    args._cert_names = FileNames()  # one directory of certificates for every file
    args._multi = True  # each file's text output under a header naming it
    codes: list[int] = []
    docs: list[Any] = []
    for name in files:
        one = argparse.Namespace(**{**vars(args), "file": name})
        out = io.StringIO()
        try:
            if args.json:
                with contextlib.redirect_stdout(out):
                    code = _run_one(one)
                docs.append(json.loads(out.getvalue()))
            else:
                code = _run_one(one)
        except VerifierError as err:
            code = err.exit_code
            print(f"error: {one_line(str(err))}", file=sys.stderr)
            if args.json:
                docs.append({"file": name, "error": one_line(str(err)), "exit_code": code})
        codes.append(code)
    code = next((c for c in _SEVERITY if c in codes), max(codes))
    if args.json:
        json_dump({"files": docs, "exit_code": code})
    return code


def _run_one(args: argparse.Namespace) -> int:
    """``verifier check`` on one file (``args.file``)."""
    from ..arithmetic.exact import Verdict
    from ..claims.scope import result_scope
    from ..spec import certificate, dump_spec, load_spec, precision_for
    from ..spec.io import FileNames
    from ..spec.labels import located
    from ..spec.premises import judge

    precision = precision_for(args.max_bits) if args.max_bits is not None else None
    names = getattr(args, "_cert_names", None) or FileNames()
    cert_dir = (
        None if args.certificates is None else output_directory(args.certificates, "--certificates")
    )
    spec = load_spec(args.file, limits=limits_from(args))
    if not spec.claims:
        raise SpecError(f"{args.file}: the spec has no claims to check")
    claims = spec.claims
    info = spec.certificate
    if args.claim:
        known = {c.id for c in claims}
        for cid in args.claim:
            if cid not in known:
                raise UnknownClaim(f"{args.file}: no claim with id {cid!r}")
        wanted = set(args.claim)
        if info is not None and info.target in wanted:
            wanted |= set(info.premises)  # the target's violation needs its premises
        claims = [c for c in claims if c.id in wanted]
    if info is not None:  # premises first, then the target
        rank = {cid: i for i, cid in enumerate(info.order())}
        claims = sorted(claims, key=lambda c: rank[c.id])
    records: list[dict[str, Any]] = []
    verdicts: list[Verdict] = []
    quiet = bool(getattr(args, "quiet", False))
    header_due = bool(getattr(args, "_multi", False)) and not args.json

    def header() -> None:
        nonlocal header_due
        if header_due:
            say(f"==> {args.file} <==")
            header_due = False

    if not quiet:
        header()
    differ = 0  # decided verdicts that are not the expected one
    problems = 0  # claims that count against the exit code
    for i, claim in enumerate(claims, 1):
        try:
            result = claim.run(precision)
        except VerifierError as err:  # e.g. a box decision the enclosures cannot make
            raise located(err, str(args.file)) from None
        verdicts.append(result.verdict)
        # with --expected a claim without 'expected' must hold, here as in the exit code
        judged = claim.expected is not None or args.expected
        match = _matches(claim.expected, result.verdict)
        if judged and not match and result.verdict is not Verdict.UNDECIDED:
            differ += 1
        problem = not _matches(claim.expected if args.expected else None, result.verdict)
        problems += problem
        cex = _counterexample(claim, result) if result.verdict is Verdict.VIOLATED else None
        cert_path = None
        if cert_dir is not None and cex is not None:
            cert = certificate(claim, result)
            if cert is not None:
                stem = names.stem(claim.id, key=f"{args.file}\0{claim.id}")
                target = cert_dir / f"{stem}.toml"
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
                        certificate=cert.id,
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
            "scope": result_scope(result).to_dict(),
            "matches_expected": match if judged else None,
            "result": _result_record(result),
            "counterexample": None
            if cex is None
            else {k: v for k, v in cex.items() if not k.startswith("_")},
            "certificate": cert_path,
        }
        records.append(rec)
        if not args.json and (problem or not quiet):
            header()
            _print_claim(i, len(claims), claim, result, cex, cert_path, args.expected)
    if args.expected:
        if differ:
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
    judgement = None
    if info is not None and any(c.id == info.target for c in claims):
        judgement = judge(
            info, {c.id: v for c, v in zip(claims, verdicts, strict=True)}, expected=args.expected
        )
        code = judgement.code
    counts = {v.value: sum(1 for x in verdicts if x is v) for v in Verdict}
    if args.json:
        overall = (
            Verdict.VIOLATED
            if counts["violated"]
            else (Verdict.UNDECIDED if counts["undecided"] else Verdict.HOLDS)
        )
        doc: dict[str, Any] = {
            "file": str(args.file),
            "title": spec.title,
            "verdict": overall.value,
            "exit_code": code,
            "counts": counts,
            "claims": records,
        }
        if info is not None:
            doc["certificate"] = {
                "target": info.target,
                "premises": list(info.premises),
                "marked": info.marked,
                "valid": None if judgement is None else judgement.valid,
                "problem": None if judgement is None else judgement.problem,
            }
        json_dump(doc)
    elif problems or not quiet or (judgement is not None and not judgement.valid):
        header()
        say(
            f"{len(claims)} claim(s): {counts['holds']} hold, {counts['violated']} violated, "
            f"{counts['undecided']} undecided"
            + (
                f"; {differ} differ from their expected outcome"
                if args.expected or any(c.expected for c in claims)
                else ""
            )
        )
        if info is not None and judgement is not None and judgement.valid:
            say(
                f"certificate: {info.target} is refuted and every premise holds "
                f"({len(info.premises)} premise(s))"
            )
        if getattr(args, "_multi", False):
            say()
    if judgement is not None and judgement.problem is not None:
        prefix = "error" if code == EXIT_BAD_INPUT else "undecided"
        say(f"{prefix}: {args.file}: {judgement.problem}", file=sys.stderr)
    return code


def _print_claim(
    i: int,
    n: int,
    claim: Any,
    result: Any,
    cex: dict[str, Any] | None,
    cert: str | None,
    expected: bool = False,
) -> None:
    from ..claims.scope import result_scope

    head = f"[{i}/{n}] claim {claim.id} ({claim.kind} on {claim.mechanism_name}): "
    head += result.verdict.value.upper() + f" — {result_scope(result).label()}"
    if claim.expected is not None or expected:
        ok = _matches(claim.expected, result.verdict)
        head += f"  (expected {claim.expected or 'holds'}: {'ok' if ok else 'MISMATCH'})"
    say(head)
    if claim.statement:
        say(f"  statement: {claim.statement}")
    if claim.source:
        say(f"  source: {claim.source}")
    for line in result.table(width=_indented_width(2)).splitlines():
        say("  " + line)
    if cex is not None:
        where = []
        if cex["output"] is not None:
            where.append(f"output {cex['output']}")
        if cex["pair"] is not None:
            where.append(f"pair {cex['pair'][0]} -> {cex['pair'][1]}")
        say("  counterexample: " + (", ".join(where) or "(aggregate)"))
        rows = cex["_rows"]
        width = max(len(name) for name, _ in rows)
        for name, v in rows:
            say(f"    {name.ljust(width)} = {number_text(v)}")
        if "_witness" in cex:
            say(f"    fails exactly at {cex['_witness']}")
        if "_failing_text" in cex:
            shown, more = cex["_failing_text"]
            for f in shown:
                say(f"    fails on {f}")
            if more:
                say(f"    {more}")
    if cert is not None:
        say(f"  certificate: {cert}")
    say()


COMMAND = Command(
    "check",
    "check every claim of a spec file",
    configure,
    run,
    description=(
        "Check every claim of a spec file (TOML or JSON, see docs/spec-format.md).\n"
        "With several FILEs (as a pre-commit hook passes them) each is checked in turn\n"
        "and the exit code is the most severe of theirs: 2, then 1, then 3, then 0."
    ),
    exit_codes={
        EXIT_OK: "every claim holds (--expected: every verdict is the expected one)",
        EXIT_VIOLATED: "some claim is violated (--expected: a decided verdict differs "
        "from the expected one)",
        EXIT_UNDECIDED: "some claim is undecided at the precision limit and none is "
        "violated (--expected: and no decided verdict differs); a certificate: a premise "
        "or the target is undecided",
        EXIT_BAD_INPUT: "bad input: one line 'error: <message>' on stderr, never a "
        "traceback; a spec with no claims; an invalid certificate (a premise fails, or "
        "the target is not violated), whatever the flags; output that could not be "
        "delivered (a reader that went away, a full disk, a closed standard output)",
    },
)
