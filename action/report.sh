#!/usr/bin/env bash
# Run `reportgen report` with the action's inputs, write the outputs, apply the gate.
# Inputs arrive as INPUT_* variables (see action.yml); nothing is ever evaluated as code.
# Exit: 0 report written (gate passed, or failed with fail-on-gate false), 1 gate failed
# (the report, its outputs and the summary are written all the same), 2 bad input
# (reportgen's message says what to fix; no report), 3 internal error in reportgen (a
# bug: its message and traceback are above; no report).
# Bash 3.2 (macOS runners) safe: no ${x,,}, and args is never empty when expanded.
set -euo pipefail

# Set the variable $1 to "true" or "false" from the boolean input named $2 with value $3
# (in any case, as GitHub's own `==` compares); anything else stops with exit 2.
flag() {
  local value
  value=$(printf '%s' "$3" | tr -d '[:space:]' | tr '[:upper:]' '[:lower:]')
  case $value in
    true | false) printf -v "$1" '%s' "$value" ;;
    *)
      echo "::error::The action's input $2 is '$3': it must be true or false."
      exit 2
      ;;
  esac
}
# shellcheck disable=SC2034 # checked: comment and publish are only checked here (the
# steps' `if:` reads them, case-insensitively), so that "yes" is an error, not a skip.
significant_only="" github_summary="" fail_on_gate="" checked=""
flag significant_only significant-only "${INPUT_SIGNIFICANT_ONLY:-false}"
flag github_summary github-summary "${INPUT_GITHUB_SUMMARY:-true}"
flag fail_on_gate fail-on-gate "${INPUT_FAIL_ON_GATE:-true}"
flag checked comment "${INPUT_COMMENT:-false}"
flag checked publish "${INPUT_PUBLISH:-false}"

case ${INPUT_OUT:-} in
  *$'\n'* | *$'\r'*)
    echo "::error::The action's input out holds a line break: give the report folder's name on one line."
    exit 2
    ;;
esac

# The commit measured: the input, else the one checked out here (for pull_request
# events, the merge commit GitHub builds, refs/pull/N/merge, which is GITHUB_SHA), else
# GITHUB_SHA.
commit=${INPUT_COMMIT:-}
if [ -z "$commit" ]; then
  commit=$(git rev-parse --verify -q HEAD 2>/dev/null || true)
