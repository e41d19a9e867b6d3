"""Templates compiled by scripts/make_compiled_templates.py: generated, do not edit."""
