"""The built wheel, installed into a fresh venv, runs the demo: templates, the bundled
example and report.json's schema must ship inside it, not only in the source tree; and
the templates compiled by the build (hatch_build.py), which the installed reportgen uses
instead of compiling them, whether the wheel is built from the tree or from an sdist."""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import jsonschema
import pytest

from reportgen.render.precompiled import module_name

REPO = Path(__file__).resolve().parents[2]
COMPILED = "reportgen/render/compiled"

USES_THE_COMPILED_MODULES = """
import json

from reportgen.render import precompiled
from reportgen.render.pages import environment

assert "/site-packages/reportgen/" in precompiled.__file__  # the wheel's, not a source tree
env = environment()


def refuse(*args, **kwargs):
    raise AssertionError("compiled at run time")


env.compile = refuse
env.get_template("report.html.j2")
keys = {}
for name in env.list_templates(filter_func=lambda name: name.endswith(".j2")):
    env.get_template(name)
    source, _, _ = env.loader.get_source(env, name)
    keys[name] = precompiled.compile_key(env, source)
print(json.dumps(keys))
"""
"""In the installed package: every template loads with the compiler refused; the key
each would need, as this reportgen and this Jinja2 compute it."""


def compiled_modules(wheel: Path) -> dict[str, bytes]:
    """The wheel's compiled templates (``__init__.py`` aside), by path."""
    with zipfile.ZipFile(wheel) as archive:
        names = [name for name in archive.namelist() if name.startswith(f"{COMPILED}/tmpl_")]
        return {name: archive.read(name) for name in names}


def wheel_from_sdist(folder: Path) -> Path:
    """The tree's sdist (by hatchling, a test dependency), then a wheel built from that
    sdist alone, in an isolated build as pip builds one downloaded from an index."""
    folder.mkdir()
    make_sdist = "import sys, hatchling.build as b; print(b.build_sdist(sys.argv[1]))"
    made = subprocess.run(
        [sys.executable, "-c", make_sdist, str(folder)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    sdist = folder / made.stdout.strip()
    with tarfile.open(sdist) as archive:
        members = archive.getnames()
    assert not [name for name in members if "/reportgen/render/compiled/" in name]
    assert any(name.endswith("/hatch_build.py") for name in members)
    command = ["-m", "pip", "wheel", "--no-deps", "-q", "-w", str(folder), str(sdist)]
    subprocess.run([sys.executable, *command], check=True)
    (wheel,) = folder.glob("reportgen-*.whl")
    return wheel


@pytest.mark.slow
def test_wheel_in_a_fresh_venv_runs_the_demo(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(REPO)],
        check=True,
    )
    (wheel,) = wheels.glob("reportgen-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        shipped_schema = archive.read("reportgen/schema/schema.json")
    assert shipped_schema == (REPO / "reportgen" / "schema" / "schema.json").read_bytes()
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", str(wheel)], check=True)
    shipped_templates = compiled_modules(wheel)
    assert set(shipped_templates) == {
        f"{COMPILED}/{module_name(path.name)}.py" for path in (REPO / "templates").glob("*.j2")
    }
    # each with the key the installed reportgen computes, so it is what runs: a page
    # renders with Jinja2's compiler refused
    keys = subprocess.run(
        [python, "-c", USES_THE_COMPILED_MODULES],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert keys.returncode == 0, keys.stderr
    installed_keys = json.loads(keys.stdout)
    assert len(installed_keys) == len(shipped_templates)
    for name, key in installed_keys.items():
        module = f"{COMPILED}/{module_name(name)}.py"
        assert f"\nKEY = {key!r}\n" in shipped_templates[module].decode(), name
    # an sdist (templates, no modules) builds a wheel with the very same modules
    assert compiled_modules(wheel_from_sdist(tmp_path / "sdist")) == shipped_templates
    out = tmp_path / "demo"
    # Run from an empty folder so that nothing from the source tree can be imported.
    done = subprocess.run(
        [env_dir / "bin" / "reportgen", "demo", "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "rerank, top 5:" in done.stdout
    report = json.loads((out / "report.json").read_text())
    assert set(report["runs"]) == {"keyword", "dense", "hybrid", "rerank", "rerank-sections"}
    # the example's documents and chunk maps ship too: two chunkings and the drill-down
    assert set(report["chunkings"]["runs"]) == set(report["runs"])
    assert report["drilldown"]["count"] > 0
    assert "<table" in (out / "index.html").read_text()
    # the demo's report matches the schema as the installed package finds it
    read_schema = "from importlib.resources import files; print(files('reportgen.schema')"
    read_schema += ".joinpath('schema.json').read_text(), end='')"
    found = subprocess.run(
        [python, "-c", read_schema], capture_output=True, text=True, cwd=tmp_path, check=True
    )
    assert found.stdout.encode() == shipped_schema
    jsonschema.validate(report, json.loads(found.stdout))
