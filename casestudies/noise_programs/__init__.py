"""Noise-adding programs: the sparse vector technique and its published variants (Lyu,
Su, Li 2017), NumericalSVT (Wang et al. 2019), GapSVT (Ding et al. 2019) and
Report-Noisy-Max (Dwork & Roth 2014; Ding et al. 2018).

Modules: :mod:`.search` (the search space of the SVT algorithms), :mod:`.claims` (the
registered claims, with the derivations in its docstring).
"""
