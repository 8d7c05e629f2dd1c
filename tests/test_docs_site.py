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


def _headings(page: Path) -> set[str]:
    """The anchors of `page`'s headings (outside code blocks): GitHub's (lower case, only
    letters, digits, `_`, `-` and spaces kept, each space a hyphen, `-1`, `-2` after repeats)
    and the site's (python-markdown's `toc`, which also folds runs of hyphens and spaces)."""
    anchors, seen, fenced = set(), {}, False
    for line in page.read_text().splitlines():
        if line.startswith("```"):
            fenced = not fenced
        heading = None if fenced else re.match(r"#{1,6}\s+(.*?)\s*$", line)
        if heading is None:
            continue
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.group(1)).lower()
        github = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
        repeat = seen.get(github, 0)
        seen[github] = repeat + 1
        anchors.add(github if repeat == 0 else f"{github}-{repeat}")
        anchors.add(re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", text).strip()))
    return anchors


def test_a_headings_anchors_are_githubs_and_the_sites():
    anchors = _headings(ROOT / "benchmarks" / "README.md")
    assert "0827-against-0826-by-frames-and-one-at-a-time" in anchors  # dots and spaces
    assert "calibrators-calibrator_overheadpy" in anchors  # backticks, parentheses, `_`
    # a comment in a code block is no heading (docs/controller.md's first example has some)
    assert "then-as-any-river-classifier" not in _headings(ROOT / "docs" / "controller.md")


def test_every_link_to_a_heading_finds_it():
    # a renamed section breaks every link to it without a sound: README.md, the site, the
    # benchmarks' and the simulations' reports link into each other by heading
    pages = [ROOT / "README.md", *ROOT.glob("docs/**/*.md"), *ROOT.glob("benchmarks/*.md"),
             *ROOT.glob("simulations/**/*.md")]
    checked, bad = 0, []
    for page in pages:
        for path, anchor in re.findall(r"\]\(([^)\s#]*)#([^)\s]+)\)", page.read_text()):
            if re.match(r"[a-z]+:", path):
                continue  # a URL
            target = (page.parent / path).resolve() if path else page
            checked += 1
            if not target.is_file() or anchor not in _headings(target):
                bad.append(f"{page.relative_to(ROOT)}: {path}#{anchor}")
    assert bad == []
    assert checked >= 20  # the pattern finds the links there are
