"""How the paired statistics resample: the numbers both compare.py (which reports them)
and paired.py (which draws them) read, in a module that does not import NumPy."""

RESAMPLES = 10_000
"""Bootstrap resamples and randomization sign-flips per comparison."""
SEED = 20_250_601
LEVEL = 0.95
TOLERANCE = 1e-9
"""Two per-question values closer than this are equal (float noise is not a change)."""