fi
commit=${commit:-${GITHUB_SHA:-}}
# The baseline's commit: the pull request's base (or the merge group's, or the commit
# before a push); none for a new branch, whose "before" is all zeros.
baseline_commit=${INPUT_BASELINE_COMMIT:-}
if [[ "$baseline_commit" =~ ^0+$ ]]; then baseline_commit=""; fi
# After a force-push the push's `before` is a commit the branch no longer holds (nor
# does any fresh clone): its version is no baseline. The measured commit's first
# parent is (its version, or its nearest ancestor's). A re-run of an older push whose
# `before` a later force-push removed is treated the same.
if [ "${GITHUB_EVENT_NAME:-}" = push ] && [ -n "${INPUT_BASELINE:-}" ] && [ -n "$baseline_commit" ] &&
  [ -f "${GITHUB_EVENT_PATH:-}" ]; then
  pushed=$("$REPORTGEN_PYTHON" -c '
import json, re, sys
event = json.load(open(sys.argv[1], encoding="utf-8"))
before = event.get("before") if isinstance(event, dict) else None
if isinstance(before, str) and re.fullmatch(r"[0-9a-f]{40,64}", before):
    print(before, "forced" if event.get("forced") is True else "")
' "$GITHUB_EVENT_PATH" 2>/dev/null || true)
  before=${pushed%% *}
  if [ -n "$pushed" ] && [ "$before" = "$baseline_commit" ]; then
    reason=""
    if [ "${pushed#* }" = forced ]; then
      reason="this push was forced"
    elif [ "$(git rev-parse --is-shallow-repository 2>/dev/null || true)" = false ] &&
      ! git cat-file -e "$before^{commit}" 2>/dev/null; then
      reason="no branch holds it any more (a later force-push removed it)"
    fi
    if [ -n "$reason" ]; then
      parent=$(git cat-file -p "$commit" 2>/dev/null | sed -n 's/^parent \([0-9a-f]*\)$/\1/p' | head -n 1 || true)
      baseline_commit=$parent
      if [ -n "$parent" ]; then
        echo "::notice::A forced push: $reason, so the commit before it ($before) is no baseline; the baseline is the version of $parent, the first parent of the commit measured, or of its nearest ancestor with a version."
      else
        echo "::notice::A forced push: $reason, so the commit before it ($before) is no baseline; the commit measured has no parent here, so the baseline is the site's newest version."
      fi
    fi
  fi
fi

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
if [ -n "${INPUT_BASELINE:-}" ]; then
  add_option --on-gold-change "${INPUT_ON_GOLD_CHANGE:-}"
  add_option --baseline-commit "$baseline_commit"
  add_option --baseline-fallback "${INPUT_BASELINE_FALLBACK:-}"
fi
add_option --commit "$commit"
add_option --junit "${INPUT_JUNIT:-}"
add_option --version "${INPUT_VERSION:-}"
add_option --report-url "${INPUT_REPORT_URL:-}"
add_lines --min "${INPUT_MIN:-}"
add_lines --max-drop "${INPUT_MAX_DROP:-}"
if [ "$significant_only" = true ]; then args+=(--significant-only); fi
if [ "$github_summary" = true ]; then args+=(--github-summary); fi
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
# The version, the gate's notice (max-drop rules skipped without a baseline) and what a
# gold-set change left out of the comparison, if any: one line each.
facts=$("$REPORTGEN_PYTHON" -c '
import json, sys
report = json.load(open(sys.argv[1], encoding="utf-8"))
change = (report.get("baseline") or {}).get("gold_change") or {}
said = ""
if change.get("changes_detected"):
    left = change.get("left_out") or {}
    said = (
        "The gold set changed since baseline %s: compared on the %s questions both share "
        "(left out: %s removed, %s added, %s changed)." % (
            report["baseline"].get("version"), change.get("shared_questions"),
            *((left.get(key) or {}).get("count", 0)
              for key in ("only_in_baseline", "only_in_this_report", "changed")),
        )
    )
for line in (
    report["version"],
    ((report.get("gate") or {}).get("notice") or ""),
    said,
):
    print(" ".join(str(line).split()).replace("%", "%25"))
' "$dir/report.json")
version=$(sed -n 1p <<<"$facts")
notice=$(sed -n 2p <<<"$facts")
gold_change=$(sed -n 3p <<<"$facts")
if [ -n "$notice" ]; then echo "::notice::$notice"; fi
if [ -n "$gold_change" ]; then echo "::notice::$gold_change"; fi

# NAME<<DELIMITER form, with a delimiter the value cannot hold: no value, whatever its
# characters, can add an output line of its own.
set_output() {
  local delimiter="ghadelimiter_${RANDOM}${RANDOM}${RANDOM}"
  while [[ "$2" == *"$delimiter"* ]]; do delimiter="${delimiter}${RANDOM}"; done
  printf '%s<<%s\n%s\n%s\n' "$1" "$delimiter" "$2" "$delimiter" >>"$GITHUB_OUTPUT"
}
set_output report-dir "$dir"
set_output gate "$gate"
if [ -f "$summary" ]; then set_output summary-path "$summary"; fi
if [ -f "$dir/index.html" ]; then set_output html-path "$dir/index.html"; fi
set_output version "$version"
set_output commit "$commit"

if [ "$gate" = failed ]; then
  if [ "$fail_on_gate" = true ]; then
    echo "::error::The quality gate failed (the report says which rule)."
    exit 1
  fi
  echo "::warning::The quality gate failed (the report says which rule); fail-on-gate is off."
fi
