"""Benchmarks: ``python -m benchmarks [--quick]`` runs every figure of issue 14 beside
its baseline in one run and prints (figure, ours, baseline, ratio, target, met); see
README.md in this directory."""
