"""Compiled twins of Oza boosting's hot loops and of the calibrators' updates, used when they
are built.

`streamboost/_kernels.c`, built at install as an optional extension (setup.py), does in C what
the Python loops do, the same floating-point operations in the same order and the same random
draws, so results are identical either way (the tests run both on real streams). With no C
compiler at install, or with the environment variable `STREAMBOOST_KERNELS=0` when streamboost
is imported, `compiled` is None and the Python loops run.

* one example at a time: `OzaBoostClassifier.learn_one`'s member loop (Poisson draws, each
  member's vote after learning, Oza's lambda update) over logistic-regression members
  (`oza_linear`) and over decision stumps or univariate logistic regressions (`oza_weak`; a
  draw times the example's sample weight, and each member's candidate chosen from its scores
  once they are rounded sums, since 0.8.46), through `ArrayMembers.boost`; the vote weights
  (`oza_alphas`) and the vote (`vote_score`);
  logistic-regression members' margins and votes on an example (`linear_margins`: its vector
  made from the dict and each margin summed in column order, as the twin's numpy cumsum
  does) and their update (`linear_commit`: the outer product subtracted in place), and the
  weak members' update (`weak_commit`: each member's draw added to its candidates' scores and
  statistics in place), since 0.8.42, where numpy's fixed cost per call was most of the
  time;
  the weak members' best candidates (`best_candidates`), every stump candidate's vote
  (`stump_votes`) and, for `score="soft"`, their chosen candidates' probabilities averaged
  (`weak_soft`, since 0.8.47: numpy's calls had made the soft score 1.2-1.3x the vote's time),
  and by minibatch their univariate regressions' probabilities (`weak_sigmoids`, since 0.8.51:
  `math.exp`'s values, which numpy's exp may miss in the last bit, without a Python loop over
  rows x members);
* the uniforms of those draws: CPython's `random.Random` keeps its Mersenne Twister state in
  its C object, and where that layout is confirmed at import, by reading only (its
  `getstate()` shows the same words, then draws made here and by Python agree and leave the
  same state), they are drawn from that state in place, as `random.Random.random` draws
  them, instead of one call into Python each (100 weak members take about 230 an example);
  anywhere else, and for a generator whose `random` is overridden, each is Python's call
  (`draws_in_place` says which, since 0.8.42);
* by minibatch: numpy's own Poisson sampler (`poisson_fill`, linked from numpy's `npyrandom`:
  `Generator.poisson`'s draws without its per-call checks) and the lambda update over the rows
  (`oza_batch`); over logistic-regression members, both with each member's whole step
  (its clipped log-loss gradients, the step and the votes after it, each sum in the twin's
  cumsum order), every member in one call (`oza_linear_frame`, since 0.8.61; one call per
  member and kernel before); over decision stumps, every member's step and its votes after it
  (`oza_stump_frame`) and every member's votes on a minibatch, or their probabilities for
  `score="soft"` (`stump_frame_votes`), since 0.8.61, where numpy's calls on a few cells each
  were most of the time; over univariate logistic regressions, every member's step and its
  votes after it (`oza_univariate_frame`, since 0.8.62), from their gradients computed first
  by numpy for every member at once (its `exp`, which the C library's may miss in the last
  bit);
* `OnlinePlattCalibrator`'s map of a score (`platt_predict`), of an array of scores
  (`platt_predict_many`: the same floats as one by one; `platt_predict_pair`: two maps, each
  score's feature once) and its Online Newton / Gauss-Newton step (`platt_learn`, calling back
  the Python projection for the rare step that leaves its ball): every wrapper's calibrator
  predicts and learns once per example;
* the other calibrators' per-example work: beta calibration's map and Online Newton Step
  (`beta_predict`, `beta_learn`; of an array, `beta_predict_many`, since 0.8.53: numpy's log had
  differed from the C library's in the last bit), the Pool Adjacent Violators blocks of
  histogram binning and isotonic regression re-fitted after one bin changed (`pav_update`) or,
  with forgetting, from scratch (`histogram_pool`), their maps of a score (`histogram_predict`,
  `isotonic_predict`) and of an array of scores (`histogram_predict_many`,
  `isotonic_predict_many`), and expert advice's losses and weights (`ewa_learn`, whose sum is
  `math.fsum`'s correctly rounded one) and average (`ewa_predict`);
* `validation.check_features`'s common case (`numbers_within`: every value a float, or an
  int that a float holds exactly, within the limit), which every model and wrapper asks once
  per example, and the array members' (`floats_within`: floats only);
* one-hot features, where each example names a few of the known keys, as ints: the array
  members' vector of one example and matrix of a list (`fill_columns`: each value to its
  column, the others left 0, or NaN before a scaler);
* a bandit's round, which scores the examples it recorded with frozen copies of the booster:
  the matrix of a list of feature dicts (`fill_rows`, `ArrayMembers.rows`'s common case), the
  booster's scores of its rows from logistic-regression members' margins (`vote_scores`,
  `LinearMembers.batch_scores`) and each (calibrator, model) pair's mean loss of them
  (`loss_means`: each example's loss with the C library's `log`, summed as `math.fsum`); the
  copy of its calibrator, whose attributes are shared by name (`share_attributes`) but for the
  lists it learns in, and of the booster's members, whose scoring attributes are copied one
  level deep (`copy_attributes`).

What stays in numpy is the work on whole arrays (a minibatch's scores and updates); what moved to
C is the Python bookkeeping between them and one example's small products, which cost more in
numpy's calls than in arithmetic: measured in `benchmarks/booster_engines.py` and
`benchmarks/calibrator_overhead.py`.

Examples
--------
>>> from streamboost import kernels
>>> kernels.compiled is None or callable(kernels.compiled.oza_linear)
True

"""

from __future__ import annotations

import os
import types

__all__ = ["compiled"]


def _load() -> types.ModuleType | None:
    if os.environ.get("STREAMBOOST_KERNELS", "1") == "0":
        return None
    try:
        from . import _kernels  # type: ignore[attr-defined]  # compiled: no stub
    except ImportError:
        return None
    return _kernels


compiled = _load()
