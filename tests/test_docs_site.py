"""The documentation site's table of contents (mkdocs.yml) covers every page and module; CI
builds the site itself with warnings as errors (`.ci/run`)."""

from __future__ import annotations

import pkgutil
import re
from pathlib import Path

import streamboost

ROOT = Path(__file__).resolve().parents[1]


def _nav_pages() -> set[str]:
    return set(re.findall(r":\s*(\S+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(), flags=re.M))


def test_every_page_is_in_the_navigation():
    pages = {str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")}
    assert pages == _nav_pages()


def test_every_public_module_has_an_api_page():
    modules = {m.name for m in pkgutil.iter_modules(streamboost.__path__)}
    # the command line has its own page (cli.md); atomic file writes are an internal helper
    public = {m for m in modules if not m.startswith("_")} - {"cli", "atomic"}
    for name in public:
        page = ROOT / "docs" / "api" / f"{name}.md"
        assert page.is_file() and f"::: streamboost.{name}" in page.read_text(), name


def test_every_relative_link_of_a_page_stays_inside_the_site():
    # mkdocs --strict refuses a link to a file outside docs/ (as ../simulations/x.md): say
    # which here, before CI's build does
    docs = ROOT / "docs"
    bad = []
    for page in docs.rglob("*.md"):
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
            path = target.split("#")[0]
            if not path or re.match(r"[a-z]+:", path):
                continue  # an anchor on the page, or a URL
            resolved = (page.parent / path).resolve()
            if not resolved.is_relative_to(docs.resolve()) or not resolved.exists():
                bad.append(f"{page.relative_to(docs)}: {target}")
    assert bad == []
