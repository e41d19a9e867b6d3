"""Everything a person reads: view-models, pages, summary.md, charts, files written."""
