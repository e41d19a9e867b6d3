"""reportgen: tell retrieval failures from generation failures in a RAG system."""

__version__ = "0.1.0"
