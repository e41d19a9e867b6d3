"""Run action.yml's steps on this machine as a GitHub runner would, for end-to-end tests.

Each step's `env:`, `if:` and the action's outputs are read from action.yml itself and
their `${{ }}` expressions evaluated here (inputs with their defaults, `github.*`,
`steps.*.outputs.*`, `||`, `&&`, `!`, `==`, `!=`, `success()`, `!cancelled()`), so a
test cannot drift from what GitHub would pass. Every `run:` script goes through
`bash --noprofile --norc -eo pipefail`, as GitHub's `shell: bash` does, with a fresh
GITHUB_OUTPUT per step. Steps that `uses:` another action, and the install step (a
virtualenv and a pip install from the network), are stood in for by the outputs given.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML  # check-jsonschema's YAML reader, a test dependency

_EXPRESSION = re.compile(r"\$\{\{(.*?)\}\}", re.DOTALL)
_STATUS_CHECK = re.compile(r"\b(success|failure|always|cancelled)\(\)")
_TOKEN = re.compile(r"\s*(?:('(?:[^']|'')*')|(==|!=|&&|\|\||!|\(|\))|([A-Za-z_][\w.-]*))")


@dataclass
class StepResult:
    id: str
    ran: bool
    returncode: int = 0
    stdout: str = ""
    stderr: str = ""
    outputs: dict[str, str] = field(default_factory=dict)


@dataclass
class ActionRun:
    steps: dict[str, StepResult]
    outputs: dict[str, str]

    @property
    def failed(self) -> bool:
        return any(step.returncode != 0 for step in self.steps.values() if step.ran)


class Evaluator:
    """GitHub's expression language, as far as action.yml uses it."""

    def __init__(self, context: dict[str, Any], failed: bool = False) -> None:
        self.context = context
        self.failed = failed

    def template(self, text: str) -> str:
        """A string with every ${{ }} replaced by its value."""
        return _EXPRESSION.sub(lambda m: _text(self.expression(m[1])), text)

    def condition(self, text: str) -> bool:
        """A step's if:, with GitHub's implicit success() when it names no status check."""
        inner = _EXPRESSION.fullmatch(text.strip())
        expression = inner[1] if inner else text
        if not _STATUS_CHECK.search(expression):
            expression = f"success() && ({expression})"
        return bool(self.expression(expression))

    def expression(self, text: str) -> Any:
        tokens = []
        position = 0
        text = text.strip()
        while position < len(text):
            m = _TOKEN.match(text, position)
            if not m or m.end() == position:
                raise ValueError(f"cannot read expression {text!r} at {position}")
            if m[1]:
                tokens.append(("str", m[1][1:-1].replace("''", "'")))
            else:
                tokens.append(("op", m[2] or m[3]))
            position = m.end()
        self.tokens, self.at = tokens, 0
        value = self._or()
        assert self.at == len(tokens), f"trailing tokens in {text!r}"
        return value

    def _peek(self) -> tuple[str, str] | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def _take(self, op: str) -> bool:
        if self._peek() == ("op", op):
            self.at += 1
            return True
        return False

    def _or(self) -> Any:
        value = self._and()
        while self._take("||"):
            right = self._and()
            value = value or right
        return value

    def _and(self) -> Any:
        value = self._not()
        while self._take("&&"):
            right = self._not()
            value = value and right
        return value

    def _not(self) -> Any:
        if self._take("!"):
            return not self._not()
        left = self._primary()
        if self._take("=="):
            return _text(left).lower() == _text(self._primary()).lower()
        if self._take("!="):
            return _text(left).lower() != _text(self._primary()).lower()
        return left

    def _primary(self) -> Any:
        kind, value = self.tokens[self.at]
        self.at += 1
        if kind == "str":
            return value
        if value == "(":
            inner = self._or()
            assert self._take(")")
            return inner
        if self._take("("):
            assert self._take(")"), "functions take no argument here"
            return {
                "success": not self.failed,
                "failure": self.failed,
                "always": True,
                "cancelled": False,
            }[value]
        found: Any = self.context
        for part in value.split("."):
            found = found.get(part, "") if isinstance(found, dict) else ""
        return found


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def read_outputs(path: Path) -> dict[str, str]:
    """A GITHUB_OUTPUT file: NAME=VALUE lines and NAME<<DELIMITER blocks."""
    found: dict[str, str] = {}
    lines = iter(path.read_text().splitlines())
    for line in lines:
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            block = []
            for inner in lines:
                if inner == delimiter:
                    break
                block.append(inner)
            found[name] = "\n".join(block)
        elif "=" in line:
            name, value = line.split("=", 1)
            found[name] = value
    return found


