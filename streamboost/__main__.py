"""`python -m streamboost`: the `streamboost` command, where the console script is not on PATH."""

from streamboost.cli import main

raise SystemExit(main())
