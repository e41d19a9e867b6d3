"""Templates compiled ahead (reportgen/render/compiled/, written by the build): the
generator writes one current module per template, the loader uses them, the build's
step runs without Polars, and a module is never trusted when it does not match the
source. The wheel's own modules: tests/packaging/test_wheel.py."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import jinja2
import pytest

from reportgen.render import precompiled
from reportgen.render.precompiled import (
    PrecompiledLoader,
    compile_key,
    compiled_source,
    module_name,
    write_compiled,
)
from reportgen.render.templating import environment, templates_dir

REPO = Path(__file__).resolve().parents[2]
UNDER_TEST = "compiled_under_test"
"""The package name the generated folder is imported as here, in place of
reportgen.render.compiled (which an editable install may or may not have written)."""


def fresh() -> jinja2.Environment:
    """The pages' environment, new (nothing cached in it)."""
    return environment.__wrapped__()


def template_names() -> list[str]:
    return sorted(path.name for path in templates_dir().glob("*.j2"))


@pytest.fixture
def compiled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The generator's folder in tmp_path, imported by the loader as its package."""
    folder = tmp_path / UNDER_TEST
    write_compiled(fresh(), folder)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(precompiled, "PACKAGE", UNDER_TEST)
    yield folder
    for name in [name for name in sys.modules if name.partition(".")[0] == UNDER_TEST]:
        del sys.modules[name]


def test_the_generator_writes_one_current_module_per_template(tmp_path: Path) -> None:
    (tmp_path / "tmpl_removed_since_html.py").write_text("KEY = 'old'\n")
    env = fresh()
    names = write_compiled(env, tmp_path)
    assert sorted(names) == template_names() and len(names) > 30
    for name in names:
        written = (tmp_path / f"{module_name(name)}.py").read_text(encoding="utf-8")
        assert written == compiled_source(env, name)
        source, _, _ = env.loader.get_source(env, name)  # type: ignore[union-attr]
        assert f"KEY = {compile_key(env, source)!r}\n" in written
    modules = {path.stem for path in tmp_path.glob("tmpl_*.py")}
    assert modules == {module_name(name) for name in names}  # none left from a removed one
    assert (tmp_path / "__init__.py").is_file()
    assert not list(tmp_path.glob("*.partial"))


def test_the_compiled_modules_are_used_not_the_compiler(
    compiled: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = fresh()

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled at run time")

    monkeypatch.setattr(env, "compile", refuse)
    for name in template_names():
        assert env.get_template(name).name == name


def test_a_module_that_does_not_match_is_not_used(compiled: Path) -> None:
    """The generator's keys are what make a module trusted: a wrong one is compiled from
    source (this is also what fails the test above if the generator writes stale keys)."""
    module = compiled / f"{module_name('_table.md.j2')}.py"
    text = module.read_text(encoding="utf-8")
    module.write_text(text.replace("KEY = '", "KEY = 'stale", 1), encoding="utf-8")
    env = fresh()
    compiles = []
    original = env.compile

    def counted(*args: object, **kwargs: object) -> object:
        compiles.append(args[1] if len(args) > 1 else kwargs.get("name"))
        return original(*args, **kwargs)  # type: ignore[arg-type]

    env.compile = counted  # type: ignore[method-assign]
    env.get_template("_table.md.j2")
    env.get_template("_table.html.j2")
    assert compiles == ["_table.md.j2"]


BUILD_STEP = """
import sys
from pathlib import Path

import hatch_build  # hatchling imports freely; from here on, what the build env has

allowed = set(sys.stdlib_module_names) | {"jinja2", "markupsafe", "reportgen"}


class OnlyTheBuildEnvironment:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] not in allowed:
            raise ImportError(f"not in the build's environment: {name}")
        return None


sys.meta_path.insert(0, OnlyTheBuildEnvironment())
names = hatch_build.compile_templates(Path(sys.argv[1]), Path(sys.argv[2]))
print(len(names))
"""


def test_the_build_step_needs_jinja2_alone_and_writes_what_the_package_would(
    tmp_path: Path,
) -> None:
    """hatch_build.compile_templates as the isolated build runs it: no Polars, no NumPy,
    nothing but the standard library, Jinja2 and the tree's reportgen; its modules are
    byte for byte the ones this process (with the views loaded) writes."""
    here = tmp_path / "here"
    write_compiled(fresh(), here)
    built = tmp_path / "built"
    done = subprocess.run(
        [sys.executable, "-c", BUILD_STEP, str(REPO), str(built)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{len(template_names())}\n"
    assert sorted(path.name for path in built.iterdir()) == sorted(
        path.name for path in here.iterdir()
    )
    for path in here.iterdir():
        assert (built / path.name).read_bytes() == path.read_bytes(), path.name


def test_a_template_edited_since_is_compiled_from_its_source(
    tmp_path: Path, compiled: Path
) -> None:
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
