"""The wheel's build compiles the Jinja templates into ``reportgen/render/compiled/``
(a hatchling custom build hook; what the modules are and when they are used:
reportgen/render/precompiled.py).

Why it is done this way:

- Generated at the build, not committed: ~4.7k lines of generated code in git went stale
  with every template edit (a test failed until someone regenerated them) and doubled
  every template change in review and in merges.
- A wheel gets them from a temporary folder, force-included file by file as
  ``reportgen/render/compiled/``: built from the source tree (``pip install .``) or from
  an sdist (which holds the templates, not the modules), the wheel holds the same
  modules, and building writes nothing into the checkout.
- An editable install (``pip install -e .``, as .ci/run does) gets them in the source
  tree's ``reportgen/render/compiled/`` (git-ignored): the editable wheel only points
  Python at the tree, so the modules must live there. A template edited later no longer
  matches its module's key and is compiled from source at every run until
  ``python scripts/make_compiled_templates.py`` (the same function) rewrites the folder.
- The build imports two modules of the tree's own reportgen, not a copy of their code:
  ``reportgen.render.templating`` (the pages' Jinja environment: loader, filters,
  autoescape, settings) and ``reportgen.render.precompiled`` (``write_compiled``). They
  need Jinja2 (in ``[build-system] requires``) and not Polars, which the views import and
  the isolated build environment lacks; importing ``reportgen.render.pages`` would fail
  there. The environment, and so every module's key, is the very one the installed
  reportgen builds at run time, so a module that does not match is never used.
- The build's Jinja2 is not necessarily the one installed beside reportgen: the key holds
  Jinja2's version, and with another one the modules are ignored (the templates are
  compiled at run time, the output unchanged).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.config import BuilderConfig
from hatchling.builders.hooks.plugin.interface import BuildHookInterface

COMPILED = "reportgen/render/compiled"


def compile_templates(root: Path, folder: Path) -> list[str]:
    """The templates of the source tree ``root`` compiled into ``folder`` by that tree's
    own reportgen; returns the templates' names."""
    sys.path.insert(0, str(root))
    try:
        from reportgen.render import precompiled, templating
    finally:
        sys.path.remove(str(root))
    imported = Path(str(templating.__file__)).resolve()
    if not imported.is_relative_to(root.resolve()):  # a reportgen imported before, elsewhere
        raise RuntimeError(f"building {root}, the templates' compiler came from {imported}")
    return precompiled.write_compiled(templating.environment(), folder)


class CompiledTemplatesHook(BuildHookInterface[BuilderConfig]):
    """Standard wheel: modules from a temporary folder; editable: into the source tree."""

    temporary: str | None = None

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        if version == "editable":
            compile_templates(root, root / COMPILED)
            return
        self.temporary = tempfile.mkdtemp(prefix="reportgen-compiled-")
        folder = Path(self.temporary)
        compile_templates(root, folder)
        # File by file: hatchling then leaves out any copy of the same path in the tree.
        for module in sorted(folder.glob("*.py")):
            build_data["force_include"][str(module)] = f"{COMPILED}/{module.name}"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if self.temporary is not None:
            shutil.rmtree(self.temporary, ignore_errors=True)
            self.temporary = None
