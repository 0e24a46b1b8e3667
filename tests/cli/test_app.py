"""The ``verifier`` command itself: every exit code through the real entry point, the
one-line internal error and ``--debug``, the help epilogs against the README, and the
package's import structure."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from verifier import cli
from verifier.cli import app
from verifier.cli.app import all_commands
from verifier.errors import (
    EXIT_BAD_INPUT,
    EXIT_CONSTRUCTION_FAILED,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNDECIDED,
    EXIT_VIOLATED,
    ExtensionFailed,
    Undecidable,
)

from .helpers import EXAMPLES, NEAR_TIE, README, answer, invoke, run

ALL_CODES = [0, 1, 2, 3, 4, 5, 130]


# ---------------------------------------------------------------------------
# every exit code through the real entry point
# ---------------------------------------------------------------------------


def test_exit_0_every_claim_holds(capsys):
    assert cli.main(["check", str(EXAMPLES / "randomized_response.toml")]) == EXIT_OK
    assert "6 claim(s): 6 hold, 0 violated, 0 undecided" in capsys.readouterr().out


def test_exit_1_a_violated_claim_in_a_spec_file(capsys):
    assert cli.main(["check", str(EXAMPLES / "best_of_k.toml")]) == EXIT_VIOLATED
    assert "VIOLATED" in capsys.readouterr().out


def test_exit_2_bad_input(tmp_path, capsys):
    assert cli.main(["check", str(tmp_path / "nope.toml")]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "no such file" in err and len(err.splitlines()) == 1


def test_exit_3_an_undecided_claim(tmp_path):
    # A genuine near-tie (see helpers.NEAR_TIE): violated by ~3e-30, which 32 bits of
    # enclosure cannot separate from zero, and the difference is not exactly zero.
    spec = tmp_path / "near_tie.toml"
    spec.write_text(NEAR_TIE)
    r = invoke("check", "--max-bits", "32", spec)
    assert r.returncode == EXIT_UNDECIDED, r.stdout + r.stderr
    assert "UNDECIDED" in r.stdout and r.stderr == ""


def _tradeoff_raising(monkeypatch: pytest.MonkeyPatch, err: BaseException) -> None:
    """``verifier tradeoff`` whose library call raises ``err`` (the command and the
    parser are the real ones)."""

    def tradeoff(*args, **kwargs):
        raise err

    monkeypatch.setattr("casestudies.talwar2025.tradeoff.tradeoff", tradeoff)


def test_exit_3_undecidable_raised_from_a_command(monkeypatch, capsys):
    # Undecidable comes from exact constructions (certified_ceil of a value whose
    # enclosures keep touching an integer that no exact test proves); sympy proves
    # every such value we could write in a spec, so the library call is patched.
    _tradeoff_raising(monkeypatch, Undecidable("could not decide the integer part of x"))
    assert cli.main(["tradeoff", "repetition", "--json"]) == EXIT_UNDECIDED
    out = capsys.readouterr()
    assert out.err == "error: could not decide the integer part of x\n"
    assert json.loads(out.out) == {
        "error": "could not decide the integer part of x",
        "exit_code": EXIT_UNDECIDED,
    }


def test_exit_4_internal_error_one_line_and_debug_traceback(monkeypatch, capsys):
    _tradeoff_raising(monkeypatch, RuntimeError("bug\nsecond line"))
    assert cli.main(["tradeoff", "repetition"]) == EXIT_INTERNAL
    err = capsys.readouterr().err
    assert err == (
        "internal error in tradeoff: RuntimeError: bug; rerun with --debug for the traceback\n"
    )
    for argv in (["--debug", "tradeoff", "repetition"], ["tradeoff", "repetition", "--debug"]):
        assert cli.main(argv) == EXIT_INTERNAL
        err = capsys.readouterr().err
        assert err.startswith("Traceback (most recent call last):")
        assert "raise err" in err and "RuntimeError: bug" in err
        assert err.endswith("internal error in tradeoff: RuntimeError: bug\n")


def test_exit_4_in_a_subprocess():
    # The same through the real main of a fresh interpreter: a command that crashes.
    code = (
        "import sys\n"
        "from verifier.cli import COMMANDS, Command, main\n"
        "COMMANDS['boom'] = Command('boom', 'h', lambda p: None, lambda a: 1 / 0)\n"
        "sys.exit(main(['boom']))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == EXIT_INTERNAL
    assert r.stderr == (
        "internal error in boom: ZeroDivisionError: division by zero; "
        "rerun with --debug for the traceback\n"
    )


def test_exit_5_construction_failed(monkeypatch, capsys):
    # No input reaches a construction that can fail from a command today (tradeoff
    # evaluates the extension in closed form; no transformer builds one), so the
    # library call is patched to fail as extend() does.
    _tradeoff_raising(
        monkeypatch, ExtensionFailed("the extension failed its own verification: VIOLATED")
    )
    assert cli.main(["tradeoff", "repetition"]) == EXIT_CONSTRUCTION_FAILED
    assert capsys.readouterr().err == (
        "error: the extension failed its own verification: VIOLATED\n"
    )


def test_exit_130_interrupted(monkeypatch, capsys):
    _tradeoff_raising(monkeypatch, KeyboardInterrupt())
    assert cli.main(["tradeoff", "repetition"]) == EXIT_INTERRUPTED
    capsys.readouterr()


# ---------------------------------------------------------------------------
# usage
# ---------------------------------------------------------------------------


def test_version():
    r = run("--version")  # the console script itself (the subcommands have their own)
    assert r.returncode == 0 and r.stdout.startswith("verifier ")
    assert answer(invoke("--version")) == answer(r)


def test_no_command_is_bad_input():
    r = invoke()
    assert r.returncode == 2 and "usage" in r.stderr


def test_usage_errors(capsys):
    assert cli.main(["check"]) == 2
    assert cli.main(["frobnicate"]) == 2
    assert cli.main(["--help"]) == 0
    capsys.readouterr()


def _parsed(parser, argv: list[str], capsys) -> tuple[object, str, str]:
    """What ``parser`` makes of ``argv``: the namespace (or the exit code) and the
    printed help or error."""
    try:
        ns: object = vars(parser.parse_args(argv))
    except SystemExit as exit_:
        ns = exit_.code
    out = capsys.readouterr()
    return ns, out.out, out.err


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["--version"],
        [],
        ["frobnicate"],
        ["--debug", "check", "--json", "x.toml"],
        ["search", "--help"],
        ["casestudies", "--list", "ghazi2025"],
        ["compare", "--bogus"],
        ["-1", "check", "x.toml"],
        ["--", "check", "x.toml"],
    ],
)
def test_the_parser_of_one_command_reads_its_line_as_the_whole_parser_does(argv, capsys):
    """`main` configures only the subcommand its command line names; every command line
    (help, version, errors, options before and after the command) reads the same."""
    full = _parsed(app.build_parser(), argv, capsys)
    one = _parsed(app.build_parser(only=app._named_command(argv)), argv, capsys)
    assert one == full


def test_python_m_verifier():
    r = subprocess.run([sys.executable, "-m", "verifier", "--help"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert all(name in r.stdout for name in ("check", "casestudies", "search", "tradeoff"))
    assert "130  interrupted" in r.stdout
    r = subprocess.run(
        [sys.executable, "-m", "verifier.cli", "check", str(EXAMPLES / "best_of_k.toml")],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 1, r.stderr


def test_register_command(monkeypatch, capsys):
    monkeypatch.setattr(app, "COMMANDS", dict(app.COMMANDS))
    cmd = cli.register_command(cli.Command("hello", "say hello", lambda p: None, lambda a: 0))
    assert app.COMMANDS["hello"] is cmd
    assert cli.main(["hello"]) == 0
    capsys.readouterr()


def test_a_command_runs_with_the_long_run_collector_and_restores_it(monkeypatch):
    # A command's run sees raised collector thresholds (verifier.runtime.collector);
    # after it, returning or raising, the caller's thresholds are back.
    import gc

    from verifier.runtime.collector import OLDER_THRESHOLD, YOUNG_THRESHOLD

    monkeypatch.setattr(app, "COMMANDS", dict(app.COMMANDS))
    seen = []

    def run(args):
        seen.append(gc.get_threshold())
        if args.crash:
            raise RuntimeError("crash")
        return 0

    def configure(p):
        p.add_argument("--crash", action="store_true")

    cli.register_command(cli.Command("thresholds", "h", configure, run))
    before = gc.get_threshold()
    assert before != (YOUNG_THRESHOLD, OLDER_THRESHOLD, OLDER_THRESHOLD)
    assert cli.main(["thresholds"]) == 0
    assert cli.main(["thresholds", "--crash"]) == EXIT_INTERNAL
    assert seen == [(YOUNG_THRESHOLD, OLDER_THRESHOLD, OLDER_THRESHOLD)] * 2
    assert gc.get_threshold() == before


def test_exit_code_names():
    assert cli.EXIT_VIOLATED == 1 and cli.EXIT_INTERRUPTED == 130


# ---------------------------------------------------------------------------
# the exit codes documented: --help epilogs and the README say the same
# ---------------------------------------------------------------------------


def _help(*argv: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert cli.main([*argv, "--help"]) == 0
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("name", sorted(cli.COMMANDS))
def test_help_epilog_lists_every_exit_code(name, capsys):
    text = _help(name, capsys=capsys)
    epilog = text[text.index("exit codes:") :]
    cmd = cli.COMMANDS[name]
    meanings = cmd.exit_code_meanings()
    assert sorted(meanings) == (ALL_CODES if cmd.codes is None else sorted(cmd.codes))
    assert {0, 2, 4, 130} <= set(meanings)  # every command: ok, bad input, a bug, Ctrl-C
    for code, meaning in meanings.items():
        assert f" {code} {meaning}" in epilog, (name, code)


def _readme_rows() -> dict[int, tuple[str, str]]:
    text = README.read_text()
    section = text[text.index("## Exit codes") :]
    section = section[: section.index("\n## ", 1)]
    rows = {}
    for m in re.finditer(r"^\| (\d+) \| (.*?) \| (.*?) ?\|$", section, re.M):
        rows[int(m.group(1))] = (m.group(2), m.group(3))
    return rows


def test_readme_lists_every_exit_code_as_the_help_does():
    rows = _readme_rows()
    assert sorted(rows) == ALL_CODES
    for code, (meaning, differs) in rows.items():
        assert meaning == cli.common.EXIT_CODES[code], code
        assert differs == readme_differs(code), code


def readme_differs(code: int) -> str:
    """The README's "Where a subcommand differs" cell of ``code``: each subcommand's own
    meaning, and "never" for a subcommand that cannot return it."""
    cells = []
    for name, cmd in all_commands().items():
        if cmd.codes is not None and code not in cmd.codes:
            cells.append(f"`{name}`: never")
        elif code in cmd.exit_codes:
            cells.append(f"`{name}`: {cmd.exit_codes[code]}")
    return "; ".join(cells)


# ---------------------------------------------------------------------------
# structure: one module per subcommand, no import cycle
# ---------------------------------------------------------------------------

CLI_DIR = Path(cli.__file__).parent


def _cli_imports(path: Path) -> set[str]:
    """The modules of verifier.cli that ``path`` imports (relative imports)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module)
            else:
                out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("verifier.cli"):
            out.add(node.module or "")
    return out


