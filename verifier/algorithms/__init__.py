"""Transformers: algorithms that turn base mechanisms into a new mechanism.

A *transformer* is an algorithm described as data: a name, the paper it comes from,
a parameter schema, and a function that computes the **exact** output distribution
of the algorithm run on its input mechanisms (from a closed form, never by
simulation).  Spec files refer to transformers by name::

    [mechanisms.best]
    algorithm = "best_of"
    inputs = ["rr", "rr", "rr"]
    params = { ties = "highest_index" }

and :data:`TRANSFORMERS` maps each name to its :class:`Transformer`.  The registry
lives in :mod:`verifier.algorithms.registry`; every algorithm module registers its
own transformers where it defines them, and this package imports every algorithm
module below, so :data:`TRANSFORMERS` is complete after ``import
verifier.algorithms`` (a module that fails to import makes that import fail):

=================================  ===============================================
module                             transformers
=================================  ===============================================
:mod:`~.generic`                   ``independent``, ``repeat``, ``best_of``
:mod:`~.ghazi`                     ``ghazi_above_threshold``,
                                   ``ghazi_generalized_above_threshold``,
                                   ``ghazi_hyperparameter_tuning``
:mod:`~.liu_talwar`                ``lt_uniform_selection``, ``lt_thresholding``,
                                   ``lt_random_stopping``, ``lt_random_stopping_hard``,
                                   ``lt_decreasing_thresholds``, ``lt_percentile_release``
:mod:`~.repeat_select`             ``repeat_and_select``
:mod:`~.selection`                 ``selection`` (selection programs, :mod:`verifier.programs`)
:mod:`~.talwar`                    ``talwar_max_of_runs``, ``talwar_hybrid``
:mod:`~.noise.svt`                 ``sparse_vector``
:mod:`~.noise.noisy_max`           ``report_noisy_max``
:mod:`~.noise.text`                ``noise_program``
=================================  ===============================================

(``docs/spec-format.md`` documents the same set for spec files; a test holds the two
together.)

Adding a transformer
--------------------
Decorate the function that computes the exact distribution, in the module that
defines the algorithm, and import that module below (and name the transformer in
``docs/spec-format.md``)::

    from verifier.algorithms.registry import Param, positive_int, transformer

    @transformer(
        "my_algorithm",
        source="Some et al. 2025, Algorithm 2 / Theorem 4",
        params=[Param("k", positive_int, "number of rounds")],
        inputs=(1, 1),
    )
    def my_algorithm(inputs, params):
        '''One-line summary shown by ``verifier`` listings.'''
        (base,) = inputs
        ...
        return FiniteMechanism(...)

Modules of this package import the registry from :mod:`.registry`, never from this
package (which imports them).

>>> from verifier.mechanism.model import FiniteMechanism
>>> from verifier.mechanism.neighbours import pair
>>> import sympy as sp
>>> half, third = sp.Rational(1, 2), sp.Rational(1, 3)
>>> coin = FiniteMechanism(pair(), {"D": {0: half, 1: half}, "D'": {0: third, 1: 2 * third}})
>>> best = TRANSFORMERS["best_of"].apply([coin, coin])
>>> best.p("D", 0), best.p("D'", 0)
(1/4, 1/9)
"""

from __future__ import annotations

# the registry and the algorithm modules (importing one registers its transformers)
from . import (
    generic,
    ghazi,
    ghazi_filter,
    ghazi_series,
    liu_talwar,
    noise,
    registry,
    repeat_select,
    selection,
    talwar,
)
from .generic import best_of, output_score
from .registry import *  # noqa: F403  (the registry's public names, listed once there)

__all__ = [
    *registry.__all__,
    "output_score",
    "best_of",
    "generic",
    "ghazi",
    "ghazi_filter",
    "ghazi_series",
    "liu_talwar",
    "noise",
    "repeat_select",
    "selection",
    "talwar",
]
