"""The published statistical lower bounds on ε for the mechanisms of the suite.

Parsed once, by hand, from the reference results of DP-Sniper's evaluation
(Bichsel, Steffen, Bogunovic, Vechev 2021, "DP-Sniper: Black-Box Discovery of
Differential Privacy Violations using Classifiers", IEEE S&P; repository
``eth-sri/dp-sniper``, commit ``ee087b2``, folder ``eval_sp2021/reference-results/``,
described in ``eval_sp2021/README.md`` and plotted by
``eval_sp2021/plots/create_plots.py``).  Each log holds one JSON object per line,
``{"ctx": [<mechanism>], <key>: <value>}``:

- ``dd_search_reg_data.log`` / ``dd_search_mlp_data.log`` (``make exp-logistic`` /
  ``make exp-neuralnet``): DD-Search, DP-Sniper's search over the input pairs of the
  ``PatternGenerator`` with a logistic-regression / neural-network classifier, on the
  22 mechanisms of ``dpsniper/experiments/exp_default.py``; the published bound is the
  line ``"eps_lcb"`` (what ``create_plots.py`` plots), a lower confidence bound at
  confidence 0.9 (``DDConfig(confidence=0.9)``, ``dpsniper/search/ddconfig.py``) from
  ``n_final = 2*10^8`` samples per input;
- ``statdp_1_data.log`` / ``statdp_2_data.log`` (``make exp-statdp``, two runs):
  StatDP (Ding et al. 2018) as DP-Sniper pins it (:data:`STATDP_PIN`: the git submodule
  ``statdp`` of ``eth-sri/dp-sniper@ee087b2`` points at the fork ``eth-sri/statdp``,
  commit ``3b9cb64``, which is ``cmla-psu/statdp``'s commit ``16f389b`` — the one
  ``eval_sp2021/README.md`` names — plus one commit that fixes how
  ``statdp/hypotest.py`` splits the iterations over processes), run by
  DP-Sniper's wrapper ``statdpwrapper/experiments/base.py`` on the mechanisms of
  ``statdpwrapper/experiments/mechanism_config.py``, its event then re-estimated
  by DP-Sniper's estimator ("StatDP-Fixed"): the line ``"statdp_result"`` carries
  ``eps_lcb`` (the lower confidence bound, confidence 0.9) and ``eps_preliminary``
  (the ε StatDP's own binary search reports, with no confidence bound attached:
  ``create_plots.py`` draws it as "StatDP claimed");
- ``floating_point_data.log`` / ``floating_fixed_data.log`` (``make exp-floating`` /
  ``make exp-floating-fixed``, ``dpsniper/experiments/exp_floating_point.py``):
  DD-Search with the neural network on the bit pattern of the 64-bit output of the
  textbook floating-point ``LaplaceMechanism(eps=0.1)`` and of ``LaplaceFixed(eps=0.1)``
  (Mironov 2012's snapping mechanism), line ``"eps_lcb"``.

A bound is stored as the decimal the log prints (``printed``); :attr:`Published.value`
is that decimal as an exact rational — the printed decimal *is* the published number.
Nothing here reads the network or the logs at run time; the tests check the structure
and values cited by file and line.

Caveats the logs carry: StatDP's ``SparseVectorTechnique5`` ran StatDP's ``iSVT1``
with ``epsilon = 0.05`` (the wrapper's overview in ``statdpwrapper/experiments/
__main__.py``: "iSVT1 (eps = our_eps/2)"), whose threshold noise Lap(2/0.05) = Lap(40)
is not DP-Sniper's Lap(20): another mechanism; StatDP's ``Rappor`` and
``OneTimeRappor`` hash the float text ``"1.0"`` where DP-Sniper hashes ``"1"``
(``statdpwrapper/algorithms_ext.py``), another instance (the entries'
``statdp_exact``); ``NumericalSVT`` has no line in either StatDP log (registered in
``mechanism_config.py``, no result logged).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sympy as sp

__all__ = [
    "REPOSITORY",
    "STATDP_PIN",
    "RESULTS",
    "Variant",
    "VARIANTS",
    "Published",
    "PUBLISHED",
    "MECHANISMS",
    "entry_name",
    "named_in",
    "bounds_for",
]

#: Where the logs are (repository and commit the values were read from).
REPOSITORY = "eth-sri/dp-sniper@ee087b2"
#: The StatDP that DP-Sniper's StatDP runs used: the commit its git submodule
#: ``statdp`` pins (``.gitmodules``: ``git@github.com:eth-sri/statdp.git``).
STATDP_PIN = (
    "eth-sri/statdp@3b9cb64ed6d3c71d97eb79ba35f68b1fab625f57 (the fork's commit of "
    "2020-05-22 on top of cmla-psu/statdp@16f389baf41b047dc6e70c334a8c49a7e00b5b7c, "
    "2020-05-14; it changes only how statdp/hypotest.py splits the iterations over "
    "processes)"
)
#: Their folder in that repository.
RESULTS = "eval_sp2021/reference-results"


@dataclass(frozen=True)
class Variant:
    """One tool run whose results a log holds.

    ``confidence`` is ``True`` for a lower confidence bound (``eps_lcb``, confidence
    0.9) and ``False`` for StatDP's preliminary ε, which carries none.
    """

    key: str
    label: str
    tool: str
    file: str
    field: str
    confidence: bool
    description: str


VARIANTS: dict[str, Variant] = {
    v.key: v
    for v in (
        Variant(
            "dd_search_reg",
            "DP-Sniper (LR)",
            "DP-Sniper",
            "dd_search_reg_data.log",
            "eps_lcb",
            True,
            "DD-Search with DP-Sniper's logistic-regression classifier (make exp-logistic)",
        ),
        Variant(
            "dd_search_mlp",
            "DP-Sniper (NN)",
            "DP-Sniper",
            "dd_search_mlp_data.log",
            "eps_lcb",
            True,
            "DD-Search with DP-Sniper's neural-network classifier (make exp-neuralnet)",
        ),
        Variant(
            "statdp_1",
            "StatDP-Fixed (1)",
            "StatDP",
            "statdp_1_data.log",
            "statdp_result.eps_lcb",
            True,
            "StatDP run by DP-Sniper's statdpwrapper, its event re-estimated (first run)",
        ),
        Variant(
            "statdp_2",
            "StatDP-Fixed (2)",
            "StatDP",
            "statdp_2_data.log",
            "statdp_result.eps_lcb",
            True,
            "StatDP run by DP-Sniper's statdpwrapper, its event re-estimated (second run)",
        ),
        Variant(
            "statdp_1_claimed",
            "StatDP claimed (1)",
            "StatDP",
            "statdp_1_data.log",
            "statdp_result.eps_preliminary",
            False,
            "the epsilon StatDP's binary search reports, no confidence bound (first run)",
        ),
        Variant(
            "statdp_2_claimed",
            "StatDP claimed (2)",
            "StatDP",
            "statdp_2_data.log",
            "statdp_result.eps_preliminary",
            False,
            "the epsilon StatDP's binary search reports, no confidence bound (second run)",
        ),
    )
}

#: The floating-point experiments log to their own files (DD-Search, neural network).
_FLOATING_FILES = {
    "floating_point": "floating_point_data.log",
    "floating_fixed": "floating_fixed_data.log",
}


@dataclass(frozen=True)
class Published:
    """One published lower bound: ``mechanism`` as the log's ``ctx`` names it, the
    ``variant`` (a key of :data:`VARIANTS`), the decimal as printed, and where it is
    printed (``file``, 1-based ``line``, JSON ``field``)."""

    mechanism: str
    variant: str
    printed: str
    file: str
    line: int
    field: str

    @property
    def value(self) -> sp.Rational:
        """The printed decimal as an exact rational.

        >>> Published("NoisyHist2", "statdp_2", "10.002168576736125", "f", 1, "k").value
        80017348613889/8000000000000
        >>> _ == sp.Rational(10002168576736125, 10**15)
        True
        """
        return sp.Rational(self.printed)

    @property
    def label(self) -> str:
        """The variant's column label."""
        return VARIANTS[self.variant].label

    @property
    def confidence(self) -> bool:
        """Whether this is a lower confidence bound (not StatDP's preliminary ε)."""
        return VARIANTS[self.variant].confidence

    @property
    def citation(self) -> str:
        """File, line and key of the value in DP-Sniper's repository."""
        return (
            f"{REPOSITORY}:{RESULTS}/{self.file}, line {self.line} "
            f'({{"ctx": ["{self.mechanism}"]}}, {self.field})'
        )


