"""A pytest plugin: the claims of spec files as test items.

Installed with the package (entry point ``pytest11``, name ``verifier``), it makes
plain ``pytest`` decide the claims of a paper's own repository: every spec file
matching one of the patterns of the ini option ``verifier_spec_files`` (default
``claims/*.toml``; glob patterns relative to the rootdir, one per line) is collected,
and each of its claims is one test item, named by the claim's id.  An item passes when
the verdict is the claim's ``expected`` outcome (``holds`` when none is given):
``holds`` — the claim holds; ``refuted`` — it is violated.  A failing item reports
the verdict table (the one ``verifier check`` prints); a spec file that cannot be
read is a collection error whose message locates the problem in the file.

::

    # pyproject.toml of the paper's repository
    [tool.pytest.ini_options]
    verifier_spec_files = ["claims/*.toml", "claims/*.json"]
    # testpaths, if set, must include the directories of the spec files

    $ pytest
    claims/thm3.toml::rr-is-eps-dp PASSED
    claims/thm3.toml::best-of-3-is-eps-dp FAILED

A path that matches a pattern but is not a regular file (a directory named
``*.toml``, a pipe, a link to a device, a loop of symbolic links, a link to nothing)
is a collection error too, as ``verifier check`` refuses it, never skipped in silence.
The resource limits of spec files (``docs/spec-format.md``, "Limits") are raised by
the ini options ``verifier_max_file_size``, ``verifier_max_outputs``,
``verifier_max_work`` and ``verifier_max_exponent`` (the options of ``verifier
check``), which the messages of a refusal name.

``pytest -p no:verifier`` disables the plugin.  The module imports nothing of the
package until a spec file is collected, so it costs nothing in other test suites.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

__all__ = [
    "INI_OPTION",
    "DEFAULT_PATTERNS",
    "LIMIT_OPTIONS",
    "SpecFile",
    "ClaimItem",
    "ClaimMismatch",
]

#: The ini option listing the glob patterns of spec files.
INI_OPTION = "verifier_spec_files"
#: Its default.
DEFAULT_PATTERNS = ["claims/*.toml"]
#: The ini options raising each limit of :class:`verifier.spec.limits.Limits`.
LIMIT_OPTIONS = {
    "max_file_bytes": "verifier_max_file_size",
    "max_outputs": "verifier_max_outputs",
    "max_work": "verifier_max_work",
    "max_exponent": "verifier_max_exponent",
}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        INI_OPTION,
        type="linelist",
        default=DEFAULT_PATTERNS,
        help="glob patterns (relative to the rootdir) of the verifier spec files whose "
        "claims are collected as tests (default: claims/*.toml)",
    )
    for field, name in LIMIT_OPTIONS.items():
        parser.addini(
            name,
            type="string",
            default="",
            help=f"raise the {field} limit of the spec files (as verifier check "
            f"--{field.replace('_', '-').replace('-bytes', '-size')} does)",
        )


def _limits(config: pytest.Config) -> Any:
    """The :class:`~verifier.spec.limits.Limits` of the ini options, whose refusals
    name the ini options."""
    from verifier.errors import InvalidParameter
    from verifier.spec.limits import DEFAULT_LIMITS, Limits

    values: dict[str, int] = {}
    for field, name in LIMIT_OPTIONS.items():
        raw = str(config.getini(name) or "").strip()
        if not raw:
            values[field] = getattr(DEFAULT_LIMITS, field)
            continue
        try:
            values[field] = int(raw)
        except ValueError:
            raise InvalidParameter(f"the ini option {name} = {raw!r} is not an integer") from None
    hints = {f: f"the ini option {n}" for f, n in LIMIT_OPTIONS.items()}
    return Limits(**values, raised_by=hints)


def _relative(path: Path, config: pytest.Config) -> str | None:
    """``path`` relative to the rootdir (its directory resolved, not the path
    itself: it may be a link to elsewhere, or to nothing)."""
    try:
        parent = path.absolute().parent.resolve()
        return (parent / path.name).relative_to(config.rootpath.resolve()).as_posix()
    except (ValueError, OSError, RuntimeError):
        return None


def _matches(path: Path, config: pytest.Config) -> bool:
    rel = _relative(path, config)
    return rel is not None and any(
        fnmatch.fnmatchcase(rel, pat) for pat in config.getini(INI_OPTION)
    )


def _irregular(directory: Path, config: pytest.Config) -> list[Path]:
    """The entries of ``directory`` that match a pattern but are no regular file
    (pytest collects regular files only and would skip them in silence)."""
    out = []
    try:
        entries: Iterable[os.DirEntry[str]] = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError:
        return []
    for entry in entries:
        path = Path(entry.path)
        if path.suffix.lower() not in (".toml", ".json") or not _matches(path, config):
            continue
        try:
            regular = entry.is_file()
        except OSError:
            regular = False
        if not regular:
            out.append(path)
    return out


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Any:
    """A directory's collection gets, besides what pytest collects, the paths in it
    that match a spec pattern but are no regular file: each a :class:`SpecFile` whose
    collection fails with the reader's message (pytest skips them otherwise)."""
    report = yield
    if isinstance(collector, pytest.Directory) and report.passed:
        for path in _irregular(collector.path, collector.config):
            report.result.append(SpecFile.from_parent(collector, path=path))
    return report


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> SpecFile | None:
    if file_path.suffix.lower() not in (".toml", ".json"):
        return None
    if not _matches(file_path, parent.config):
        return None
    spec_file: SpecFile = SpecFile.from_parent(parent, path=file_path)
    return spec_file


