"""Hartmann, Bindschaedler, Bentkamp, West 2022, "Privacy accounting εconomics: Improving differential privacy
composition via a posteriori bounds" (output differential privacy) — see :mod:`.claims`
for the registered claims and notes.
"""
