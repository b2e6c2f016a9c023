"""Change points in a benchmark's history: E-divisive means with a permutation test, a prediction
test for the newest run, and the size of each step with a bootstrap interval (numpy only).

Used by track.py (check, report) and bisect.sh. A series is one point's runs in time order; each
run is a Run (median time, repetition times, contended flag). Runs measured under CPU contention
(the row's "contended" flag: CPU stall above 5 % of the timed repetitions) are left out of the
detection, because a contended run is slow for a reason that is not the code; they stay in the
series shown, flagged.

The method, written from the papers (no code copied from any project):
- E-divisive means: D. S. Matteson and N. A. James, "A Nonparametric Approach for Multiple Change
  Point Analysis of Multivariate Data", JASA 109 (2014). The energy statistic of a split of x into
  X = x[:t] and Y = x[t:] is
      Q(t) = m n / (m + n) * (2 E|X - Y| - E|X - X'| - E|Y - Y'|)
  (m, n the segment sizes, the expectations sample means over distinct pairs). The split with
  the largest Q over the current segments is tested by permuting the observations inside each
  segment and taking the largest Q again: p = (1 + #{Q_perm >= Q}) / (1 + permutations). A
  significant split cuts its segment and the search repeats (bisection) until no split is
  significant. MongoDB's performance CI (Daly et al., "The Use of Change Point Detection to
  Identify Software Performance Regressions in a Continuous Integration System", ICPE 2020) and
  its open-source descendant Hunter / Apache Otava apply the same method to per-run benchmark
  values, as here.
- The values are log(median time of the run), so a step is a ratio and the statistic does not
  depend on the unit.
- A split leaves at least MIN_SIZE runs on each side, so a permutation test cannot see a step at
  the newest run (one run among thirty is the largest with probability 1/30 anyway). The newest
  run is therefore also tested on its own against the runs since the last change: Student's t
  prediction interval for one new observation of a normal sample (log medians), one-sided, at
  TAIL_ALPHA. It is the only change that can start at the newest run.
- One step, one change: two splits of a series at most MERGE_GAP runs apart that step the same
  way (noise cut one 1.10 into 1.05 and 1.05) are merged into the split between their outer
  neighbours with the largest statistic (merge_close). Splits stepping opposite ways stay.
- A permutation test draws permutations_for(alpha) shuffles (10 / alpha: about 10 exceedances
  allowed at the level) CHUNK at a time, and stops once the exceedances put p above alpha.
- Across the points of a check (track.py): first_split_p gives each series' best single split
  a p-value, benjamini_hochberg decides which series are split and at what level, holm judges
  the newest runs; with no change anywhere, a check raises a false alarm with probability at
  most alpha each way.
- The step of a change: ratio of the medians of the run medians after and before it (before: the
  segment since the previous change; after: up to the next change), with a percentile bootstrap
  interval that resamples runs within each side (a side of one run resamples its repetitions).
"""

import dataclasses
import math

import numpy as np

ALPHA = 0.01          # significance of an E-divisive split of one series (permutation test)
PERMUTATIONS = 199    # fewest permutations per test: the smallest p-value is 1 / 200
MIN_SIZE = 2          # runs on each side of a split
EXPONENT = 1.0        # alpha of the energy distance |x - y|^alpha, 0 < alpha < 2
TAIL_ALPHA = 0.001    # significance of a step at the newest run of one series (t prediction)
TAIL_MIN_RUNS = 5     # runs since the last change needed before the newest run is tested
MERGE_GAP = 3         # two splits of one series this close, in the same direction, are one step
CHUNK = 200           # permutations drawn at a time (the test stops once p cannot reach alpha)
BOOTSTRAP = 1000      # bootstrap resamples of the step's interval
LEVEL = 0.95          # the interval's coverage


@dataclasses.dataclass
class Run:
    """One run of one point: its median time, its repetitions, and whether PSI saw contention."""
    median: float
    reps: list = dataclasses.field(default_factory=list)
    contended: bool = False