class ClaimMismatch(Exception):
    """The verdict of a claim is not its expected outcome."""

    def __init__(self, claim: Any, result: Any, expected: str) -> None:
        super().__init__(f"claim {claim.id}: expected {expected}, got {result.verdict.value}")
        self.claim = claim
        self.result = result
        self.expected = expected


class SpecFile(pytest.File):
    """A spec file; its claims are the items."""

    def collect(self) -> Iterator[ClaimItem]:
        """One :class:`ClaimItem` per claim; a file the reader refuses is a collection
        error carrying the reader's located message."""
        from verifier.errors import VerifierError
        from verifier.spec import load_spec

        try:
            spec = load_spec(self.path, limits=_limits(self.config))
        except VerifierError as err:
            raise self.CollectError(f"{type(err).__name__}: {err}") from None
        for claim in spec.claims:
            yield ClaimItem.from_parent(self, name=claim.id, claim=claim)


class ClaimItem(pytest.Item):
    """One claim of a spec file: passes when its verdict is the expected one."""

    def __init__(self, *, claim: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.claim = claim

    def runtest(self) -> None:
        """Decide the claim; raise :class:`ClaimMismatch` unless its verdict is the
        expected one."""
        from verifier.arithmetic.exact import Verdict

        result = self.claim.run()
        expected = self.claim.expected or "holds"
        want = Verdict.VIOLATED if expected == "refuted" else Verdict.HOLDS
        self.user_properties.append(("verdict", result.verdict.value))
        if result.verdict is not want:
            raise ClaimMismatch(self.claim, result, expected)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        """The failure report: the verdict table of a mismatch, one line for a
        :class:`~verifier.errors.VerifierError`."""
        from verifier.errors import VerifierError

        err = excinfo.value
        if isinstance(err, ClaimMismatch):
            c = err.claim
            lines = [
                f"claim {c.id} ({c.kind} on {c.mechanism_name or 'no mechanism'}): "
                f"{err.result.verdict.value.upper()}, expected {err.expected}",
            ]
            if c.statement:
                lines.append(f"  statement: {c.statement}")
            if c.source:
                lines.append(f"  source: {c.source}")
            lines.extend("  " + line for line in err.result.table().splitlines())
            return "\n".join(lines)
        if isinstance(err, VerifierError):
            return f"claim {self.claim.id}: {type(err).__name__}: {err}"
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        """The spec file and the claim, for pytest's reports."""
        return self.path, None, f"claim {self.claim.id} ({self.claim.kind})"
