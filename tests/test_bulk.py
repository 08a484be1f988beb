"""Bulk simulation with agents: specs per seat, Python agents, determinism across threads and
chunkings, summaries with intervals, the pandas frame, the figure, files, cancellation and
modified component data."""

from __future__ import annotations

import copy
import itertools
import json
import os
import random
import signal
import struct
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tradewinds as tw
from conftest import ONE_CONFIG, ONE_PER_GAME, config_id, ids
from tradewinds._core import AgentStream, derive_seed
from tradewinds._play import _play_python, play_one
from tradewinds._results import ARRAYS, BRANCHING_BINS
from tradewinds.agents import normalize_agents, parse_agent_list
from tradewinds.simulation import wilson_interval
#: A cheap MCTS, so the tests stay fast; it still searches (it is not random play).
MCTS = "mcts:iterations=4,rollout_depth=20"


def assert_same_games(a: tw.SimulationResult, b: tw.SimulationResult) -> None:
    assert a.games == b.games and a.players == b.players and a.categories == b.categories
    assert a.agents == b.agents
    for name in ARRAYS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape, name
        assert np.array_equal(x, y), name


def mixed_agents(players: int) -> list[str]:
    return [["greedy", MCTS, "random", "greedy"][p % 4] for p in range(players)]


#: The first configuration of each listed game, and shapes of the engine's test game
#: `regatta`: solo against a pace boat (an opponent that is not a seat, with tiers), five
#: seats and the pace boat, three seats and no opponent.
CONFIGURATIONS = [(c.game, c.options) for c in ONE_CONFIG if c.game in tw.GAMES] + [
    ("regatta", {"players": 1, "pace_boat": True}), ("regatta", {"players": 5, "pace_boat": True}),
    ("regatta", {"players": 3})]
CONFIGURATION_IDS = [config_id(name, options) for name, options in CONFIGURATIONS]


# ---- agent specs ---------------------------------------------------------------------------


@pytest.mark.parametrize("name,players", ONE_PER_GAME, ids=ids(ONE_PER_GAME))
def test_agents_by_seat_are_recorded_in_canonical_form(name: str, players: int) -> None:
    game = tw.load(name, players=players)
    agents = ["mcts:iterations=3"] + ["random"] * (players - 1)
    r = tw.simulate(game, 20, seed=3, threads=2, agents=agents)
    assert r.agents[0] == "mcts:iterations=3,exploration=1.4,rollout_depth=200"
    assert r.agents[1:] == ["random"] * (players - 1)
    assert "mcts:iterations=3" in r.summary() and "agent" in r.summary()
    # The default is random play by every seat, and equals asking for it.
    plain = tw.simulate(game, 300, seed=3, threads=2)
    assert plain.agents == ["random"] * players
    assert_same_games(plain, tw.simulate(game, 300, seed=3, threads=2, agents=["random"] * players))


def test_bad_agents_are_rejected_naming_the_allowed_ones(one_game: tw.Game) -> None:
    n = one_game.players
    with pytest.raises(ValueError, match=rf"seat {n - 1}.*'alphazero'.*random, greedy, mcts.*callable") as info:
        tw.simulate(one_game, 5, agents=["random"] * (n - 1) + ["alphazero"])
    # The allowed agents once, without the engine's option wording.
    assert str(info.value).count("random, greedy, mcts") == 1 and '"agents"' not in str(info.value)
    with pytest.raises(ValueError, match="iterations"):
        tw.simulate(one_game, 5, agents=["mcts:iterations=0"] * n)
    with pytest.raises(ValueError, match="unknown mcts parameter"):
        tw.simulate(one_game, 5, agents=["mcts:depth=3"] * n)
    with pytest.raises(ValueError, match=rf"{n + 1} agents for {n} seats.*random, greedy, mcts"):
        tw.simulate(one_game, 5, agents=["random"] * (n + 1))
    with pytest.raises(ValueError, match=f"{n - 1} agents for {n} seats"):
        tw.simulate(one_game, 5, agents=["random"] * (n - 1))
    with pytest.raises(TypeError, match="one agent per seat"):
        tw.simulate(one_game, 5, agents="random")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seat 0"):
        tw.simulate(one_game, 5, agents=[3] + ["random"] * (n - 1))  # type: ignore[list-item]


