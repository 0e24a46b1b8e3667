"""The noise package: the names it re-exports (every name imported from
``verifier.algorithms.noise`` or ``verifier.algorithms.noise_pw`` before the split)."""

from __future__ import annotations

import pytest

import verifier.algorithms.noise as noise
import verifier.algorithms.noise_pw as noise_pw

#: The public names of verifier.algorithms.noise before it became a package.
NOISE_NAMES = """
BOT TOP Noise geometric laplace NO_NOISE SparseVector NoisyMax Program lyu_svt
svt_monotone numerical_svt gap_svt gap_svt_monotone bad_gap_svt report_noisy_max
prog_claim query_graph check_sensitivity half_half ramp_pair ProgramMechanism
program_mechanism output_probability check_program_dp program_realized_epsilon
CurvePoint realized_epsilon_curve common_unit epsilon_for_base answers_of
RealizedMax Release Style Vector NoiseKind
""".split()

#: The public names of verifier.algorithms.noise_pw.
NOISE_PW_NAMES = """
Ring DISCRETE CONTINUOUS CONTINUOUS_AT_POINTS ExpPoly PW geometric_pmf
geometric_survival laplace_density laplace_survival point_mass step_below step_from
to_sympy to_exact TailSup tail_sup
""".split()


@pytest.mark.parametrize("name", NOISE_NAMES + NOISE_PW_NAMES)
def test_the_package_re_exports_the_old_names(name):
    assert name in noise.__all__
    assert getattr(noise, name) is not None


@pytest.mark.parametrize("name", NOISE_PW_NAMES)
def test_the_old_noise_pw_path_still_works(name):
    assert getattr(noise_pw, name) is getattr(noise, name)
