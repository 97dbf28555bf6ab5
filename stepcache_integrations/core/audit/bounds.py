"""The upper bound of a wrong-answer rate: one-sided Clopper-Pearson at 95%.

Why Clopper-Pearson rather than Wilson: a cache's wrong-answer rate lives near 0, audited a
few dozen or hundred times; there Wilson's interval covers the true rate less often than it
says (its coverage dips under the nominal level near the boundary), while Clopper-Pearson's
exact interval never covers less than 95%. An operator reads the bound as "wrong at most this
often": it must not be optimistic. With no disagreement it is the "rule of three",
about ``3 / n``.

The bound is the ``p`` at which ``P(X <= x) = alpha`` for ``X ~ Binomial(n, p)``: found by
bisection on the binomial distribution function (written in log space with ``math.lgamma``:
exact to about 1e-12, for any ``n``), so no statistics library is needed for one quantile.
"""

from __future__ import annotations

import math

__all__ = ["upper_bound"]

_ITERATIONS = 80  # bisection halvings: far below any printed digit


def _log_pmf(k: int, n: int, p: float) -> float:
    return (
        math.lgamma(n + 1)
        - math.lgamma(k + 1)
        - math.lgamma(n - k + 1)
        + k * math.log(p)
        + (n - k) * math.log1p(-p)
    )


def _cdf(x: int, n: int, p: float) -> float:
    """``P(X <= x)`` for ``X ~ Binomial(n, p)``, ``0 < p < 1``."""
    terms = [_log_pmf(k, n, p) for k in range(x + 1)]
    top = max(terms)
    return min(1.0, math.exp(top) * sum(math.exp(t - top) for t in terms))


def upper_bound(wrong: int, audited: int, confidence: float = 0.95) -> float | None:
    """The one-sided Clopper-Pearson upper bound of the wrong-answer rate after ``wrong``
    disagreements in ``audited`` comparable audits; ``None`` when nothing was audited.

    Example:
        >>> round(upper_bound(0, 100), 4)   # the rule of three: about 3 / 100
        0.0295
        >>> round(upper_bound(1, 100), 4)
        0.0466
        >>> upper_bound(5, 5)
        1.0
        >>> upper_bound(0, 0) is None
        True
    """
    if audited < 0 or wrong < 0 or wrong > audited:
        raise ValueError(f"need 0 <= wrong <= audited, got wrong={wrong}, audited={audited}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    if audited == 0:
        return None
    if wrong == audited:
        return 1.0
    alpha = 1.0 - confidence
    if wrong == 0:
        return 1.0 - float(alpha ** (1.0 / audited))  # exact: (1 - p) ** n = alpha
    low, high = wrong / audited, 1.0
    for _ in range(_ITERATIONS):
        middle = (low + high) / 2
        if _cdf(wrong, audited, middle) > alpha:
            low = middle
        else:
            high = middle
    return high
