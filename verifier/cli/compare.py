"""``verifier compare``: exact privacy beside ``dp_accounting``'s bounds on the same
instance (:func:`verifier.interop.compare.compare`).

::

    verifier compare [random_stopping|ghazi_hyperparameter_tuning] [--eps0 EXPR]
                     [--mean M ...] [--delta D] [--count LAW] [--shape ETA]
                     [--eps-prime EXPR] [--exact-only] [--json]
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import EXIT_OK, EXIT_UNDECIDED, EXIT_VIOLATED
from .common import Command, add_json_option, json_dump

__all__ = ["COMMAND", "configure", "run"]

#: :data:`verifier.interop.compare.ALGORITHMS` (the same names; a test checks it), here
#: so that the parser is built without importing the arithmetic.
ALGORITHMS = ("random_stopping", "ghazi_hyperparameter_tuning", "composition")


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``verifier compare``."""
    p.add_argument(
        "algorithm",
        nargs="?",
        choices=ALGORITHMS,
        default="random_stopping",
        help="the algorithm run on randomized response (default random_stopping)",
    )
    p.add_argument(
        "--eps0", default="log(3)", metavar="EXPR", help="pure ε of the base randomized response"
    )
    p.add_argument(
        "--mean",
        nargs="+",
        default=None,
        metavar="M",
        help="mean numbers of runs, exact (default 10 100 1000; Algorithm 3: 10 30 100; "
        "composition: the integer numbers of runs)",
    )
    p.add_argument("--delta", default="1e-6", metavar="D", help="the δ of ε(δ), exact")
    p.add_argument(
        "--count",
        choices=["geometric", "poisson", "logarithmic", "truncated_negative_binomial"],
        default="geometric",
        help="random_stopping: the distribution of the number of runs (Papernot & Steinke "
        "2022; the last two with their parameter gamma chosen so that the mean is close to "
        "M, the exact mean printed)",
    )
    p.add_argument(
        "--shape",
        default=None,
        metavar="ETA",
        help="--count truncated_negative_binomial: its shape eta > -1, exact (default 1/2)",
    )
    p.add_argument(
        "--eps-prime",
        default=None,
        metavar="EXPR",
        help="ghazi_hyperparameter_tuning: ε' of the geometric prior (default log(5/3))",
    )
    p.add_argument(
        "--exact-only",
        action="store_true",
        help="only the exact columns (no dp_accounting needed)",
    )
    add_json_option(p)


#: ``--eps0`` and ``--eps-prime`` lie between ``2^-MAGNITUDE`` and ``2^MAGNITUDE``: the
#: exact checks of the instance (randomized response at ``exp(eps0)``, the floor of a
#: geometric prior's parameters) take time that grows with the magnitude, and
#: ``exp(2^64)`` is far beyond any accountant's double precision already.
MAGNITUDE = 64


def _number(option: str, text: str, *, bounded: bool = False) -> Any:
    """``text`` as an exact number for ``option`` (errors name the option); with
    ``bounded``, within ``2^-MAGNITUDE .. 2^MAGNITUDE``."""
    from ..arithmetic.expressions import parse_number
    from ..errors import InvalidParameter, VerifierError
    from ..spec.limits import magnitude_bits

    try:
        value = parse_number(text, {})
    except VerifierError as err:
        raise type(err)(f"{option} {text!r}: {err}") from None
    if bounded and value.is_positive:
        big, small = magnitude_bits(value), magnitude_bits(1 / value)
        if (big is not None and big > MAGNITUDE) or (small is not None and small > MAGNITUDE):
            raise InvalidParameter(
                f"{option} {text}: must lie between 2^-{MAGNITUDE} and 2^{MAGNITUDE} (the exact "
                f"checks of the instance grow with its magnitude)"
            )
    return value


def run(args: argparse.Namespace) -> int:
    """Run ``verifier compare``; return the exit code."""
    from ..claims import load_casestudies
    from ..interop.compare import compare

    eps0 = _number("--eps0", args.eps0, bounded=True)
    eps_prime = (
        None if args.eps_prime is None else _number("--eps-prime", args.eps_prime, bounded=True)
    )
    delta = _number("--delta", args.delta)
    if args.mean is None:
        means = (
            [10, 30, 100] if args.algorithm == "ghazi_hyperparameter_tuning" else [10, 100, 1000]
        )
    else:
        means = [_number("--mean", m, bounded=True) for m in args.mean]
    load_casestudies()  # case studies register the papers' bounds
    result = compare(
        args.algorithm,
        eps0=eps0,
        means=means,
        delta=delta,
        count=args.count,
        shape=None if args.shape is None else _number("--shape", args.shape),
        eps_prime=eps_prime,
        accountants=not args.exact_only,
    )
    from ..arithmetic.exact import Verdict

    v = result.verdict
    code = (
        EXIT_OK
        if v is Verdict.HOLDS
        else (EXIT_VIOLATED if v is Verdict.VIOLATED else EXIT_UNDECIDED)
    )
    if args.json:
        doc = result.to_dict()
        doc["exit_code"] = code
        json_dump(doc)
    else:
        print(result.table())
    return code


COMMAND = Command(
    "compare",
    "exact privacy beside dp_accounting's bounds on the same instance",
    configure,
    run,
    description=(
        "Run a selection algorithm on randomized response for several mean numbers of\n"
        "runs and print, side by side: the exact pure ε and ε(δ) verifier proves,\n"
        "dp_accounting's RDP bound for the matching event with the ratio, the ε(δ) of\n"
        "dp_accounting's PLD of the exact distributions, and the bounds papers prove\n"
        "(registered by the case studies).  Needs the interop extra (pip install\n"
        "'verifier[interop]') unless --exact-only."
    ),
    exit_codes={
        EXIT_OK: "every accountant figure is at least the exact ε(δ) (the table is printed)",
        EXIT_VIOLATED: "an accountant figure is below the exact ε(δ): the accountant "
        "understates the loss, decided exactly",
        EXIT_UNDECIDED: "a comparison with an accountant figure is undecided at the precision "
        "limit (none below)",
    },
)
