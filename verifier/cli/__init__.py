"""Command-line interface: ``verifier check``, ``verifier casestudies``,
``verifier search``, ``verifier compare``, ``verifier algorithms``, ``verifier
schema``, ``verifier tradeoff`` (console script ``verifier``, ``python -m verifier``).

One module per subcommand (:mod:`~verifier.cli.check`,
:mod:`~verifier.cli.casestudies`, :mod:`~verifier.cli.search`,
:mod:`~verifier.cli.compare`, :mod:`~verifier.cli.algorithms`,
:mod:`~verifier.cli.schema`), each defining its
arguments and a ``COMMAND``; installed packages add subcommands through the
``verifier.commands`` entry points (``verifier tradeoff`` comes from the Talwar 2025
case study); :mod:`~verifier.cli.app` lists them, builds the parser and maps errors to
exit codes; :mod:`~verifier.cli.common` holds what they share.

Exit codes (``verifier COMMAND --help`` gives each command's meanings):

====  =====================================================================
0     ok: every claim holds
1     some claim is violated
2     bad input (:class:`~verifier.errors.BadInput`): one line
      ``error: <message>`` on stderr, never a traceback; also output that could
      not be delivered (a closed pipe, a full disk, a closed standard output)
3     undecided at the precision limit, nothing violated (an undecided
      verdict, or :class:`~verifier.errors.Undecidable`)
4     internal error, a bug: one line on stderr; ``--debug`` prints the
      traceback
5     a construction the theory says exists could not be completed
      (:class:`~verifier.errors.ConstructionFailed`)
130   interrupted
====  =====================================================================
"""

from __future__ import annotations

from .. import errors
from ..errors import (  # noqa: F401  (re-exported: __all__ lists them from verifier.errors)
    EXIT_BAD_INPUT,
    EXIT_CONSTRUCTION_FAILED,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNDECIDED,
    EXIT_VIOLATED,
)
from .app import COMMANDS, build_parser, main, register_command, run
from .common import Command

__all__ = [
    "main",
    "run",
    "build_parser",
    "Command",
    "COMMANDS",
    "register_command",
    # the exit codes of verifier.errors
    *(name for name in errors.__all__ if name.startswith("EXIT_")),
]
