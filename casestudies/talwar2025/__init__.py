"""Talwar 2025, "Privacy-Computation Trade-offs in Private Repetition and Metaselection".

Modules: :mod:`.claims` (the registered claims, with the derivation notes and findings
in its docstring).
"""

from . import claims

__all__ = ["claims"]