@dataclasses.dataclass
class Change:
    """A step that starts at series index `index` (the first run after the step)."""
    index: int
    direction: str        # "regression" (slower) or "improvement" (faster)
    ratio: float          # median after / median before
    ci: tuple             # (low, high) bootstrap interval of the ratio
    p_value: float
    method: str           # "e-divisive" or "newest-run"
    before_median: float
    after_median: float


def _pair_sums(d):
    """2-D cumulative sums of distance matrices d (..., n, n), with a leading zero row and
    column: c[..., a, b] = d[..., :a, :b].sum()."""
    n = d.shape[-1]
    c = np.zeros(d.shape[:-2] + (n + 1, n + 1))
    np.cumsum(d, axis=-1, out=c[..., 1:, 1:])
    np.cumsum(c[..., 1:, 1:], axis=-2, out=c[..., 1:, 1:])
    return c


def energy_statistics(x, min_size=MIN_SIZE):
    """Q(t) of every split t of x (min_size <= t <= len(x) - min_size) for x of shape (n,) or a
    batch (k, n); returns (splits, Q of shape (len(splits),) or (k, len(splits)))."""
    x = np.asarray(x, dtype=float)
    n = x.shape[-1]
    t = np.arange(min_size, n - min_size + 1)
    if t.size == 0:
        return t, np.zeros(x.shape[:-1] + (0,))
    d = np.abs(x[..., :, None] - x[..., None, :]) ** EXPONENT
    c = _pair_sums(d)
    square = c[..., t, t]            # sum over the left block, both orders of each pair
    left_rows = c[..., t, n]         # sum over rows < t, all columns
    total = c[..., n, n][..., None]
    cross = left_rows - square
    right = total - 2 * left_rows + square
    m, k = t.astype(float), (n - t).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        within_left = np.where(m > 1, square / (m * (m - 1)), 0.0)
        within_right = np.where(k > 1, right / (k * (k - 1)), 0.0)
    between = cross / (m * k)
    return t, m * k / n * (2 * between - within_left - within_right)


def _best_split(x, segments, min_size):
    """(statistic, split index in x) of the best split over the segments, or (-inf, None)."""
    best = (-math.inf, None)
    for start, end in segments:
        splits, q = energy_statistics(x[start:end], min_size)
        if q.size and q.max() > best[0]:
            best = (float(q.max()), start + int(splits[int(np.argmax(q))]))
    return best


def _permuted_best(x, segments, min_size, permutations, rng):
    """The largest statistic over the segments for each of `permutations` shuffles of the values
    inside each segment."""
    best = np.full(permutations, -np.inf)
    for start, end in segments:
        if end - start < 2 * min_size:
            continue
        seg = x[start:end]
        shuffled = rng.permuted(np.tile(seg, (permutations, 1)), axis=1)
        _, q = energy_statistics(shuffled, min_size)
        best = np.maximum(best, q.max(axis=1))
    return best


def permutations_for(alpha):
    """Permutations a test at level alpha needs: at least PERMUTATIONS, and enough that about 10
    exceedances are allowed at the level (1 + permutations = 10 / alpha), so that a p-value
    near alpha is not called above it for want of resolution (with 200 permutations at 0.01, a
    true p of 0.0056 came out above 0.01 one time in three)."""
    return max(PERMUTATIONS, math.ceil(10.0 / alpha) - 1)


def _permutation_p(x, segments, min_size, q, permutations, alpha, rng):
    """p-value of the statistic q against the best split of shuffled segments, drawn CHUNK
    permutations at a time; stops as soon as the exceedances already put p above alpha (then
    the p returned is that of the permutations drawn so far, above alpha as well)."""
    limit = alpha * (1 + permutations) - 1  # more exceedances than this: p > alpha
    done = exceed = 0
    while done < permutations:
        k = min(CHUNK, permutations - done)
        exceed += int(np.sum(_permuted_best(x, segments, min_size, k, rng) >= q - 1e-12))
        done += k
        if exceed > limit:
            break
    return (1 + exceed) / (1 + done)


