"""Compile every template into reportgen/render/compiled/ (see reportgen/render/precompiled.py).

    python scripts/make_compiled_templates.py

The folder is generated, and git-ignored: the wheel's build (hatch_build.py) writes it
into the wheel, and an editable install (``pip install -e .``) into the source tree. Run
this after editing a template in an editable checkout to have the modules current again;
until then the edited template is compiled from its source at every run (its module's
key no longer matches), with the same output, only slower. Both this script and the
build call the same function, ``write_compiled``.
"""

from __future__ import annotations

from pathlib import Path

from reportgen.render.precompiled import write_compiled
from reportgen.render.templating import environment

OUT = Path(__file__).resolve().parents[1] / "reportgen" / "render" / "compiled"


def main() -> None:
    names = write_compiled(environment(), OUT)
    print(f"{len(names)} templates compiled into {OUT}")


if __name__ == "__main__":
    main()