def run_action(
    action_dir: Path,
    inputs: dict[str, str],
    github: dict[str, str],
    env: dict[str, str],
    stand_ins: dict[str, dict[str, str]],
    cwd: Path,
) -> ActionRun:
    """Every step of ``action_dir``/action.yml in order; ``stand_ins`` maps the id of a
    step not to run (uses:, install) to the outputs it would have given."""
    action = YAML(typ="safe").load((action_dir / "action.yml").read_text())
    github = {**github, "action_path": str(action_dir)}
    runner_temp = Path(env["RUNNER_TEMP"])
    base = Evaluator({"github": github, "runner": {"temp": str(runner_temp)}})
    given = {
        name: base.template(str(spec.get("default", ""))) for name, spec in action["inputs"].items()
    }
    unknown = set(inputs) - set(given)
    assert not unknown, f"inputs action.yml does not declare: {unknown}"
    given.update(inputs)
    steps: dict[str, StepResult] = {}
    path_additions: list[str] = []
    for number, step in enumerate(action["runs"]["steps"]):
        step_id = step.get("id", f"step{number}")
        outputs_context = {key: {"outputs": result.outputs} for key, result in steps.items()}
        failed = any(result.returncode != 0 for result in steps.values() if result.ran)
        evaluator = Evaluator(
            {
                "inputs": given,
                "github": github,
                "steps": outputs_context,
                "runner": {"temp": str(runner_temp)},
            },
            failed,
        )
        condition = step.get("if", "success()")
        if not evaluator.condition(str(condition)):
            steps[step_id] = StepResult(step_id, ran=False)
            continue
        if step_id in stand_ins:
            steps[step_id] = StepResult(step_id, ran=True, outputs=stand_ins[step_id])
            continue
        assert "run" in step, f"step {step_id} uses an action: give a stand-in"
        step_env = {
            name: evaluator.template(str(value)) for name, value in step.get("env", {}).items()
        }
        output_file = runner_temp / f"output-{step_id}"
        output_file.write_text("")
        path_file = runner_temp / f"path-{step_id}"
        path_file.write_text("")
        script = runner_temp / f"script-{step_id}.sh"
        script.write_text(evaluator.template(step["run"]))
        full_env = {
            **env,
            "GITHUB_ACTION_PATH": str(action_dir),
            **step_env,
            "GITHUB_OUTPUT": str(output_file),
            "GITHUB_PATH": str(path_file),
            "PATH": os.pathsep.join([*reversed(path_additions), env["PATH"]]),
        }
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=cwd,
            env=full_env,
            capture_output=True,
            text=True,
            check=False,
        )
        path_additions.extend(line for line in path_file.read_text().splitlines() if line)
        steps[step_id] = StepResult(
            step_id, True, done.returncode, done.stdout, done.stderr, read_outputs(output_file)
        )
    outputs_context = {key: {"outputs": result.outputs} for key, result in steps.items()}
    final = Evaluator({"inputs": given, "github": github, "steps": outputs_context})
    outputs = {name: final.template(str(spec["value"])) for name, spec in action["outputs"].items()}
    return ActionRun(steps, outputs)
