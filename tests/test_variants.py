"""Cost-sensitive boosting variants online (`streamboost.variants`): hand-worked updates, the
reduction to Oza boosting at equal costs, asymmetry preservation, and the booster with them."""

from __future__ import annotations

import math
import pickle
import random

import pytest
from river import datasets, linear_model

from streamboost import OzaBoostClassifier
from streamboost.variants import VARIANTS, class_costs, first_weight, reweight, vote_weight

EQUAL = class_costs(1.0, 1.0)


def _sums(rp, rn, wp, wn) -> dict:
    return {(True, True): rp, (True, False): rn, (False, True): wp, (False, False): wn}


def test_the_variants_and_their_properties_follow_the_thesis():
    assert set(VARIANTS) == {"adamec", "cgada", "asymada", "adac1", "adac2", "adac3", "csb0",
                             "csb1", "csb2", "adacost", "adacost-beta2", "csada"}  # fmt: skip
    # thesis Section 3.4 (reduction) and Ch. 6 (asymmetry)
    assert {n for n, v in VARIANTS.items() if not v.reduces} == {
        "csb0", "csb1", "adacost", "adacost-beta2"}  # fmt: skip
    assert {n for n, v in VARIANTS.items() if not v.preserving} == {
        "adac1", "adac3", "adacost", "adacost-beta2", "csada"}  # fmt: skip


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_at_equal_costs_a_reducing_variant_is_oza_boosting(name):
    variant, rng = VARIANTS[name], random.Random(1)
    differs = False
    for _ in range(200):
        sums = _sums(*(rng.uniform(0.5, 5.0) for _ in range(4)))
        right = sums[True, True] + sums[True, False]
        wrong = sums[False, True] + sums[False, False]
        if wrong >= right:
            continue
        alpha = vote_weight(variant, sums, EQUAL, 10)
        for r in (True, False):
            for positive in (True, False):
                oza = 0.7 * (right + wrong) / (2.0 * (right if r else wrong))  # Oza 2005, Fig. 2
                ours = reweight(variant, 0.7, r, positive, sums, EQUAL, 10)
                if variant.reduces:
                    assert ours == pytest.approx(oza, rel=1e-12)
                differs |= ours != pytest.approx(oza, rel=1e-6)
        if variant.reduces:
            assert alpha == pytest.approx(0.5 * math.log(right / wrong), rel=1e-12)
        assert first_weight(variant, True, EQUAL, 10) == 1.0
    assert differs != variant.reduces


def test_adac2_and_adacost_by_hand():
    costs = class_costs(1.0, 2.0)  # c(-) = 1/2, c(+) = 1
    sums = _sums(3.0, 1.0, 1.0, 2.0)  # right: 3 positive, 1 negative; wrong: 1 and 2; T = 7
    adac2 = VARIANTS["adac2"]
    # Eq. 3.17: P = 3 * 1 + 1 * 0.5 = 3.5 right, N = 1 * 1 + 2 * 0.5 = 2 wrong
    assert vote_weight(adac2, sums, costs, 10) == pytest.approx(0.5 * math.log(3.5 / 2.0))
    # weight x c(y) e^-+alpha, normalised: lambda c T / (2 P) if right, lambda c T / (2 N) if wrong
    assert reweight(adac2, 1.0, True, True, sums, costs, 10) == pytest.approx(1.0 * 7 / 7.0)
    assert reweight(adac2, 1.0, False, False, sums, costs, 10) == pytest.approx(0.5 * 7 / 4.0)
    assert first_weight(adac2, True, costs, 10) == pytest.approx(2 * 1.0 / 1.5)
    # AdaCost, Eq. 3.11 with beta (3.12): right (1 - c)/2 = 0 and 1/4; wrong 1 and 3/4
    p = (3.0 * 0.0 + 1.0 * 0.25) / 7.0
    n = (1.0 * 1.0 + 2.0 * 0.75) / 7.0
    assert 1 + p - n < 1 - p + n  # alpha < 0, the instability the thesis reports:
    assert vote_weight(VARIANTS["adacost"], sums, costs, 10) is None  # the member abstains
    p, n = 1.5 / 12.4, 0.35 / 12.4  # right: 6 x 0 + 6 x 1/4; wrong: 0.2 x 1 + 0.2 x 3/4
    assert vote_weight(VARIANTS["adacost"], _sums(6.0, 6.0, 0.2, 0.2), costs, 10) == (
        pytest.approx(0.5 * math.log((1 + p - n) / (1 - p + n)))
    )


