#!/usr/bin/env bash
# Run `reportgen report` with the action's inputs, write the outputs, apply the gate.
# Inputs arrive as INPUT_* variables (see action.yml); nothing is ever evaluated as code.
# Exit: 0 report written (gate passed, or failed with fail-on-gate false), 1 gate failed
# (the report, its outputs and the summary are written all the same), 2 bad input
# (reportgen's message says what to fix; no report), 3 internal error in reportgen (a
# bug: its message and traceback are above; no report).
set -euo pipefail

args=(report "$INPUT_GOLD")

# Append every non-blank line of $2 to args, each after the option $1 (or alone when $1 is "").
add_lines() {
  local option=$1 line
  while IFS= read -r line || [ -n "$line" ]; do
    line="${line#"${line%%[![:space:]]*}"}"
    line="${line%"${line##*[![:space:]]}"}"
    [ -z "$line" ] && continue
    if [ -n "$option" ]; then args+=("$option"); fi
    args+=("$line")
  done <<<"$2"
}

# Append "$1 $2" to args when $2 is not empty.
add_option() {
  if [ -n "$2" ]; then args+=("$1" "$2"); fi
}

add_lines "" "$INPUT_RUNS"
add_option --out "$INPUT_OUT"
add_option --verdicts "${INPUT_VERDICTS:-}"
add_option --k "${INPUT_K:-}"
add_option --context-k "${INPUT_CONTEXT_K:-}"
add_option --baseline "${INPUT_BASELINE:-}"
add_option --on-gold-change "${INPUT_ON_GOLD_CHANGE:-}"
add_option --version "${INPUT_VERSION:-}"
add_option --report-url "${INPUT_REPORT_URL:-}"
add_lines --min "${INPUT_MIN:-}"
add_lines --max-drop "${INPUT_MAX_DROP:-}"
if [ "${INPUT_SIGNIFICANT_ONLY:-false}" = true ]; then args+=(--significant-only); fi
if [ "${INPUT_GITHUB_SUMMARY:-true}" = true ]; then args+=(--github-summary); fi
add_lines "" "${INPUT_ARGS:-}"

printf 'reportgen'
printf ' %q' "${args[@]}"
printf '\n'
status=0
"$REPORTGEN" "${args[@]}" || status=$?
case $status in
  0) gate=passed ;;
  1) gate=failed ;;
  *)
    case $status in
      2) meaning="bad input or usage: its message above names the file or option and the fix" ;;
      3) meaning="an internal error, a bug in reportgen: set REPORTGEN_DEBUG=1 for the traceback and report it" ;;
      130) meaning="interrupted" ;;
      *) meaning="see its message above" ;;
    esac
    echo "::error::reportgen stopped with exit code $status ($meaning)."
    exit "$status"
    ;;
esac

dir=$(cd "$INPUT_OUT" && pwd)
summary="$dir/summary.md"
[ -f "$summary" ] || summary="$dir/report.md"
# The version, then the gate's notice (max-drop rules skipped without a baseline), if any.
facts=$("$REPORTGEN_PYTHON" -c '
import json, sys
report = json.load(open(sys.argv[1], encoding="utf-8"))
print(report["version"])
print(" ".join(((report.get("gate") or {}).get("notice") or "").split()).replace("%", "%25"))
' "$dir/report.json")
version=$(sed -n 1p <<<"$facts")
notice=$(sed -n 2p <<<"$facts")
if [ -n "$notice" ]; then echo "::notice::$notice"; fi
{
  echo "report-dir=$dir"
  echo "gate=$gate"
  if [ -f "$summary" ]; then echo "summary-path=$summary"; fi
  if [ -f "$dir/index.html" ]; then echo "html-path=$dir/index.html"; fi
  echo "version=$version"
} >>"$GITHUB_OUTPUT"

if [ "$gate" = failed ]; then
  if [ "${INPUT_FAIL_ON_GATE:-true}" = true ]; then
    echo "::error::The quality gate failed (the report says which rule)."
    exit 1
  fi
  echo "::warning::The quality gate failed (the report says which rule); fail-on-gate is off."
fi
