"""Every analysis of scored questions: attribution, cutoff, hygiene, comparisons, baseline, gate."""