def test_adac1_and_adac3_vote_weights_by_hand():
    # Sun et al. (2007), thesis Eqs. 3.15 and 3.19, from the sums S (D = S / T, T = 7):
    # AdaC1 1/2 log((1 + sum_right D c - sum_wrong D c) / (1 - ... + ...)); AdaC3 the same with
    # sum D c over every example in place of 1 and c^2 in place of c
    costs = class_costs(1.0, 2.0)  # c(-) = 1/2, c(+) = 1
    sums = _sums(3.0, 1.0, 1.0, 2.0)  # right: 3 positive, 1 negative; wrong: 1 and 2
    right_c = (3.0 * 1.0 + 1.0 * 0.5) / 7.0  # 3.5 / 7
    wrong_c = (1.0 * 1.0 + 2.0 * 0.5) / 7.0  # 2 / 7
    assert vote_weight(VARIANTS["adac1"], sums, costs, 10) == pytest.approx(
        0.5 * math.log((1.0 + right_c - wrong_c) / (1.0 - right_c + wrong_c)), rel=1e-12)
    every_c = right_c + wrong_c
    right_c2 = (3.0 * 1.0 + 1.0 * 0.25) / 7.0
    wrong_c2 = (1.0 * 1.0 + 2.0 * 0.25) / 7.0
    adac3 = vote_weight(VARIANTS["adac3"], sums, costs, 10)
    assert adac3 == pytest.approx(
        0.5 * math.log((every_c + right_c2 - wrong_c2) / (every_c - right_c2 + wrong_c2)),
        rel=1e-12)
    # the two differ here (c^2 weighs the costly positives' share up)
    assert adac3 != pytest.approx(vote_weight(VARIANTS["adac1"], sums, costs, 10), rel=1e-3)


def test_csb0_and_csb1_by_hand():
    # Ting (2000), thesis Eqs. 3.4, 3.5 and 3.7: a wrong example is also multiplied by its cost
    # c(y) (gamma), a right one is not; CSB0 takes no exponential step, CSB1 a step of 1
    costs = class_costs(1.0, 2.0)  # c(-) = 1/2, c(+) = 1
    sums = _sums(3.0, 1.0, 1.0, 2.0)  # T = 7
    # CSB0: factors 1 (right), 1 and 1/2 (wrong positive, negative); mean (3 + 1 + 1 + 1) / 7
    csb0 = VARIANTS["csb0"]
    assert reweight(csb0, 1.0, True, False, sums, costs, 10) == pytest.approx(7 / 6)
    assert reweight(csb0, 1.0, False, True, sums, costs, 10) == pytest.approx(7 / 6)
    assert reweight(csb0, 1.0, False, False, sums, costs, 10) == pytest.approx(0.5 * 7 / 6)
    # CSB1: the same factors times e^-1 (right) or e^+1 (wrong)
    e = math.e
    mean = (4.0 / e + (1.0 + 2.0 * 0.5) * e) / 7.0
    csb1 = VARIANTS["csb1"]
    assert reweight(csb1, 1.0, True, True, sums, costs, 10) == pytest.approx(1 / e / mean)
    assert reweight(csb1, 1.0, False, False, sums, costs, 10) == pytest.approx(0.5 * e / mean)


