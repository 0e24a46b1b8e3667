"""Liu & Talwar 2019, "Private Selection from Private Candidates".

Modules: :mod:`.search` (search spaces), :mod:`.claims` (the registered claims, with the
derivation notes and findings in its docstring).
"""
