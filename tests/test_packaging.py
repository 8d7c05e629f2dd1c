"""pyproject.toml's version floors are the releases CI tests (`.ci/oldest.txt`)."""

from __future__ import annotations

import pathlib
import tomllib

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = pathlib.Path(__file__).resolve().parents[1]
# CapyMOA needs a Java runtime, which CI does not install: its extra is not tested there
UNTESTED_EXTRAS = {"moa"}


def declared_floors() -> dict[str, Version]:
    """Each dependency's `>=` floor, from the run-time list and every tested extra."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = list(project["dependencies"])
    for extra, listed in project["optional-dependencies"].items():
        if extra not in UNTESTED_EXTRAS:
            requirements += listed
    floors: dict[str, Version] = {}
    for text in requirements:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        if name == "streamboost":  # an extra made of the others
            continue
        lows = [Version(s.version) for s in requirement.specifier if s.operator == ">="]
        assert len(lows) == 1, f"{text!r} in pyproject.toml has no single '>=' floor"
        assert floors.setdefault(name, lows[0]) == lows[0], f"two floors for {name}"
    return floors


def oldest_pins() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for line in (ROOT / ".ci" / "oldest.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, version = line.split("==")
            pins[canonicalize_name(name)] = Version(version)
    return pins


def test_every_floor_is_the_release_ci_installs_as_the_oldest():
    floors, pins = declared_floors(), oldest_pins()
    assert {name: pins.get(name) for name in floors} == floors
    # dask's "distributed" extra pins distributed to dask's own version
    assert pins.pop("distributed") == pins["dask"]
    assert set(pins) == set(floors), "a pin in .ci/oldest.txt that pyproject.toml does not floor"


@pytest.mark.parametrize("text", ["numpy>=2.2.5", "river>=0.26.1,<0.27"])
def test_a_floor_is_read_from_a_requirement(text, monkeypatch):
    # the reader above, on the two forms pyproject.toml uses (a floor; a floor and a cap)
    monkeypatch.setattr(tomllib, "loads", lambda _: {"project": {
        "dependencies": [text], "optional-dependencies": {}}})
    name = canonicalize_name(Requirement(text).name)
    assert declared_floors() == {name: Version(text.split(">=")[1].split(",")[0])}


def test_the_license_is_an_spdx_expression_with_its_text_shipped():
    # setuptools stops building the table form (license = { text = ... }) after 2027-02-18
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "BSD-3-Clause"
    assert [(ROOT / f).read_text().splitlines()[0] for f in project["license-files"]] == [
        "BSD 3-Clause License"]