def test_parse_agent_list_keeps_mcts_parameters_together() -> None:
    assert parse_agent_list("random,mcts:iterations=100,exploration=2,greedy") == [
        "random", "mcts:iterations=100,exploration=2", "greedy"]
    assert parse_agent_list(" mcts , random ") == ["mcts", "random"]
    with pytest.raises(ValueError, match="without an agent"):
        parse_agent_list("iterations=3,random")
    with pytest.raises(ValueError, match="empty agent"):
        parse_agent_list("random,,greedy")
    # A bare parameter after an agent without parameters is not silently attached.
    with pytest.raises(ValueError, match="without an agent"):
        parse_agent_list("random,exploration=2")


def test_agents_change_the_games_and_search_beats_random() -> None:
    game = tw.load(tw.GAMES[0], players=2)
    random_play = tw.simulate(game, 400, seed=9, threads=2)
    greedy = tw.simulate(game, 400, seed=9, threads=2, agents=["greedy", "random"])
    assert not np.array_equal(random_play.scores, greedy.scores)
    # One-ply lookahead on the game's evaluation beats uniform random play decisively: its
    # win rate's 95% interval lies above 1/2.
    lo, _ = greedy.win_rate_interval()[0]
    assert lo > 0.5, greedy.summary()


# ---- determinism ---------------------------------------------------------------------------


def test_results_do_not_depend_on_threads_or_chunks(game: tw.Game) -> None:
    agents = mixed_agents(game.players)
    a = tw.simulate(game, 40, seed=17, threads=1, agents=agents)
    b = tw.simulate(game, 40, seed=17, threads=2, agents=agents, chunk_games=7)
    c = tw.simulate(game, 40, seed=17, threads=0, agents=agents, chunk_games=1)
    assert_same_games(a, b)
    assert_same_games(a, c)
    # They are the engine's own games: the binding's raw simulation gives the same arrays.
    raw = game.simulate(40, 17, 2, None, agents)
    for name in ARRAYS:
        assert np.array_equal(getattr(a, name), raw[name]), name
    other = tw.simulate(game, 40, seed=18, threads=2, agents=agents)
    assert not np.array_equal(a.scores, other.scores) or not np.array_equal(a.moves, other.moves)


def test_random_runs_in_memory_split_into_chunks_equal_one_call(one_game: tw.Game) -> None:
    whole = one_game.simulate(3000, 5, 2)
    for chunk in (None, 256, 1000, 5000):
        r = tw.simulate(one_game, 3000, seed=5, threads=2, chunk_games=chunk)
        for name in ARRAYS:
            assert np.array_equal(getattr(r, name), whole[name]), (chunk, name)


# ---- Python agents -------------------------------------------------------------------------

def uniform_agent(state: tw.State, player: int, rng: random.Random) -> int:
    """Plays uniformly at random, drawing only from ``rng``."""
    assert state.current_player == player and not state.is_terminal
    return rng.choice(state.legal_actions())


def name_of(state: tw.State, action: int) -> str:
    """The name of `action`, for an agent that answers by name; then the agent's copy of the
    state is changed, which must not matter."""
    name = state.action_to_string(action)
    state.apply(state.legal_actions()[-1])
    return name


def test_python_agents_are_deterministic_for_a_seed(one_game: tw.Game) -> None:
    n = one_game.players
    agents: list[tw.Agent] = ([uniform_agent, MCTS] + ["random"] * n)[:n]
    a = tw.simulate(one_game, 6, seed=21, threads=1, agents=agents)
    b = tw.simulate(one_game, 6, seed=21, threads=2, agents=agents, chunk_games=1)
    assert_same_games(a, b)
    assert a.agents[0] == "python:test_bulk.uniform_agent"
    assert n == 1 or a.agents[1].startswith("mcts:iterations=4,")
    c = tw.simulate(one_game, 6, seed=22, threads=2, agents=agents)
    assert not np.array_equal(a.moves, c.moves) or not np.array_equal(a.scores, c.scores)
    # The arrays are consistent like the engine's own.
    assert np.allclose(a.category_points.sum(axis=2), a.scores)
    assert (a.decisions > 0).all() and (a.decisions <= a.moves).all()
    # Someone wins, but for a truncated game or a solo game lost against a goal, which nobody
    # wins (engine contract 3: Mistwind's solo mode).
    assert ((a.winners.sum(axis=1) >= 1) | a.opponent_wins.any(axis=1) | a.truncated | (n == 1)).all()


