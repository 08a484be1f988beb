"""docs/cli.md, the command-line reference, covers the parser: every subcommand has its
section, and every option and argument of each subcommand is named in that section."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from tradewinds import cli

TEXT = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = cli._parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def _section(command: str) -> str:
    parts = TEXT.split(f"\n## `tradewinds {command}`\n")
    assert len(parts) == 2, f"docs/cli.md has one section `tradewinds {command}`"
    return parts[1].split("\n## ", 1)[0]


def test_every_subcommand_has_a_section_and_a_row_in_the_summary() -> None:
    commands = _subcommands()
    assert commands
    sections = re.findall(r"^## `tradewinds (\w+)`$", TEXT, re.M)
    assert sorted(sections) == sorted(commands)
    for command in commands:
        assert f"[`tradewinds {command}`](#tradewinds-{command})" in TEXT, command


@pytest.mark.parametrize("command", sorted(_subcommands()))
def test_every_option_of_a_subcommand_is_named_in_its_section(command: str) -> None:
    parser = _subcommands()[command]
    section = _section(command)
    shared = TEXT.split("\n## Options every game command takes\n", 1)[1].split("\n## ", 1)[0]
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        if action.option_strings:
            for option in action.option_strings:
                # The options every game command takes may be named only once, above.
                assert f"`{option}" in section or f"`{option}" in shared, \
                    f"{command}: {option}"
        else:
            assert f"`{action.metavar}`" in section or action.metavar == "GAME", f"{command}: {action.metavar}"


def test_the_version_flag_is_named() -> None:
    assert "`tradewinds --version`" in TEXT
