"""Where the shared datasets are for the tests that read them (`../shared/data` beside the
clone, or `STREAMBOOST_SHARED_DATA`), and a skip where they are not."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED = (Path(os.environ["STREAMBOOST_SHARED_DATA"]) if os.environ.get("STREAMBOOST_SHARED_DATA")
          else Path(__file__).resolve().parents[2] / "shared" / "data")


def require(file: str = "MANIFEST.md") -> Path:
    """The shared data folder, skipping the calling test unless it holds `file`."""
    if not (SHARED / file).is_file():
        pytest.skip(f"shared datasets not found at {SHARED} (set STREAMBOOST_SHARED_DATA)")
    return SHARED


needs_shared = pytest.mark.skipif(not (SHARED / "MANIFEST.md").is_file(),
                                  reason=f"shared datasets not found at {SHARED}")
