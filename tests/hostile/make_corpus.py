"""Write the corpus of hostile inputs under ``tests/hostile/corpus/`` (run from the
repository root: ``python tests/hostile/make_corpus.py``).

Each category is a directory.  A spec file (``.toml``, ``.json``, or raw bytes in
``.toml``) is run as ``verifier check FILE``; an ``.args`` file is a JSON object
``{"argv": [...], "setup": {...}}`` run in a fresh temporary directory, where
``{corpus}`` in the arguments is the corpus directory and ``setup`` may create
``fifo``, ``dir``, ``file``, ``big`` (a sparse file of the given size), ``loop`` (a
symbolic link to itself) and ``symlink`` entries, ``copy`` a corpus file there, or
write a ``text`` file ``[name, head, item, count, tail]`` (``item`` repeated ``count``
times with ``{i}`` replaced by its index: large inputs without large files in the
repository).  ``"stdout"`` in an ``.args`` file runs the command with standard output
``"full"`` (``/dev/full``), ``"broken"`` (a pipe whose reader is gone) or ``"closed"``
(as under ``>&-``; see ``runner.py``).
``expect.json`` in each directory maps every file to a text that the one-line error
message must contain (case-insensitive): the message names the problem.

Every entry must exit 2 within 5 s and 500 MB with that message and no traceback
(``test_corpus.py``).  The files are committed; this script documents how they were
made and rewrites them when the corpus changes.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parent / "corpus"

RR = """[graphs.g]
kind = "pair"

[mechanisms.m]
graph = "g"
outputs = [0, 1]
distributions.D = { "0" = "1/3", "1" = "2/3" }
distributions."D'" = { "0" = "2/3", "1" = "1/3" }

