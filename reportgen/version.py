"""The version of reportgen, read by the build (pyproject.toml) and written into every
report.json; a module of its own so that every layer can import it."""

__version__ = "0.1.0"
