"""``verifier tradeoff``: Talwar 2025's privacy-computation trade-off (Figure 1),
computed exactly by :func:`casestudies.talwar2025.tradeoff.tradeoff`.

::

    verifier tradeoff {repetition,metaselection,both} [--gamma G ...] [--K K]
                      [--c C ...] [--eps EPS] [--no-hard] [--json] [--plot FILE]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from verifier.cli.common import (
    Command,
    add_progress_option,
    int_option,
    json_dump,
    one_line,
    output_file,
    progress_wanted,
    say,
)
from verifier.errors import (
    EXIT_OK,
    EXIT_UNDECIDED,
    EXIT_VIOLATED,
    InvalidParameter,
)
from verifier.runtime.terminal import progress_display

__all__ = ["COMMAND", "configure", "run"]


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``verifier tradeoff``."""
    p.add_argument(
        "setting",
        choices=["repetition", "metaselection", "both"],
        help="left panel of Figure 1 (repetition), right panel (metaselection), or both",
    )
    p.add_argument(
        "--gamma",
        nargs="+",
        type=_exact,
        metavar="G",
        default=None,
        help="target failure probabilities, exact (1e-30, 1/1000, 2^-100); "
        "default: 1e-2 down to 1e-40",
    )
    p.add_argument(
        "--K",
        type=int_option(2, 10**6),
        default=4,
        help="number of settings (metaselection; 2 to 10^6)",
    )
    p.add_argument(
        "--c",
        nargs="+",
        type=int_option(2, 1000),
        default=None,
        metavar="C",
        help="repetition counts of the hybrids (overhead 3c); default: 2 3 4 6 8",
    )
    p.add_argument(
        "--eps",
        type=_positive_exact,
        default="1",
        help="epsilon of the lower-bound instances (exact, > 0)",
    )
    p.add_argument(
        "--no-hard", action="store_true", help="skip the evaluation on the lower-bound instances"
    )
    p.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    add_progress_option(p)
    p.add_argument(
        "--plot",
        metavar="FILE",
        default=None,
        help="write Figure 1 (the computed panels) to FILE (.png, .pdf, .svg); needs matplotlib",
    )


def _exact(text: str) -> Any:
    """An ``argparse`` type: an exact number (:func:`verifier.arithmetic.expressions.parse_number`);
    argparse names the option in the message."""
    from verifier.arithmetic.expressions import parse_number
    from verifier.errors import VerifierError

    try:
        return parse_number(text, {})
    except VerifierError as err:
        raise argparse.ArgumentTypeError(one_line(str(err))) from None


def _positive_exact(text: str) -> Any:
    """An ``argparse`` type: an exact number that is proved ``> 0``."""
    from verifier.arithmetic.exact import Sign, decide_sign
    from verifier.errors import VerifierError

    value = _exact(text)
    try:
        sign = decide_sign(value).sign
    except VerifierError as err:
        raise argparse.ArgumentTypeError(one_line(str(err))) from None
    if sign is not Sign.POSITIVE:
        raise argparse.ArgumentTypeError(f"must be > 0, got {value}")
    return value


#: The formats ``--plot`` writes (by suffix).
PLOT_SUFFIXES = (".png", ".pdf", ".svg")


def run(args: argparse.Namespace) -> int:
    """Run ``verifier tradeoff``; return the exit code."""
    from verifier.arithmetic.exact import Verdict, combine_verdicts

    from .tradeoff import DEFAULT_CS, plot_tradeoff, tradeoff

    if args.plot:  # checked before the work starts
        output_file(args.plot, "--plot")
        if Path(args.plot).suffix.lower() not in PLOT_SUFFIXES:
            raise InvalidParameter(
                f"--plot {args.plot}: the file name must end in {', '.join(PLOT_SUFFIXES)}"
            )
    gammas = args.gamma
    eps = args.eps
    cs = tuple(args.c) if args.c else DEFAULT_CS
    settings = ["repetition", "metaselection"] if args.setting == "both" else [args.setting]
    with progress_display(progress_wanted(args)):
        panels = [
            tradeoff(s, gammas, K=args.K, cs=cs, eps=eps, hard_instances=not args.no_hard)
            for s in settings
        ]
    if args.plot:
        plot_tradeoff(panels, args.plot)
    verdict = combine_verdicts(panel.check().verdict for panel in panels)
    if args.json:
        json_dump(
            {
                "panels": [panel.to_dict() for panel in panels],
                "plot": args.plot,
                "verdict": verdict.value,
            }
        )
    else:
        for panel in panels:
            say(panel.table())
        if args.plot:
            say(f"Figure 1 written to {args.plot}")
    if verdict is Verdict.HOLDS:
        return EXIT_OK
    return EXIT_VIOLATED if verdict is Verdict.VIOLATED else EXIT_UNDECIDED


COMMAND = Command(
    "tradeoff",
    "Talwar 2025's privacy-computation trade-off (Figure 1), computed exactly",
    configure,
    run,
    description=(
        "For A_max^T, A_LT and the hybrids of Talwar 2025 (Theorems 11-14), tuned to\n"
        "each target failure probability gamma: the privacy overhead c, the exact\n"
        "expected number of oracle calls T, the exact failure probability, their\n"
        "values on the lower-bound instances (Theorems 7 and 10), and a certified\n"
        "comparison of T with the lower bound."
    ),
    exit_codes={
        EXIT_OK: "every point lies on the allowed side of the lower bound and fails with "
        "probability <= gamma",
        EXIT_VIOLATED: "some point does not",
        EXIT_UNDECIDED: "some comparison is undecided at the precision limit (none violated)",
    },
)