def test_a_python_game_records_what_the_state_reports(one_game: tw.Game) -> None:
    # Every seat records the state it saw and its choice: the last decision, applied to its
    # state, gives the final state, whose scores, winners, lengths and score report are what
    # the result holds.
    n = one_game.players
    last: list[tuple[tw.State, int]] = []
    decisions = 0

    def recording(state: tw.State, player: int, rng: random.Random) -> int:
        nonlocal decisions
        action = rng.choice(state.legal_actions())
        last[:] = [(state.clone(), action)]
        decisions += 1
        return action

    r = tw.simulate(one_game, 1, seed=4, threads=1, agents=[recording] * n)
    final, action = last[0]
    final.apply(action)
    assert final.is_terminal
    assert r.scores[0].tolist() == final.scores()
    assert np.flatnonzero(r.winners[0]).tolist() == sorted(final.winners())
    assert r.moves[0] == final.move_number and r.decisions[0] == decisions
    assert bool(r.truncated[0]) == final.is_truncated
    report = final.score_report()
    assert r.category_points[0].tolist() == report.points
    assert r.opponent_scores[0].tolist() == [total for _, _, total in report.opponents]
    assert np.flatnonzero(r.opponent_wins[0]).tolist() == sorted(report.opponent_winners)
    assert r.tier[0] == (one_game.tiers.index(report.tier) if report.tier is not None else -1)


@pytest.mark.parametrize("name,options", CONFIGURATIONS, ids=CONFIGURATION_IDS)
def test_the_python_loop_records_games_as_the_engine_does(name: str, options: dict[str, object]) -> None:
    # Each game the Python loop plays ends in a final state (the last decision's state and
    # action, replayed) whose score report gives every array, exactly as the engine derives
    # them from its own.
    game = tw.load(name, **options)
    n = game.players
    last: list[tuple[tw.State, int]] = []
    decisions = 0

    def recording(state: tw.State, player: int, rng: random.Random) -> int:
        nonlocal decisions
        action = rng.choice(state.legal_actions())
        last[:] = [(state.clone(), action)]
        decisions += 1
        return action

    games = 3 if game.max_game_length > 1000 else 40  # a few long games, or more short ones
    python: list[tw.SimulationResult] = []
    for seed in range(games):
        decisions = 0
        r = tw.simulate(game, 1, seed=seed, threads=1, agents=[recording] * n)
        final, action = last[0]
        final.apply(action)
        assert final.is_terminal
        report = final.score_report()
        expected = {
            "scores": [final.scores()],
            "winners": [[p in final.winners() for p in range(n)]],
            "moves": [final.move_number],
            "decisions": [decisions],
            "truncated": [final.is_truncated],
            "category_points": [report.points],
            "opponent_scores": [[total for _, _, total in report.opponents]],
            "opponent_wins": [[o in report.opponent_winners for o in range(len(game.opponents))]],
            "tier": [game.tiers.index(report.tier) if report.tier is not None else -1],
            # The design metrics are the engine's to measure: the Python loop leaves them unmeasured.
            "turns": [-1], "lead_changes": [-1], "lead_from": [-1], "drama": [-1.0], "legal_moves": [0],
            "branching": [[0] * BRANCHING_BINS],
        }
        for array in ARRAYS:
            got = getattr(r, array)
            want = np.asarray(expected[array], dtype=got.dtype).reshape(got.shape)
            assert np.array_equal(got, want), (seed, array)
        python.append(r)
    # The engine's results have the same arrays, types, shapes and names.
    engine = tw.simulate(game, games, seed=0, threads=2)
    both = tw.simulate(game, games, seed=0, threads=1, agents=[uniform_agent] * n)
    for r in (*python, both):
        assert (r.categories, r.opponents, r.tiers) == (engine.categories, engine.opponents, engine.tiers)
        assert list(r.arrays) == list(engine.arrays) == list(ARRAYS)
        for array in ARRAYS:
            x, y = getattr(r, array), getattr(engine, array)
            assert x.dtype == y.dtype and x.shape[1:] == y.shape[1:], array
    if name == "regatta" and n == 1:
        for r in (engine, both):
            assert (r.winners[:, 0] ^ r.opponent_wins[:, 0]).all()
            assert np.array_equal(r.tier >= 0, r.winners[:, 0])


