#!/usr/bin/env bash
# Add this report to the published site on BRANCH (e.g. gh-pages): check the branch out
# into a temporary folder, `reportgen publish` into it, commit, push. Another job may
# push first (two merges close together): the push is then rejected, and the whole
# publication is redone on the new tip of the branch, up to 5 times, so no version is
# ever lost or overwritten. The first publication starts the branch.
# In: BRANCH, TOKEN (may be empty), REPORT_DIR, PUBLISH_ARGS (one argument a line),
#     REPORTGEN, GITHUB_SERVER_URL, GITHUB_REPOSITORY, GITHUB_SHA, RUNNER_TEMP.
# Out ($GITHUB_OUTPUT): site-dir (the branch's tree after publishing, e.g. for
#     actions/upload-pages-artifact), published-version.
# Exit: 0 published (or already there), 2 bad input (reportgen's message says what to
#     fix) or a token that may not push, 3 internal error or 5 rejected pushes in a row.
set -euo pipefail

ATTEMPTS=5

if [ -z "${BRANCH:-}" ]; then
  echo "::error::publish: true needs baseline-branch, the branch that holds the site (e.g. gh-pages)."
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
log="$RUNNER_TEMP/reportgen-push.log"

# Check the branch out into $site, fresh; a branch that does not exist yet starts empty.
checkout() {
  rm -rf "$site"
  git init -q "$site"
  git -C "$site" config user.name "github-actions[bot]"
  git -C "$site" config user.email "41898282+github-actions[bot]@users.noreply.github.com"
  local found=0
  git -C "$site" "${auth[@]}" ls-remote --exit-code --heads "$url" "refs/heads/$BRANCH" >/dev/null || found=$?
  case $found in
    0)
      git -C "$site" "${auth[@]}" fetch -q --depth=1 "$url" "refs/heads/$BRANCH"
      git -C "$site" checkout -q -B "$BRANCH" FETCH_HEAD
      ;;
    2)
      echo "No branch '$BRANCH' yet: this publication starts it."
      git -C "$site" checkout -q --orphan "$BRANCH"
      ;;
    *)
      echo "::error::Cannot read $url (exit $found). Fix: check the repository and the token."
      exit 3
      ;;
  esac
}

version=$("$REPORTGEN_PYTHON" -c 'import json, sys; print(json.load(open(sys.argv[1]))["version"])' "$REPORT_DIR/report.json")
for attempt in $(seq 1 "$ATTEMPTS"); do
  checkout
  status=0
  "$REPORTGEN" publish "$REPORT_DIR" --site "$site" "${extra[@]}" || status=$?
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
  if git -C "$site" "${auth[@]}" push -q "$url" "HEAD:refs/heads/$BRANCH" 2>"$log"; then
    echo "Published $version on '$BRANCH' (attempt $attempt)."
    break
  fi
  if ! grep -qE 'rejected|fetch first|non-fast-forward|stale info|cannot lock ref' "$log"; then
    cat "$log" >&2
    echo "::error::Cannot push to '$BRANCH'. Fix: give the job \`permissions: contents: write\` (and let the token push to that branch)."
    exit 2
  fi
  if [ "$attempt" -eq "$ATTEMPTS" ]; then
    cat "$log" >&2
    echo "::error::The push to '$BRANCH' was rejected $ATTEMPTS times (other jobs kept publishing first)."
    exit 3
  fi
  echo "::warning::Another job published to '$BRANCH' first; publishing again on top of it ($attempt/$ATTEMPTS)."
  sleep "$attempt"
done

{
  echo "site-dir=$site"
  echo "published-version=$version"
} >>"$GITHUB_OUTPUT"
