"""Tests of one game each: `tests/games/<game>/` (the game's name with underscores) holds what
is about that game's own rules, files and fields. Everything shared is in `tests/`."""
