"""The ``verifier`` command: its parser, the subcommands and the mapping of errors to
exit codes.

Subcommands are listed once, in :data:`COMMANDS` (each module of this package defines
one :class:`~verifier.cli.common.Command`); :func:`main` parses the arguments, runs
the subcommand and turns what it raises into an exit code:

* a :class:`~verifier.errors.VerifierError`: ``error: <message>`` (one line) on
  stderr, exit with its class's ``exit_code`` (2 bad input, 3 undecided, 5
  construction failed; see :mod:`verifier.errors`);
* ``KeyboardInterrupt``: exit 130;
* output that cannot be delivered (standard output a pipe whose reader went away, a
  full disk, closed): ``error: <what happened>`` on stderr, exit 2 (never 0; 4 and
  130 are kept), also when the failure shows only in the last flush;
* any other exception, a bug: one line ``internal error in <command>: <type>:
  <message>; rerun with --debug for the traceback`` on stderr, exit 4.

``--debug`` (before or after the subcommand) adds the traceback.  With ``--json`` an
error also prints ``{"error": <message>, "exit_code": <code>}`` on stdout.
"""

from __future__ import annotations

import argparse
import functools
import gc
import sys
import traceback
import warnings
from collections.abc import Sequence
from importlib.metadata import entry_points
from typing import NoReturn

from ..errors import (
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    exit_code_for,
)
from ..runtime.collector import long_run_collector, size_sympy_cache
from . import algorithms, casestudies, check, compare, schema, search
from .common import (
    EXIT_CODES,
    Command,
    OutputLost,
    exit_codes_epilog,
    guarded_streams,
    json_dump,
    one_line,
    printable,
    version,
)

__all__ = ["main", "build_parser", "COMMANDS", "all_commands", "register_command"]

#: Subcommands by name, in the order ``verifier --help`` lists them.
COMMANDS: dict[str, Command] = {
    cmd.name: cmd
    for cmd in (
        check.COMMAND,
        casestudies.COMMAND,
        search.COMMAND,
        compare.COMMAND,
        algorithms.COMMAND,
        schema.COMMAND,
    )
}

#: The entry-point group through which installed packages add subcommands (each entry
#: names a :class:`~verifier.cli.common.Command`; Talwar 2025's ``tradeoff`` is one).
COMMAND_ENTRY_POINTS = "verifier.commands"


def all_commands() -> dict[str, Command]:
    """The built-in subcommands followed by the installed ones (a built-in name wins)."""
    commands = dict(COMMANDS)
    for cmd in _installed_commands():
        commands.setdefault(cmd.name, cmd)
    return commands


@functools.cache
def _installed_commands() -> tuple[Command, ...]:
    """The subcommands announced in :data:`COMMAND_ENTRY_POINTS`, by name (an entry
    that fails to load is an error, never skipped, and is raised again on the next
    call).  Read once per process: listing entry points scans the metadata of every
    installed distribution, which took longer than most command lines with an error."""
    out = []
    for ep in sorted(entry_points(group=COMMAND_ENTRY_POINTS), key=lambda e: e.name):
        cmd = ep.load()
        if not isinstance(cmd, Command) or cmd.name != ep.name:
            raise TypeError(f"entry point {ep.name} = {ep.value} is not the Command {ep.name!r}")
        out.append(cmd)
    return tuple(out)


