"""The package's type hints, as a user's type checker reads them (PEP 561: `py.typed`).

mypy checks the library itself, the examples (scripts a user copies) and a probe of the public
API, with the settings of pyproject.toml's `[tool.mypy]` (what `mypy` from the checkout runs),
and the probe's revealed types: a hint that contradicts the code (a calibrator's `copy` typed
as the base class, a projection typed as returning None), that contradicted documented use (a
pipeline passed where only a classifier was declared) or that a checker cannot follow (an
attribute it "cannot determine", read as Any) fails here."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PROBE = '''
from river import linear_model, preprocessing, tree

from streamboost import BanditCalibratedClassifier, CalibratedClassifier, OzaBoostClassifier
from streamboost import datasets

pipeline = preprocessing.StandardScaler() | linear_model.LogisticRegression()
wrapped = CalibratedClassifier(pipeline, calibrator="isotonic", c_fp=1.0, c_fn=10.0)
bandit = BanditCalibratedClassifier(
    model=OzaBoostClassifier(tree.HoeffdingTreeClassifier(), seed=1), policy="discounted-ucb",
    seed=1)
x, y = next(iter(datasets.stream("phishing")))
reveal_type(wrapped.predict_proba_one(x))
wrapped.learn_one(x, y)
bandit.learn_one(x, y)
reveal_type(bandit.n_batches)
reveal_type(bandit.arm_counts)
reveal_type(bandit.batch_size)
reveal_type(bandit.model_)
'''

REVEALED = [
    "dict[typing.Hashable, float]",  # predict_proba_one
    "int",  # n_batches
    "dict[str, int]",  # arm_counts
    "int",  # batch_size
    "river.base.classifier.Classifier | river.compose.pipeline.Pipeline",  # model_
]


def test_the_package_says_it_is_typed():
    assert (ROOT / "streamboost" / "py.typed").is_file()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "py.typed" in config["tool"]["setuptools"]["package-data"]["streamboost"]


@pytest.mark.slow
def test_the_library_the_examples_and_the_public_api_type_check(tmp_path, monkeypatch):
    api = pytest.importorskip("mypy.api")
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    monkeypatch.chdir(ROOT)  # the package read from the source tree, with [tool.mypy]
    out, err, status = api.run([
        "--cache-dir", str(tmp_path / "cache"), "streamboost",
        *map(str, sorted((ROOT / "examples").glob("*.py"))), str(probe),
    ])
    assert status == 0 and " error: " not in out, out + err
    revealed = [line.split('Revealed type is "')[1].rstrip('"')
                for line in out.splitlines() if "Revealed type is" in line]
    assert revealed == REVEALED