def e_divisive(x, alpha=ALPHA, permutations=None, min_size=MIN_SIZE, rng=None):
    """Change points of the sequence x by E-divisive means: a sorted list of (index, p_value),
    index being the first element after the change. permutations None: permutations_for(alpha).
    """
    x = np.asarray(x, dtype=float)
    rng = rng if rng is not None else np.random.default_rng(0)
    permutations = permutations or permutations_for(alpha)
    found = []
    while True:
        bounds = [0] + sorted(i for i, _ in found) + [len(x)]
        segments = list(zip(bounds[:-1], bounds[1:]))
        q, split = _best_split(x, segments, min_size)
        if split is None or q <= 0:
            break
        p = _permutation_p(x, segments, min_size, q, permutations, alpha, rng)
        if p > alpha:
            break
        found.append((split, p))
    return sorted(found)


def first_split_p(x, alpha, permutations=None, min_size=MIN_SIZE, rng=None):
    """p-value of the best single split of the whole sequence x (1.0 when it has none); the
    permutations stop once p cannot reach alpha. track.py compares these across points
    (Benjamini-Hochberg) before it splits any series further."""
    x = np.asarray(x, dtype=float)
    rng = rng if rng is not None else np.random.default_rng(0)
    q, split = _best_split(x, [(0, len(x))], min_size)
    if split is None or q <= 0:
        return 1.0
    return _permutation_p(x, [(0, len(x))], min_size, q,
                          permutations or permutations_for(alpha), alpha, rng)


def benjamini_hochberg(p_values, alpha):
    """(set of indices rejected, the level they were rejected at): Benjamini and Hochberg's
    step-up procedure over the p_values (None: not tested, left out), false discovery rate
    alpha; the level is k alpha / m for the largest k whose k-th smallest p-value is below it
    (0.0 when none). With no change anywhere, a rejection happens with probability alpha at
    most (the family-wise rate under the global null)."""
    tested = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    m = len(tested)
    k = max((j + 1 for j, (p, _) in enumerate(tested) if p <= (j + 1) * alpha / m), default=0)
    return {i for _, i in tested[:k]}, k * alpha / m if m else 0.0


def _step_sign(x, before, after):
    return 1 if np.median(x[after[0]:after[1]]) > np.median(x[before[0]:before[1]]) else -1


def merge_close(x, cuts, gap=MERGE_GAP):
    """Splits (sorted (index, p)) of x with two that are at most gap apart and step the same way
    merged into one: one step that noise cut in two (1.05 then 1.05 for one 1.10) is reported
    once, at the split between the outer neighbours that has the largest energy statistic,
    with the smaller p-value. Splits stepping opposite ways (a short excursion) stay."""
    x = np.asarray(x, dtype=float)
    cuts = sorted(cuts)
    merged = True
    while merged:
        merged = False
        for k in range(len(cuts) - 1):
            (a, pa), (b, pb) = cuts[k], cuts[k + 1]
            lo = cuts[k - 1][0] if k > 0 else 0
            hi = cuts[k + 2][0] if k + 2 < len(cuts) else len(x)
            if b - a > gap or _step_sign(x, (lo, a), (a, b)) != _step_sign(x, (a, b), (b, hi)):
                continue
            splits, q = energy_statistics(x[lo:hi], 1)
            inside = [(float(v), lo + int(t)) for t, v in zip(splits, q) if a <= lo + t <= b]
            cuts[k:k + 2] = [(max(inside)[1], min(pa, pb))]
            merged = True
            break
    return cuts


def _t_sf(t, df):
    """Upper tail of Student's t with df degrees of freedom, through the regularized incomplete
    beta function (scipy would do, but importing it costs seconds on a loaded machine)."""
    x = df / (df + t * t)
    tail = 0.5 * _betainc(df / 2.0, 0.5, x)
    return tail if t >= 0 else 1 - tail


