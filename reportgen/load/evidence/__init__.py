"""Evidence spans and the chunk maps that place chunks in their documents."""
