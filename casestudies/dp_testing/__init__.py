"""Ground truth for DP auditors: the mechanisms of DP-Sniper's default experiment
(Bichsel, Steffen, Bogunovic, Vechev 2021, "DP-Sniper: Black-Box Discovery of
Differential Privacy Violations using Classifiers", IEEE S&P; repository
``eth-sri/dp-sniper``, ``dpsniper/experiments/exp_default.py``) and of StatDP's
algorithms (Ding, Wang, Wang, Zhang, Kifer 2018, "Detecting Violations of
Differential Privacy", CCS; repository ``cmla-psu/statdp``, ``statdp/algorithms.py``),
each decided exactly on the tools' own parameters and input pairs.

Modules: :mod:`.suite` (the entry model, the tools' input pairs, the decision),
:mod:`.products`, :mod:`.noisy_max`, :mod:`.svt`, :mod:`.floating` (the mechanisms;
:mod:`.programs` holds the sparse-vector and Report-Noisy-Max ones as program texts),
:mod:`.claims` (their registration), :mod:`.published` (the tools' published lower
bounds) and :mod:`.table` (the comparison table, ``docs/dp-testing-suite.md``; notes and
findings in ``NOTES.md``).
"""
