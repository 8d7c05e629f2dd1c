"""The README's Python blocks run as written (a new user copies them first)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.mark.slow
def test_readme_python_blocks_run(tmp_path, monkeypatch):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert len(blocks) >= 2
    monkeypatch.chdir(tmp_path)  # the blocks may write files (a checkpoint)
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)
    assert (tmp_path / "model.ckpt").exists()


def test_ci_runs_the_readme_test_command_and_stops_at_any_failure_in_a_list():
    """`.ci/run` runs the README's test command as written, and every `&&` list there exits
    when any of its commands fails: `set -e` looks only at a list's last command, so a red
    `ruff check .` in the middle of one would go on, and CI end green."""
    commands = re.findall(r"```bash\n(.*?)\n```", README.read_text(), flags=re.S)
    assert len(commands) == 2 and "pytest" in commands[1]  # install and run; install and test
    script = (README.parent / ".ci" / "run").read_text()
    assert f"\n{commands[1]} || exit 1\n" in script
    lines = script.replace("\\\n", " ").splitlines()  # continued lines joined
    lists = [line for line in lines if "&&" in line and not line.lstrip().startswith("#")]
    assert len(lists) == 4
    assert all(line.rstrip().endswith("|| exit 1") for line in lists), lists


def test_tests_find_the_shared_datasets_only_through_shared_data():
    """CI's second run works on a copy of the checkout, elsewhere, and passes the shared
    datasets' folder in `STREAMBOOST_SHARED_DATA`: a test that built the path beside the clone
    itself would be skipped there, silently."""
    tests = README.parent / "tests"
    quoted = re.compile(r"""["']shared["']""")
    built = [path.name for path in sorted(tests.glob("*.py"))
             if path.name != "shared_data.py" and quoted.search(path.read_text())]
    assert built == []
