"""Templates compiled once, when reportgen is built, not at every run.

Compiling the Jinja templates took ~0.13 s of every `reportgen demo`. The templates are
compiled ahead by ``python scripts/make_compiled_templates.py`` into modules of
``reportgen/render/compiled/`` (shipped in the wheel; Python caches their bytecode as
for any module), each carrying a key: the hash of its template's source, Jinja2's
version and the environment's settings. A module whose key does not match what this
process would compile (a template edited since, another Jinja2) is ignored and the
template compiled from source as before, so the output never depends on the cache.
No file is read or written outside the installed package.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import MutableMapping
from importlib import import_module
from typing import Any

import jinja2

PACKAGE = "reportgen.render.compiled"


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
    """A template's module text, as scripts/make_compiled_templates.py writes it."""
    loader = environment.loader
    assert loader is not None
    source, filename, _ = loader.get_source(environment, name)
    code = environment.compile(source, name, filename, raw=True, defer_init=True)
    header = f"# Generated from templates/{name} by scripts/make_compiled_templates.py\n"
    return f"{header}KEY = {compile_key(environment, source)!r}\n{code}"


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