@pytest.mark.parametrize("name,options", CONFIGURATIONS, ids=CONFIGURATION_IDS)
def test_the_python_loop_with_built_in_agents_plays_the_engines_games(name: str, options: dict[str, object]) -> None:
    # The Python loop derives every game's seeds as the engine does (chance from the state
    # `new_state(derive_seed(seed, i))`, the built-in agents from the game's AgentStream): with
    # built-in agents in every seat it plays the engine's games move for move, and records
    # them in the same arrays.
    game = tw.load(name, **options)
    agents = mixed_agents(game.players)
    games = 2 if game.max_game_length > 1000 else 6
    python = _play_python(game, agents, 11, 3, games, None)
    engine = tw.simulate(game, games + 3, seed=11, threads=2, agents=agents)
    for array in ARRAYS:
        assert np.array_equal(python.arrays[array], getattr(engine, array)[3:]), array
    for index in (3, 3 + games - 1):
        state, decisions = play_one(game, agents, 11, index)
        assert state.history() == game.replay_game(index, 11, agents).history()
        assert decisions == engine.decisions[index]
        report, record = state.score_report(), state.score_record()
        assert record == {"points": report.points, "totals": report.totals, "winners": sorted(report.winners),
                          "opponent_totals": [total for _, _, total in report.opponents],
                          "opponent_winners": sorted(report.opponent_winners),
                          "tier": None if report.tier is None else game.tiers.index(report.tier)}
    # A Python agent in a seat leaves the deal alone: the game starts as the engine's does
    # (the chance outcomes before the first decision; regatta has none).
    mixed, _ = play_one(game, [uniform_agent, *agents[1:]], 11, 3)
    dealt = len(game.new_state(derive_seed(11, 3)).history())
    assert dealt > 0 or name == "regatta"
    assert mixed.history()[:dealt] == game.replay_game(3, 11, agents).history()[:dealt]


def test_an_agent_stream_chooses_only_where_a_seat_decides() -> None:
    # The stream of a game depends on the run's seed and the game's index alone; it refuses
    # to choose at a chance node or at the end, and refuses an agent that does not exist,
    # with the errors State.agent_action gives.
    game = tw.load("north-wind", players=3)
    assert AgentStream(1, 2).seed == AgentStream(1, 2).seed != AgentStream(1, 3).seed != AgentStream(2, 2).seed
    stream = AgentStream(1, 2)
    at_chance = game.new_state(1, explicit_chance=True)
    assert at_chance.is_chance
    with pytest.raises(tw.TradewindsError, match="no agent acts at a chance node"):
        stream.action(at_chance, "random")
    state = game.new_state(1)
    with pytest.raises(tw.OptionError, match='unknown agent "nonsense"'):
        stream.action(state, "nonsense")
    while not state.is_terminal:
        state.apply(stream.action(state, "random"))
    with pytest.raises(tw.TradewindsError, match="the game is over"):
        stream.action(state, "greedy")
    for bad in (-1, 2**64):
        with pytest.raises(ValueError, match="out of range"):
            AgentStream(bad, 0)
        with pytest.raises(ValueError, match="out of range"):
            derive_seed(0, bad)


def test_the_python_loop_plays_regatta_solo_like_the_engine() -> None:
    # Random play, by the engine and by a Python agent: over many games, the pace boat wins
    # and each tier is reached about as often (the 95% intervals overlap).
    game = tw.load("regatta", players=1, pace_boat=True)
    engine = tw.simulate(game, 3000, seed=1, threads=2)
    python = tw.simulate(game, 3000, seed=1, threads=1, agents=[uniform_agent])
    assert python.agents == ["python:test_bulk.uniform_agent"]
    for rate in ("opponent_win_rate_interval", "win_rate_interval"):
        (a_lo, a_hi), (b_lo, b_hi) = getattr(engine, rate)()[0], getattr(python, rate)()[0]
        assert a_lo <= b_hi and b_lo <= a_hi, rate
    for t in range(len(game.tiers)):
        a = wilson_interval(int((engine.tier == t).sum()), engine.games)
        b = wilson_interval(int((python.tier == t).sum()), python.games)
        assert a[0] <= b[1] and b[0] <= a[1], game.tiers[t]


