"""The bottom floor every layer stands on: the validated input model, files, labels, progress."""
