"""Templates compiled ahead (reportgen/render/compiled/): current, used, and never trusted
when they do not match the source."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from reportgen.render import precompiled
from reportgen.render.pages import environment, templates_dir
from reportgen.render.precompiled import PrecompiledLoader, compiled_source, module_name

COMPILED = Path(precompiled.__file__).parent / "compiled"


def fresh() -> jinja2.Environment:
    """The pages' environment, new (nothing cached in it)."""
    return environment.__wrapped__()


def test_every_template_has_its_current_compiled_module() -> None:
    env = fresh()
    names = env.list_templates(filter_func=lambda name: name.endswith(".j2"))
    assert names
    for name in names:
        shipped = COMPILED / f"{module_name(name)}.py"
        assert shipped.is_file(), f"run: python scripts/make_compiled_templates.py ({name})"
        assert shipped.read_text() == compiled_source(env, name), (
            f"{name} changed since it was compiled: python scripts/make_compiled_templates.py"
        )
    modules = {path.stem for path in COMPILED.glob("tmpl_*.py")}
    assert modules == {module_name(name) for name in names}  # none left from a removed one


def test_the_compiled_modules_are_used_not_the_compiler(monkeypatch: pytest.MonkeyPatch) -> None:
    env = fresh()

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled at run time")

    monkeypatch.setattr(env, "compile", refuse)
    for name in ("report.html.j2", "report.md.j2", "summary.md.j2", "site_index.html.j2"):
        assert env.get_template(name).name == name


def test_a_template_edited_since_is_compiled_from_its_source(tmp_path: Path) -> None:
    for path in templates_dir().glob("*.j2"):
        (tmp_path / path.name).write_text(path.read_text())
    (tmp_path / "_table.md.j2").write_text("edited {{ table.header | length }}\n")
    env = fresh()
    env.loader = PrecompiledLoader(tmp_path)
    assert env.get_template("_table.md.j2").render(table={"header": [1, 2]}) == "edited 2\n"
    shipped = fresh().get_template("_table.md.j2").render(table={"header": ["a"], "rows": []})
    assert "edited" not in shipped


def test_other_settings_are_compiled_from_source() -> None:
    """A module compiled for the pages' settings does not serve another environment."""
    env = fresh()
    env.trim_blocks = False
    source, _, _ = env.loader.get_source(env, "_table.md.j2")  # type: ignore[union-attr]
    assert precompiled.compile_key(env, source) != precompiled.compile_key(fresh(), source)