def test_python_agents_may_answer_with_action_names(one_game: tw.Game) -> None:
    """An agent may answer with an action's name: the named action is the one applied (every
    later state has it in its history, at the move it was chosen), and the games are those
    of the same agent answering with the action ids."""
    n = one_game.players
    chosen: list[tuple[int, int]] = []  # (move number, action) of each answer so far

    def by_name(state: tw.State, player: int, rng: random.Random) -> str:
        history = state.history()
        for move, action in chosen:
            assert history[move] == action, f"move {move}: {history[move]} applied, {action} named"
        action = rng.choice(state.legal_actions())
        chosen.append((len(history), action))
        return name_of(state, action)

    r = tw.simulate(one_game, 1, seed=2, threads=1, agents=[by_name] * n)
    assert r.decisions[0] == len(chosen) > 0

    def named(state: tw.State, player: int, rng: random.Random) -> str:
        return name_of(state, rng.choice(state.legal_actions()))

    def numbered(state: tw.State, player: int, rng: random.Random) -> int:
        return rng.choice(state.legal_actions())

    a = tw.simulate(one_game, 3, seed=5, threads=1, agents=[named] + ["random"] * (n - 1))
    b = tw.simulate(one_game, 3, seed=5, threads=1, agents=[numbered] + ["random"] * (n - 1))
    for name in ARRAYS:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


def test_python_agent_errors_name_the_seat_and_game(one_game: tw.Game) -> None:
    n = one_game.players

    def illegal(state: tw.State, player: int, rng: random.Random) -> int:
        return one_game.num_distinct_actions + 5

    def broken(state: tw.State, player: int, rng: random.Random) -> int:
        raise ZeroDivisionError("agent bug")

    def wrong_type(state: tw.State, player: int, rng: random.Random) -> object:
        return 1.5

    with pytest.raises(tw.IllegalActionError) as info:
        tw.simulate(one_game, 3, seed=1, threads=1, agents=["random"] * (n - 1) + [illegal])
    assert any(f"seat {n - 1}" in note and "game 0" in note for note in info.value.__notes__)
    with pytest.raises(ZeroDivisionError, match="agent bug") as info2:
        tw.simulate(one_game, 3, seed=1, threads=1, agents=[broken] * n)
    assert any("seat 0" in note for note in info2.value.__notes__)
    with pytest.raises(TypeError, match="returned 1.5"):
        tw.simulate(one_game, 3, seed=1, threads=1, agents=[wrong_type] * n)  # type: ignore[list-item]


# ---- summary, frame, figure, files --------------------------------------------------------


def test_summary_reports_intervals_scores_lengths_and_agents(game: tw.Game) -> None:
    agents = mixed_agents(game.players)
    r = tw.simulate(game, 60, seed=5, threads=2, agents=agents)
    text = r.summary()
    ci = r.win_rate_interval()
    assert ci.shape == (game.players, 2)
    for p in range(game.players):
        lo, hi = wilson_interval(int(r.winners[:, p].sum()), r.games)
        assert (lo, hi) == (ci[p, 0], ci[p, 1])
        assert lo <= r.win_rate[p] <= hi
        assert f"[{lo:.4f}, {hi:.4f}]" in text
        assert f"{r.scores[:, p].mean():.2f}" in text and f"{r.scores[:, p].std():.2f}" in text
        assert r.agents[p] in text
    for needle in ("games/s", "win rate", "95% CI", "mean score", "std score", "decisions", "moves",
                   "truncated", "60 games"):
        assert needle in text, needle
    assert "agents=" in repr(r)


def test_win_rate_interval_of_no_games(one_game: tw.Game) -> None:
    r = tw.simulate(one_game, 0, seed=1, agents=[MCTS] * one_game.players)
    assert np.isnan(r.win_rate_interval()).all()
    assert "no games" in r.summary() and MCTS.split(",")[0] in r.summary()


