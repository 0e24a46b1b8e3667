"""``verifier search``: search for a counterexample to a claim and certify it exactly.

::

    verifier search CLAIM [--seconds N] [--instances N] [--seed S]
                          [--workers W | --dask local[:N] | --dask tcp://HOST:PORT]
                          [--out FILE] [--resume FILE] [--checkpoint FILE]
                          [--json [--timings]]
    verifier search FILE.toml [--claim ID] ...
    verifier search --list

Exit codes (every one in ``verifier search --help``): 1 — a counterexample was found,
confirmed exactly and its certificate written (``verifier check CERT`` exits 1 on it);
0 — none within the budget (the best realized/claimed ratio is reported); 130 —
interrupted (the checkpoint and the best instance so far are written first).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

from ..errors import (
    EXIT_BAD_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNDECIDED,
    EXIT_VIOLATED,
    InvalidParameter,
)
from ..runtime.terminal import Task, progress_display, task
from .common import (
    MAX_WORKERS,
    Command,
    add_json_option,
    add_progress_option,
    add_runner_options,
    float_option,
    int_option,
    json_dump,
    output_file,
    printable,
    progress_wanted,
    say,
)

__all__ = ["configure", "run", "COMMAND", "SearchProgress"]


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``verifier search``."""
    p.add_argument(
        "target",
        nargs="?",
        metavar="CLAIM",
        help="a searchable claim id (see --list) or a spec file (.toml/.json) with a claim",
    )
    p.add_argument("--list", action="store_true", help="list the searchable claims")
    p.add_argument(
        "--claim", metavar="ID", default=None, help="which claim of the spec file to search"
    )
    p.add_argument(
        "--seconds",
        type=float_option(0),
        default=60.0,
        metavar="N",
        help="outer time limit in seconds (default 60; 0 = none)",
    )
    p.add_argument(
        "--instances",
        type=int_option(1, 10**12),
        default=None,
        metavar="N",
        help="instance budget (deterministic; default: the claim's own budget)",
    )
    p.add_argument(
        "--seed",
        type=int_option(-(1 << 63), (1 << 63) - 1),
        default=None,
        metavar="S",
        help="master seed (default 0)",
    )
    add_runner_options(
        p,
        "--workers",
        metavar="W",
        help=f"local worker processes (default 1, at most {MAX_WORKERS} unless "
        f"--max-workers raises it)",
        dask="run the batches on dask.distributed: local[:N] starts a LocalCluster of N "
        "worker processes, tcp://HOST:PORT connects to a running scheduler (needs the "
        "dask extra; the same answer as local runs)",
    )
    p.add_argument(
        "--out",
        metavar="FILE",
        default=None,
        help="certificate file (default: <claim>.counterexample.toml; .json for JSON)",
    )
    p.add_argument("--resume", metavar="FILE", default=None, help="continue from a checkpoint")
    p.add_argument(
        "--checkpoint",
        metavar="FILE",
        default=None,
        help="checkpoint file (default: the --resume file, else <claim>.search-checkpoint.json)",
    )
    p.add_argument("--no-checkpoint", action="store_true", help="do not write a checkpoint file")
    p.add_argument(
        "--keep-checkpoint",
        action="store_true",
        help="keep the checkpoint of a finished search (default: a search that found a "
        "counterexample or exhausted its budget removes it; an interrupted or timed-out "
        "one keeps it for --resume)",
    )
    p.add_argument(
        "--checkpoint-every",
        type=float_option(0),
        default=5.0,
        metavar="S",
        help="seconds between checkpoints (default 5; 0 = after every batch)",
    )
    p.add_argument("--no-shrink", action="store_true", help="certify the counterexample as found")
    add_json_option(p)
    add_progress_option(p)
    p.add_argument(
        "--timings",
        action="store_true",
        help="add the wall-clock seconds (elapsed) to the --json document (without it the "
        "document is a function of the claim, seed and budget: the same bytes with any "
        "number of workers, local or on dask)",
    )


class SearchProgress:
    """The search's progress reports (instances tried, best ratio so far) drawn as a
    :func:`verifier.runtime.terminal.task` bar."""

    def __init__(self, bar: Task) -> None:
        self.bar = bar

    def __call__(self, info: Any) -> None:
        self.bar.total(info.total or None)
        best = "-" if info.best_ratio == -math.inf else f"{info.best_ratio:.4g}"
        phase = "shrinking" if info.phase == "shrink" else "searching"
        self.bar.advance(
            max(0, info.instances - self.bar.completed), note=f"{phase}, best ratio {best}"
        )


def _list(as_json: bool) -> int:
    from ..search import search_spec, searchable_claims

    claims = searchable_claims()
    if as_json:
        json_dump(
            {
                "claims": [
                    {
                        "id": c.id,
                        "kind": c.kind,
                        "expected": c.expected,
                        "statement": c.statement,
                        "source": c.source,
                        "default_instances": search_spec(c).default_instances,
                        "notes": search_spec(c).notes,
                    }
                    for c in claims
                ]
            }
        )
        return EXIT_OK
    width = max(len(c.id) for c in claims)
    for c in claims:
        say(f"{c.id.ljust(width)}  {c.kind:<16}  expected {c.expected:<7}  {c.source}")
        say(f"{' ' * width}  {c.statement}")
        sp = search_spec(c)
        if sp.notes:
            say(f"{' ' * width}  ({sp.notes}; default {sp.default_instances} instances)")
    return EXIT_OK


