"""``verifier casestudies``: run the registered case-study claims and compare each
verdict with its expected outcome.

::

    verifier casestudies [--list] [NAME ...] [--json] [--certificates DIR] [--tightness]
                         [--scope] [--search-instances N]
                         [-j N | --dask local[:N] | --dask tcp://HOST:PORT]
                         [--after ID] [--no-progress]
    verifier casestudies --coverage [PAPER ...] [--json]

Each claim is decided on its registered instances or over its box and, when it has an
instance space, by the worst-case search with the space's default budget and seed 0
(:mod:`verifier.search.decide`); every verdict carries its scope — what it covers
(:mod:`verifier.claims.scope`).

The claims are decided in local worker processes, one per usable core (at most
:data:`~verifier.runtime.executors.AUTO_JOBS_CAP`; ``-j auto``, the default, or the
environment variable :data:`JOBS_ENV`); ``-j N`` sets their number (``-j 1``: in this
process) and ``--dask`` decides them on a dask cluster instead.  The outcomes are the
same, in the same order, wherever they are decided (the claims travel as their ids),
except that the claims over a box are decided in this process with the pieces of
their hard decisions on the workers (:mod:`verifier.checks.boxes`).
On a terminal a progress bar counts the claims; Ctrl-C prints the table of the claims
decided so far and exits 130, naming the ``--after ID`` that decides the rest.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from pathlib import Path
from typing import Any

from ..errors import (
    EXIT_CONSTRUCTION_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNDECIDED,
    EXIT_VIOLATED,
    BadInput,
    CertificateError,
    UnknownClaim,
)
from ..runtime.executors import AUTO_JOBS_CAP
from .common import (
    AUTO,
    Command,
    add_json_option,
    add_names_argument,
    add_progress_option,
    add_runner_options,
    jobs_option,
    json_dump,
    one_line,
    output_directory,
    progress_wanted,
    say,
)

__all__ = ["COMMAND", "JOBS_ENV", "configure", "run", "jobs"]

#: The environment variable that gives ``-j`` its default (``auto`` or a number).
JOBS_ENV = "VERIFIER_JOBS"


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``verifier casestudies``."""
    add_names_argument(p, "case studies, claim ids or id prefixes to run (default: all)")
    p.add_argument(
        "--exact-ids",
        action="store_true",
        help="every NAME is a whole claim id (or a deprecated alias of one) and selects "
        "that claim alone, not the claims registered under it (ghazi2025.thm10 without "
        "ghazi2025.thm10.box)",
    )
    p.add_argument("--list", action="store_true", help="list case studies and their claims")
    p.add_argument(
        "--coverage",
        action="store_true",
        help="print every numbered statement of the registered papers with the claims that "
        "check it, or why it is out of reach (Markdown; docs/coverage.md)",
    )
    add_json_option(p)
    p.add_argument(
        "--tightness",
        action="store_true",
        help="after deciding the claims, print each theorem's tightness (attained, "
        "approached with its family and proved limit, or loose with what was searched) "
        "instead of the outcome table",
    )
    p.add_argument(
        "--scope",
        action="store_true",
        help="after deciding the claims, print per paper and claim kind how many verdicts "
        "sit at each scope (box, range, exhaustive, search, instances) instead of the "
        "outcome table",
    )
    p.add_argument(
        "--search-instances",
        type=int,
        default=None,
        metavar="N",
        help="budget of the worst-case search of each claim that has an instance space "
        "(default: the space's own; 0: no search, the claims are decided on their "
        "instances and boxes only)",
    )
    p.add_argument(
        "--certificates",
        metavar="DIR",
        help="write a certificate (a spec file `verifier check` re-verifies) for every "
        "claim found violated, as DIR/<claim id>.certificate.toml (an id that is not a "
        "safe file name gets its safe characters and a digest of the id)",
    )
    p.add_argument(
        "--after",
        metavar="ID",
        default=None,
        help="skip the selected claims up to and including ID (an interrupted run says "
        "which ID to continue after)",
    )
    p.add_argument(
        "--wide",
        action="store_true",
        help="on a terminal narrower than the outcome table, fold its cells but keep every "
        "column (by default source and at are left out when a row does not fit on a line, "
        "then time and kind when folding cannot fit)",
    )
    add_progress_option(p)
    add_runner_options(
        p,
        "-j",
        "--jobs",
        metavar="N",
        help="decide the claims in N local worker processes; auto (the default, or "
        f"${JOBS_ENV}): one per usable core, at most {AUTO_JOBS_CAP}; 1: in this process",
        dask="decide the claims on dask.distributed: local[:N] starts a LocalCluster of N "
        "worker processes, tcp://HOST:PORT connects to a running scheduler (needs the "
        "dask extra)",
        auto=True,
    )


def _registry() -> Any:
    """The registry filled by the installed case-study packages."""
    from ..claims import load_casestudies

    return load_casestudies()


