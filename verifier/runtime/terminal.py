"""Text tables and progress displays for people watching a terminal (rich).

Two things long exact work needs to show, through one library
(`rich <https://rich.readthedocs.io>`_):

* :func:`text_table` lays out a table as plain text.  On a terminal it fits the
  terminal's width, folding long cells (a symbolic bound) onto further lines of their
  own column instead of cutting them; written to a file or a pipe it never folds, so a
  line is a row and ``grep``/``awk`` see whole rows.
* :func:`progress_display` and :func:`task`: a progress bar on standard error for work
  that can run for more than a few seconds (claims of a case study, sub-boxes of a
  parameter box, instances of a search).  The command line turns the display on only
  when standard error is a terminal and the output is not ``--json`` (nor
  ``--no-progress``); everywhere else :func:`task` hands back a counter that draws
  nothing, so the engine reports progress without knowing who watches.

>>> print(text_table(("claim", "verdict"), [("a.thm1", "holds"), ("a.thm2", "violated")]))
claim   verdict
------- --------
a.thm1  holds
a.thm2  violated
"""

from __future__ import annotations

import io
import shutil
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

__all__ = ["text_table", "progress_display", "task", "Task", "is_terminal"]


def is_terminal(stream: Any) -> bool:
    """Whether ``stream`` is an interactive terminal."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


#: The narrowest a folded column gets (characters), however narrow the terminal.
FOLD_MIN_WIDTH = 18


def _rule_box() -> Any:
    """Columns apart by two spaces, a line of dashes under the header, nothing else
    (ASCII, so any terminal encoding shows it)."""
    from rich.box import Box

    return Box("    \n    \n -  \n    \n    \n    \n    \n    \n", ascii=True)


def text_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    width: int | None = None,
    fold: Sequence[int] | None = None,
    indent: str = "",
    optional: Sequence[int] = (),
    drop: Sequence[int] = (),
    min_width: int = 0,
) -> str:
    """``rows`` under ``header`` as plain text, columns apart by two spaces.

    ``width`` is the line width to fit (default: the terminal's when standard output is
    a terminal, else unlimited).  Only the columns in ``fold`` (default: all) are folded
    when the table is wider than ``width``; a cell is folded at spaces where it has
    them, else character by character, and never cut.  Before folding, the columns in
    ``optional`` are left out, one at a time in that order, while a row does not fit on
    one line; when even folding cannot fit, so are the columns in ``drop``.  A folded
    column keeps at least ``min_width`` characters (default :data:`FOLD_MIN_WIDTH`).  A last line
    names the columns left out; when the table still cannot fit, rows stay whole lines.
    Every line starts with ``indent``; trailing spaces are removed.
    """
    if width is None:
        width = shutil.get_terminal_size().columns if is_terminal(sys.stdout) else 1_000_000
    folded = set(range(len(header))) if fold is None else set(fold)
    longest = [max([len(h), *(len(str(r[i])) for r in rows)]) for i, h in enumerate(header)]
    narrowest = min_width or FOLD_MIN_WIDTH
    minimum = [min(narrowest, n) if i in folded else n for i, n in enumerate(longest)]
    kept = list(range(len(header)))
    left_out: list[str] = []
    room = width - len(indent)
    for i in optional:
        if sum(longest[k] + 2 for k in kept) <= room:
            break
        kept.remove(i)
        left_out.append(header[i])
    for i in drop:
        if sum(minimum[k] + 2 for k in kept) <= room:
            break
        kept.remove(i)
        left_out.append(header[i])
    text = _fitted(
        [header[k] for k in kept],
        [[r[k] for k in kept] for r in rows],
        room,
        {kept.index(k) for k in folded if k in kept},
        indent,
        narrowest,
    )
    if left_out:
        text += f"\n{indent}(not shown, to fit {width} columns: {', '.join(left_out)}; --wide)"
    return text


def _fitted(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    width: int,
    folded: set[int],
    indent: str,
    narrowest: int,
) -> str:
    from rich.console import Console
    from rich.table import Table

    table = Table(
        box=_rule_box(),
        show_edge=False,
        pad_edge=False,
        padding=(0, 1, 0, 0),
        collapse_padding=True,
        show_header=True,
        header_style=None,
        highlight=False,
    )
    longest = [max([len(h), *(len(str(r[i])) for r in rows)]) for i, h in enumerate(header)]
    for i, h in enumerate(header):
        table.add_column(
            h,
            overflow="fold",
            no_wrap=i not in folded,
            # a folded column keeps room for a few words per line
            min_width=min(narrowest, longest[i]) if i in folded else longest[i],
        )
    for r in rows:
        table.add_row(*(str(c) for c in r))
    needed = sum(c.min_width or 0 for c in table.columns) + 2 * len(header)
    if needed > width:
        # too narrow to fold without hiding columns: one line per row, the terminal wraps
        width = 1_000_000
    buf = io.StringIO()
    console = Console(
        file=buf,
        width=max(20, width),
        color_system=None,
        force_terminal=False,
        markup=False,
        emoji=False,
        highlight=False,
        legacy_windows=False,
        soft_wrap=False,
    )
    console.print(table, crop=False)
    lines = [(indent + line).rstrip() for line in buf.getvalue().splitlines()]
    return "\n".join(lines)


class Task:
    """A unit of progress: :meth:`advance` it as work completes.  Without a display
    (the default) it only counts."""

    def __init__(self, progress: Any = None, task_id: Any = None) -> None:
        self._progress = progress
        self._id = task_id
        self.completed = 0

    def advance(self, n: int = 1, *, note: str | None = None) -> None:
        """``n`` more units done; ``note`` replaces the text after the bar."""
        self.completed += n
        if self._progress is not None:
            fields = {} if note is None else {"note": note}
            self._progress.update(self._id, advance=n, **fields)

    def total(self, total: int | None) -> None:
        """Set (or learn late) the number of units."""
        if self._progress is not None:
            self._progress.update(self._id, total=total)


_DISPLAY: ContextVar[Any] = ContextVar("verifier_progress_display", default=None)


class PlainProgress:
    """Progress for a log or a pipe: one plain line per task at most every
    ``interval`` seconds (``claims: 120/367 done, 84 s, last ghazi2025.thm11``),
    nothing for work shorter than that, no control characters.  The subset of rich's
    ``Progress`` that :class:`Task` uses."""

    def __init__(self, stream: Any, interval: float = 5.0, clock: Any = None) -> None:
        import time

        self._stream, self._interval = stream, interval
        self._clock = clock or time.monotonic
        self._tasks: dict[int, dict[str, Any]] = {}
        self._next = 0

    def add_task(self, description: str, total: int | None = None, note: str = "") -> int:
        now = self._clock()
        self._next += 1
        self._tasks[self._next] = {
            "description": description,
            "total": total,
            "completed": 0,
            "note": note,
            "start": now,
            "shown": now,
        }
        return self._next

    def update(self, task_id: int, advance: int = 0, **fields: Any) -> None:
        t = self._tasks[task_id]
        t["completed"] += advance
        t.update(fields)
        now = self._clock()
        if now - t["shown"] >= self._interval:
            t["shown"] = now
            of = "" if t["total"] is None else f"/{t['total']}"
            last = f", last {t['note']}" if t["note"] else ""
            line = f"{t['description']}: {t['completed']}{of} done, {now - t['start']:.0f} s{last}"
            try:
                print(line, file=self._stream, flush=True)
            except (OSError, ValueError):
                pass  # a log that went away never stops the work

    def remove_task(self, task_id: int) -> None:
        self._tasks.pop(task_id, None)


@contextmanager
def progress_display(enabled: bool | str, stream: Any = None) -> Iterator[None]:
    """Show the :func:`task` progress of the work done inside the ``with`` block on
    ``stream`` (default: standard error): bars on a terminal (``enabled`` true or
    ``"bar"``), a plain line every few seconds for a log or a pipe (``"plain"``,
    :class:`PlainProgress`), nothing when ``enabled`` is false.  Bars disappear when
    the block ends (normally, by an error or by Ctrl-C)."""
    if enabled == "plain":
        token = _DISPLAY.set(PlainProgress(stream if stream is not None else sys.stderr))
        try:
            yield
        finally:
            _DISPLAY.reset(token)
        return
    if not enabled:
        token = _DISPLAY.set(None)
        try:
            yield
        finally:
            _DISPLAY.reset(token)
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    console = Console(file=stream if stream is not None else sys.stderr, markup=False)
    progress = Progress(
        TextColumn("{task.description}", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[note]}", markup=False),
        console=console,
        transient=True,
        redirect_stdout=False,
        redirect_stderr=False,
    )
    token = _DISPLAY.set(progress)
    try:
        with progress:
            yield
    finally:
        _DISPLAY.reset(token)


@contextmanager
def task(description: str, total: int | None = None) -> Iterator[Task]:
    """A progress bar ``description`` of ``total`` units (unknown: ``None``) on the
    current display, removed when the block ends; a silent counter when no display is
    on."""
    progress = _DISPLAY.get()
    if progress is None:
        yield Task()
        return
    task_id = progress.add_task(description, total=total, note="")
    try:
        yield Task(progress, task_id)
    finally:
        progress.remove_task(task_id)
