#!/usr/bin/env bash
# Regenerate site/, the project's example site, from the bundled help-centre example:
#   scripts/make_site.sh [SITE]      (default: site)
# Never edit site/ by hand: change this script (or reportgen) and re-run it.
#
# Two versions tell a small story: in October the team compared keyword, dense and
# hybrid search; in November it added a reranker and end-to-end verdicts. Paths are relative and times come from SOURCE_DATE_EPOCH, so
# the bytes are the same on every machine (tests/site/test_example_site.py checks).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
site=$(realpath -m "${1:-site}")
python=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r reportgen/examples/helpcentre "$work/helpcentre"
rm -rf "$site"

report() { # version, epoch, then the runs and options of that version
    version=$1 epoch=$2
    shift 2
    (cd "$work" && SOURCE_DATE_EPOCH=$epoch PYTHONPATH="$repo" "$python" -m reportgen report \
        helpcentre/gold.jsonl keyword=helpcentre/runs/keyword.trec \
        dense=helpcentre/runs/dense.jsonl hybrid=helpcentre/runs/hybrid.csv "$@" \
        --version "$version" --out "$version" --quiet)
    SOURCE_DATE_EPOCH=$epoch PYTHONPATH="$repo" "$python" -m reportgen publish "$work/$version" \
        --site "$site" --quiet
}

report 2026.10.1 1759300000
report 2026.11.1 1764000000 rerank=helpcentre/runs/rerank.jsonl \
    --verdicts helpcentre/verdicts.jsonl --verdicts-run rerank
echo "Wrote $site"
