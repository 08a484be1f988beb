"""North Wind's absurd inputs that reach deep into its own rules: saved states whose card
fields are no card, and absurd
values of its turn bound and data file. None may arrive in Python as pyo3's `PanicException`
(the calls every game gets are in `tests/test_properties.py`)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import tradewinds as tw
from conftest import play_to_end

NAME = "north-wind"


def is_panic(e: BaseException) -> bool:
    return type(e).__name__ == "PanicException" or not isinstance(e, Exception)


def card_phase_state(game: tw.Game) -> dict[str, Any]:
    """The saved JSON of a state where a revealed card awaits its use."""
    for seed in range(100):
        s = game.new_state(seed)
        r = random.Random(seed)
        while not s.is_terminal:
            saved = json.loads(s.to_json())
            if saved["state"]["phase"] == "Card":
                return saved
            s.apply(r.choice(s.legal_actions()))
    raise AssertionError("no card decision in 100 games")  # pragma: no cover


def won_during_a_voyage(game: tw.Game) -> dict[str, Any]:
    """The saved JSON of a finished game won during a voyage (its last card is a card)."""
    for seed in range(200):
        s = play_to_end(game, seed)
        saved = json.loads(s.to_json())
        if saved["state"]["voyage"]["current"] != 255 and not s.is_truncated:
            return saved
    raise AssertionError("no game won during a voyage in 200 games")  # pragma: no cover


def absurd_calls() -> list[tuple[str, Any, type[Exception]]]:
    """Each as (label, zero-argument function, the exception it must raise)."""
    game = tw.load(NAME, players=2)
    # A saved state whose current card is no card.
    card_state = card_phase_state(game)
    card_state["state"]["voyage"]["current"] += 128
    broken_card = json.dumps(card_state)
    # A finished game won during a voyage, whose last card is no card, then its actions named.
    won = won_during_a_voyage(game)
    won["state"]["voyage"]["current"] += 128
    broken_finish = json.dumps(won)

    def name_trade_actions_of_broken_finish() -> None:
        state = game.state_from_json(broken_finish)
        for a in range(game.num_distinct_actions):
            state.action_to_string(a)

    return [
        ("load a state whose card is no card", lambda: game.state_from_json(broken_card), tw.StateFormatError),
        ("name actions of a finished game whose card is no card", name_trade_actions_of_broken_finish,
         tw.StateFormatError),
        ("load with absurd options", lambda: tw.load(NAME, players=2, max_turns=2**63, data={}), tw.OptionError),
        ("data as a deep list", lambda: tw.load(NAME, data=json.loads("[" * 500 + "]" * 500)), tw.OptionError),
    ]


@pytest.mark.parametrize(("label", "call", "expected"), absurd_calls(),
                         ids=lambda x: x if isinstance(x, str) else "")
def test_no_rust_panic_reaches_python_as_panic_exception(label: str, call: Any, expected: type[Exception]) -> None:
    try:
        call()
    except BaseException as e:  # noqa: BLE001 - the point is to see what arrives
        assert not is_panic(e), f"{label}: {type(e).__module__}.{type(e).__name__}: {e}"
        assert isinstance(e, expected), f"{label}: {type(e).__name__}: {e}, not {expected.__name__}"
    else:
        pytest.fail(f"{label}: returned instead of raising {expected.__name__}")


def test_a_finished_game_whose_last_card_is_no_card_is_refused_when_loaded() -> None:
    """A finished game whose last card is no card is refused when loaded, before any of its
    actions can be named."""
    calls = {label: call for label, call, _ in absurd_calls()}
    with pytest.raises(tw.StateFormatError, match="not a card"):
        calls["name actions of a finished game whose card is no card"]()
