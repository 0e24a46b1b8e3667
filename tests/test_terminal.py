"""Terminal output: tables that fold instead of cutting, progress bars that are drawn
only for a person at a terminal."""

from __future__ import annotations

import argparse
import io

from verifier.cli.common import progress_wanted
from verifier.runtime.terminal import (
    PlainProgress,
    Task,
    is_terminal,
    progress_display,
    task,
    text_table,
)

LONG = "exp(eps_1/2)/(exp(eps_1) + exp(eps_2) + 1) + 3*log(2)/(1 + exp(-eps_1))"


def _cells(text: str, col: int, header: tuple[str, ...]) -> list[str]:
    """The pieces of column ``col`` on each line of ``text`` (by the header's offsets)."""
    lines = text.splitlines()
    start = lines[0].index(header[col])
    end = lines[0].index(header[col + 1]) if col + 1 < len(header) else None
    return [line[start:end].strip() for line in lines[2:]]


def test_a_long_cell_folds_onto_further_lines_and_is_never_cut():
    head = ("claim", "slack", "verdict")
    text = text_table(head, [("a.thm1", LONG, "holds")], width=40, fold=(1,))
    lines = text.splitlines()
    assert all(len(line) <= 40 for line in lines)
    assert len(lines) > 3  # folded
    assert "..." not in text
    # the pieces of the slack column, read top to bottom, are the whole expression
    assert "".join(_cells(text, 1, head)).replace(" ", "") == LONG.replace(" ", "")
    # the columns that do not fold keep their cells whole, on the row's first line
    assert lines[2].split()[0] == "a.thm1" and lines[2].rstrip().endswith("holds")


def test_without_a_width_a_row_is_one_line():
    rows = [("a.thm1", LONG, "holds"), ("b.[1/2, 3]", "[bold]x[/bold]", "violated")]
    text = text_table(("claim", "slack", "verdict"), rows, width=None)
    lines = text.splitlines()
    assert len(lines) == 4
    assert LONG in lines[2]
    # brackets are text, not markup
    assert "b.[1/2, 3]" in lines[3] and "[bold]x[/bold]" in lines[3]
    assert lines[1].replace(" ", "") == "-" * len(lines[1].replace(" ", ""))
    indented = text_table(("a", "b"), [("1", "2")], indent="    ")
    assert all(line.startswith("    ") for line in indented.splitlines())


def test_a_task_without_a_display_only_counts():
    with task("work", total=3) as t:
        t.advance()
        t.advance(2, note="done")
        t.total(4)
    assert t.completed == 3


def test_a_display_draws_on_its_stream_and_is_removed_at_the_end():
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Tty()
    with progress_display(True, stream=out), task("claims", total=2) as t:
        t.advance(note="a.thm1")
        t.advance(note="a.thm2")
    assert t.completed == 2
    drawn = out.getvalue()
    assert "claims" in drawn and "/2" in drawn
    # transient: the display ends by erasing itself (cursor up / erase line)
    assert drawn.rstrip().endswith(("\x1b[2K", "\x1b[?25h"))


def test_bars_for_a_terminal_plain_lines_for_a_pipe_none_with_json(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    ns = argparse.Namespace
    monkeypatch.setattr("sys.stderr", io.StringIO())
    assert not is_terminal(io.StringIO())
    assert progress_wanted(ns(json=False, no_progress=False)) == "plain"
    assert not progress_wanted(ns(json=True, no_progress=False))
    monkeypatch.setattr("sys.stderr", Tty())
    assert progress_wanted(ns(json=False, no_progress=False)) == "bar"
    assert not progress_wanted(ns(json=True, no_progress=False))
    assert not progress_wanted(ns(json=False, no_progress=True))


def test_plain_progress_writes_a_line_every_interval_and_nothing_for_short_work():
    now = [0.0]
    out = io.StringIO()
    p = PlainProgress(out, interval=5, clock=lambda: now[0])
    t = Task(p, p.add_task("claims", total=3, note=""))
    t.advance(note="a.one")  # at 0 s: nothing yet
    now[0] = 6.0
    t.advance(note="a.two")
    now[0] = 7.0
    t.advance(note="a.three")  # 1 s after the last line: nothing
    assert out.getvalue() == "claims: 2/3 done, 6 s, last a.two\n"
    short = io.StringIO()
    with progress_display("plain", stream=short), task("claims", total=2) as t2:
        t2.advance()
        t2.advance()
    assert short.getvalue() == ""


def test_a_terminal_too_narrow_to_fold_keeps_every_column():
    head = ("claim", "kind", "source", "slack")
    rows = [("hartmann2022.lemma4.per_cell_reading", "finding", LONG, "-7/32 ≈ -0.2188")]
    text = text_table(head, rows, width=40, fold=(2, 3))
    for cell in (*head, *rows[0][:2]):
        assert cell in text
    assert LONG in text and "-7/32 ≈ -0.2188" in text


def test_columns_are_left_out_in_order_until_the_table_fits():
    head = ("claim", "kind", "source", "verdict", "at")
    row = ("paper.theorem3.step", "proof-step", "Ghazi et al. 2025, Theorem 9 (ii)", LONG, "o=1")
    wide = text_table(head, [row], width=200, fold=(3,), drop=(2, 4, 1))
    assert "not shown" not in wide and row[2] in wide.splitlines()[2]
    # `optional` columns go while a row is longer than a line; `drop` ones only when
    # folding cannot fit
    narrow = text_table(head, [row], width=60, fold=(3,), optional=(2,), drop=(4, 1))
    lines = narrow.splitlines()
    assert all(len(line) <= 60 for line in lines)
    assert lines[0].split() == ["claim", "kind", "verdict", "at"]
    assert lines[-1] == "(not shown, to fit 60 columns: source; --wide)"
    table = "\n".join(lines[:-1])
    assert "".join(_cells(table, 2, ("claim", "kind", "verdict", "at"))).replace(
        " ", ""
    ) == LONG.replace(" ", "")
    tight = text_table(head, [row], width=45, fold=(0, 3), drop=(2, 4, 1))
    assert tight.splitlines()[0].split() == ["claim", "verdict"]
    assert all(len(line) <= 45 for line in tight.splitlines()[:-1])
    assert tight.splitlines()[-1] == "(not shown, to fit 45 columns: source, at, kind; --wide)"


def test_a_check_result_table_fits_80_columns():
    # a result over a range, whose realized and claimed columns are long expressions:
    # `verifier check` prints its table two columns in, at the terminal's width less 2
    import sympy as sp

    from verifier.checks.privacy import check_approx_dp
    from verifier.mechanism.instances import randomized_response

    eps = sp.Symbol("eps", nonnegative=True)
    result = check_approx_dp(
        randomized_response(sp.log(3)),
        epsilon=eps,
        delta=(3 - sp.exp(eps)) / 5,
        over=(eps, 0, sp.log(3)),
    )
    assert result.violated
    table = result.table(width=78).splitlines()[1:]  # below the one-line summary
    rows = [line for line in table if not line.lstrip().startswith("output - fails")]
    assert rows and all(len("  " + line) <= 80 for line in rows), "\n".join(rows)
    assert "Max(0," in "".join(rows)  # folded, never cut
