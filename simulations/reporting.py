"""What a simulation does with its report: the command that made it, above the text.

    from reporting import write_report
    write_report(out, "A title", "script.py", argv, text)
"""

from __future__ import annotations

import sys
from pathlib import Path


def write_report(out: Path, title: str, script: str, argv: list[str] | None, text: str) -> None:
    """Write `# title`, the command (`python simulations/<script>` and `argv`, or the process's
    own arguments when `argv` is None) and `text` to `out`, and print `text`."""
    args = sys.argv[1:] if argv is None else argv
    command = " ".join(["python simulations/" + script, *args])
    out.write_text(f"# {title}\n\n`{command}`\n\n{text}\n")
    print(text)
