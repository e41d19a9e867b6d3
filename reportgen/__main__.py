"""`python -m reportgen` is the same as the `reportgen` command."""

from reportgen.cli import main

main()
