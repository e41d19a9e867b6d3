#!/usr/bin/env bash
# Add this report to the published site on BRANCH (e.g. gh-pages): check the branch out
# into a temporary folder, `reportgen publish` into it, commit, push. Other jobs may push
# first (merges close together, re-runs): the push is then rejected, and the whole
# publication is redone on the new tip of the branch, after a wait that doubles at each
# attempt with random jitter (so racing jobs spread out), until the time budget is spent:
# a version is never lost to a race. A rejection that no retry can fix (a protected
# branch, a ruleset, a token that may not push) stops at once, named, with its fix;
# a server error (5xx) or a network failure is retried like a race.
# In: BRANCH, TOKEN (may be empty), REPORT_DIR, PUBLISH_ARGS (one argument a line),
#     PUBLISH_TIMEOUT (seconds, default 600), REPORTGEN, REPORTGEN_PYTHON,
#     GITHUB_SERVER_URL, GITHUB_REPOSITORY, GITHUB_SHA, RUNNER_TEMP;
#     PUBLISH_BACKOFF_MS (first wait, default 1000) and PUBLISH_BACKOFF_MAX_MS (longest,
#     default 30000) tune the waits.
# Out ($GITHUB_OUTPUT): site-dir (the branch's tree after publishing, e.g. for
#     actions/upload-pages-artifact), published-version.
# Exit: 0 published (or already there), 2 bad input (reportgen's message says what to
#     fix) or a branch the token may not push to, 3 the time budget ran out (races,
#     server errors) or an error git did not explain.
# Bash 3.2 (macOS runners) safe: an empty array is expanded as ${a[@]+"${a[@]}"}.
set -euo pipefail

budget=${PUBLISH_TIMEOUT:-600}
backoff_ms=${PUBLISH_BACKOFF_MS:-1000}
backoff_max_ms=${PUBLISH_BACKOFF_MAX_MS:-30000}
for number in "$budget" "$backoff_ms" "$backoff_max_ms"; do
  if ! [[ "$number" =~ ^[0-9]{1,7}$ ]]; then
    echo "::error::publish-timeout must be a whole number of seconds (got '$number')."
    exit 2
  fi
done

if [ -z "${BRANCH:-}" ]; then
  echo "::error::publish: true needs baseline-branch, the branch that holds the site (e.g. gh-pages)."
  exit 2
fi
if [[ "$BRANCH" == -* ]] || ! git check-ref-format "refs/heads/$BRANCH"; then
  # %q: a line break or a quote in the name is shown escaped, never raw
  printf '::error::baseline-branch %q is not a name git can give a branch: no retry can push to it. Fix: give the branch that holds the site, e.g. gh-pages.\n' "$BRANCH"
  exit 2
fi
if [ -z "${REPORT_DIR:-}" ] || [ ! -f "$REPORT_DIR/report.json" ]; then
  echo "::error::There is no report to publish (the report step wrote none)."
  exit 2
fi

extra=()
while IFS= read -r line || [ -n "$line" ]; do
  line="${line#"${line%%[![:space:]]*}"}"
  line="${line%"${line##*[![:space:]]}"}"
  if [ -n "$line" ]; then extra+=("$line"); fi
done <<<"${PUBLISH_ARGS:-}"

auth=()
if [ -n "${TOKEN:-}" ]; then
  basic=$(printf 'x-access-token:%s' "$TOKEN" | base64 | tr -d '\n')
  echo "::add-mask::$basic"
  auth=(-c "http.extraheader=AUTHORIZATION: basic $basic")
fi
url="$GITHUB_SERVER_URL/$GITHUB_REPOSITORY"
site="$RUNNER_TEMP/reportgen-site"
log="$RUNNER_TEMP/reportgen-git.log"

# git with the token, its stderr kept in $log for classify.
git_auth() {
  git -C "$site" ${auth[@]+"${auth[@]}"} "$@" 2>"$log"
}

# What git's stderr in $log says went wrong: race, protected, ruleset, permission,
# server (5xx), network, or other.
classify() {
  if grep -qE 'GH006|protected branch' "$log"; then
    echo protected
  elif grep -qE 'GH013|repository rule violations|ruleset' "$log"; then
    echo ruleset
  elif grep -qE 'error: (500|502|503|504)|HTTP 5[0-9][0-9]|Internal Server Error|Service Unavailable|Bad Gateway' "$log"; then
    echo server
  elif grep -qiE 'error: 40[13]|Permission to .* denied|Authentication failed|could not read Username|Write access to repository not granted|not accessible by integration' "$log"; then
    echo permission
  elif grep -qE 'fetch first|non-fast-forward|stale info|cannot lock ref|failed to update ref|incorrect old value|\[rejected\]' "$log"; then
    echo race
  elif grep -qiE 'Could not resolve host|Failed to connect|timed out|hung up unexpectedly|early EOF|Connection reset|SSL|TLS' "$log"; then
    echo network
  else
    echo other
  fi
}

# Stop with the cause of a failure git reported (in $log) that no retry can fix; return
# when it is worth another attempt.
stop_unless_transient() {
  local what=$1 kind
  kind=$(classify)
  case $kind in
    race | server | network) return 0 ;;
  esac
  cat "$log" >&2
  case $kind in
    protected)
      echo "::error::'$BRANCH' is a protected branch: GitHub stopped this job's attempt to $what it. Fix: let github-actions push to it (Settings -> Branches: remove the protection of '$BRANCH', or allow this token to bypass it)." ;;
    ruleset)
      echo "::error::A repository ruleset stopped this job's attempt to $what '$BRANCH'. Fix: exclude '$BRANCH' from the ruleset or add this token's app to its bypass list (Settings -> Rules -> Rulesets)." ;;
    permission)
      echo "::error::The token may not $what '$BRANCH' (permission denied). Fix: give the job \`permissions: contents: write\`, and a token that may write this repository." ;;
    *)
      if [ "$what" = read ]; then
        echo "::error::Cannot read $url (git's message is above). Fix: check the repository, and that the token may read it (private repositories need \`contents: read\`)."
      else
        echo "::error::git could not push to '$BRANCH' for a reason it did not explain as a race or a server error (its message is above)."
      fi
      ;;
  esac
  if [ "$kind" = other ]; then exit 3; fi
  exit 2
}