#: ``(mechanism, variant, printed value, line)`` as read from the logs.
_ROWS: list[tuple[str, str, str, int]] = [
    # LaplaceMechanism
    ("LaplaceMechanism", "dd_search_reg", "0.09680373477842874", 8),
    ("LaplaceMechanism", "dd_search_mlp", "0.09763363715243845", 8),
    ("LaplaceMechanism", "statdp_1", "0.09981418282420251", 30),
    ("LaplaceMechanism", "statdp_1_claimed", "0.09875", 30),
    ("LaplaceMechanism", "statdp_2", "0.09961720683589348", 30),
    ("LaplaceMechanism", "statdp_2_claimed", "0.0975", 30),
    # TruncatedGeometricMechanism
    ("TruncatedGeometricMechanism", "dd_search_reg", "0.11556448250263873", 16),
    ("TruncatedGeometricMechanism", "dd_search_mlp", "0.11554327252275165", 16),
    ("TruncatedGeometricMechanism", "statdp_1", "0.11588070285791208", 64),
    ("TruncatedGeometricMechanism", "statdp_1_claimed", "0.16125", 64),
    ("TruncatedGeometricMechanism", "statdp_2", "0.11685385390209024", 64),
    ("TruncatedGeometricMechanism", "statdp_2_claimed", "0.20437500000000003", 64),
    # NoisyHist1
    ("NoisyHist1", "dd_search_reg", "0.09779357853762427", 24),
    ("NoisyHist1", "dd_search_mlp", "0.09769858890379979", 24),
    ("NoisyHist1", "statdp_1", "0.08283071852918455", 94),
    ("NoisyHist1", "statdp_1_claimed", "0.0975", 94),
    ("NoisyHist1", "statdp_2", "0.09943568335950492", 94),
    ("NoisyHist1", "statdp_2_claimed", "0.09625", 94),
    # NoisyHist2
    ("NoisyHist2", "dd_search_reg", "4.60202151350145", 32),
    ("NoisyHist2", "dd_search_mlp", "4.601469785311435", 32),
    ("NoisyHist2", "statdp_1", "9.7169265671521", 148),
    ("NoisyHist2", "statdp_1_claimed", "8.859375", 148),
    ("NoisyHist2", "statdp_2", "10.002168576736125", 148),
    ("NoisyHist2", "statdp_2_claimed", "9.225625", 148),
    # ReportNoisyMax1
    ("ReportNoisyMax1", "dd_search_reg", "0.09225381318933756", 40),
    ("ReportNoisyMax1", "dd_search_mlp", "0.09250095026875194", 40),
    ("ReportNoisyMax1", "statdp_1", "0.09195171216431208", 178),
    ("ReportNoisyMax1", "statdp_1_claimed", "0.091875", 178),
    ("ReportNoisyMax1", "statdp_2", "0.0921021169451548", 178),
    ("ReportNoisyMax1", "statdp_2_claimed", "0.08437499999999999", 178),
    # ReportNoisyMax2
    ("ReportNoisyMax2", "dd_search_reg", "0.09750314019873763", 48),
    ("ReportNoisyMax2", "dd_search_mlp", "0.09792031720947492", 48),
    ("ReportNoisyMax2", "statdp_1", "0.09957525329005956", 208),
    ("ReportNoisyMax2", "statdp_1_claimed", "0.0975", 208),
    ("ReportNoisyMax2", "statdp_2", "0.09967230375558023", 208),
    ("ReportNoisyMax2", "statdp_2_claimed", "0.095", 208),
    # ReportNoisyMax3
    ("ReportNoisyMax3", "dd_search_reg", "0.24781576679261352", 56),
    ("ReportNoisyMax3", "dd_search_mlp", "0.2488099442765046", 56),
    ("ReportNoisyMax3", "statdp_1", "0.1991418003968266", 242),
    ("ReportNoisyMax3", "statdp_1_claimed", "0.176875", 242),
    ("ReportNoisyMax3", "statdp_2", "0.1960705014773274", 242),
    ("ReportNoisyMax3", "statdp_2_claimed", "0.179375", 242),
    # ReportNoisyMax4
    ("ReportNoisyMax4", "dd_search_reg", "0.34634322696561437", 64),
    ("ReportNoisyMax4", "dd_search_mlp", "0.35344366038471353", 64),
    ("ReportNoisyMax4", "statdp_1", "0.19601980077941494", 276),
    ("ReportNoisyMax4", "statdp_1_claimed", "0.18562499999999998", 276),
    ("ReportNoisyMax4", "statdp_2", "0.1988300779701171", 276),
    ("ReportNoisyMax4", "statdp_2_claimed", "0.186875", 276),
    # SparseVectorTechnique1
    ("SparseVectorTechnique1", "dd_search_reg", "0.08579843744077742", 72),
    ("SparseVectorTechnique1", "dd_search_mlp", "0.0857818700940598", 72),
    ("SparseVectorTechnique1", "statdp_1", "0.029753775766650392", 310),
    ("SparseVectorTechnique1", "statdp_1_claimed", "0.21625000000000003", 310),
    ("SparseVectorTechnique1", "statdp_2", "0.029845918933959936", 310),
    ("SparseVectorTechnique1", "statdp_2_claimed", "0.18562499999999998", 310),
    # SparseVectorTechnique2
    ("SparseVectorTechnique2", "dd_search_reg", "0.085933777378977", 80),
    ("SparseVectorTechnique2", "dd_search_mlp", "0.08524718743004556", 80),
    ("SparseVectorTechnique2", "statdp_1", "0.031642012639005124", 344),
    ("SparseVectorTechnique2", "statdp_1_claimed", "0.186875", 344),
    ("SparseVectorTechnique2", "statdp_2", "0.040683452034789624", 344),
    ("SparseVectorTechnique2", "statdp_2_claimed", "0.19687500000000002", 344),
    # SparseVectorTechnique3
    ("SparseVectorTechnique3", "dd_search_reg", "0.17157204754154964", 88),
    ("SparseVectorTechnique3", "dd_search_mlp", "0.1821683565930945", 88),
    ("SparseVectorTechnique3", "statdp_1", "0.023061332406729917", 386),
    ("SparseVectorTechnique3", "statdp_1_claimed", "1.2137500000000003", 386),
    ("SparseVectorTechnique3", "statdp_2", "0.17928544503534738", 386),
    ("SparseVectorTechnique3", "statdp_2_claimed", "1.205625", 386),
    # SparseVectorTechnique4
    ("SparseVectorTechnique4", "dd_search_reg", "0.1686833019846503", 96),
    ("SparseVectorTechnique4", "dd_search_mlp", "0.16956867255560404", 96),
    ("SparseVectorTechnique4", "statdp_1", "0.17085960551924195", 420),
    ("SparseVectorTechnique4", "statdp_1_claimed", "0.19125", 420),
    ("SparseVectorTechnique4", "statdp_2", "0.17190839183318207", 420),
    ("SparseVectorTechnique4", "statdp_2_claimed", "0.188125", 420),
    # SparseVectorTechnique5
    ("SparseVectorTechnique5", "dd_search_reg", "1.7611853568928795", 104),
    ("SparseVectorTechnique5", "dd_search_mlp", "1.760988163636311", 104),
    ("SparseVectorTechnique5", "statdp_1", "14.314308557571438", 470),
    ("SparseVectorTechnique5", "statdp_1_claimed", "3.235625", 470),
    ("SparseVectorTechnique5", "statdp_2", "14.314307341616473", 470),
    ("SparseVectorTechnique5", "statdp_2_claimed", "3.2475", 470),
    # SparseVectorTechnique6
    ("SparseVectorTechnique6", "dd_search_reg", "0.2720409230566201", 112),
    ("SparseVectorTechnique6", "dd_search_mlp", "0.269826687868739", 112),
    ("SparseVectorTechnique6", "statdp_1", "0.32203660515097443", 508),
    ("SparseVectorTechnique6", "statdp_1_claimed", "0.35124999999999995", 508),
    ("SparseVectorTechnique6", "statdp_2", "0.3199544091460842", 508),
    ("SparseVectorTechnique6", "statdp_2_claimed", "0.35", 508),
    # Rappor
    ("Rappor", "dd_search_reg", "0.2929848129867416", 120),
    ("Rappor", "dd_search_mlp", "0.30080244946686197", 120),
    ("Rappor", "statdp_1", "0.2415825425465492", 546),
    ("Rappor", "statdp_1_claimed", "0.51875", 546),
    ("Rappor", "statdp_2", "0.024254948245880925", 546),
    ("Rappor", "statdp_2_claimed", "0.55125", 546),
    # OneTimeRappor
    ("OneTimeRappor", "dd_search_reg", "0.5977779392161473", 128),
    ("OneTimeRappor", "dd_search_mlp", "0.5998986783208569", 128),
    ("OneTimeRappor", "statdp_1", "0.4706352801234841", 588),
    ("OneTimeRappor", "statdp_1_claimed", "1.2612500000000002", 588),
    ("OneTimeRappor", "statdp_2", "0.060191745045908185", 588),
    ("OneTimeRappor", "statdp_2_claimed", "1.2600000000000002", 588),
    # LaplaceParallel
    ("LaplaceParallel", "dd_search_reg", "0.03495277953654963", 136),
    ("LaplaceParallel", "dd_search_mlp", "0.029869306141541152", 136),
    ("LaplaceParallel", "statdp_1", "0.012592981052077068", 614),
    ("LaplaceParallel", "statdp_1_claimed", "0.06", 614),
    ("LaplaceParallel", "statdp_2", "0.013493289334906677", 614),
    ("LaplaceParallel", "statdp_2_claimed", "0.056874999999999995", 614),
    # SVT34Parallel
    ("SVT34Parallel", "dd_search_reg", "0.2610381735699283", 144),
    ("SVT34Parallel", "dd_search_mlp", "0.26162082346312676", 144),
    ("SVT34Parallel", "statdp_1", "0.1370886491760004", 660),
    ("SVT34Parallel", "statdp_1_claimed", "1.7799999999999998", 660),
    ("SVT34Parallel", "statdp_2", "0.19632395827496651", 660),
    ("SVT34Parallel", "statdp_2_claimed", "1.92", 660),
    # PrefixSum
    ("PrefixSum", "dd_search_reg", "0.5040117462103613", 152),
    ("PrefixSum", "dd_search_mlp", "0.5774330979382549", 152),
    ("PrefixSum", "statdp_1", "0.35160641681052285", 698),
    ("PrefixSum", "statdp_1_claimed", "0.34375", 698),
    ("PrefixSum", "statdp_2", "0.3445934123089889", 698),
    ("PrefixSum", "statdp_2_claimed", "0.34249999999999997", 698),
    # NumericalSVT
    ("NumericalSVT", "dd_search_reg", "0.034323746664875365", 160),
    ("NumericalSVT", "dd_search_mlp", "0.034501347436509455", 160),
]