[mechanisms.q]
graph = "g"
outputs = [[1, 0], [0, 1]]
distributions.D = { "(1, 0)" = "1" }
distributions."D'" = { "(0, 1)" = "1" }
"""

#: A mechanism like ``m`` of :data:`RR` under another name.
MECH_BODY = """
[mechanisms.{name}]
graph = "g"
outputs = [0, 1]
distributions.D = {{ "0" = "1/3", "1" = "2/3" }}
distributions."D'" = {{ "0" = "2/3", "1" = "1/3" }}
"""

CLAIM = """
[[claims]]
id = "c"
mechanism = "{mech}"
kind = "pure_dp"
epsilon = "{eps}"
"""


def claim(mech: str = "m", eps: str = "1") -> str:
    return CLAIM.format(mech=mech, eps=eps)


def derived(algo: str, params: str, inputs: str = '["m"]') -> str:
    return (
        RR
        + f'\n[mechanisms.x]\nalgorithm = "{algo}"\ninputs = {inputs}\nparams = {params}\n'
        + claim("x")
    )


def eps_claim(eps: str, symbols: str = "") -> str:
    return (f"[symbols]\n{symbols}\n" if symbols else "") + RR + claim("m", eps)


def inequality(lhs: str, rhs: str = "1") -> str:
    return f'[[claims]]\nid = "i"\nkind = "inequality"\nlhs = "{lhs}"\nrhs = "{rhs}"\n'


def mech(body: str, claims: str | None = None) -> str:
    return body + (claim() if claims is None else claims)


# ---------------------------------------------------------------------------
# the categories: name -> {file name: (content, expected text)}
# ---------------------------------------------------------------------------

Entry = tuple[str | bytes | dict, str]


def syntax() -> dict[str, Entry]:
    deep = "[" * 100_000 + "]" * 100_000
    return {
        "unclosed_string.toml": ('title = "abc\n' + RR, "invalid TOML"),
        "bad_table_header.toml": ("[mechanisms.m\n" + RR, "invalid TOML"),
        "duplicate_key.toml": ('title = "a"\ntitle = "b"\n' + RR, "invalid TOML"),
        "duplicate_table.toml": (RR + RR, "invalid TOML"),
        "garbage.toml": ("\x00\x01\x02 this is not toml {{{", "invalid TOML"),
        "empty.toml": ("", "no claims"),
        "only_comments.toml": ("# nothing here\n# at all\n", "no claims"),
        "no_claims.toml": (RR, "no claims"),
        "empty_claims.toml": ("claims = []\n" + RR, "no claims"),
        "deep_arrays.toml": ("x = " + deep + "\n", "invalid TOML"),
        "deep_inline_tables.toml": ("x = " + "{a = " * 5000 + "1" + "}" * 5000 + "\n", "TOML"),
        "bad_escape.toml": ('title = "\\q"\n' + RR, "invalid TOML"),
        "huge_integer.toml": ("version = " + "9" * 5000 + "\n" + RR, "invalid TOML"),
        "trailing_comma.json": ('{"claims": [],}', "invalid JSON"),
        "nan.json": ('{"version": NaN}', "invalid JSON"),
        "infinity.json": ('{"version": Infinity}', "invalid JSON"),
        "duplicate_key.json": ('{"title": "a", "title": "b"}', "appears twice"),
        "top_level_array.json": ("[1, 2, 3]", "not an object"),
        "top_level_string.json": ('"spec"', "not an object"),
        "deep_nesting.json": ("[" * 100_000 + "]" * 100_000, "invalid JSON"),
        "empty.json": ("", "invalid JSON"),
        "huge_integer.json": ('{"version": ' + "9" * 5000 + "}", "invalid JSON"),
        "not_utf8.toml": (b'title = "\xff\xfe\xfd"\n', "not UTF-8"),
        "utf16_bom.toml": ("title = 'x'\n".encode("utf-16"), "not UTF-8"),
    }


def types() -> dict[str, Entry]:
    return {
        "epsilon_float.toml": (RR + claim().replace('"1"', "0.5"), "float"),
        "epsilon_bool.toml": (RR + claim().replace('"1"', "true"), "boolean"),
        "epsilon_array.toml": (RR + claim().replace('"1"', "[1]"), "array"),
        "epsilon_table.toml": (RR + claim().replace('"1"', "{ a = 1 }"), "table"),
        "version_string.toml": ('version = "1"\n' + RR + claim(), "version"),
        "version_two.toml": ("version = 2\n" + RR + claim(), "version"),
        "title_integer.toml": ("title = 3\n" + RR + claim(), "expected a string"),
        "outputs_string.toml": (
            RR.replace("outputs = [0, 1]", 'outputs = "0, 1"') + claim(),
            "expected an array",
        ),
        "outputs_bool.toml": (
            RR.replace("outputs = [0, 1]", "outputs = [true, false]") + claim(),
            "boolean",
        ),
        "distribution_wrong_length.toml": (
            RR.replace('distributions.D = { "0" = "1/3", "1" = "2/3" }', 'distributions.D = ["1"]')
            + claim(),
            "probabilities for 2 outputs",
        ),
        "distribution_number.toml": (
            RR.replace('distributions.D = { "0" = "1/3", "1" = "2/3" }', "distributions.D = 1")
            + claim(),
            "expected a table",
        ),
        "probability_float.toml": (RR.replace('"0" = "1/3"', '"0" = 0.3333'), "float"),
        "claims_table.toml": (RR + '[claims]\nid = "c"\n', "expected an array"),
        "claim_id_integer.toml": (RR + claim().replace('id = "c"', "id = 7"), "expected a string"),
        "expected_integer.toml": (RR + claim() + "expected = 1\n", "expected a string"),
        "expected_unknown.toml": (RR + claim() + 'expected = "maybe"\n', "holds"),
        "params_string.toml": (derived("repeat", '"n = 2"'), "expected a table"),
        "inputs_string.toml": (derived("repeat", "{ n = 2 }", '"m"'), "expected an array"),
        "max_bits_float.toml": (RR + claim() + "max_bits = 64.0\n", "expected an integer"),
        "max_bits_small.toml": (RR + claim() + "max_bits = 2\n", "must be an integer >= 16"),
        "pairs_three.toml": (RR + claim() + 'pairs = [["D", "D\'", "D"]]\n', "a pair is"),
        "symbol_value_list.toml": ("[symbols]\neps = [1]\n" + RR + claim(), "expected a number"),
        "symbol_flag_string.toml": (
            '[symbols]\neps = { positive = "yes" }\n' + RR + claim(),
            "true or false",
        ),
        "graph_kind_integer.toml": (
            RR.replace('kind = "pair"', "kind = 3") + claim(),
            "expected a string",
        ),
        "distance_string.toml": (RR + claim() + 'distance = "2"\n', "expected an integer"),
        "statement_table.toml": (RR + claim() + "statement = { a = 1 }\n", "expected a string"),
        "claims_strings.json": ('{"claims": ["a", "b"]}', "expected a table"),
        "mechanisms_array.json": ('{"mechanisms": [1, 2], "claims": []}', "expected a table"),
    }


def missing() -> dict[str, Entry]:
    c = claim()
    return {
        "claim_without_kind.toml": (
            RR + c.replace('kind = "pure_dp"\n', ""),
            "missing required key 'kind'",
        ),
        "claim_without_id.toml": (RR + c.replace('id = "c"\n', ""), "missing required key 'id'"),
        "claim_without_mechanism.toml": (
            RR + c.replace('mechanism = "m"\n', ""),
            "missing required key 'mechanism'",
        ),
        "claim_without_epsilon.toml": (
            RR + c.replace('epsilon = "1"\n', ""),
            "missing required key 'epsilon'",
        ),
        "approx_without_delta.toml": (
            RR + c.replace("pure_dp", "approx_dp"),
            "missing required key 'delta'",
        ),
        "mechanism_without_outputs.toml": (
            RR.replace("outputs = [0, 1]\n", "") + c,
            "missing required key 'outputs'",
        ),
        "mechanism_without_graph.toml": (
            RR.replace('graph = "g"\noutputs = [0, 1]', "outputs = [0, 1]") + c,
            "missing required key 'graph'",
        ),
        "mechanism_without_distributions.toml": (
            '[mechanisms.m]\ngraph = { kind = "pair" }\noutputs = [0]\n' + c,
            "missing required key 'distributions'",
        ),
        "graph_without_kind.toml": (
            RR.replace('kind = "pair"\n', "") + c,
            "missing required key 'kind'",
        ),
        "edges_without_edges.toml": (
            RR.replace('kind = "pair"', 'kind = "edges"\ndatasets = ["D", "D\'"]') + c,
            "missing required key 'edges'",
        ),
        "derived_without_inputs.toml": (
            RR + '[mechanisms.x]\nalgorithm = "repeat"\nparams = { n = 2 }\n' + claim("x"),
            "missing required key 'inputs'",
        ),
        "algorithm_param_missing.toml": (derived("repeat", "{}"), "needs the parameter 'n'"),
        "distribution_missing_dataset.toml": (
            RR.replace('distributions."D\'" = { "0" = "2/3", "1" = "1/3" }\n', "", 1) + c,
            "no distribution for dataset",
        ),
        "over_without_hi.toml": (
            "[symbols]\nt = { positive = true }\n"
            + RR
            + c.replace('"1"', '"t"')
            + 'over = { symbol = "t", lo = "1" }\n',
            "missing required key 'hi'",
        ),
        "certificate_without_target.toml": (RR + "[certificate]\npremises = []\n" + c, "target"),
        "path_without_n.toml": (
            RR.replace('kind = "pair"', 'kind = "path"') + c,
            "missing required key 'n'",
        ),
    }


def unknown() -> dict[str, Entry]:
    c = claim()
    return {
        "top_level_key.toml": ("colour = 1\n" + RR + c, "unknown key"),
        "claim_kind.toml": (RR + c.replace("pure_dp", "pure_dpp"), "unknown claim kind"),
        "graph_kind.toml": (
            RR.replace('kind = "pair"', 'kind = "torus"') + c,
            "unknown graph kind",
        ),
        "algorithm.toml": (derived("quantum_sampler", "{}"), "unknown algorithm"),
        "mechanism_ref.toml": (RR + claim("nope"), "unknown mechanism"),
        "graph_ref.toml": (RR.replace('graph = "g"', 'graph = "h"', 1) + c, "unknown graph"),
        "algorithm_param.toml": (derived("repeat", "{ n = 2, turbo = true }"), "unknown parameter"),
        "symbol_in_expression.toml": (RR + claim("m", "eps"), "unknown name"),
        "output_label.toml": (
            RR.replace('"0" = "1/3"', '"7" = "1/3"', 1) + c,
            "missing from the output order",
        ),
        "pair_dataset.toml": (RR + c + 'pairs = [["D", "E"]]\n', "unknown dataset"),
        "distribution_dataset.toml": (
            RR.replace("distributions.D =", "distributions.E =", 1) + c,
            "not in the mechanism's graph",
        ),
        "typo_distribution.toml": (
            RR.replace("distributions.D", "distribution.D", 1) + c,
            "did you mean",
        ),
        "function.toml": (RR + claim("m", "foo(1)"), "unknown function"),
        "certificate_key.toml": (
            RR + '[certificate]\ntarget = "c"\nwitness = 1\n' + c,
            "unknown key",
        ),
        "certificate_target.toml": (
            RR + '[certificate]\ntarget = "zz"\n' + c + 'expected = "refuted"\n',
            "no claim with id",
        ),
        "symbol_key.toml": ("[symbols]\neps = { value = 1, sign = 1 }\n" + RR + c, "unknown key"),
        "over_symbol.toml": (
            RR + c + 'over = { symbol = "t", lo = "0", hi = "1" }\n',
            "unknown symbol",
        ),
        "ties_choice.toml": (derived("best_of", '{ k = 2, ties = "random" }'), "must be one of"),
    }


def numbers() -> dict[str, Entry]:
    return {
        "sum_not_one.toml": (RR.replace('"1" = "2/3" }', '"1" = "1/2" }', 1) + claim(), "sums to"),
        "negative_probability.toml": (
            RR.replace('"0" = "1/3", "1" = "2/3"', '"0" = "-1/3", "1" = "4/3"', 1) + claim(),
            "negative",
        ),
        "epsilon_zero.toml": (eps_claim("0"), "must be > 0"),
        "epsilon_negative.toml": (eps_claim("-1"), "must be > 0"),
        "delta_two.toml": (RR + claim().replace("pure_dp", "approx_dp") + 'delta = "2"\n', "delta"),
        "alpha_one.toml": (RR + claim().replace("pure_dp", "rdp") + "alpha = 1\n", "alpha"),
        "division_by_zero.toml": (eps_claim("1/0"), "division by zero"),
        "log_zero.toml": (eps_claim("log(0)"), "not positive"),
        "sqrt_negative.toml": (eps_claim("sqrt(-1)"), "not real"),
        "zero_negative_power.toml": (eps_claim("0^-1"), "division by zero"),
        "cube_root_negative.toml": (eps_claim("(-8)^(1/3)"), "not real"),
        "literal_too_long.toml": (eps_claim("1" + "0" * 2000), "digits"),
        "tower.toml": (eps_claim("10^10^10"), "too large"),
        "power_of_two_billion.toml": (eps_claim("2^(10^9)"), "too large"),
        "nan_name.toml": (eps_claim("nan"), "nan"),
        "inf_name.toml": (eps_claim("inf"), "unknown name"),
        "eps_tilde_negative.toml": (
            RR
            + claim()
            .replace("pure_dp", "ex_post")
            .replace("epsilon", "epsilon_tilde")
            .replace('"1"', '"-1"'),
            ">= 0",
        ),
        "range_empty.toml": (
            "[symbols]\nt = { positive = true }\n"
            + RR
            + claim("m", "t")
            + 'over = { symbol = "t", lo = "2", hi = "1" }\n',
            "empty range",
        ),
        "symbol_integer_violated.toml": (
            '[symbols]\nn = { value = "1/2", integer = true }\n' + RR + claim(),
            "declared integer",
        ),
        "symbol_positive_violated.toml": (
            '[symbols]\ne1 = { value = "-1", positive = true }\n' + RR + claim(),
            "declared positive",
        ),
        "binomial_fraction.toml": (eps_claim("binomial(1/2, 1)"), "integer arguments"),
        "floor_huge.toml": (eps_claim("floor(exp(10^6))"), "too large"),
        "epsilon_string_words.toml": (eps_claim("one"), "unknown name"),
        "exponent_too_large.toml": (eps_claim("3^200000"), "too large"),
        "log_base_one.toml": (eps_claim("log(2, 1)"), "base of a logarithm"),
    }


def resources() -> dict[str, Entry]:
    out: dict[str, Entry] = {
        "eps_exp_1e10.toml": (eps_claim("exp(10^10)"), "magnitude"),
        "eps_exp_1e9.toml": (eps_claim("exp(10^9)"), "magnitude"),
        "eps_exp_2_63.toml": (eps_claim("exp(2^63)"), "magnitude"),
        "eps_symbol_exp.toml": (eps_claim("eps", 'eps = "exp(10^10)"'), "magnitude"),
        "alpha_huge.toml": (
            RR + claim().replace("pure_dp", "rdp") + 'alpha = "10^300"\n',
            "magnitude",
        ),
        "eps_tilde_huge.toml": (
            RR
            + claim()
            .replace("pure_dp", "ex_post")
            .replace("epsilon", "epsilon_tilde")
            .replace('"1"', '"exp(10^9)"'),
            "magnitude",
        ),
        "box_parameters_20.toml": (
            "[symbols]\n"
            + "".join(f"t{i} = {{ positive = true }}\n" for i in range(20))
            + RR
            + claim("m", "t0")
            + "over = { "
            + ", ".join(f't{i} = ["1", "2"]' for i in range(20))
            + " }\n",
            "a box of 20 parameters, over the limit of 8",
        ),
        "box_end_huge.toml": (
            "[symbols]\nt = { positive = true }\nu = { positive = true }\n"
            + RR
            + claim("m", "t + u")
            + 'over = { t = ["1", "1e308"], u = ["1", "2"] }\n',
            "magnitude",
        ),
        "box_end_outside_assumption.toml": (
            "[symbols]\nt = { positive = true }\nu = { positive = true }\n"
            + RR
            + claim("m", "t + u")
            + 'over = { t = ["-1", "1"], u = ["1", "2"] }\n',
            "t is declared positive",
        ),
        "range_end_huge.toml": (
            "[symbols]\nt = { positive = true }\n"
            + RR
            + claim("m", "t")
            + 'over = { symbol = "t", lo = "1", hi = "exp(10^9)" }\n',
            "magnitude",
        ),
        "exp_argument_tower.toml": (inequality("exp(exp(exp(10)))"), "too large"),
        "repeat_1e9.toml": (derived("repeat", '{ n = "10^9" }'), "outputs"),
        "repeat_40.toml": (derived("repeat", "{ n = 40 }"), "outputs"),
        "best_of_1e9.toml": (derived("best_of", '{ k = "10^9" }'), "operations"),
        "best_of_5000.toml": (derived("best_of", "{ k = 5000 }"), "operations"),
        "max_of_runs_1e9.toml": (derived("talwar_max_of_runs", '{ T = "10^9" }'), "operations"),
        "hybrid_c_1e9.toml": (
            derived("talwar_hybrid", '{ gamma = "1/2", c = "10^9" }'),
            "operations",
        ),
        "random_stopping_hard_1e9.toml": (
            derived("lt_random_stopping_hard", '{ gamma = "1/2", T = "10^9" }'),
            "operations",
        ),
        "thresholding_1e9.toml": (
            derived("lt_thresholding", '{ gamma = "1/2", tau = "1", T = "10^9" }'),
            "operations",
        ),
        "percentile_1e9.toml": (
            derived("lt_percentile_release", '{ n = "10^9", k = 3 }'),
            "operations",
        ),
        "sparse_vector_c_1e9.toml": (
            derived("sparse_vector", '{ variant = "lyu1", epsilon = "1", c = "10^9" }', '["q"]'),
            "operations",
        ),
        "ghazi_copies_1e9.toml": (
            derived("ghazi_hyperparameter_tuning", '{ eps_prime = "1", copies = [1000000000] }'),
            "operations",
        ),
        "independent_40.toml": (
            derived("independent", "{}", "[" + ", ".join(['"m"'] * 40) + "]"),
            "outputs",
        ),
        "hamming_cube_100.toml": (
            RR.replace('kind = "pair"', 'kind = "hamming_cube"\nn = 100') + claim(),
            "exceeds the limit",
        ),
        "path_1e9.toml": (
            RR.replace('kind = "pair"', 'kind = "path"\nn = 1000000000') + claim(),
            "exceeds the limit",
        ),
        "lumped_cube_1e9.toml": (
            RR.replace('kind = "pair"', 'kind = "lumped_hamming_cube"\nn = 1000000000') + claim(),
            "exceeds the limit",
        ),
        "add_remove_40.toml": (
            RR.replace(
                'kind = "pair"',
                'kind = "add_remove"\nuniverse = [' + ", ".join(f'"r{i}"' for i in range(40)) + "]",
            )
            + claim(),
            "more than 100000 datasets",
        ),
        "distance_1e9.toml": (RR + claim() + "distance = 1000000000\n", "exceeds the limit"),
        "max_bits_1e9.toml": (RR + claim() + "max_bits = 1000000000\n", "exceeds the limit"),
        "deep_parentheses.toml": (eps_claim("(" * 100_000 + "1" + ")" * 100_000), "too long"),
        "nesting_depth.toml": (eps_claim("(" * 5000 + "1" + ")" * 5000), "nest"),
        "long_expression.toml": (eps_claim("1+" * 50_000 + "1"), "too long"),
        "megabyte_string.toml": ('title = "' + "x" * 1_000_000 + '"\n' + RR, "no claims"),
        "function_nesting.toml": (eps_claim("exp(" * 20 + "1" + ")" * 20), "nest"),
        "many_calls.toml": (
            eps_claim("+".join(f"exp(1/{i})" for i in range(2, 302))),
            "too many function calls",
        ),
        "binomial_huge.toml": (eps_claim("binomial(10^9, 5*10^8)"), "too large"),
        "symbol_power.toml": (
            '[symbols]\nx = "2^12000"\n' + RR + claim("m", "x^100000"),
            "too large",
        ),
    }
    return out


def injection() -> dict[str, Entry]:
    return {
        "import_os.toml": (eps_claim("__import__('os').system('echo pwned')"), "not allowed"),
        "lambda.toml": (eps_claim("lambda: 1"), "unexpected character"),
        "eval.toml": (eps_claim("eval('1')"), "unknown function"),
        "exec.toml": (eps_claim("exec('1')"), "unknown function"),
        "attribute.toml": (eps_claim("(1).real"), "unexpected character"),
        "subscript.toml": (eps_claim("x[0]"), "unexpected character"),
        "semicolon.toml": (eps_claim("1; 2"), "unexpected character"),
        "fstring.toml": (eps_claim("f'{1}'"), "strings are not allowed"),
        "dunder_symbol.toml": ('[symbols]\n__class__ = "1"\n' + RR + claim(), "not allowed"),
        "reserved_symbol.toml": ('[symbols]\nexp = "1"\n' + RR + claim(), "reserved"),
        "sympify_string.toml": (eps_claim("Symbol('x')"), "unknown function"),
        "backtick.toml": (eps_claim("`ls`"), "unexpected character"),
        "pickle_like.json": (
            '{"mechanisms": {"m": {"algorithm": "__reduce__", "inputs": []}}, "claims": []}',
            "unknown algorithm",
        ),
        "ansi_claim_id.toml": (
            RR + claim("nope").replace('id = "c"', 'id = "\\u001b[2J\\u001b[32mALL CLAIMS HOLD"'),
            "unknown mechanism",
        ),
        "ansi_mechanism_name.toml": (RR + claim("\\u001b]0;pwned\\u0007"), "unknown mechanism"),
        "ansi_in_expression.toml": (eps_claim("1\\u001b[31m"), "unexpected character"),
        "bidi_override.toml": (RR + claim("\\u202enope"), "unknown mechanism"),
        "carriage_return_id.toml": (
            RR
            + claim().replace('id = "c"', 'id = "a\\rVIOLATED"')
            + claim().replace('id = "c"', 'id = "a\\rVIOLATED"'),
            "duplicate claim id",
        ),
        "newline_in_key.toml": (RR + '"bad\\nkey" = 1\n' + claim(), "unknown key"),
    }


def unbound() -> dict[str, Entry]:
    free = "[symbols]\nt = { positive = true }\n"
    return {
        "epsilon_free.toml": (free + RR + claim("m", "t"), "no value"),
        "delta_free.toml": (
            free + RR + claim().replace("pure_dp", "approx_dp") + 'delta = "t"\n',
            "no value",
        ),
        "alpha_free.toml": (
            free + RR + claim().replace("pure_dp", "rdp") + 'alpha = "t + 1"\n',
            "no value",
        ),
        "probability_free.toml": (
            free + RR.replace('"0" = "1/3", "1" = "2/3"', '"0" = "t", "1" = "1 - t"', 1) + claim(),
            "not provably non-negative",
        ),
        "range_end_free.toml": (
            "[symbols]\nt = { positive = true }\nu = { positive = true }\n"
            + RR
            + claim("m", "t")
            + 'over = { symbol = "t", lo = "u", hi = "1" }\n',
            "no value",
        ),
        "symbol_forward_reference.toml": (
            '[symbols]\na = "b"\nb = "1"\n' + RR + claim(),
            "unknown name",
        ),
        "algorithm_param_free.toml": (
            free + derived("talwar_hybrid", '{ gamma = "t", c = 2 }'),
            "no value",
        ),
        "inequality_free.toml": (free + inequality("t"), "no value"),
        "range_over_valued_symbol.toml": (
            '[symbols]\nt = "1"\n'
            + RR
            + claim("m", "t")
            + 'over = { symbol = "t", lo = "0", hi = "1" }\n',
            "has a value",
        ),
        "eps_tilde_free.toml": (
            free
            + RR
            + claim()
            .replace("pure_dp", "ex_post")
            .replace("epsilon", "epsilon_tilde")
            .replace('"1"', '"t"'),
            "no value",
        ),
    }


def datasets() -> dict[str, Entry]:
    c = claim()
    edges = '[graphs.g]\nkind = "edges"\ndatasets = {ds}\nedges = {es}\n'
    body = RR[RR.index("[mechanisms.m]") :]
    return {
        "duplicate_dataset.toml": (
            edges.format(ds='["D", "D"]', es='[["D", "D"]]') + body + c,
            "listed twice",
        ),
        "edge_unknown.toml": (
            edges.format(ds='["D", "D\'"]', es='[["D", "E"]]') + body + c,
            "unknown dataset",
        ),
        "self_loop.toml": (
            edges.format(ds='["D", "D\'"]', es='[["D", "D"]]') + body + c,
            "its own neighbour",
        ),
        "edge_three.toml": (
            edges.format(ds='["D", "D\'"]', es='[["D", "D\'", "D"]]') + body + c,
            "an edge is a pair",
        ),
        "pair_three.toml": (
            RR.replace('kind = "pair"', 'kind = "pair"\ndatasets = ["a", "b", "c"]') + c,
            "a pair has 2 datasets",
        ),
        "no_datasets.toml": (edges.format(ds="[]", es="[]") + body + c, "no datasets"),
        "add_remove_comma.toml": (
            RR.replace('kind = "pair"', 'kind = "add_remove"\nuniverse = ["a,b", "a", "b"]') + c,
            "must not contain",
        ),
        "too_many_datasets.toml": (
            edges.format(ds="[" + ", ".join(f'"d{i}"' for i in range(100_001)) + "]", es="[]")
            + body
            + c,
            "more than 100000 datasets",
        ),
        "pair_identical.toml": (RR + c + 'pairs = [["D", "D"]]\n', "two distinct datasets"),
        "no_pairs.toml": (RR + c + "pairs = []\n", "no pairs"),
        "inputs_different_graphs.toml": (
            RR
            + '[mechanisms.n]\ngraph = { kind = "pair", datasets = ["A", "B"] }\noutputs = [0]\ndistributions.A = { "0" = 1 }\ndistributions.B = { "0" = 1 }\n'
            '[mechanisms.x]\nalgorithm = "independent"\ninputs = ["m", "n"]\n' + claim("x"),
            "graph",
        ),
        "derived_cycle.toml": (
            RR
            + '[mechanisms.x]\nalgorithm = "repeat"\ninputs = ["y"]\nparams = { n = 2 }\n[mechanisms.y]\nalgorithm = "repeat"\ninputs = ["x"]\nparams = { n = 2 }\n'
            + claim("x"),
            "cycle",
        ),
        "output_twice.toml": (
            RR.replace("outputs = [0, 1]", 'outputs = [0, "0"]', 1) + c,
            "appears twice",
        ),
        "empty_output_array.toml": (
            RR.replace("outputs = [0, 1]", "outputs = [[]]", 1) + c,
            "empty array",
        ),
    }


def files() -> dict[str, Entry]:
    return {
        "directory.args": ({"argv": ["check", "{corpus}/files"]}, "is a directory"),
        "dev_zero.args": ({"argv": ["check", "/dev/zero"]}, "not a regular file"),
        "dev_null.args": ({"argv": ["check", "/dev/null"]}, "not a regular file"),
        "dev_urandom.args": ({"argv": ["check", "/dev/urandom"]}, "not a regular file"),
        "fifo.args": (
            {"argv": ["check", "pipe.toml"], "setup": {"fifo": "pipe.toml"}},
            "not a regular file",
        ),
        "missing.args": ({"argv": ["check", "nowhere.toml"]}, "no such file"),
        "huge_sparse.args": (
            {"argv": ["check", "big.toml"], "setup": {"big": ["big.toml", 20_000_000]}},
            "over the limit",
        ),
        "symlink_loop.args": (
            {"argv": ["check", "loop.toml"], "setup": {"loop": "loop.toml"}},
            "cannot read",
        ),
        "file_size_limit.args": (
            {"argv": ["check", "--max-file-size", "10", "{corpus}/numbers/epsilon_zero.toml"]},
            "over the limit",
        ),
        "proc_file.args": ({"argv": ["check", "/proc/self/status"]}, "invalid TOML"),
        "resume_passwd.args": (
            {"argv": ["search", "--resume", "/etc/passwd"]},
            "not a search checkpoint",
        ),
        "resume_dev_zero.args": (
            {"argv": ["search", "--resume", "/dev/zero"]},
            "not a regular file",
        ),
        "resume_spec.args": (
            {"argv": ["search", "--resume", "{corpus}/numbers/epsilon_zero.toml"]},
            "not a search checkpoint",
        ),
        "resume_directory.args": (
            {"argv": ["search", "--resume", "{corpus}"]},
            "not a search checkpoint",
        ),
        "resume_other_json.args": (
            {"argv": ["search", "--resume", "{corpus}/syntax/top_level_array.json"]},
            "not a search checkpoint",
        ),
        "search_dev_zero_spec.args": ({"argv": ["search", "/dev/zero.toml"]}, "no such file"),
        "search_symlink_dev_zero.args": (
            {"argv": ["search", "z.toml"], "setup": {"symlink": ["z.toml", "/dev/zero"]}},
            "not a regular file",
        ),
        "check_symlink_dev_zero.args": (
            {"argv": ["check", "z.toml"], "setup": {"symlink": ["z.toml", "/dev/zero"]}},
            "not a regular file",
        ),
        "search_fifo.args": (
            {"argv": ["search", "p.toml"], "setup": {"fifo": "p.toml"}},
            "not a regular file",
        ),
        "check_fifo_json.args": (
            {"argv": ["check", "p.json"], "setup": {"fifo": "p.json"}},
            "not a regular file",
        ),
        "schema_validate_dev_zero.args": (
            {"argv": ["schema", "--validate", "/dev/zero"]},
            "not a regular file",
        ),
        "schema_validate_deep.args": (
            {"argv": ["schema", "--validate", "{corpus}/syntax/deep_nesting.json"]},
            "nested too deeply",
        ),
        "box_decision_error.toml": (
            (ROOT / "examples" / "box_two_budgets.toml")
            .read_text()
            .replace('epsilon = "eps_1"', 'epsilon = "binomial(3, eps_1)"'),
            "box_decision_error.toml: claim 'eps_1': cannot enclose binomial(n, k) with a "
            "non-constant k",
        ),
    }


def tampered() -> dict[str, Entry]:
    """Certificates and checkpoints written by a real search, then edited."""
    import re
    import tempfile

    sys.path.insert(0, str(ROOT))
    from verifier.search import search

    out: dict[str, Entry] = {}
    with tempfile.TemporaryDirectory() as tmp:
        cert = Path(tmp) / "cert.toml"
        search("liu_talwar2019.B1.best_of_k_eps", seed=0, out=cert, seconds=None)
        text = cert.read_text()
        ck = Path(tmp) / "ck.json"
        search("ghazi2025.thm9", instances=400, seed=0, checkpoint=ck, seconds=None)
        doc = json.loads(ck.read_text())
    broken = text.replace('epsilon = "log(5/4)"', 'epsilon = "log(11/10)"', 1)
    unmarked = re.sub(r"\[certificate\]\ntarget = .*\npremises = .*\n", "", broken)
    head, _, tail = text.rpartition('epsilon = "log(5/4)"')  # the target's epsilon
    target_holds = head + 'epsilon = "log(100)"' + tail
    out["cert_premise_broken.toml"] = (broken, "invalid certificate: premise premise-M1 fails")
    out["cert_premise_broken_expected.args"] = (
        {"argv": ["check", "--expected", "{corpus}/files/cert_premise_broken.toml"]},
        "invalid certificate: premise premise-M1 fails",
    )
    out["cert_premise_broken_unmarked.toml"] = (unmarked, "invalid certificate: premise")
    out["cert_premise_broken_unmarked_expected.args"] = (
        {"argv": ["check", "--expected", "{corpus}/files/cert_premise_broken_unmarked.toml"]},
        "invalid certificate: premise",
    )
    out["cert_target_holds.toml"] = (target_holds, "is not violated")
    out["cert_marker_names_premise.toml"] = (
        text.replace('target = "liu_talwar2019.B1.best_of_k_eps"', 'target = "premise-M1"'),
        "must be expected 'refuted'",
    )
    out["cert_marker_drops_premise.toml"] = (
        text.replace('premises = ["premise-M1", "premise-M2"]', 'premises = ["premise-M1"]'),
        "neither the target nor a premise",
    )

    def sealed(d: dict) -> dict:
        import hashlib

        body = {k: v for k, v in d.items() if k != "sha256"}
        canon = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        return {**body, "sha256": hashlib.sha256(canon.encode()).hexdigest()}

    doc["state"]["elapsed"] = 1.0  # the files do not change from one run to the next
    doc = sealed(doc)

    def edited(change: Any, reseal: bool) -> dict:
        d = json.loads(json.dumps(doc))
        change(d)
        return sealed(d) if reseal else d

    def setter(*keys: str, value: Any) -> Any:
        def change(d: dict) -> None:
            for k in keys[:-1]:
                d = d[k]
            d[keys[-1]] = value

        return change

    cases = {
        "ck_unsealed_edit": (
            setter("state", "instances", value=0),
            False,
            "modified after it was written",
        ),
        "ck_negative_instances": (setter("state", "instances", value=-80), True, "state.instances"),
        "ck_instances_over_budget": (
            setter("state", "instances", value=64_000),
            True,
            "state.instances",
        ),
        "ck_best_ratio_edited": (setter("state", "best_ratio", value=7.0), True, "best_ratio"),
        "ck_next_index_string": (setter("state", "next_index", value="5"), True, "next_index"),
        "ck_batch_size_huge": (setter("config", "batch_size", value=10**9), True, "batch_size"),
        "ck_reference_other_spec": (
            setter("reference", value={"spec": "x.toml", "claim": "c", "sha256": "0" * 64}),
            True,
            "no such file",
        ),
        "ck_found_fake": (
            setter("state", "found", value={"t": [1, 2]}),
            True,
            "not a valid search checkpoint",
        ),
        "ck_pending_garbage": (setter("state", "pending", value=[{"index": 1}]), True, "pending"),
        "ck_unknown_key": (setter("state", "debug", value=True), True, "unknown key"),
        "ck_done_early": (
            lambda d: (setter("state", "done", value=True)(d), setter("instances", value=4000)(d)),
            True,
            "marked done",
        ),
        "ck_fraction_zero": (
            setter("state", "best", value={"f": "1/0"}),
            True,
            "malformed fraction",
        ),
    }
    for name, (change, reseal, text_) in cases.items():
        out[f"{name}.json"] = (json.dumps(edited(change, reseal), indent=1), "")
        # resumed from a copy: a search locks (and may write) the file it resumes
        setup = {"copy": [f"files/{name}.json", "ck.json"]}
        argv = ["search", "--resume", "ck.json", "--out", "c.toml"]
        out[f"{name}.args"] = ({"argv": argv, "setup": setup}, text_)
    named = ["search", "ghazi2025.thm9", "--resume", "ck.json", "--out", "c.toml"]
    out["ck_reference_other_spec_named.args"] = (
        {"argv": named, "setup": {"copy": ["files/ck_reference_other_spec.json", "ck.json"]}},
        "another version of the claim",
    )
    other = ["search", "ghazi2025.thm8", "--resume", "ck.json"]
    out["ck_other_claim.args"] = (
        {"argv": other, "setup": {"copy": ["files/ck_unknown_key.json", "ck.json"]}},
        "unknown key",
    )
    return out


def paths() -> dict[str, Entry]:
    ok = "{corpus}/../../../examples/randomized_response.toml"
    return {
        "out_missing_dir.args": (
            {"argv": ["search", "ghazi2025.thm9", "--out", "no/such/dir/c.toml"]},
            "does not exist",
        ),
        "out_is_directory.args": (
            {"argv": ["search", "ghazi2025.thm9", "--out", "d"], "setup": {"dir": "d"}},
            "is a directory",
        ),
        "out_dev_null.args": (
            {"argv": ["search", "ghazi2025.thm9", "--out", "/dev/null"]},
            "not a regular file",
        ),
        "out_empty.args": ({"argv": ["search", "ghazi2025.thm9", "--out", ""]}, "not a file name"),
        "checkpoint_missing_dir.args": (
            {"argv": ["search", "ghazi2025.thm9", "--checkpoint", "no/dir/ck.json"]},
            "does not exist",
        ),
        "checkpoint_is_directory.args": (
            {"argv": ["search", "ghazi2025.thm9", "--checkpoint", "d"], "setup": {"dir": "d"}},
            "is a directory",
        ),
        "checkpoint_under_file.args": (
            {
                "argv": ["search", "ghazi2025.thm9", "--checkpoint", "f/ck.json"],
                "setup": {"file": "f"},
            },
            "not a directory",
        ),
        "check_certificates_is_file.args": (
            {"argv": ["check", ok, "--certificates", "f"], "setup": {"file": "f"}},
            "--certificates",
        ),
        "casestudies_certificates_is_file.args": (
            {"argv": ["casestudies", "talwar2025", "--certificates", "f"], "setup": {"file": "f"}},
            "--certificates",
        ),
        "plot_missing_dir.args": (
            {"argv": ["tradeoff", "repetition", "--gamma", "1/100", "--plot", "no/dir/f.png"]},
            "does not exist",
        ),
        "plot_bad_suffix.args": (
            {"argv": ["tradeoff", "repetition", "--gamma", "1/100", "--plot", "f.gif"]},
            "must end in",
        ),
        "export_out_proc.args": (
            {"argv": ["export", "dp_testing", "--only", "noisy_hist1", "-o", "/proc/version"]},
            "cannot create a file in /proc",
        ),
        "search_out_proc.args": (
            {"argv": ["search", "liu_talwar2019.B1.best_of_k_eps", "--out", "/proc/version"]},
            "cannot create a file in /proc",
        ),
        "check_certificates_proc.args": (
            {"argv": ["check", "{corpus}/outputs/refuted.toml", "--certificates", "/proc/x"]},
            "--certificates",
        ),
        "checkpoint_symlink_loop.args": (
            {
                "argv": ["search", "ghazi2025.thm9", "--checkpoint", "ck.json"],
                "setup": {"loop": "ck.json"},
            },
            "loops",
        ),
        "out_symlink_loop.args": (
            {
                "argv": ["search", "ghazi2025.thm9", "--out", "c.toml"],
                "setup": {"loop": "c.toml"},
            },
            "loops",
        ),
        "out_name_too_long.args": (
            {"argv": ["search", "ghazi2025.thm9", "--out", "x" * 300 + ".toml"]},
            "too long",
        ),
        "plot_is_directory.args": (
            {
                "argv": ["tradeoff", "repetition", "--gamma", "1/100", "--plot", "d.png"],
                "setup": {"dir": "d.png"},
            },
            "is a directory",
        ),
    }


def options() -> dict[str, Entry]:
    ok = "{corpus}/../../../examples/randomized_response.toml"
    return {
        "seconds_nan.args": (
            {"argv": ["search", "ghazi2025.thm9", "--seconds", "nan"]},
            "argument --seconds",
        ),
        "seconds_inf.args": (
            {"argv": ["search", "ghazi2025.thm9", "--seconds", "inf"]},
            "argument --seconds",
        ),
        "seconds_negative.args": (
            {"argv": ["search", "ghazi2025.thm9", "--seconds", "-1"]},
            "argument --seconds",
        ),
        "checkpoint_every_negative.args": (
            {"argv": ["search", "ghazi2025.thm9", "--checkpoint-every", "-1"]},
            "argument --checkpoint-every",
        ),
        "instances_zero.args": (
            {"argv": ["search", "ghazi2025.thm9", "--instances", "0"]},
            "argument --instances",
        ),
        "instances_text.args": (
            {"argv": ["search", "ghazi2025.thm9", "--instances", "many"]},
            "argument --instances",
        ),
        "workers_zero.args": (
            {"argv": ["search", "ghazi2025.thm9", "--workers", "0"]},
            "argument --workers",
        ),
        "workers_huge.args": (
            {"argv": ["search", "ghazi2025.thm9", "--workers", "100000"]},
            "argument --workers",
        ),
        "seed_float.args": (
            {"argv": ["search", "ghazi2025.thm9", "--seed", "1e5"]},
            "argument --seed",
        ),
        "seed_huge.args": (
            {"argv": ["search", "ghazi2025.thm9", "--seed", "9" * 30]},
            "argument --seed",
        ),
        "max_bits_small.args": ({"argv": ["check", ok, "--max-bits", "8"]}, "argument --max-bits"),
        "max_outputs_zero.args": (
            {"argv": ["check", ok, "--max-outputs", "0"]},
            "argument --max-outputs",
        ),
        "max_exponent_huge.args": (
            {"argv": ["check", ok, "--max-exponent", "100000"]},
            "argument --max-exponent",
        ),
        "max_box_parameters_huge.args": (
            {"argv": ["check", ok, "--max-box-parameters", "100000"]},
            "argument --max-box-parameters",
        ),
        "tradeoff_k_negative.args": (
            {"argv": ["tradeoff", "repetition", "--K", "-4"]},
            "argument --K",
        ),
        "tradeoff_c_one.args": ({"argv": ["tradeoff", "repetition", "--c", "1"]}, "argument --c"),
        "tradeoff_gamma_text.args": (
            {"argv": ["tradeoff", "repetition", "--gamma", "small"]},
            "has no value",
        ),
        "tradeoff_eps_injection.args": (
            {"argv": ["tradeoff", "repetition", "--eps", "__import__('os')"]},
            "not allowed",
        ),
        "casestudies_unknown.args": ({"argv": ["casestudies", "no.such.study"]}, "no case study"),
        "search_unknown_claim.args": ({"argv": ["search", "no.such.claim"]}, "no.such.claim"),
        "search_claim_without_file.args": (
            {"argv": ["search", "ghazi2025.thm9", "--claim", "x"]},
            "--claim",
        ),
        "unknown_command.args": ({"argv": ["frobnicate"]}, "invalid choice"),
        "check_unknown_claim.args": (
            {"argv": ["check", ok, "--claim", "nope"]},
            "no claim with id",
        ),
        "check_no_file.args": ({"argv": ["check"]}, "required"),
        "setting_unknown.args": ({"argv": ["tradeoff", "sideways"]}, "invalid choice"),
        "compare_eps0_1e300.args": ({"argv": ["compare", "--eps0", "1e300"]}, "--eps0 1e300"),
        "compare_eps0_tiny.args": ({"argv": ["compare", "--eps0", "1e-300"]}, "--eps0 1e-300"),
        "compare_eps_prime_1e300.args": (
            {"argv": ["compare", "ghazi_hyperparameter_tuning", "--eps-prime", "1e300"]},
            "--eps-prime 1e300",
        ),
        "compare_mean_1e300.args": ({"argv": ["compare", "--mean", "1e300"]}, "--mean 1e300"),
    }


def builtins() -> dict[str, Entry]:
    """Built-in distribution kinds at their limits: held to the size and exponent
    limits of derived mechanisms, refused before anything is built."""

    def tg(eps: str, lo: int = 0, hi: int = 1, graph: str = 'kind = "pair"') -> str:
        value = ', value = { D = 0, "D\'" = 1 }' if graph == 'kind = "pair"' else ""
        return (
            f'[graphs.g]\n{graph}\n[mechanisms.m]\ngraph = "g"\n'
            f'distribution = "truncated_geometric"\n'
            f'params = {{ epsilon = "{eps}", lo = {lo}, hi = {hi}{value} }}\n' + claim()
        )

    def builtin(kind: str, params: str) -> str:
        return (
            f'[graphs.g]\nkind = "pair"\n[mechanisms.m]\ngraph = "g"\n'
            f'distribution = "{kind}"\nparams = {params}\n' + claim()
        )

    def many(name: str, head: str, item: str, n: int, tail: str) -> dict[str, Any]:
        return {"argv": ["check", name], "setup": {"text": [name, head, item, n, tail]}}

    em_head = (
        '[graphs.g]\nkind = "pair"\n[mechanisms.m]\ngraph = "g"\n'
        'distribution = "exponential_mechanism"\n[mechanisms.m.params]\nepsilon = "1"\n'
        "candidates = ["
    )
    em_tail = ']\nscores = { D = { c0 = 1 }, "D\'" = { c0 = 1 } }\n' + claim()
    rr_head = (
        '[graphs.g]\nkind = "pair"\n[mechanisms.m]\ngraph = "g"\n'
        'distribution = "randomized_response"\n'
        'params = { epsilon = "1", truth = { D = "c0", "D\'" = "c1" }, categories = ['
    )
    return {
        "tg_path_3000.toml": (
            tg("1", 0, 3000, 'kind = "path"\nn = 2999'),
            "would need",
        ),
        "tg_eps_1e300.toml": (tg("1e300"), "magnitude"),
        "tg_eps_1e100.toml": (tg("1e100"), "magnitude"),
        "tg_eps_2_256.toml": (tg("2^256"), "magnitude"),
        "tg_range_1e9.toml": (tg("1", 0, 10**9), "outputs"),
        "laplace_10001.toml": (
            builtin(
                "discretised_laplace",
                '{ scale = "1", lo = 0, hi = 10000, value = { D = 0, "D\'" = 1 } }',
            ),
            "would need",
        ),
        "laplace_grid_1e30.toml": (
            builtin(
                "discretised_laplace",
                '{ scale = "1", lo = 0, hi = "10^30", value = { D = 0, "D\'" = 1 } }',
            ),
            "outputs",
        ),
        "laplace_tiny_scale.toml": (
            builtin(
                "discretised_laplace",
                '{ scale = "2^-300", lo = 0, hi = 2, value = { D = 0, "D\'" = 1 } }',
            ),
            "magnitude",
        ),
        "rr_eps_1e300.toml": (
            builtin(
                "randomized_response", '{ epsilon = "1e300", truth = { D = "1", "D\'" = "0" } }'
            ),
            "magnitude",
        ),
        "em_eps_1e300.toml": (
            builtin(
                "exponential_mechanism",
                '{ epsilon = "1e300", scores = { D = { a = 1, b = 0 }, "D\'" = { a = 0, b = 1 } } }',
            ),
            "magnitude",
        ),
        "rr_100000_categories.args": (
            many("rr.toml", rr_head, '"c{i}", ', 100_000, "] }\n" + claim()),
            "outputs",
        ),
        "em_100000_candidates.args": (
            many("em.toml", em_head, '"c{i}", ', 100_000, em_tail),
            "outputs",
        ),
    }


#: A refuted spec (its exit code alone is 1): what every output test runs.
REFUTED = RR + claim("m", "1/10")


def outputs() -> dict[str, Entry]:
    """Every subcommand that writes, with standard output a pipe whose reader went
    away, a full disk, or closed: exit 2 and one line naming the problem (never 0, and
    never the verdict's code alone)."""
    ok = "{corpus}/../../../examples/randomized_response.toml"
    refuted = "{corpus}/outputs/refuted.toml"
    commands = {
        "check_refuted": ["check", refuted],
        "check_json": ["check", "--json", refuted],
        "check_two_files": ["check", ok, refuted],
        "check_help": ["check", "--help"],
        "version": ["--version"],
        "casestudies_list": ["casestudies", "--list", "ghazi2025"],
        "casestudies_claim": [
            "casestudies",
            "liu_talwar2019.B1.best_of_k_Keps",
            "--search-instances",
            "0",
        ],
        "casestudies_coverage": ["casestudies", "--coverage", "ghazi2025"],
        "search": ["search", "ghazi2025.thm9", "--instances", "40", "--no-checkpoint"],
        "search_json": ["search", "ghazi2025.thm9", "--instances", "40", "--json"],
        "search_list": ["search", "--list"],
        "algorithms": ["algorithms"],
        "compare": ["compare", "--exact-only", "--mean", "10"],
        "schema": ["schema"],
        "schema_validate": ["schema", "--validate", ok],
        "export": ["export", "dp_testing", "--only", "noisy_hist1"],
        "tradeoff": ["tradeoff", "repetition", "--gamma", "1/100", "--no-hard"],
    }
    texts = {
        "broken": "broken pipe",
        "full": "no space left on device",
        "closed": "standard output is closed",
    }
    out: dict[str, Entry] = {"refuted.toml": (REFUTED, "")}
    for name, argv in commands.items():
        for mode, text in texts.items():
            out[f"{name}_{mode}.args"] = ({"argv": argv, "stdout": mode}, text)
    return out


def workers() -> dict[str, Entry]:
    """``--dask`` addresses and worker counts: a malformed address is refused at once,
    an unreachable one within seconds, counts are capped."""
    thm9 = ["search", "ghazi2025.thm9", "--instances", "40", "--no-checkpoint"]
    ok = "{corpus}/../../../examples/randomized_response.toml"
    return {
        "dask_http.args": ({"argv": [*thm9, "--dask", "http://127.0.0.1:8786"]}, "scheme 'http'"),
        "dask_ftp.args": ({"argv": [*thm9, "--dask", "ftp://example.org:21"]}, "scheme 'ftp'"),
        "dask_no_port.args": ({"argv": [*thm9, "--dask", "tcp://127.0.0.1"]}, "expected local"),
        "dask_port_zero.args": ({"argv": [*thm9, "--dask", "tcp://127.0.0.1:0"]}, "port"),
        "dask_port_huge.args": ({"argv": [*thm9, "--dask", "127.0.0.1:99999"]}, "port"),
        "dask_refused.args": (
            {"argv": [*thm9, "--dask", "tcp://127.0.0.1:1"]},
            "tcp://127.0.0.1:1: cannot connect",
        ),
        "dask_unresolvable.args": (
            {"argv": [*thm9, "--dask", "tcp://no-such-host.invalid:8786"]},
            "no-such-host.invalid",
        ),
        "dask_local_100000.args": ({"argv": [*thm9, "--dask", "local:100000"]}, "over the limit"),
        "dask_local_zero.args": ({"argv": [*thm9, "--dask", "local:0"]}, "at least 1 worker"),
        "casestudies_j_10000.args": (
            {"argv": ["casestudies", "ghazi2025.thm9", "-j", "10000"]},
            "argument -j",
        ),
        "casestudies_j_300.args": (
            {"argv": ["casestudies", "ghazi2025.thm9", "-j", "300"]},
            "--max-workers",
        ),
        "casestudies_dask_local_100000.args": (
            {"argv": ["casestudies", "ghazi2025.thm9", "--dask", "local:100000"]},
            "over the limit",
        ),
        "check_workers_300.args": ({"argv": ["check", ok, "--workers", "300"]}, "--max-workers"),
        "check_dask_garbage.args": ({"argv": ["check", ok, "--dask", "\u001b[2J"]}, "--dask"),
        "search_workers_300.args": ({"argv": [*thm9, "--workers", "300"]}, "--max-workers"),
        "max_workers_huge.args": (
            {"argv": [*thm9, "--max-workers", "100000"]},
            "argument --max-workers",
        ),
    }


def unicode() -> dict[str, Entry]:
    """Text that cannot be printed (lone surrogates) or that would print the same as
    other text (Unicode normalisation)."""
    rr = json.loads(
        json.dumps(
            {
                "graphs": {"g": {"kind": "pair"}},
                "mechanisms": {
                    "m": {
                        "graph": "g",
                        "outputs": [0, 1],
                        "distributions": {
                            "D": {"0": "1/3", "1": "2/3"},
                            "D'": {"0": "2/3", "1": "1/3"},
                        },
                    }
                },
                "claims": [{"id": "c", "mechanism": "m", "kind": "pure_dp", "epsilon": "1/10"}],
            }
        )
    )

    def as_json(doc: dict[str, Any]) -> str:
        return json.dumps(doc, ensure_ascii=True)

    surrogate_id = json.loads(json.dumps(rr))
    surrogate_id["claims"][0]["id"] = "\ud800"
    surrogate_output = json.loads(json.dumps(rr))
    m = surrogate_output["mechanisms"]["m"]
    m["outputs"] = ["\ud800", "1"]
    m["distributions"] = {"D": {"\ud800": "1/3", "1": "2/3"}, "D'": {"\ud800": "2/3", "1": "1/3"}}
    surrogate_title = json.loads(json.dumps(rr))
    surrogate_title["title"] = "a\udfffb"
    two = claim("m", "1/10")
    return {
        "surrogate_claim_id.json": (as_json(surrogate_id), "lone surrogate \\ud800"),
        "surrogate_output.json": (as_json(surrogate_output), "lone surrogate \\ud800"),
        "surrogate_title.json": (as_json(surrogate_title), "title: the string holds"),
        "claim_ids_nfc_nfd.toml": (
            RR
            + two.replace('id = "c"', 'id = "caf\u00e9"')
            + two.replace('id = "c"', 'id = "cafe\u0301"'),
            "differ only in unicode normalisation",
        ),
        "outputs_fullwidth.toml": (
            RR.replace("outputs = [0, 1]", 'outputs = ["A", "\uff21"]')
            .replace('"0" =', '"A" =')
            .replace('"1" =', '"\uff21" =')
            + two,
            "differ only in unicode normalisation",
        ),
        "datasets_nfc_nfd.toml": (
            RR.replace(
                'kind = "pair"',
                'kind = "edges"\ndatasets = ["\u00c5", "A\u030a"]\nedges = [["\u00c5", "A\u030a"]]',
            )
            + two,
            "differ only in unicode normalisation",
        ),
        "mechanisms_ligature.toml": (
            RR.replace("[mechanisms.m]", '[mechanisms."\\ufb01"]', 1)
            + MECH_BODY.format(name="fi")
            + claim("fi", "1/10"),
            "differ only in unicode normalisation",
        ),
    }


CATEGORIES = {
    "syntax": syntax,
    "types": types,
    "missing": missing,
    "unknown": unknown,
    "numbers": numbers,
    "resources": resources,
    "injection": injection,
    "unbound": unbound,
    "datasets": datasets,
    "files": files,
    "paths": paths,
    "options": options,
    "builtins": builtins,
    "outputs": outputs,
    "workers": workers,
    "unicode": unicode,
}


def main() -> int:
    if CORPUS.exists():
        shutil.rmtree(CORPUS)
    total = 0
    for name, make in CATEGORIES.items():
        d = CORPUS / name
        d.mkdir(parents=True)
        expect: dict[str, str] = {}
        made = make()
        if name == "files":
            made.update(tampered())
        for fname, (content, text) in made.items():
            path = d / fname
            if not text:  # a data file used by an .args entry, not an entry itself
                path.write_text(str(content))
                continue
            if isinstance(content, dict):
                path.write_text(json.dumps(content, indent=1) + "\n")
            elif isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
            expect[fname] = text
            total += 1
        (d / "expect.json").write_text(json.dumps(expect, indent=1, sort_keys=True) + "\n")
    print(f"{total} entries in {len(CATEGORIES)} categories under {CORPUS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