# The site's versions are ordered (and pruned) by commit ancestry, read in this
# checkout: actions/checkout's default (fetch-depth 1) holds one commit. Fetch the
# history of every branch, so that `reportgen publish` sees the commits the site's
# versions record; if that fails, publish refuses (exit 2) rather than guess.
if [ "$(git rev-parse --is-shallow-repository 2>/dev/null || true)" = true ]; then
  echo "This checkout is shallow (actions/checkout's fetch-depth 1): fetching the history that orders the site's versions."
  if ! git ${auth[@]+"${auth[@]}"} fetch -q --unshallow --no-tags "$url" "+refs/heads/*:refs/reportgen/heads/*" 2>"$log"; then
    cat "$log" >&2
    echo "::warning::Could not fetch the history into this shallow checkout (git's message is above); publish refuses to order versions it cannot see. Fix: \`fetch-depth: 0\` in actions/checkout."
  fi
fi

start=$SECONDS
attempt=0
# Wait before the next attempt (doubling, with jitter), or stop when the budget is spent.
wait_or_stop() {
  local kind=$1 delay_ms wait_ms
  delay_ms=$backoff_ms
  local i
  for ((i = 1; i < attempt && delay_ms < backoff_max_ms; i++)); do delay_ms=$((delay_ms * 2)); done
  if [ "$delay_ms" -gt "$backoff_max_ms" ]; then delay_ms=$backoff_max_ms; fi
  wait_ms=$((delay_ms / 2 + (RANDOM * 32768 + RANDOM) % (delay_ms / 2 + 1)))
  if [ $((SECONDS - start + (wait_ms + 999) / 1000)) -gt "$budget" ]; then
    cat "$log" >&2
    case $kind in
      server) echo "::error::GitHub's server kept failing (5xx) for ${budget}s ($attempt attempts): nothing is wrong on your side. Fix: re-run the job later (githubstatus.com)." ;;
      network) echo "::error::The network to $GITHUB_SERVER_URL kept failing for ${budget}s ($attempt attempts). Fix: re-run the job." ;;
      *) echo "::error::The push to '$BRANCH' was rejected for ${budget}s ($attempt attempts: other jobs kept publishing first). Fix: re-run the job, or raise publish-timeout." ;;
    esac
    exit 3
  fi
  case $kind in
    server) echo "::warning::GitHub answered with a server error (5xx); trying again in $((wait_ms / 1000)).$(printf '%03d' $((wait_ms % 1000)))s (attempt $attempt)." ;;
    network) echo "::warning::The network failed; trying again in $((wait_ms / 1000)).$(printf '%03d' $((wait_ms % 1000)))s (attempt $attempt)." ;;
    *) echo "::warning::Another job published to '$BRANCH' first; publishing again on top of it (attempt $attempt)." ;;
  esac
  sleep "$((wait_ms / 1000)).$(printf '%03d' $((wait_ms % 1000)))"
}

# Check the branch out into $site, fresh; a branch that does not exist yet starts empty.
# Returns 1 (with $log) when git failed in a way worth retrying.
checkout() {
  rm -rf "$site"
  git init -q "$site"
  git -C "$site" config user.name "github-actions[bot]"
  git -C "$site" config user.email "41898282+github-actions[bot]@users.noreply.github.com"
  local found=0
  git_auth ls-remote --exit-code --heads "$url" "refs/heads/$BRANCH" >/dev/null || found=$?
  case $found in
    0)
      if ! git_auth fetch -q --depth=1 "$url" "refs/heads/$BRANCH"; then
        stop_unless_transient read
        return 1
      fi
      git -C "$site" checkout -q -B "$BRANCH" FETCH_HEAD
      ;;
    2)
      echo "No branch '$BRANCH' yet: this publication starts it."
      git -C "$site" checkout -q --orphan "$BRANCH"
      ;;
    *)
      stop_unless_transient read
      return 1
      ;;
  esac
}

version=$("$REPORTGEN_PYTHON" -c 'import json, sys; print(json.load(open(sys.argv[1]))["version"])' "$REPORT_DIR/report.json")
while :; do
  attempt=$((attempt + 1))
  if ! checkout; then
    wait_or_stop "$(classify)"
    continue
  fi
  status=0
  "$REPORTGEN" publish "$REPORT_DIR" --site "$site" ${extra[@]+"${extra[@]}"} || status=$?
  if [ "$status" -ne 0 ]; then
    echo "::error::reportgen publish stopped with exit code $status: its message above says why."
    exit "$status"
  fi
  touch "$site/.nojekyll" # served as is, whatever serves the branch
  git -C "$site" add -A
  if git -C "$site" diff --cached --quiet; then
    echo "Version $version is already published on '$BRANCH'."
    break
  fi
  git -C "$site" commit -q -m "Publish report $version (${GITHUB_SHA:-unknown commit})"
  if git_auth push -q "$url" "HEAD:refs/heads/$BRANCH"; then
    echo "Published $version on '$BRANCH' (attempt $attempt)."
    break
  fi
  stop_unless_transient "push to"
  wait_or_stop "$(classify)"
done

{
  echo "site-dir=$site"
  echo "published-version=$version"
} >>"$GITHUB_OUTPUT"
