"""The nearest-rank percentile every benchmark reports (:mod:`sim.tools.bench` and
:mod:`sim.tools.bench_tournament`), kept in a module of its own so that neither imports the
other for it."""

import math


def percentile(sorted_values, q):
    """Nearest-rank percentile ``q`` (0-100) of an already sorted list (None: an empty one)."""
    if not sorted_values:
        return None
    k = max(0, min(len(sorted_values) - 1, math.ceil(q / 100.0 * len(sorted_values)) - 1))
    return sorted_values[k]
