"""The comparison table (:mod:`casestudies.dp_testing.table`): ``docs/dp-testing-suite.md``
is what the registry generates, every mechanism of DP-Sniper's logs has a row, and a
published lower bound above the exact ε is flagged by an exact decision."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import sympy as sp

from casestudies.dp_testing import claims, table
from casestudies.dp_testing.published import MECHANISMS
from casestudies.dp_testing.suite import ExactEpsilon, SuiteEntry

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "dp-testing-suite.md"


def _entry(name: str, value, source: str = "") -> SuiteEntry:
    return SuiteEntry(
        name=name,
        tool="DP-Sniper",
        source=source or f"test entry {name}",
        claimed=sp.Rational(1, 10),
        pairs="test pairs",
        expected="holds",
        exact=lambda: ExactEpsilon(value),
    )


# deciding the whole suite takes a minute: `pytest -m slow` (.ci/run)
@pytest.mark.slow
def test_docs_dp_testing_suite_md_is_what_the_registry_generates():
    assert DOC.read_text(encoding="utf-8") == table.markdown(), (
        "docs/dp-testing-suite.md is out of date: regenerate it with "
        "`python -m casestudies.dp_testing.table > docs/dp-testing-suite.md`"
    )


@pytest.mark.slow
def test_the_command_line_path_prints_the_same_table(capsys):
    # in this process: the exact values are computed once per process
    assert table.main([]) == 0
    assert capsys.readouterr().out == DOC.read_text(encoding="utf-8")


def test_the_module_runs_as_a_program():
    # `python -m casestudies.dp_testing.table` (an argument only prints the usage, so
    # this does not decide the suite a second time)
    proc = subprocess.run(
        [sys.executable, "-m", "casestudies.dp_testing.table", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and "docs/dp-testing-suite.md" in proc.stdout


# the rows decide the whole suite (a minute on idle cores; the main job decides every entry too): `pytest -m slow`
@pytest.mark.slow
def test_every_logged_mechanism_and_every_entry_has_one_row():
    rows = table.rows()
    assert [r.mechanism for r in rows[: len(MECHANISMS)]] == MECHANISMS
    entries = [r.entry for r in rows if r.entry is not None]
    assert sorted(e.name for e in entries) == sorted(e.name for e in claims.ENTRIES)
    for r in rows:
        if r.entry is None:
            assert r.status == "no entry"
        elif r.entry.exact is None:
            assert r.status == "out of reach" and r.entry.out_of_reach
        else:
            assert r.status in ("holds", "violated", "undecided") and r.exact is not None


def test_the_out_of_reach_rows_are_the_floating_point_experiments():
    # the rows of the entries out of reach only (every other entry is decided by the
    # slow tests above and by the main job)
    out = [e for e in claims.ENTRIES if e.exact is None]
    assert {e.name for e in out} >= {"laplace_floating_point", "laplace_fixed"}
    some = table.rows(out)
    rows = {r.name: r for r in some}
    for name in ("laplace_floating_point", "laplace_fixed"):
        assert rows[name].status == "out of reach"
        assert rows[name].published["dd_search_mlp"].line == 8
    text = table.markdown(some)
    assert "## Out of reach" in text and "2^53" in text


def test_laplace_mechanism_today_holds_with_no_bound_above_it():
    laplace = [e for e in claims.ENTRIES if e.name == "laplace_mechanism"]
    row = next(r for r in table.rows(laplace) if r.name == "laplace_mechanism")
    assert row.exact == sp.Rational(1, 10) and row.status == "holds"
    assert row.above == () and row.unresolved == ()


def test_bounds_above_the_exact_value_are_flagged_exactly():
    # NoisyHist2 (Laplace noise of scale eps = 0.1 on pairs differing by 1 in one
    # coordinate: exact epsilon 10): StatDP's second run printed 10.002168576736125.
    entries = [
        _entry("noisy_hist2", sp.Integer(10)),
        # a value just below MLP's 0.30080244946686197 and above all the others
        _entry("rappor", sp.Rational(30006, 100000)),
        # an irrational exact value, decided with certified enclosures
        _entry("report_noisy_max3", sp.log(sp.Rational(5, 4))),  # 0.2231...
        # an unbounded loss: nothing is above it
        _entry("sparse_vector_technique5", sp.oo),
        # matched by DP-Sniper's class named in the source, not by its name
        _entry(
            "svt1", sp.Rational(1, 10), "sparse_vector_technique.py, SparseVectorTechnique1(c=1)"
        ),
    ]
    rows = {r.name: r for r in table.rows(entries)}
    flagged = {n: sorted(p.variant for p in r.above) for n, r in rows.items() if r.above}
    assert flagged == {
        "noisy_hist2": ["statdp_2"],
        "rappor": ["dd_search_mlp", "statdp_1_claimed", "statdp_2_claimed"],
        "report_noisy_max3": ["dd_search_mlp", "dd_search_reg"],
        # StatDP's preliminary claims 0.21625 and 0.185625 exceed 1/10
        "sparse_vector_technique1": ["statdp_1_claimed", "statdp_2_claimed"],
    }
    assert rows["sparse_vector_technique1"].entry is entries[4]
    assert rows["sparse_vector_technique5"].status == "violated"
    assert rows["noisy_hist2"].status == "violated"
    assert rows["rappor"].status == "violated"
    text = table.markdown(list(rows.values()))
    assert "**10.0022** ▲" in text and "StatDP-Fixed (2) 10.0022 > exact" in text
    assert "**0.300802** ▲" in text
    assert "statdp_2_data.log, line 148" in text
    assert "dd_search_mlp_data.log, line 120" in text
    # confidence bounds only: noisy_hist2, rappor, report_noisy_max3
    assert "3 with a published lower bound above the exact ε" in text


def test_statdp_values_are_compared_with_the_instance_statdp_ran():
    # Rappor: DP-Sniper's instance 6 ln(41/39) = 0.30006, StatDP's (float text) 7 ln(41/39)
    # = 0.35007.  Against 7 ln(41/39), StatDP's preliminary 0.51875 and 0.55125 stay
    # above and its confidence bounds 0.2416 / 0.0243 below; DP-Sniper's NN 0.30080 is
    # compared with 6 ln(41/39) and stays flagged.
    entry = SuiteEntry(
        name="rappor",
        tool="DP-Sniper",
        source="test",
        claimed=sp.Rational(1, 10),
        pairs="test pairs",
        expected="holds",
        exact=lambda: ExactEpsilon(6 * sp.log(sp.Rational(41, 39))),
        statdp_exact=lambda: ExactEpsilon(sp.Rational(55, 100)),
        statdp_note="a test instance",
    )
    row = next(r for r in table.rows([entry]) if r.name == "rappor")
    assert row.statdp_exact == sp.Rational(55, 100)
    # 0.55125 > 0.55 >= 0.51875: only StatDP's second preliminary value is above
    assert sorted(p.variant for p in row.above) == ["dd_search_mlp", "statdp_2_claimed"]
    text = table.markdown([row])
    assert "## Where StatDP ran another instance" in text and "a test instance" in text
    assert "StatDP claimed (2) 0.55125 > exact of StatDP's run" in text
    assert "DP-Sniper (NN) 0.300802 > exact" in text


def test_long_closed_forms_go_below_the_table():
    t = sp.exp(sp.Rational(1, 10))
    long = sp.log((3 * t**7 + 5 * t**3 + 11) / (2 * t**5 + 7 * t**2 + 13))
    text = table.markdown(table.rows([_entry("prefix_sum", long)]))
    assert "see [1]" in text and "Closed forms too long for the table:" in text


def test_a_fake_entry_does_not_change_the_real_entrys_row():
    # the real entry of the same name (the cache of exact values is per entry)
    laplace = [e for e in claims.ENTRIES if e.name == "laplace_mechanism"]
    real = table.rows(laplace)
    table.rows([_entry("laplace_mechanism", sp.Integer(7))])
    again = {r.name: r.exact for r in table.rows(laplace)}
    assert again == {r.name: r.exact for r in real}
    assert again["laplace_mechanism"] == sp.Rational(1, 10)


def test_an_entry_is_joined_by_its_name_before_any_other_by_its_source():
    statdp = _entry("statdp_noisy_max_v1a", sp.Rational(1, 10), "noisy_max_v1a, as ReportNoisyMax1")
    dpsniper = _entry("report_noisy_max1", sp.Rational(1, 10))
    rows = table.rows([statdp, dpsniper])
    by_mechanism = {r.mechanism: r for r in rows if r.mechanism}
    assert by_mechanism["ReportNoisyMax1"].entry is dpsniper
    last = rows[-1]
    assert last.entry is statdp and last.mechanism is None and last.published == {}
    # alone, the StatDP entry takes the row its source names
    alone = {r.mechanism: r for r in table.rows([statdp]) if r.mechanism}
    assert alone["ReportNoisyMax1"].entry is statdp
