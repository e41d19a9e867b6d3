"""Compile every template into reportgen/render/compiled/ (see reportgen/render/precompiled.py).

    python scripts/make_compiled_templates.py

Run after editing a template (tests/render/test_precompiled.py fails until then; the
output is the same either way, only slower). The modules are generated files: commit
them apart, in a commit whose message starts with "Regenerate:".
"""

from __future__ import annotations

from pathlib import Path

from reportgen.render.pages import environment
from reportgen.render.precompiled import compiled_source, module_name

OUT = Path(__file__).resolve().parents[1] / "reportgen" / "render" / "compiled"


def main() -> None:
    env = environment()
    names = env.list_templates(filter_func=lambda name: name.endswith(".j2"))
    OUT.mkdir(exist_ok=True)
    for stale in OUT.glob("tmpl_*.py"):
        stale.unlink()
    (OUT / "__init__.py").write_text(
        '"""Templates compiled by scripts/make_compiled_templates.py: generated, do not edit."""\n'
    )
    for name in names:
        (OUT / f"{module_name(name)}.py").write_text(compiled_source(env, name))
    print(f"{len(names)} templates compiled into {OUT}")


if __name__ == "__main__":
    main()
