#!/usr/bin/env bash
# Install reportgen from the action's own checkout into a private virtualenv, so the
# caller's Python stays as it was; put only the `reportgen` command on PATH for later
# steps (e.g. `reportgen publish`).
# In: PYTHON (interpreter to build the virtualenv with), ACTION_PATH.
# Out ($GITHUB_OUTPUT): reportgen (the command's path), python (the virtualenv's).
set -euo pipefail

venv="$RUNNER_TEMP/reportgen-venv"
"$PYTHON" -m venv "$venv"
bin="$venv/bin"
[ -d "$bin" ] || bin="$venv/Scripts" # Windows
"$bin/python" -m pip install --quiet --disable-pip-version-check "$ACTION_PATH"

commands="$RUNNER_TEMP/reportgen-bin"
mkdir -p "$commands"
ln -sf "$bin/reportgen" "$commands/reportgen"
echo "$commands" >>"$GITHUB_PATH"
{
  echo "reportgen=$bin/reportgen"
  echo "python=$bin/python"
} >>"$GITHUB_OUTPUT"
"$bin/reportgen" --version
