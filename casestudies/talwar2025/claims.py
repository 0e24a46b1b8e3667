"""Talwar 2025, "Privacy-Computation Trade-Offs in Private Repetition and
Metaselection": the registered claims (the entry point of the case study).

The claims live in one module per part of the paper, each importing the shared
instances (:mod:`.instances`), step tables (:mod:`.steps`) and search spaces
(:mod:`.search`, :mod:`.mech_search`, :mod:`.chain_search`, :mod:`.oracle_search`,
:mod:`.composition_search`), none importing another claim module:

* :mod:`.props` — Propositions 2, 4, 5, 6 (§2);
* :mod:`.statements` — Proposition 3 and Corollary 8's printed form;
* :mod:`.lower` — Theorem 7, Corollary 8, Theorems 9 and 10 (§3);
* :mod:`.upper` — Theorems 11–14 and Figure 1 (§4);
* :mod:`.boxes` — claims over whole parameter boxes;
* :mod:`.proof_steps` — the displayed steps of the proofs;
* :mod:`.coverage` — every numbered statement and its claims.

Derivations and findings: ``casestudies/talwar2025/NOTES.md``.
"""

from __future__ import annotations

from . import (  # noqa: F401  (importing a module registers its claims)
    boxes,
    coverage,
    lower,
    proof_steps,
    props,
    statements,
    upper,
)
