"""Regatta's own tests: the engine contract through the Python API."""
