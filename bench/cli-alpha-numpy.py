"""Krippendorff's alpha (nominal) of {"data": [[...], ...]} on stdin with numpy, printed as
{"alpha": a, "pairable": n}: the numpy process that bench/cli-alpha.ts times beside
`yardstick alpha --level nominal`. Source: Krippendorff 2011, "Computing Krippendorff's
Alpha-Reliability" (coincidence matrix, nominal metric)."""
import json
import sys

import numpy as np

rows = json.load(sys.stdin)["data"]
units = np.array([[np.nan if v is None else v for v in row] for row in rows], dtype=float).T
present = ~np.isnan(units)
unit_of_value = np.nonzero(present)[0]
values, codes = np.unique(units[present], return_inverse=True)
counts = np.bincount(unit_of_value * len(values) + codes, minlength=units.shape[0] * len(values)).reshape(units.shape[0], len(values)).astype(float)
per_unit = counts.sum(axis=1)
pairable = per_unit >= 2
counts, per_unit = counts[pairable], per_unit[pairable]
n = per_unit.sum()
agreeing = (counts * (counts - 1) / (per_unit - 1)[:, None]).sum()
marginals = counts.sum(axis=0)
expected = n * n - (marginals**2).sum()
alpha = 1 - (n - 1) * (n - agreeing) / expected if expected > 0 else None
print(json.dumps({"alpha": alpha, "pairable": int(n)}))
