"""Weak learners for boosting, as in the thesis's experiments: each looks at one feature.

* `UnivariateLogisticRegression`: a logistic regression on one feature (the thesis's choice);
* `DecisionStump`: a threshold on one feature.

Both choose their feature online (`WeakLearner`) and have an exact array engine in
`streamboost.members`, so that `OzaBoostClassifier` boosts 100 of them at array speed.
"""

from __future__ import annotations

from .base import WeakLearner
from .stump import DecisionStump
from .univariate import UnivariateLogisticRegression

__all__ = ["DecisionStump", "UnivariateLogisticRegression", "WeakLearner"]