def register_command(cmd: Command) -> Command:
    """Add a subcommand from outside this package (a later registration of the same
    name replaces it)."""
    COMMANDS[cmd.name] = cmd
    return cmd


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line ``error: <message>`` on
    stderr (exit 2), like every other bad input; the message names the option."""

    def error(self, message: str) -> NoReturn:
        self.exit(
            EXIT_BAD_INPUT,
            f"error: {one_line(message)} (usage: {printable(self.prog)} --help)\n",
        )


#: ``build_parser(only=...)`` for a command line without a subcommand: none is configured.
NO_COMMAND = ""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every subcommand of :data:`COMMANDS` and the installed
    ones.  With ``only``, just that subcommand's options are configured (the others are
    listed with their help line, as ``verifier --help`` shows them): a command line
    needs only its own, and configuring all of them costs more than most errors take
    to report.  :func:`main` passes the subcommand its command line names
    (:func:`_named_command`)."""
    parser = _Parser(
        prog="verifier",
        description="Exact verification of differential-privacy claims on finite mechanisms.",
        epilog=exit_codes_epilog(EXIT_CODES)
        + "\n\n'verifier COMMAND --help' gives each command's exit codes.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"verifier {version()}")
    parser.add_argument(
        "--debug", action="store_true", help="print the traceback of an error (for reports)"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for cmd in all_commands().values():
        p = sub.add_parser(
            cmd.name,
            help=cmd.help,
            description=cmd.description or cmd.help,
            epilog=exit_codes_epilog(cmd.exit_code_meanings()),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        p.set_defaults(_run=cmd.run)
        if only is not None and cmd.name != only:
            continue  # listed for --help; the command line names another
        cmd.configure(p)
        # SUPPRESS: `verifier --debug CMD` is not undone by the sub-parser's default
        p.add_argument(
            "--debug",
            action="store_true",
            default=argparse.SUPPRESS,
            help="print the traceback of an error (for reports)",
        )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); return the exit code.

    Standard output is guarded (:func:`~verifier.cli.common.guarded_streams`): output
    that cannot be delivered (a reader that went away, a full disk, a closed standard
    output) is one line ``error: ...`` on stderr and exit 2 whatever the command's own
    code (but 4, a bug, and 130, an interruption), never 0.  sympy, when this command
    is the first to import it, gets larger caches
    (:func:`~verifier.runtime.collector.size_sympy_cache`)."""
    size_sympy_cache()
    with guarded_streams() as guard:
        try:
            code = _main(argv)
            sys.stdout.flush()
        except OutputLost:
            code = EXIT_BAD_INPUT
        except KeyboardInterrupt:
            code = EXIT_INTERRUPTED
        if guard.lost is not None:
            print(f"error: {guard.lost}", file=sys.stderr)
            if code not in (EXIT_INTERNAL, EXIT_INTERRUPTED):  # a bug or Ctrl-C says more
                code = EXIT_BAD_INPUT
        return code


def run() -> NoReturn:
    """The ``verifier`` program (its console script and ``python -m verifier``):
    :func:`main` on ``sys.argv``, then exit with its code.

    The objects left when the command is done are first frozen out of the cyclic
    garbage collector (:func:`gc.freeze`): the interpreter's last collections, as it
    ends, walked the whole heap of a long run only to free memory the operating
    system takes back anyway (measured: 0.25 s after ``verifier casestudies``, 0.75 s
    after deciding 60 claims in one process; 0.04 s frozen).  Exit handlers still run
    and every object outside a reference cycle is still released, so open files are
    closed as before; the results a command writes are closed before it returns."""
    code = main()
    gc.freeze()
    sys.exit(code)


def _named_command(argv: Sequence[str]) -> str:
    """The subcommand a command line names: its first argument that is not an option
    (the top-level options take no value), or :data:`NO_COMMAND`."""
    for arg in argv:
        if arg == "--":
            break
        if not arg.startswith("-"):
            return arg
    return NO_COMMAND


def _main(argv: Sequence[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        parser = build_parser(only=_named_command(argv))
    except Exception as err:  # e.g. an installed subcommand that fails to load
        if "--debug" in argv:
            traceback.print_exc()
        what = f"{type(err).__name__}: {one_line(str(err))}"
        print(f"internal error building the command line: {what}", file=sys.stderr)
        return EXIT_INTERNAL
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version, or a usage error (argparse: 2)
        code = exit_.code
        return code if isinstance(code, int) else (EXIT_OK if code is None else EXIT_BAD_INPUT)
    run = getattr(args, "_run", None)
    if run is None:
        parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT
    try:
        with warnings.catch_warnings(), long_run_collector():
            shown: set[str] = set()

            def show(message: Warning | str, *_: object, **__: object) -> None:
                # one line per distinct warning (e.g. a deprecated claim id), no source line
                text = f"warning: {one_line(str(message))}"
                if text not in shown:
                    shown.add(text)
                    print(text, file=sys.stderr)

            warnings.showwarning = show
            return int(run(args))
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except OutputLost:
        raise
    except Exception as err:
        return _report(err, args)


def _report(err: Exception, args: argparse.Namespace) -> int:
    """Print ``err`` as one line on stderr (after its traceback with ``--debug``) and
    return its exit code."""
    code = exit_code_for(err)
    debug = bool(getattr(args, "debug", False))
    msg = one_line(str(err))
    if debug:
        traceback.print_exc()
    if code == EXIT_INTERNAL:
        what = f"{type(err).__name__}: {msg}" if msg else type(err).__name__
        line = f"internal error in {args.command}: {what}"
        if not debug:
            line += "; rerun with --debug for the traceback"
        print(line, file=sys.stderr)
    else:
        print(f"error: {msg}", file=sys.stderr)
    if getattr(args, "json", False):
        json_dump({"error": msg, "exit_code": code})
    return code