def test_tidy_pandas_frame(game: tw.Game) -> None:
    pd = pytest.importorskip("pandas")
    agents = mixed_agents(game.players)
    r = tw.simulate(game, 25, seed=8, threads=2, agents=agents)
    df = r.to_pandas()
    assert isinstance(df, pd.DataFrame)
    extra = 2 * len(r.opponents) + (1 if r.tiers else 0)
    assert df.shape == (25 * game.players, 8 + len(r.categories) + extra)
    assert list(df.columns[:5]) == ["game", "seat", "agent", "score", "win"]
    assert list(df.columns[-3:]) == ["moves", "decisions", "truncated"]
    assert (df.groupby("game").size() == game.players).all()
    for p in range(game.players):
        rows = df[df["seat"] == p]
        assert rows["game"].tolist() == list(range(25))
        assert np.array_equal(rows["score"].to_numpy(), r.scores[:, p])
        assert np.array_equal(rows["win"].to_numpy(), r.winners[:, p])
        assert (rows["agent"] == r.agents[p]).all()
        for c, name in enumerate(r.categories):
            column = name if name in df.columns else f"points: {name}"
            assert np.array_equal(rows[column].to_numpy(), r.category_points[:, p, c])
        assert np.array_equal(rows["moves"].to_numpy(), r.moves)
    # Win rates by agent come out of a groupby.
    rate = df.groupby("seat")["win"].mean().to_numpy()
    assert np.allclose(rate, r.win_rate)


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_plot_writes_a_png(one_game: tw.Game, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    r = tw.simulate(one_game, 200, seed=3, threads=2, agents=["greedy"] + ["random"] * (one_game.players - 1))
    path = r.plot(tmp_path / "run.png")
    assert path == tmp_path / "run.png"
    width, height = _png_size(path)
    assert width > 600 and height > 300
    empty = tw.simulate(one_game, 0).plot(tmp_path / "empty.png", title="nothing")
    assert _png_size(empty)[0] > 0


def test_plot_of_a_solo_game_shows_its_opponent(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    r = tw.simulate(tw.load("regatta", players=1, pace_boat=True), 300, seed=3, threads=2)
    width, height = _png_size(r.plot(tmp_path / "solo.png"))
    assert width > 600 and height > 300


def test_the_solo_figures_draw_no_even_share() -> None:
    # A solo seat's win is reaching its goal: no "1/N" line, with or without an opponent that
    # is not a seat (Regatta's pace boat; Norsewind's Vikings); several seats keep their even share.
    pytest.importorskip("matplotlib")

    def dashed(fig: Any) -> list[Any]:
        return [line for ax in fig.axes for line in ax.get_lines() if line.get_linestyle() == "--"]

    for game in (tw.load("regatta", players=1, pace_boat=True), tw.load("norsewind", players=1)):
        fig = tw.simulate(game, 20, seed=1).figure()
        assert dashed(fig) == [] and "the goal reached" in fig.axes[0].get_ylabel()
    assert len(dashed(tw.simulate("regatta", 40, seed=1, players=2).figure())) == 1
    solo = tw.tournament("regatta", ["random", "greedy"], games=10, players=1, pace_boat=True, seed=2)
    assert dashed(solo.figure()) == []


def test_plot_writes_the_format_its_extension_names(one_game: tw.Game, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from tradewinds.simulation import plot_formats

    r = tw.simulate(one_game, 20, seed=3, threads=1)
    magic = {"png": b"\x89PNG", "svg": b"<?xml", "pdf": b"%PDF", "jpg": b"\xff\xd8\xff", "jpeg": b"\xff\xd8\xff",
             "eps": b"%!PS", "ps": b"%!PS", "tif": b"II*\x00", "tiff": b"II*\x00", "gif": b"GIF8",
             "webp": b"RIFF", "svgz": b"\x1f\x8b"}
    formats = plot_formats()
    assert {"png", "svg", "pdf", "jpg"} <= set(formats) and "pgf" not in formats
    for fmt in formats:  # every format it offers, it writes
        path = r.plot(tmp_path / f"run.{fmt}")
        assert path.stat().st_size > 0, fmt
        if fmt in magic:
            assert path.read_bytes().startswith(magic[fmt]), fmt
    assert r.plot(tmp_path / "no-extension").read_bytes().startswith(b"\x89PNG")
    assert r.plot(tmp_path / "UPPER.SVG").read_bytes().startswith(b"<?xml")
    with pytest.raises(ValueError, match=r"cannot write a figure as \.docx .*\.png"):
        r.plot(tmp_path / "run.docx")
    assert not (tmp_path / "run.docx").exists()


def _drawn_tick_labels(axis: Any) -> list[Any]:
    """The labels of the axis's major ticks that lie within its view limits (those drawn)."""
    lo, hi = sorted(axis.get_view_interval())
    return [label for loc, label in zip(axis.get_ticklocs(), axis.get_ticklabels()) if lo <= loc <= hi]


def _text_boxes(fig: Any) -> tuple[list[Any], list[Any]]:
    """The drawn window extents of the figure's titles, and of every other text in it."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    titles = [fig._suptitle] + [ax.title for ax in fig.axes]
    others = [t for ax in fig.axes for t in ax.texts]
    # Tick labels of ticks outside the view limits are not drawn (a locator may place one past
    # the top of the axes, where the figure's title is).
    others += [label for ax in fig.axes for axis in (ax.xaxis, ax.yaxis) for label in _drawn_tick_labels(axis)]
    others += [t for ax in fig.axes if ax.get_legend() is not None for t in ax.get_legend().get_texts()]
    visible = [t for t in others if t.get_visible() and t.get_text()]
    return [t.get_window_extent(renderer) for t in titles], [t.get_window_extent(renderer) for t in visible]


def test_plot_labels_never_overlap_a_title(one_game: tw.Game) -> None:
    pytest.importorskip("matplotlib")
    base = tw.simulate(one_game, 60, seed=3, threads=1)
    # The worst case: seat 0 wins every game, so its interval reaches 1 and its value is
    # printed at the top of the axes; and the opposite, seat 0 wins none.
    for winner in (True, False):
        winners = np.zeros_like(base.winners)
        winners[:, 0] = winner
        if not winner and one_game.players > 1:
            winners[:, 1] = True
        r = tw.SimulationResult(game=base.game, players=base.players, games=base.games, seed=base.seed,
                                threads=base.threads, elapsed_seconds=base.elapsed_seconds,
                                categories=base.categories, opponents=base.opponents, tiers=base.tiers,
                                options=base.options, agents=base.agents, arrays={**base.arrays, "winners": winners})
        titles, texts = _text_boxes(r.figure())
        for title in titles:
            for text in texts:
                assert not title.overlaps(text), (title, text)


def test_save_and_load_keep_the_agents(one_game: tw.Game, tmp_path: Path) -> None:
    agents = mixed_agents(one_game.players)
    r = tw.simulate(one_game, 30, seed=8, threads=2, agents=agents)
    back = tw.SimulationResult.load(r.save(tmp_path / "run.npz"))
    assert_same_games(r, back)
    assert back.agents == r.agents and back.summary() == r.summary()
    # A file saved before results recorded agents loads as random play.
    with np.load(tmp_path / "run.npz") as z:
        meta = json.loads(str(z["meta"]))
        arrays = {k: z[k] for k in ARRAYS}
    del meta["agents"]
    np.savez_compressed(tmp_path / "old.npz", meta=np.array(json.dumps(meta)), **arrays)
    assert tw.SimulationResult.load(tmp_path / "old.npz").agents == ["random"] * one_game.players


# ---- validation and cancellation ----------------------------------------------------------


def test_argument_errors(one_game: tw.Game, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown backend 'spark'.*local, dask"):
        tw.simulate(one_game, 5, backend="spark")
    with pytest.raises(ValueError, match="client= is for backend='dask'"):
        tw.simulate(one_game, 5, client=object())
    with pytest.raises(ValueError, match="resume=True needs out"):
        tw.simulate(one_game, 5, resume=True)
    with pytest.raises(ValueError, match="chunk_games"):
        tw.simulate(one_game, 5, chunk_games=0)
    with pytest.raises(ValueError, match=r"2\*\*64 - 1"):
        tw.simulate(one_game, 5, seed=-1)
    with pytest.raises(ValueError, match=r"2\*\*64 - 1"):
        tw.simulate(one_game, 5, seed=2**64)
    assert tw.simulate(one_game, 3, seed=2**64 - 1).seed == 2**64 - 1


def test_progress_returning_false_stops_the_run(one_game: tw.Game) -> None:
    seen: list[int] = []

    def stop_at_once(n: int) -> bool:
        seen.append(n)
        return False

    with pytest.raises(KeyboardInterrupt):
        tw.simulate(one_game, 100_000, seed=1, threads=2, progress=stop_at_once)
    assert sum(seen) < 100_000
    with pytest.raises(KeyboardInterrupt):
        tw.simulate(one_game, 50, seed=1, threads=2, progress=stop_at_once,
                    agents=[uniform_agent] * one_game.players)


def test_the_error_that_stopped_a_run_is_the_one_raised(one_game: tw.Game) -> None:
    # Chunks run concurrently; when one fails, the others are cancelled. The caller gets the
    # failure, never the cancellation of the others (which once raced it to the caller).
    def raising(n: int) -> None:
        raise ZeroDivisionError("from the callback")

    calls = itertools.count()

    def failing_late(state: tw.State, player: int, rng: random.Random) -> int:
        # Some decisions into the run (games are short in some games: count the calls).
        if next(calls) > 12:
            raise LookupError("agent failure")
        return rng.choice(state.legal_actions())

    for attempt in range(15):
        with pytest.raises(ZeroDivisionError, match="from the callback"):
            tw.simulate(one_game, 4000, seed=attempt, threads=2, chunk_games=256, progress=raising)
    for attempt in range(5):
        calls = itertools.count()
        with pytest.raises(LookupError, match="agent failure"):
            tw.simulate(one_game, 8, seed=attempt, threads=2, chunk_games=1,
                        agents=[failing_late] + ["random"] * (one_game.players - 1))


@pytest.mark.skipif(os.name != "posix" or threading.current_thread() is not threading.main_thread(),
                    reason="needs POSIX signals delivered to the main thread")
@pytest.mark.parametrize("entry", ["tw.simulate", "Game.simulate"])
def test_ctrl_c_stops_a_run_in_process(one_game: tw.Game, entry: str) -> None:
    # SIGINT while a large run is under way: KeyboardInterrupt comes back promptly, both from
    # the Python API (which runs chunks on worker threads) and from the binding called straight
    # from the main thread (which waits for the Rust threads and runs the signal handlers).
    # (Python's own handler is installed for the test: a process started in the background
    # may have inherited SIGINT as ignored.)
    started = threading.Event()
    sent = threading.Event()
    after = [0]

    def progress(n: int) -> bool:
        started.set()
        if sent.is_set():
            after[0] += n
            if after[0] > 500_000:
                return False  # the signal went astray: stop the run anyway, and fail below
        return True

    def interrupt() -> None:
        started.wait(60)
        sent.set()
        os.kill(os.getpid(), signal.SIGINT)

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Thread(target=interrupt, daemon=True).start()
        with pytest.raises(KeyboardInterrupt):
            if entry == "tw.simulate":
                tw.simulate(one_game, 10_000_000, seed=1, threads=2, progress=progress)
            else:
                one_game.simulate(10_000_000, 1, 2, progress)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert started.is_set() and sent.is_set()
    assert after[0] <= 500_000, "the run went on after Ctrl-C"


# ---- modified component data ---------------------------------------------------------------


def _int_values(node: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """The paths of the integer ``value`` fields of a component data file."""
    out: list[tuple[object, ...]] = []
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "value" and isinstance(v, int) and not isinstance(v, bool):
                out.append(path + (k,))
            else:
                out.extend(_int_values(v, path + (k,)))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.extend(_int_values(v, path + (i,)))
    return out


def _set(node: object, path: tuple[object, ...], value: int) -> None:
    for key in path[:-1]:
        node = node[key]  # type: ignore[index]
    node[path[-1]] = value  # type: ignore[index]


def test_a_game_with_modified_data_simulates_as_its_own_game(tmp_path: Path) -> None:
    # For every game: the first number of its component data that can be raised by one
    # (some are fixed by the rules, and the data validation says so) gives a variant game.
    for name in tw.GAMES:
        data = json.loads(tw.data_path(name).read_text(encoding="utf-8"))
        shipped = tw.load(name)
        a = tw.simulate(shipped, 300, seed=6, threads=2)
        for path in _int_values(data):
            variant_data = copy.deepcopy(data)
            old = variant_data
            for key in path:
                old = old[key]
            _set(variant_data, path, int(old) + 1)  # type: ignore[call-overload]
            try:
                variant = tw.load(name, data=variant_data)
            except tw.DataFileError:
                continue
            b = tw.simulate(variant, 300, seed=6, threads=2)
            if np.array_equal(a.scores, b.scores) and np.array_equal(a.moves, b.moves):
                continue  # a number these games never reach
            break
        else:
            pytest.fail(f"no component number of {name} changes its games")
        assert variant != shipped and "data" in variant.options and b.options == variant.options
        # The same data, as a file, gives the same games, on any number of threads.
        file = tmp_path / f"{name}-variant.json"
        file.write_text(json.dumps(variant_data), encoding="utf-8")
        again = tw.simulate(tw.load(name, data=str(file)), 300, seed=6, threads=1)
        assert_same_games(b, again)


def test_normalize_agents_accepts_callables_and_specs(one_game: tw.Game) -> None:
    n = one_game.players
    out = normalize_agents(one_game, [uniform_agent] + [" greedy "] * (n - 1))
    assert out[0] is uniform_agent and out[1:] == ["greedy"] * (n - 1)
    assert normalize_agents(one_game, None) == ["random"] * n
