"""Ghazi, Kamath, Knop, Kumar, Manurangsi, Zhang 2025, "Private Hyperparameter Tuning
with Ex-Post Guarantee".

Modules: :mod:`.theory` (the bounds and quantities the statements use), :mod:`.search`
and :mod:`.adversaries` (search spaces), :mod:`.claims` (the registered claims, with the
derivation notes and findings in its docstring).
"""
