"""The README's Python blocks run as written (a new user copies them first)."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


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