def test_csada_alpha_is_the_exact_minimiser_of_the_exponential_loss():
    # Masnadi-Shirazi & Vasconcelos (2011): alpha minimises sum S e^(-s c(y) alpha); checked
    # against scipy's root finder, and never a higher loss than AdaC1's alpha (Eq. 3.15), an
    # approximation of the same minimiser
    brentq = pytest.importorskip("scipy.optimize").brentq
    rng = random.Random(7)
    csada, adac1 = VARIANTS["csada"], VARIANTS["adac1"]
    checked = 0
    for _ in range(300):
        costs = class_costs(1.0, rng.choice([1.5, 2.0, 5.0, 10.0, 0.2]))
        sums = _sums(*(rng.uniform(0.1, 20.0) for _ in range(4)))
        c = {positive: costs[positive] for positive in (True, False)}

        def loss(a, sums=sums, c=c):
            return sum(w * math.exp((-a if r else a) * c[y]) for (r, y), w in sums.items())

        def slope(a, sums=sums, c=c):
            return sum(
                c[y] * (sums[False, y] * math.exp(c[y] * a) - sums[True, y] * math.exp(-c[y] * a))
                for y in (True, False)
            )

        alpha = vote_weight(csada, sums, costs, 10)
        if slope(0.0) >= 0.0:  # the loss rises from alpha = 0: the member abstains
            assert alpha is None
            continue
        reference = brentq(slope, 0.0, 50.0, xtol=1e-14, rtol=1e-14)
        assert alpha == pytest.approx(min(reference, 0.5 * math.log(2 * sum(sums.values()) + 1)),
                                      rel=1e-10)  # fmt: skip
        other = vote_weight(adac1, sums, costs, 10)
        if other is not None:
            assert loss(alpha) <= loss(other) * (1 + 1e-12)
        checked += 1
    assert checked > 100
    # never wrong: the cap of every variant, AdaBoost's alpha at the error floor 1/2 / (T + 1)
    capped = vote_weight(csada, _sums(3.0, 1.0, 0.0, 0.0), class_costs(1.0, 5.0), 10)
    assert capped == pytest.approx(0.5 * math.log((1 - 0.5 / 5) / (0.5 / 5)))


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_asymmetry_is_preserved_or_swapped_as_the_thesis_says(name):
    # A positive and a negative example that every member, each 99.5 % accurate, gets right (a
    # margin growing past the swapping point): a preserving variant never lets the costly class
    # (positive, c_FN = 4) weigh less than the cheap one; AdaC1 and CSAda (same update) shrink
    # the costly class faster and swap (thesis Ch. 6, Eq. 6.1). AdaC3 would swap past
    # alpha = ln(4) / 0.75 per member (Eq. 6.2), but its own alpha (Eq. 3.19) stays below 1.3
    # here, so it does not.
    variant, costs = VARIANTS[name], class_costs(1.0, 4.0)
    weights = {p: first_weight(variant, p, costs, 20) for p in (True, False)}
    ratios = []
    for _ in range(20):
        member = _sums(40.0, 40.0, 0.2, 0.2)
        for positive in (True, False):
            member[True, positive] += weights[positive]
        for positive in (True, False):
            weights[positive] = reweight(variant, weights[positive], True, positive, member,
                                         costs, 20)  # fmt: skip
        ratios.append(weights[True] / weights[False])
    if name in ("adac1", "csada"):
        assert min(ratios) < 1.0
    elif variant.preserving:
        assert min(ratios) >= 1.0 - 1e-12


def test_the_booster_learns_with_a_variant_and_resumes_from_a_pickle():
    rows = list(datasets.Phishing())
    plain = OzaBoostClassifier(linear_model.LogisticRegression(), seed=3)
    booster = OzaBoostClassifier(linear_model.LogisticRegression(), seed=3, variant="adac2",
                                 c_fn=5.0)  # fmt: skip
    for x, y in rows[:800]:
        plain.learn_one(x, y)
        booster.learn_one(x, y)
    resumed = pickle.loads(pickle.dumps(booster))
    share = []
    for x, y in rows[800:]:
        p = booster.predict_proba_one(x)[True]
        assert p == resumed.predict_proba_one(x)[True] and 0.0 <= p <= 1.0
        share.append((p, plain.predict_proba_one(x)[True], y))
        booster.learn_one(x, y)
        resumed.learn_one(x, y)
    # each member's error, from its per-class sums
    for epsilon, sums in zip(booster.epsilons, booster._sums, strict=True):
        wrong = sums[False, True] + sums[False, False]
        assert epsilon == pytest.approx(wrong / sum(sums.values()))
    # weighting the costly class up moves the scores of the positives up
    mean = [sum(s[i] for s in share if s[2]) / sum(s[2] for s in share) for i in (0, 1)]
    assert mean[0] > mean[1]
    # at equal costs CGAda, AsymAda and AdaC2 are the plain booster, score for score
    for name in ("cgada", "asymada", "adac2"):
        twin = OzaBoostClassifier(linear_model.LogisticRegression(), seed=3, variant=name)
        again = OzaBoostClassifier(linear_model.LogisticRegression(), seed=3)
        for x, y in rows[:600]:
            assert twin.predict_proba_one(x)[True] == pytest.approx(
                again.predict_proba_one(x)[True], abs=1e-9
            )
            twin.learn_one(x, y)
            again.learn_one(x, y)
    # and CSAda is AdaC1 (same update; both alphas are 1/2 log(R / W) at equal costs), although
    # it finds its alpha by Newton steps
    csada = OzaBoostClassifier(linear_model.LogisticRegression(), seed=3, variant="csada")
    adac1 = OzaBoostClassifier(linear_model.LogisticRegression(), seed=3, variant="adac1")
    for x, y in rows[:600]:
        assert csada.predict_proba_one(x)[True] == pytest.approx(
            adac1.predict_proba_one(x)[True], abs=1e-9
        )
        csada.learn_one(x, y)
        adac1.learn_one(x, y)
    with pytest.raises(ValueError, match="variant must be one of"):
        OzaBoostClassifier(linear_model.LogisticRegression(), variant="adadb")
    with pytest.raises(ValueError, match="c_fn"):
        OzaBoostClassifier(linear_model.LogisticRegression(), variant="adac2", c_fn=-1.0)