#: ``(experiment, printed value, line)`` of the floating-point experiments'
#: ``eps_lcb`` (neural network, their own files).
_FLOATING_ROWS: list[tuple[str, str, int]] = [
    ("floating_point", "0.2520752797659247", 8),
    ("floating_fixed", "0.09787620639497785", 8),
]


def _published() -> list[Published]:
    out = [
        Published(m, v, printed, VARIANTS[v].file, line, VARIANTS[v].field)
        for m, v, printed, line in _ROWS
    ]
    out += [
        Published(m, "dd_search_mlp", printed, _FLOATING_FILES[m], line, "eps_lcb")
        for m, printed, line in _FLOATING_ROWS
    ]
    return out


#: Every published value, mechanism by mechanism (the order of the logs).
PUBLISHED: dict[str, dict[str, Published]] = {}
for _p in _published():
    PUBLISHED.setdefault(_p.mechanism, {})[_p.variant] = _p

#: The mechanisms the logs name, in their order (DP-Sniper's default experiment,
#: then the two floating-point experiments).
MECHANISMS: list[str] = list(PUBLISHED)

#: Suite entry names that are not the snake case of the log's name: the
#: floating-point experiments are named after what they run.
_ENTRY_NAMES = {"floating_point": "laplace_floating_point", "floating_fixed": "laplace_fixed"}


