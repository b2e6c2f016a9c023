"""The statistics of the sequential A/B gate (scripts/ab_gate.py, docs/regression.md): placement
modes found from the probes, and an always-valid confidence sequence for the median change.

Placement modes. On a VM whose virtual CPUs move between host cores that share a cache and cores
that do not, the cache-line round trip of the placement probe (results.json's "placement") takes
a few distinct values, and every point measured in one placement moves with it. The modes are
found from the job's own probes, never from a fixed threshold (the fast mode was 0.05 us on one
boot, 0.13 us on another): the logs of all probes are split in two where the between-class
variance is largest (Otsu), and the split is kept while the two parts are well separated
(Ashman's D > 4; the classic D > 2 is for whole mixture components, and Otsu's parts are
truncated: one normal split at its mean gives D = 2.7, a uniform 3.5), their median probes
differ by MIN_MODE_RATIO (25 %) or more, and each holds at least
MIN_MODE_SHARE of the probes (and at least MIN_MODE_PROBES); each part is split again the same way, up to MAX_MODES modes. A
point's mode in one run is that of its probe before it when the probe after it agrees, else the
run is "mixed" for that point (the placement moved during the point) and the point's pair of that
round is not used.

The confidence sequence. For a point, d = log(head / base) of each round whose two runs were in
the same mode. Under "the median of d is m", the signs of d - m are fair coins; the mixture
martingale of that sign test (a Beta(1/2, 1/2) prior on the chance of a positive sign) is
  M_n(m) = B(k + 1/2, n - k + 1/2) / B(1/2, 1/2) * 2^n,   k = #{d_i > m} of n pairs,
and by Ville's inequality P(M_n(m) >= 1/alpha for some n) <= alpha at the true m, whatever the
rule for stopping. The m with M_n(m) < 1/alpha after n pairs form an interval of order statistics
of d; intersected over n = 1, 2, ... they are a confidence sequence: it covers the true median at
every look with probability >= 1 - alpha, so a job may look after every round and stop once every
point is decided without raising its false alarms. alpha is split over the points (Bonferroni):
the job's false alarms, all points together, stay <= alpha.

Decisions at threshold t (5 % by default): a point is "slower" when the whole sequence lies above
0 (a change, at the job's confidence) and it does not rule out a change of t or more (its upper
end >= log(1 + t)); "same" when its upper end is below log(1 + t) (no slowdown of t or more);
otherwise "undecided" (more rounds would tell). A point with no same-mode pair is "not judged:
placement".
"""

import functools
import math

import numpy as np
from scipy.special import betaln

MAX_MODES = 4
MIN_MODE_SHARE = 0.03  # a mode holds at least this share of the probes (and MIN_MODE_PROBES)
MIN_MODE_PROBES = 5
# Two modes' median probes differ by at least this factor: D alone splits any two tight
# clusters, however close (probes 1 % apart with 0.3 % noise), which are one placement.
MIN_MODE_RATIO = 1.25
MIN_SEPARATION = 4.0   # Ashman's D between two modes (see mode_bounds)
PRIOR = 0.5            # the Beta(a, a) mixture of the sign test


# --- placement modes ----------------------------------------------------------------------------

def otsu_split(values):
    """(index, D): the split of sorted `values` into values[:index] and values[index:] with the
    largest between-class variance, and Ashman's D of the two parts; (None, 0) for fewer than 4."""
    x = np.asarray(values, float)
    n = len(x)
    if n < 4:
        return None, 0.0
    cumulative = np.cumsum(x)
    total = cumulative[-1]
    best, best_index = -1.0, None
    for i in range(1, n):
        w0, w1 = i / n, (n - i) / n
        m0, m1 = cumulative[i - 1] / i, (total - cumulative[i - 1]) / (n - i)
        between = w0 * w1 * (m0 - m1) ** 2
        if between > best:
            best, best_index = between, i
    low, high = x[:best_index], x[best_index:]
    gap = abs(high.mean() - low.mean())
    pooled = math.sqrt(low.var() + high.var())
    if gap == 0:
        return best_index, 0.0
    return best_index, math.inf if pooled == 0 else math.sqrt(2) * gap / pooled