def _space_notes(claim: Any) -> str:
    """What the search varies (and, for a spec file, what it does not)."""
    search = getattr(claim, "search", None)
    return str(getattr(search, "notes", "") or "")


def _resolve(args: argparse.Namespace) -> Any:
    from ..search import get_searchable, spec_searchable
    from ..search.engine import checkpoint_claim

    target = args.target
    if target is None:
        if args.resume is None:
            raise InvalidParameter("give a CLAIM (a searchable claim id or a spec file), or --list")
        ref = checkpoint_claim(args.resume)
        if isinstance(ref, str):
            return get_searchable(ref)
        if isinstance(ref, tuple):
            return spec_searchable(ref[1], ref[2])
        raise InvalidParameter(f"{args.resume}: give the CLAIM the checkpoint was made for")
    p = Path(target)
    looks_like_file = p.suffix.lower() in (".toml", ".json") or _exists(p)
    if looks_like_file:
        return spec_searchable(p, args.claim)
    if args.claim is not None:
        raise InvalidParameter("--claim selects a claim of a spec file; CLAIM is not a file")
    return get_searchable(target)


def _exists(p: Path) -> bool:
    """Whether ``p`` names an existing file, ``False`` when the name cannot be one (too
    long for the file system, ...): then CLAIM is read as a claim id."""
    try:
        return p.exists()
    except OSError:
        return False


def run(args: argparse.Namespace) -> int:
    """Run ``verifier search``; return the exit code."""
    from ..runtime.executors import open_runner
    from ..search import search
    from ..search.engine import SearchConfig, read_checkpoint
    from ..spec.io import file_stem

    if args.list:
        return _list(args.json)
    # the output paths given are checked first, before anything is loaded or searched
    if args.out is not None:
        output_file(args.out, "--out")
    if args.checkpoint is not None and not args.no_checkpoint:
        output_file(args.checkpoint, "--checkpoint")
    claim = _resolve(args)
    seed = args.seed
    if args.resume is not None:
        saved = int(read_checkpoint(args.resume)["seed"])
        if seed is not None and seed != saved:
            raise InvalidParameter(f"--seed {seed} differs from the checkpoint's seed {saved}")
        seed = saved
    seed = 0 if seed is None else seed
    stem = file_stem(claim.id)
    out = Path(f"{stem}.counterexample.toml") if args.out is None else Path(args.out)
    if args.no_checkpoint:
        ck = None
    elif args.checkpoint is not None:
        ck = Path(args.checkpoint)
    elif args.resume:
        ck = Path(args.resume)
    else:
        ck = Path(f"{stem}.search-checkpoint.json")
    # the default paths too, before the work starts
    output_file(out, "--out")
    if ck is not None:
        output_file(ck, "--checkpoint")
    with (
        progress_display(progress_wanted(args)),
        task(f"search {printable(claim.id, newlines=False)}") as bar,
        open_runner(args.workers, args.dask, max_workers=args.max_workers) as runner,
    ):
        result = search(
            claim,
            instances=args.instances,
            seconds=None if args.seconds == 0 else args.seconds,
            seed=seed,
            executor=runner,
            out=out,
            checkpoint=ck,
            resume=args.resume,
            checkpoint_every=args.checkpoint_every,
            config=SearchConfig(),  # the CLI's; a checkpoint made with another is refused
            progress=SearchProgress(bar),
            shrink=not args.no_shrink,
        )
    if ck is not None and not args.keep_checkpoint and result.status in ("violated", "exhausted"):
        ck.unlink(missing_ok=True)  # finished: nothing to resume
        result.checkpoint = None
    space = _space_notes(claim)
    if result.status == "violated":
        code = EXIT_VIOLATED
    elif result.status == "interrupted":
        code = EXIT_INTERRUPTED
    else:
        code = EXIT_OK
    if args.json:
        doc = result.to_dict(timings=args.timings)
        doc["exit_code"] = code
        doc["space"] = space
        json_dump(doc)
    else:
        say(result.summary())
        if space:
            say(f"  searched: {space}")
        if result.status == "interrupted":
            say("interrupted: checkpoint written", file=sys.stderr)
    return code


COMMAND = Command(
    "search",
    "search for a counterexample to a claim; certify it exactly",
    configure,
    run,
    description=(
        "Search an instance space for a counterexample to a registered claim (see\n"
        "--list) or to a claim of a spec file (its base mechanisms are varied, staying\n"
        "as private as given).  Candidates are screened in floating point and every\n"
        "reported violation is proved exactly; the certificate is a spec file on which\n"
        "`verifier check` exits 1."
    ),
    exit_codes={
        EXIT_OK: "no counterexample within the budget (the best realized/claimed ratio is "
        "reported)",
        EXIT_VIOLATED: "a counterexample was found, proved exactly and its certificate written",
        EXIT_UNDECIDED: "an exact decision needed to build an instance was undecided at the "
        "precision limit (a candidate that cannot be confirmed is never reported)",
        EXIT_INTERRUPTED: "interrupted (the checkpoint is written first; continue with --resume)",
        EXIT_BAD_INPUT: "bad input: one line 'error: <message>' on stderr, never a traceback; "
        "an output path that cannot be written (checked before the search starts), a "
        "checkpoint that is invalid, tampered with, or locked by another search; output "
        "that could not be delivered (a reader that went away, a full disk, a closed "
        "standard output)",
    },
)