def entry_name(mechanism: str) -> str:
    """The suite entry name of a mechanism named as in the logs: DP-Sniper's class
    name in snake case.

    >>> entry_name("SVT34Parallel"), entry_name("OneTimeRappor"), entry_name("NoisyHist2")
    ('svt34_parallel', 'one_time_rappor', 'noisy_hist2')
    >>> entry_name("floating_fixed")
    'laplace_fixed'
    """
    if mechanism in _ENTRY_NAMES:
        return _ENTRY_NAMES[mechanism]
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", mechanism).lower()


def named_in(source: str) -> str | None:
    """The mechanism of the logs whose DP-Sniper class ``source`` names first (as a
    whole word), or ``None``.

    >>> named_in("dpsniper/mechanisms/rappor.py, OneTimeRappor(), a Rappor variant")
    'OneTimeRappor'
    >>> named_in("statdp/algorithms.py, iSVT1") is None
    True
    """
    best: tuple[int, str] | None = None
    for mechanism in PUBLISHED:
        if mechanism in _ENTRY_NAMES:
            continue
        m = re.search(rf"(?<![A-Za-z0-9_]){re.escape(mechanism)}(?![A-Za-z0-9_])", source)
        if m is not None and (best is None or m.start() < best[0]):
            best = (m.start(), mechanism)
    return None if best is None else best[1]


def bounds_for(name: str, source: str = "") -> tuple[str, dict[str, Published]] | None:
    """The log name and published values of the suite entry ``name``: the mechanism
    whose snake-case name is ``name``, else the DP-Sniper class ``source`` names first
    (``"...laplace.py, LaplaceMechanism(eps=0.1)"``, :func:`named_in`), else ``None``
    (the logs hold no value for it: StatDP's own algorithms).

    >>> bounds_for("noisy_hist2")[1]["statdp_2"].printed
    '10.002168576736125'
    >>> bounds_for("statdp_isvt1") is None
    True
    """
    for mechanism, values in PUBLISHED.items():
        if entry_name(mechanism) == name:
            return mechanism, values
    found = named_in(source)
    return None if found is None else (found, PUBLISHED[found])
