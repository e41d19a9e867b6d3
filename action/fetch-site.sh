#!/usr/bin/env bash
# Fetch the published site (the branch where its history lives, e.g. gh-pages) so that
# its latest version can be the baseline. The first run has no site yet: say so and go on.
# In: BRANCH, TOKEN (may be empty), GITHUB_SERVER_URL, GITHUB_REPOSITORY.
# Out ($GITHUB_OUTPUT): site (the folder), absent when there is no site yet.
# Exit: 0 fetched, or no branch yet (a notice); 2 a branch name git cannot use; 3 the
# repository cannot be read.
set -euo pipefail

if [[ "${BRANCH:-}" == -* ]] || ! git check-ref-format "refs/heads/${BRANCH:-}"; then
  # %q: a line break or a quote in the name is shown escaped, never raw
  printf '::error::baseline-branch %q is not a name git can give a branch. Fix: give the branch that holds the site, e.g. gh-pages.\n' "${BRANCH:-}"
  exit 2
fi

site="$RUNNER_TEMP/reportgen-baseline-site"
repo="$RUNNER_TEMP/reportgen-baseline-git"
rm -rf "$site" "$repo"
mkdir -p "$site"
git init -q "$repo"

auth=()
if [ -n "${TOKEN:-}" ]; then
  basic=$(printf 'x-access-token:%s' "$TOKEN" | base64 | tr -d '\n')
  echo "::add-mask::$basic"
  auth=(-c "http.extraheader=AUTHORIZATION: basic $basic")
fi

url="$GITHUB_SERVER_URL/$GITHUB_REPOSITORY"
# Only a missing branch means "no baseline yet": any other failure (a token that cannot
# read, the network) stops here, since going on would skip every max-drop rule.
found=0
git -C "$repo" ${auth[@]+"${auth[@]}"} ls-remote --exit-code --heads "$url" "refs/heads/$BRANCH" >/dev/null || found=$?
if [ "$found" -eq 2 ]; then
  echo "::notice::No branch '$BRANCH' yet, so no baseline: the first published version will be one."
  exit 0
elif [ "$found" -ne 0 ]; then
  echo "::error::Cannot read $url (git exit $found). Fix: check baseline-branch and the token (private repositories need \`contents: read\`)."
  exit 3
fi
git -C "$repo" ${auth[@]+"${auth[@]}"} fetch -q --depth=1 "$url" "refs/heads/$BRANCH"
git -C "$repo" archive FETCH_HEAD | tar -x -C "$site"
echo "site=$site" >>"$GITHUB_OUTPUT"
commit=$(git -C "$repo" rev-parse --short FETCH_HEAD)
echo "Baseline: the site on branch '$BRANCH' ($commit)"
