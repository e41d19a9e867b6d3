"""Templates compiled once, when reportgen is built, not at every run.

Compiling the Jinja templates took ~0.13 s of every `reportgen demo`. The wheel's build
(hatch_build.py at the repository's root, a hatchling build hook) compiles them with
:func:`write_compiled` into the package ``reportgen/render/compiled/``, one module per
template (Python caches their bytecode as for any module); an editable install
(``pip install -e .``) writes that folder into the source tree instead, where it is
git-ignored, and ``python scripts/make_compiled_templates.py`` rewrites it. Each module
carries a key: the hash of its template's source, Jinja2's version and the environment's
settings. A module whose key does not match what this process would compile (a template
edited since, another Jinja2 at run time than at build time) is ignored and the template
compiled from source as before, so the output never depends on the modules, and a
missing folder only costs the compile. No file is read or written outside the installed
package.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import MutableMapping
from importlib import import_module
from pathlib import Path
from typing import Any

import jinja2

PACKAGE = "reportgen.render.compiled"
PACKAGE_INIT = (
    '"""Templates compiled by reportgen.render.precompiled.write_compiled (at the build, '
    'or by scripts/make_compiled_templates.py): generated, not in git, do not edit."""\n'
)


def module_name(template: str) -> str:
    """``_table.html.j2`` -> ``tmpl__table_html``."""
    return "tmpl_" + re.sub(r"\W", "_", template.removesuffix(".j2"))


def compile_key(environment: jinja2.Environment, source: str) -> str:
    """What the compiled code depends on: the source, Jinja2 and the settings the
    lexer and the code generator read."""
    autoescape = environment.autoescape
    settings = [
        jinja2.__version__,
        environment.block_start_string,
        environment.block_end_string,
        environment.variable_start_string,
        environment.variable_end_string,
        environment.comment_start_string,
        environment.comment_end_string,
        str(environment.line_statement_prefix),
        str(environment.line_comment_prefix),
        str(environment.trim_blocks),
        str(environment.lstrip_blocks),
        environment.newline_sequence,
        str(environment.keep_trailing_newline),
        getattr(autoescape, "__qualname__", repr(autoescape)),
        environment.undefined.__name__,
        ",".join(sorted(environment.filters)),
        ",".join(sorted(environment.tests)),
        ",".join(sorted(environment.extensions)),
        source,
    ]
    return hashlib.sha256("\0".join(settings).encode()).hexdigest()


def compiled_source(environment: jinja2.Environment, name: str) -> str:
    """A template's module text, as :func:`write_compiled` writes it. (Its first line still
    names the script alone: the modules stay byte for byte what they were when committed.)"""
    loader = environment.loader
    assert loader is not None
    source, filename, _ = loader.get_source(environment, name)
    code = environment.compile(source, name, filename, raw=True, defer_init=True)
    header = f"# Generated from templates/{name} by scripts/make_compiled_templates.py\n"
    return f"{header}KEY = {compile_key(environment, source)!r}\n{code}"


def write_compiled(environment: jinja2.Environment, folder: Path) -> list[str]:
    """Every template of ``environment`` compiled into ``folder``, the package
    ``reportgen.render.compiled``: its ``__init__.py`` and one module per template, none
    left from a template since removed; returns the templates' names.

    The one generator: the wheel's build (hatch_build.py) and
    scripts/make_compiled_templates.py both call it. Each module is written whole and then
    renamed into place, so that an interrupted run never leaves half a module to import.
    """
    names = environment.list_templates(filter_func=lambda name: name.endswith(".j2"))
    folder.mkdir(parents=True, exist_ok=True)
    for stale in [*folder.glob("tmpl_*.py"), *folder.glob("*.partial")]:
        stale.unlink()
    modules = {"__init__.py": PACKAGE_INIT}
    modules |= {f"{module_name(name)}.py": compiled_source(environment, name) for name in names}
    for file_name, text in modules.items():
        partial = folder / f"{file_name}.partial"
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, folder / file_name)
    return names


class PrecompiledLoader(jinja2.FileSystemLoader):
    """A FileSystemLoader that takes a template's code from its compiled module when the
    module was compiled from this very source with these settings."""

    def load(
        self,
        environment: jinja2.Environment,
        name: str,
        globals: MutableMapping[str, Any] | None = None,
    ) -> jinja2.Template:
        source, _, uptodate = self.get_source(environment, name)
        try:
            module = import_module(f"{PACKAGE}.{module_name(name)}")
        except ImportError:
            module = None
        if module is None or getattr(module, "KEY", None) != compile_key(environment, source):
            return super().load(environment, name, globals)
        template = environment.template_class.from_module_dict(
            environment, module.__dict__, {} if globals is None else globals
        )
        template._uptodate = uptodate  # as from source: a template edited mid-process reloads
        return template