def _betainc(a, b, x):
    """Regularized incomplete beta I_x(a, b) (Numerical Recipes' continued fraction, Lentz)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log(1 - x))
    if x > (a + 1) / (a + b + 2):
        return 1.0 - _betainc(b, a, 1 - x)
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    f = d
    for i in range(1, 300):
        for num in (i * (b - i) * x / ((a + 2 * i - 1) * (a + 2 * i)),
                    -(a + i) * (a + b + i) * x / ((a + 2 * i) * (a + 2 * i + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            f *= c * d
        if abs(c * d - 1.0) < 1e-14:
            break
    return front * f / a


def newest_run_p(history, newest):
    """One-sided p-value that `newest` (a log value) is higher than a normal sample `history`
    (log values) would give a new observation: t = (newest - mean) / (s sqrt(1 + 1/n)), n - 1
    degrees of freedom. 1.0 when history has fewer than 3 values; a history without spread gives
    0 for any higher value."""
    h = np.asarray(history, dtype=float)
    if h.size < 3:
        return 1.0
    s = float(np.std(h, ddof=1))
    excess = newest - float(np.mean(h))
    if s == 0.0:
        return 0.0 if excess > 0 else 1.0
    return _t_sf(excess / (s * math.sqrt(1 + 1 / h.size)), h.size - 1)


def ratio_interval(before, after, rng, resamples=BOOTSTRAP, level=LEVEL):
    """(ratio, (low, high)): median(after) / median(before) and its percentile bootstrap
    interval. before and after are lists of samples (each side resampled with replacement)."""
    b, a = np.asarray(before, dtype=float), np.asarray(after, dtype=float)
    ratio = float(np.median(a) / np.median(b))
    rb = np.median(b[rng.integers(0, b.size, (resamples, b.size))], axis=1)
    ra = np.median(a[rng.integers(0, a.size, (resamples, a.size))], axis=1)
    low, high = np.quantile(ra / rb, [(1 - level) / 2, (1 + level) / 2])
    return ratio, (float(low), float(high))


def _side_samples(runs):
    """A side's bootstrap samples: its run medians, or the repetitions of a lone run."""
    if len(runs) == 1 and len(runs[0].reps) > 1:
        return list(runs[0].reps)
    return [r.median for r in runs]


def usable(runs, keep_contended=False, min_size=MIN_SIZE):
    """(indices of the runs the detection uses, True if contended runs are among them).
    Contended runs are left out unless keep_contended, or unless leaving them out would leave
    fewer than 2 * min_size runs (a machine that is always busy: then its noise is the series'
    noise, and the permutation test judges against it)."""
    timed = [i for i, r in enumerate(runs) if r.median > 0]
    quiet = [i for i in timed if not runs[i].contended]
    if keep_contended or len(quiet) < 2 * min_size:
        return timed, len(quiet) < len(timed)
    return quiet, False


@dataclasses.dataclass
class Cuts:
    """One series' detection before its steps are measured: the runs used (indices into the
    series), their log medians, the splits as (position in used, p_value, method), and the
    newest run's one-sided p-value (None: not tested, too few runs since the last split)."""
    used: list
    logs: np.ndarray
    cuts: list
    newest_p: object = None


def find_cuts(runs, alpha=ALPHA, permutations=None, min_size=MIN_SIZE, keep_contended=False,
              rng=None):
    """E-divisive splits of one series at level alpha (None or 0: none; neighbouring splits
    stepping the same way merged) and the newest run's p-value, not yet judged: the caller decides at which level (detect: tail_alpha;
    track.py: Holm across every point of the check)."""
    used, _ = usable(runs, keep_contended, min_size)
    logs = np.log([runs[i].median for i in used]) if used else np.zeros(0)
    if len(used) < 2:
        return Cuts(used, logs, [])
    found = merge_close(logs, e_divisive(logs, alpha, permutations, min_size, rng)) \
        if alpha else []
    cuts = [(pos, p, "e-divisive") for pos, p in found]
    last_cut = cuts[-1][0] if cuts else 0
    newest = len(used) - 1
    newest_p = None
    if newest - last_cut >= TAIL_MIN_RUNS:
        newest_p = newest_run_p(logs[last_cut:newest], logs[newest])
    return Cuts(used, logs, cuts, newest_p)