@pytest.mark.parametrize("name", sorted(cli.COMMANDS))
def test_each_subcommand_module_imports_only_common(name):
    module = sys.modules[cli.COMMANDS[name].run.__module__]
    assert module.__name__ == f"verifier.cli.{name}"
    assert module.COMMAND is cli.COMMANDS[name]
    assert _cli_imports(CLI_DIR / f"{name}.py") <= {"common"}


def test_common_imports_nothing_of_the_package():
    assert _cli_imports(CLI_DIR / "common.py") == set()


@pytest.mark.parametrize(
    "module",
    [f"verifier.cli.{m}" for m in ("common", "check", "casestudies", "search", "app")]
    + ["casestudies.talwar2025.command"],
)
def test_every_module_imports_first_in_a_fresh_interpreter(module):
    r = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_the_command_line_starts_without_the_arithmetic():
    """``verifier --version``, ``--help`` and argument errors answer without importing
    sympy, mpmath or networkx (the engine is imported by the subcommand that runs)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from verifier.cli import build_parser\n"
        "build_parser()\n"
        "heavy = sorted(m for m in ('sympy', 'mpmath', 'networkx', 'numpy') if m in sys.modules)\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_constants_kept_apart_for_a_fast_start_agree_with_the_engine():
    from verifier.arithmetic.exact import MAX_EXP_ARGUMENT_BITS
    from verifier.cli.compare import ALGORITHMS
    from verifier.interop.compare import ALGORITHMS as ENGINE_ALGORITHMS
    from verifier.spec.limits import MAX_EXP_ARGUMENT_BITS as SPEC_BITS

    assert SPEC_BITS == MAX_EXP_ARGUMENT_BITS
    assert ALGORITHMS == ENGINE_ALGORITHMS


def test_the_verifier_command_gives_sympy_larger_caches_unless_chosen():
    # In a fresh interpreter the command sets SYMPY_CACHE_SIZE before sympy is
    # imported, and sympy's caches are made at that size; a size the user chose stays.
    import os

    from verifier.runtime.collector import SYMPY_CACHE_SIZE

    probe = (
        "import os, sys\n"
        "from verifier.cli.app import main\n"
        "main(['check', sys.argv[1]])\n"
        "import sympy\n"
        "print(os.environ['SYMPY_CACHE_SIZE'], sympy.Add.__new__.cache_info().maxsize)\n"
    )
    spec = Path(__file__).resolve().parents[2] / "examples" / "randomized_response.toml"
    env = {k: v for k, v in os.environ.items() if k != "SYMPY_CACHE_SIZE"}
    for chosen, expected in ((None, SYMPY_CACHE_SIZE), ("1234", 1234)):
        if chosen is not None:
            env["SYMPY_CACHE_SIZE"] = chosen
        out = subprocess.run(
            [sys.executable, "-c", probe, str(spec)], env=env, capture_output=True, text=True
        )
        assert out.stdout.split()[-2:] == [str(expected)] * 2, out.stderr


def test_run_exits_with_the_code_of_main_after_freezing_the_heap(monkeypatch):
    """The console script (``verifier.cli:run``) exits with :func:`main`'s code, every
    one of them, after moving what is left out of the collector's reach (the
    interpreter's last collections are skipped, not the exit handlers)."""
    import gc

    for code in ALL_CODES:
        monkeypatch.setattr(app, "main", lambda code=code: code)
        with pytest.raises(SystemExit) as exit_:
            app.run()
        frozen = gc.get_freeze_count()
        gc.unfreeze()
        assert exit_.value.code == code and frozen > 0
