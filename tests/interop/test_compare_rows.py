"""A comparison whose every accountant cell is unsupported says nothing about
soundness (it never prints "sound")."""

from __future__ import annotations

import sympy as sp

from verifier.interop.compare import CompareRow, Comparison


def _row(accountant, pld):
    return CompareRow(sp.Integer(1), {}, sp.log(3), sp.log(2), accountant, "", pld)


def test_no_figure_compared_is_not_called_sound():
    c = Comparison("x", "title", sp.Rational(1, 10**6), [_row(None, None), _row(None, None)])
    text = c.table()
    assert "nothing compared" in text and "sound" not in text
    assert c.to_dict()["compared_rows"] == 0
    d = Comparison("x", "title", sp.Rational(1, 10**6), [_row(None, None), _row(0.9, None)])
    assert "(sound)" in d.table() and d.to_dict()["compared_rows"] == 1