def with_newest(found):
    """The splits of found plus a step at the newest run (its p-value found.newest_p)."""
    return found.cuts + [(len(found.used) - 1, found.newest_p, "newest-run")]


def detect(runs, alpha=ALPHA, permutations=None, min_size=MIN_SIZE,
           tail_alpha=TAIL_ALPHA, keep_contended=False, seed=0):
    """Changes of one point's series (list of Run, oldest first), on the runs usable() picks (a
    run left out is never a change's index). Returns a list of Change sorted by index; indices
    refer to `runs`."""
    rng = np.random.default_rng(seed)
    found = find_cuts(runs, alpha, permutations, min_size, keep_contended, rng)
    cuts = found.cuts
    if found.newest_p is not None and found.newest_p < tail_alpha:
        cuts = with_newest(found)
    return measure(runs, found.used, cuts, rng)


def measure(runs, used, cuts, rng):
    """The Change of each split (position in used, p_value, method): ratio of the medians of
    the run medians after and before, each side the whole segment between its neighbouring
    splits, with its bootstrap interval."""
    changes = []
    bounds = [0] + [c[0] for c in cuts] + [len(used)]
    for k, (pos, p, method) in enumerate(cuts):
        before = [runs[i] for i in used[bounds[k]:pos]]
        after = [runs[i] for i in used[pos:bounds[k + 2]]]
        ratio, ci = ratio_interval(_side_samples(before), _side_samples(after), rng)
        changes.append(Change(
            index=used[pos], direction="regression" if ratio > 1 else "improvement",
            ratio=ratio, ci=ci, p_value=p, method=method,
            before_median=float(np.median([r.median for r in before])),
            after_median=float(np.median([r.median for r in after]))))
    return changes


def holm(p_values, alpha):
    """Holm's step-down procedure: the set of indices of p_values (None: not tested, left out)
    rejected at family-wise error rate alpha. The k-th smallest of the m p-values is compared
    with alpha / (m - k + 1) until one fails."""
    tested = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    rejected = set()
    for k, (p, i) in enumerate(tested):
        if p > alpha / (len(tested) - k):
            break
        rejected.add(i)
    return rejected


def stable_segment(runs, changes, keep_contended=False):
    """(first index, median) of the last stable segment: the runs since the last change, except
    that a change at the newest run is not a segment yet (then: the segment before it). The
    median is over its runs' medians (contended runs left out unless keep_contended or none
    other); (None, None) for an empty series."""
    if not runs:
        return None, None
    starts = [c.index for c in changes if c.index < len(runs) - 1]
    first = starts[-1] if starts else 0
    end = len(runs) - 1 if changes and changes[-1].index == len(runs) - 1 else len(runs)
    segment = runs[first:end]
    chosen = [r.median for r in segment if keep_contended or not r.contended]
    chosen = chosen or [r.median for r in segment]
    return first, float(np.median(chosen))


def two_sample_p(before, after, permutations=PERMUTATIONS, rng=None):
    """p-value that `after` differs in distribution from `before` (both log values): the energy
    statistic of the fixed split between them (E-divisive's statistic, Szekely and Rizzo's
    two-sample test) against random relabellings."""
    rng = rng if rng is not None else np.random.default_rng(0)
    x = np.concatenate([np.asarray(before, float), np.asarray(after, float)])
    m = len(before)
    if m == 0 or m == len(x):
        return 1.0
    splits, q = energy_statistics(x, 1)
    observed = q[list(splits).index(m)]
    shuffled = rng.permuted(np.tile(x, (permutations, 1)), axis=1)
    _, qp = energy_statistics(shuffled, 1)
    return (1 + int(np.sum(qp[:, list(splits).index(m)] >= observed - 1e-12))) / (1 + permutations)