def run(args: argparse.Namespace) -> int:
    """Run ``verifier casestudies``; return the exit code."""
    from ..report import outcomes_record, outcomes_table, scope_table, tightness_table

    reg = _registry()
    if not reg.claims:
        if args.names:
            raise UnknownClaim(
                f"no case study or claim named {args.names[0]!r} (no case studies are registered)"
            )
        if args.json:
            json_dump({"casestudies": [], "claims": [], "matched": 0, "total": 0})
        else:
            print("no case-study claims are registered")
        return EXIT_OK
    if args.list:
        return _list_claims(reg.select(args.names or None, exact=args.exact_ids), args.json)
    if args.coverage:
        if args.exact_ids:
            raise BadInput("--exact-ids selects claims; --coverage prints whole papers")
        return _coverage(reg, args.names, args.json)
    if args.search_instances is not None and args.search_instances < 0:
        raise BadInput(f"--search-instances must be >= 0, got {args.search_instances}")
    claims = reg.select(args.names or None, decider="instances|box|search", exact=args.exact_ids)
    claims = _after(claims, args.after)
    cert_dir = (
        None if args.certificates is None else output_directory(args.certificates, "--certificates")
    )
    outcomes, interrupted = _decide(reg, claims, args)
    certs = {} if cert_dir is None else _write_certificates(outcomes, cert_dir)
    if args.json:
        record = outcomes_record(outcomes)
        if cert_dir is not None:
            for entry in record["claims"]:
                entry["certificate"] = certs.get(entry["id"])
        if interrupted:
            record["interrupted"] = True
            record["remaining"] = [c.id for c in claims[len(outcomes) :]]
        json_dump(record)
    elif getattr(args, "tightness", False):
        say(tightness_table(outcomes))
    elif getattr(args, "scope", False):
        say(scope_table(outcomes))
    else:
        say(outcomes_table(outcomes, wide=args.wide))
        for cid, text in certs.items():
            say(f"{cid}: {text}")
    if interrupted:
        left = len(claims) - len(outcomes)
        again = " ".join(["verifier casestudies", *args.names])
        hint = f"; to decide the rest: {again} --after {outcomes[-1].claim.id}" if outcomes else ""
        say(
            f"interrupted: {len(outcomes)} of {len(claims)} claims decided, {left} not{hint}",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    return EXIT_OK if all(o.matches for o in outcomes) else EXIT_VIOLATED


def _after(claims: list[Any], after: str | None) -> list[Any]:
    """The claims after ``after`` in the selection's order (``--after``)."""
    if after is None:
        return claims
    ids = [c.id for c in claims]
    if after not in ids:
        raise UnknownClaim(f"--after {after}: not among the selected claims")
    return claims[ids.index(after) + 1 :]


def _decide(reg: Any, claims: list[Any], args: argparse.Namespace) -> tuple[list[Any], bool]:
    """Decide ``claims`` (serially, on local processes or on dask), with a progress bar
    on a terminal; Ctrl-C stops the run and keeps the outcomes decided so far
    (returned with ``True``)."""
    from ..runtime.executors import open_runner
    from ..runtime.terminal import progress_display, task
    from ..search.decide import outcomes as decided

    outcomes: list[Any] = []
    n = jobs(args.jobs, args.dask, claims, args.max_workers)
    if n > 1:
        # The heap so far (imported modules, the registry) lives to the end: frozen out
        # of the cyclic collector before the local workers fork, so their full
        # collections do not walk it (one process deciding the claims of 2e98a9d:
        # 0.46 -> 0.29 s of collections).
        gc.freeze()
    try:
        with (
            open_runner(n, args.dask, max_workers=args.max_workers, option="-j") as runner,
            progress_display(progress_wanted(args)),
            task("claims", total=len(claims)) as bar,
        ):
            stream = decided(
                claims,
                runner=runner,
                search=getattr(args, "search_instances", None) != 0,
                search_instances=getattr(args, "search_instances", None),
                record=bool(getattr(args, "json", False)),
                # the tightness table reads every finding; the other outputs print what the
                # workers rendered (and write certificates from violated results, sent whole)
                outline=not getattr(args, "tightness", False),
            )
            try:
                for o in stream:
                    outcomes.append(o)
                    bar.advance(note=o.claim.id)
            except KeyboardInterrupt:
                # stop at once: the workers' running claims are abandoned (their processes
                # ended), so a second Ctrl-C has nothing left to wait for
                if runner is not None:
                    runner.close(wait=False)
                return outcomes, True
            finally:
                stream.close()
    finally:
        if n > 1:  # back to the collector for what the process does next
            gc.unfreeze()
    return outcomes, False


def jobs(given: int | str | None, dask: str | None, claims: list[Any], max_workers: int) -> int:
    """The number of local worker processes for ``-j`` (``given``; ``None`` when the
    option is absent) with ``--dask`` (``dask``) on ``claims``.

    Without ``-j`` the default is :data:`JOBS_ENV` when set, else ``auto``; a default
    yields to ``--dask`` (1: no local workers), an explicit ``-j auto`` does not (two
    places to run are refused, as ``-j N --dask``).  ``auto`` is
    :func:`~verifier.runtime.executors.auto_jobs` with one task per claim about points
    (a claim over a box keeps every worker busy with its pieces), and 1 when some
    claim about points does not travel by id
    (:func:`verifier.claims.registry.travels_by_id`).

    >>> jobs(3, None, [], 256), jobs(None, "local:2", [], 256)
    (3, 1)
    """
    from ..runtime.executors import WORKERS_CEILING, auto_jobs

    if given is None:
        raw = os.environ.get(JOBS_ENV, "").strip()
        if dask is not None:
            return 1
        if not raw:
            given = AUTO
        else:
            try:
                given = jobs_option(WORKERS_CEILING)(raw)
            except argparse.ArgumentTypeError as err:
                raise BadInput(f"environment variable {JOBS_ENV}: {err}") from None
    if given != AUTO:
        return int(given)
    if dask is not None:
        raise BadInput(
            "give either local worker processes (-j auto) or --dask, not both "
            "(--dask local:N starts N local dask workers)"
        )
    from ..claims.registry import travels_by_id

    points = [c for c in claims if c.domain is None]
    if not all(travels_by_id(c) for c in points):
        return 1
    return auto_jobs(len(points) if len(points) == len(claims) else max_workers, max_workers)


def _write_certificates(outcomes: list[Any], directory: Path) -> dict[str, str]:
    """Write a certificate for every violated outcome, whichever decider refuted it;
    claim id -> path (or the reason there is none).  Each claim gets its own file,
    ``<stem>.certificate.toml`` with the stem of :class:`~verifier.spec.io.FileNames`
    (ids that differ only in characters a file name cannot hold never share one)."""
    from ..arithmetic.exact import Verdict
    from ..report.certificates import write_outcome_certificate
    from ..spec.io import FileNames

    names = FileNames()
    out: dict[str, str] = {}
    for o in outcomes:
        if o.verdict is not Verdict.VIOLATED:
            continue
        name = f"{names.stem(o.claim.id)}.certificate.toml"
        try:
            path = write_outcome_certificate(o, directory, name)
        except CertificateError as err:
            reason = one_line(str(err))
            reason = reason if len(reason) <= 200 else reason[:197] + "..."
            out[o.claim.id] = f"no certificate: {reason}"
            continue
        if path is not None:
            out[o.claim.id] = str(path)
        elif o.result is not None and o.result.verdict is Verdict.VIOLATED:
            out[o.claim.id] = "no certificate: the violation is not one decided inequality"
        else:
            out[o.claim.id] = "no certificate: the search recorded none"
    return out


def _coverage(reg: Any, names: list[str], as_json: bool) -> int:
    """``--coverage``: the statement tables of the named papers (default: all)."""
    from ..report.coverage import coverage_markdown, coverage_record

    unknown = [n for n in names if n not in reg.coverage]
    if unknown:
        known = ", ".join(reg.coverage) or "none"
        raise UnknownClaim(f"no coverage registered for {unknown[0]!r} (papers: {known})")
    if as_json:
        json_dump(coverage_record(reg, names or None))
    else:
        print(coverage_markdown(reg, names or None), end="")
    return EXIT_OK


def _list_claims(claims: list[Any], as_json: bool) -> int:
    studies: dict[str, list[Any]] = {}
    for c in claims:
        studies.setdefault(c.casestudy, []).append(c)
    if as_json:
        json_dump(
            {
                "casestudies": [
                    {
                        "name": name,
                        "claims": [c.summary() for c in cs],
                    }
                    for name, cs in studies.items()
                ]
            }
        )
        return EXIT_OK
    for name, cs in studies.items():
        say(f"{name} ({len(cs)} claim{'s' if len(cs) != 1 else ''})")
        width = max(len(c.id) for c in cs)
        for c in cs:
            how = "+".join(c.deciders)
            say(
                f"  {c.id.ljust(width)}  {c.kind:<16}  expected {c.expected:<7}  "
                f"[{how}]  {c.source}"
            )
            if c.statement:
                say(f"  {' ' * width}  {c.statement}")
    return EXIT_OK


COMMAND = Command(
    "casestudies",
    "run the registered case-study claims (theorems checked on instances)",
    configure,
    run,
    description=(
        "Run the claims registered by the casestudies package and compare each\n"
        "verdict with its expected outcome."
    ),
    exit_codes={
        EXIT_OK: "every outcome matches its expectation (or --list)",
        EXIT_VIOLATED: "some outcome does not match its expectation (an undecided verdict "
        "or a claim that raises an error counts as a mismatch)",
        EXIT_UNDECIDED: "a decision needed to load the case studies was undecided "
        "(an undecided claim is a mismatch: exit 1)",
        EXIT_CONSTRUCTION_FAILED: "a construction needed to load the case studies failed "
        "(a claim whose construction fails is a mismatch: exit 1)",
        EXIT_INTERRUPTED: "interrupted (Ctrl-C): the table of the claims decided so far is "
        "printed, and stderr says how to decide the rest (--after)",
    },
)