def mode_bounds(probes_us):
    """The boundaries (in us, ascending) between the placement modes of a job's probes: [] for
    one mode. Found on the logs of the probes (module docstring)."""
    logs = np.sort(np.log(np.asarray([p for p in probes_us if p > 0], float)))
    least = max(MIN_MODE_PROBES, math.ceil(MIN_MODE_SHARE * len(logs)))
    parts = [logs]
    bounds = []
    while len(parts) < MAX_MODES:
        best = None
        for j, part in enumerate(parts):
            index, separation = otsu_split(part)
            if index is None or separation <= MIN_SEPARATION:
                continue
            if min(index, len(part) - index) < least:
                continue
            if np.median(part[index:]) - np.median(part[:index]) < math.log(MIN_MODE_RATIO):
                continue
            if best is None or separation > best[2]:
                best = (j, index, separation)
        if best is None:
            break
        j, index, _ = best
        part = parts[j]
        bounds.append(float(math.exp((part[index - 1] + part[index]) / 2)))
        parts[j:j + 1] = [part[:index], part[index:]]
    return sorted(bounds)


def mode_of(probe_us, bounds):
    """The mode (0 fastest) of one probe value."""
    return int(np.searchsorted(bounds, probe_us))


def point_mode(probe, bounds):
    """The mode of a point in one run from its (before_us, after_us), or None when the two
    disagree (mixed) or the row has no probe."""
    if probe is None:
        return None
    before, after = (mode_of(v, bounds) for v in probe)
    return before if before == after else None


def mode_centres(probes_us, bounds):
    """The median probe of each mode, in us."""
    values = np.asarray(probes_us, float)
    modes = np.searchsorted(bounds, values)
    return [float(np.median(values[modes == m])) if np.any(modes == m) else math.nan
            for m in range(len(bounds) + 1)]


# --- the confidence sequence --------------------------------------------------------------------

def log_mixture(k, n, a=PRIOR):
    """log M_n of the sign test's Beta(a, a) mixture martingale at k positive signs of n."""
    k = np.asarray(k, float)
    return betaln(k + a, n - k + a) - betaln(a, a) + n * math.log(2)


@functools.lru_cache(maxsize=None)
def accepted_counts(n, alpha):
    """(low, high): the counts k of positive signs of n pairs that the martingale does not reject
    at alpha (log M_n < log 1/alpha); an interval, as M_n is convex in k."""
    ks = np.arange(n + 1)
    ok = ks[log_mixture(ks, n) < math.log(1 / alpha)]
    return int(ok.min()), int(ok.max())


def confidence_sequence(d, alpha):
    """(low, high): the running intersection, over the prefixes of d (in the order measured), of
    the sign test's always-valid confidence intervals for the median of d; (-inf, inf) before any
    prefix excludes anything. low > high cannot occur at the true median but may on data far from
    any one median; the caller then treats the point as decided by low."""
    low, high = -math.inf, math.inf
    for n in range(1, len(d) + 1):
        k_low, k_high = accepted_counts(n, alpha)
        ordered = np.sort(np.asarray(d[:n], float))
        # k(m) = #{d > m} lies in [k_low, k_high] exactly for m in
        # [d_(n - k_high), d_(n - k_low + 1)) (order statistics from 1; d_(0) = -inf,
        # d_(n + 1) = +inf).
        lower = -math.inf if n - k_high < 1 else float(ordered[n - k_high - 1])
        upper = math.inf if n - k_low + 1 > n else float(ordered[n - k_low])
        low, high = max(low, lower), min(high, upper)
    return low, high


def decide(low, high, threshold):
    """"slower", "same" or "undecided" of a confidence sequence (log ratios) at threshold t."""
    limit = math.log1p(threshold)
    if low > 0 and high >= limit:
        return "slower"
    if high < limit:
        return "same"
    return "undecided"


def minimum_pairs(alpha):
    """The fewest pairs, all of one sign, with which the sequence can exclude 0 at alpha."""
    n = 1
    while accepted_counts(n, alpha)[1] == n:
        n += 1
    return n
