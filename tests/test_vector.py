"""`tw.VectorGame`, batched stepping, over every configuration of every registered game: each
game of a batch plays exactly the game a single `State` plays from its seed; outputs are bit
for bit the same whatever the thread count; an illegal action or a bad input anywhere raises a
typed error and changes no game; built-in agents play their seats inside the call; explicit
chance; restarts and seeds; the arrays are the VectorGame's own, rewritten in place."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import tradewinds as tw
from conftest import raises


def random_legal(vg: tw.VectorGame, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """A uniformly random legal action of every game (an outcome drawn with its probability at
    an explicit chance node; -1 where nothing can be played)."""
    mask = vg.legal_action_mask()
    actions = (rng.random(mask.shape) * mask).argmax(axis=1)
    actions[~mask.any(axis=1)] = -1
    if vg.explicit_chance:
        chance = vg.chance_outcomes()
        at_chance = np.flatnonzero(vg.current_player == tw.CHANCE)
        for i in at_chance:
            actions[i] = rng.choice(len(chance[i]), p=chance[i])
    return actions.astype(np.int64)


class Snapshot:
    """Copies of every array and every game's saved state, to check that nothing changed."""

    def __init__(self, vg: tw.VectorGame) -> None:
        self.vg = vg
        self.arrays = self._arrays()
        self.states = [vg.state(i).to_json() for i in range(len(vg))]
        self.episode = vg.episode.copy()

    def _arrays(self) -> list[np.ndarray[Any, Any]]:
        vg = self.vg
        out = [vg.current_player, vg.legal_action_mask(), vg.returns, vg.terminated, vg.truncated]
        if vg.explicit_chance:
            out.append(vg.chance_outcomes())
        return [a.copy() for a in out]

    def assert_unchanged(self) -> None:
        for before, now in zip(self.arrays, self._arrays()):
            assert before.dtype == now.dtype and np.array_equal(before, now)
        assert [self.vg.state(i).to_json() for i in range(len(self.vg))] == self.states
        assert np.array_equal(self.vg.episode, self.episode)


def test_every_game_of_a_batch_plays_the_game_a_state_plays_from_its_seed(game: tw.Game) -> None:
    n = 4
    vg = tw.VectorGame(game, n, seed=12)
    assert (len(vg), vg.num_games, vg.players, vg.seats, vg.agents) == (n, n, game.players, list(range(game.players)), {})
    singles = [game.new_state(vg.game_seed(i)) for i in range(n)]
    episodes = [0] * n
    rng = np.random.default_rng(3)
    finished = 0
    for _ in range(5_000):
        if finished >= n:
            break
        mask = vg.legal_action_mask()
        observations = vg.observation_tensor()
        assert observations.shape == (n, *game.observation_tensor_shape) and observations.dtype == np.float32
        for i, s in enumerate(singles):
            assert vg.current_player[i] == s.current_player
            assert np.array_equal(mask[i], s.legal_action_mask())
            assert np.array_equal(observations[i], s.observation_tensor(s.current_player))
        actions = random_legal(vg, rng)
        out = vg.step(actions)
        done = out.terminated | out.truncated
        assert np.array_equal(out.finished, np.flatnonzero(done))
        finished += len(out.finished)
        for i, s in enumerate(singles):
            s.apply(int(actions[i]))
            assert bool(done[i]) == s.is_terminal
            if done[i]:
                assert list(out.returns[i]) == s.returns()
                assert bool(out.truncated[i]) == s.is_truncated
                episodes[i] += 1
                assert vg.game_seed(i) == vg.game_seed(i, episodes[i])
                singles[i] = game.new_state(vg.game_seed(i))
            else:
                assert not out.returns[i].any()
        assert list(vg.episode) == episodes
    assert finished >= n


def _trace(vg: tw.VectorGame, steps: int) -> list[bytes]:
    rng = np.random.default_rng(5)
    out = []
    for _ in range(steps):
        vg.step(random_legal(vg, rng))
        arrays = [vg.current_player, vg.legal_action_mask(), vg.returns, vg.terminated, vg.truncated,
                  vg.observation_tensor(), vg.observation_tensor(0), vg.episode]
        if vg.explicit_chance:
            arrays.append(vg.chance_outcomes())
        out.extend(a.tobytes() for a in arrays)
    return out


@pytest.mark.parametrize("explicit_chance", [False, True], ids=["chance-inside", "explicit-chance"])
def test_outputs_are_bit_identical_whatever_the_thread_count(one_game: tw.Game, explicit_chance: bool) -> None:
    agents: dict[int, str] = {p: "random" for p in range(1, one_game.players)}
    for agent_seats in ({}, agents):
        runs = [_trace(tw.VectorGame(one_game, 300, seed=9, agents=agent_seats, explicit_chance=explicit_chance,
                                     threads=threads), 25)
                for threads in (1, 2, 0)]
        assert runs[0] == runs[1] == runs[2]


def test_a_game_depends_on_its_index_not_on_the_games_beside_it(one_game: tw.Game) -> None:
    small, large = tw.VectorGame(one_game, 2, seed=4), tw.VectorGame(one_game, 7, seed=4)
    rng = np.random.default_rng(1)
    for _ in range(200):
        actions = random_legal(small, rng)
        small.step(actions)
        large.step(np.concatenate([actions, random_legal(large, rng)[2:]]))
        assert [small.state(i) for i in range(2)] == [large.state(i) for i in range(2)]
        assert np.array_equal(small.returns, large.returns[:2])
    assert small.game_seed(1, 3) == large.game_seed(1, 3) != large.game_seed(1, 4)


def test_an_illegal_action_in_any_game_raises_naming_it_and_changes_no_game(game: tw.Game) -> None:
    vg = tw.VectorGame(game, 5, seed=2)
    rng = np.random.default_rng(2)
    for _ in range(7):
        vg.step(random_legal(vg, rng))
    before = Snapshot(vg)
    legal = random_legal(vg, rng)
    mask = vg.legal_action_mask()
    for index in (4, 0, 2):
        free = [a for a in range(game.num_distinct_actions + 1) if a >= game.num_distinct_actions or not mask[index, a]]
        for bad in (free[0], -2, 2**40):
            actions = legal.copy()
            actions[index] = bad
            raises(tw.IllegalActionError, lambda: vg.step(actions), f"game {index}:")
            before.assert_unchanged()
    # Two illegal actions: the first game is named.
    actions = legal.copy()
    actions[1] = actions[3] = -5
    raises(tw.IllegalActionError, lambda: vg.step(actions), "game 1:")
    before.assert_unchanged()


def test_bad_inputs_give_typed_errors_and_change_no_game(one_game: tw.Game) -> None:
    vg = tw.VectorGame(one_game, 3, seed=1)
    before = Snapshot(vg)
    legal = random_legal(vg, np.random.default_rng(0))
    raises(tw.TradewindsError, lambda: vg.step(legal[:2]), "shape (3,)", "(2,)")
    raises(tw.TradewindsError, lambda: vg.step(legal.reshape(3, 1)), "shape (3,)")
    raises(tw.TradewindsError, lambda: vg.step(int(legal[0])), "shape (3,)")
    raises(TypeError, lambda: vg.step(legal.astype(np.float32)), "integers", "float32")
    raises(TypeError, lambda: vg.step(np.ones(3, bool)), "integers")
    raises(TypeError, lambda: vg.step(["a", "b", "c"]), "integers")
    players = one_game.players
    raises(ValueError, lambda: vg.observation_tensor(players), "player", "out of range")
    raises(ValueError, lambda: vg.observation_tensor(-1), "out of range")
    raises(tw.TradewindsError, lambda: vg.observation_tensor(out=np.zeros((2, 1), np.float32)), "shape")
    raises(TypeError, lambda: vg.observation_tensor(out=np.zeros(vg.observation_tensor().shape)))
    raises(tw.TradewindsError, lambda: vg.state(3), "out of range")
    raises(tw.TradewindsError, lambda: vg.reset(games=[3]), "out of range")
    raises(tw.TradewindsError, lambda: vg.reset(games=np.ones(2, bool)), "shape (3,)")
    raises(tw.TradewindsError, lambda: vg.reset(seed=1, games=[0]), "one or the other")
    raises(TypeError, lambda: vg.reset(games=[0.5]), "indices")
    before.assert_unchanged()
    # A list of ints and any integer dtype (either byte order) are actions too; values past
    # int64 are illegal, never wrapped around to -1.
    vg.step(legal.tolist())
    for dtype in (np.uint8, np.int16, np.int32, np.uint32, np.uint64, ">i8", ">u4", ">u8"):
        vg.step(random_legal(vg, np.random.default_rng(1)).astype(dtype))
    for dtype in (np.uint64, ">u8"):
        huge = np.full(3, 2**64 - 1, dtype=dtype)
        before = Snapshot(vg)
        raises(tw.IllegalActionError, lambda: vg.step(huge), "game 0:", "not an action id")
        before.assert_unchanged()


def test_bad_construction_arguments_give_typed_errors(one_game: tw.Game) -> None:
    players = one_game.players
    name = one_game.name
    # The bound broken is the one named: 0 and -1 are told the least count, not a range that
    # holds 0.
    raises(ValueError, lambda: tw.VectorGame(one_game, 0), "num_games must be at least 1, got 0")
    raises(ValueError, lambda: tw.VectorGame(one_game, -1), "num_games must be at least 1, got -1")
    raises(ValueError, lambda: tw.VectorGame(one_game, 2**70), "num_games must be at most 16777216, got 1180591620717411303424")
    raises(ValueError, lambda: tw.VectorGame(one_game, 2**200), "num_games must be at most 16777216, got a number larger than any count")
    raises(tw.OptionError, lambda: tw.VectorGame(one_game, 2, players=2), "configured")
    raises(tw.OptionError, lambda: tw.VectorGame("no-such-game", 2), "unknown game")
    raises(TypeError, lambda: tw.VectorGame(3, 2), "game")  # type: ignore[arg-type]
    raises(ValueError, lambda: tw.VectorGame(one_game, 2, agents={players: "random"}), "out of range")
    raises(ValueError, lambda: tw.VectorGame(one_game, 2, agents={-1: "random"}), "out of range")
    raises(tw.OptionError, lambda: tw.VectorGame(one_game, 2, agents=["random"] * (players + 1)), "one per seat")
    raises(tw.OptionError, lambda: tw.VectorGame(one_game, 2, agents=["random"] * players), "caller")
    raises(tw.OptionError, lambda: tw.VectorGame(one_game, 2, agents={0: "alphazero"}), "unknown agent")
    raises(TypeError, lambda: tw.VectorGame(one_game, 2, agents="random"), "agents")  # type: ignore[arg-type]
    raises(ValueError, lambda: tw.VectorGame(one_game, 2, threads=-1), "threads")
    raises(ValueError, lambda: tw.VectorGame(one_game, 2, seed=-1), "seed")
    raises(tw.OptionError, lambda: tw.VectorGame(name, 2, no_such_option=1), "no_such_option")
    assert tw.VectorGame(name, 2, **one_game.options).game == one_game


def test_agents_play_their_seats_inside_the_step(game: tw.Game) -> None:
    seat = game.players - 1
    others = {p: ("greedy" if p % 2 else "random") for p in range(game.players) if p != seat}
    vg = tw.VectorGame(game, 6, seed=3, agents=others)
    assert vg.seats == [seat] and vg.agents == others
    listed = tw.VectorGame(game, 6, seed=3, agents=[others.get(p) for p in range(game.players)])
    rng = np.random.default_rng(4)
    finished = 0
    for _ in range(3_000):
        if finished:
            break
        assert (vg.current_player == seat).all()
        assert np.array_equal(vg.current_player, listed.current_player)
        actions = random_legal(vg, rng)
        out = vg.step(actions)
        finished += len(out.finished)
        listed.step(actions)
        assert np.array_equal(vg.returns, listed.returns)
        assert ((out.returns >= game.min_return) & (out.returns <= game.max_return)).all()
    assert finished > 0


def test_explicit_chance_leaves_chance_nodes_to_the_caller(one_game: tw.Game) -> None:
    raises(tw.TradewindsError, lambda: tw.VectorGame(one_game, 2).chance_outcomes(), "explicit_chance=True")
    vg = tw.VectorGame(one_game, 6, seed=5, explicit_chance=True)
    chance = vg.chance_outcomes()
    assert chance.shape == (6, one_game.max_chance_outcomes) and chance.dtype == np.float64
    rng = np.random.default_rng(6)
    seen = 0
    for _ in range(300):
        at_chance = vg.current_player == tw.CHANCE
        seen += int(at_chance.sum())
        assert np.allclose(chance[at_chance].sum(axis=1), 1.0)
        assert not chance[~at_chance].any()
        assert not vg.legal_action_mask()[at_chance].any()
        vg.step(random_legal(vg, rng))
    assert seen > 0


def test_without_auto_reset_a_finished_game_waits_for_a_reset(one_game: tw.Game) -> None:
    vg = tw.VectorGame(one_game, 3, seed=8, auto_reset=False)
    rng = np.random.default_rng(7)
    for _ in range(20_000):
        if (vg.current_player == tw.TERMINAL).any():
            break
        vg.step(random_legal(vg, rng))
    over = int(np.flatnonzero(vg.current_player == tw.TERMINAL)[0])
    assert not vg.legal_action_mask()[over].any()
    actions = random_legal(vg, rng)
    assert actions[over] == -1
    assert over not in vg.step(actions).finished
    assert vg.current_player[over] == tw.TERMINAL
    actions = random_legal(vg, rng)
    actions[over] = 0
    raises(tw.IllegalActionError, lambda: vg.step(actions), f"game {over}:", "over")
    vg.reset(games=[over])
    assert vg.episode[over] == 1 and vg.current_player[over] >= 0
    flags = np.zeros(3, bool)
    flags[over] = True
    vg.reset(games=flags)
    assert vg.episode[over] == 2
    # reset(seed) starts every game over: the arrays of a new VectorGame with that seed.
    vg.reset(seed=8)
    fresh = tw.VectorGame(one_game, 3, seed=8, auto_reset=False)
    assert list(vg.episode) == [0, 0, 0] and vg.seed == 8
    assert np.array_equal(vg.legal_action_mask(), fresh.legal_action_mask())
    assert [vg.state(i) for i in range(3)] == [fresh.state(i) for i in range(3)]
    vg.reset()
    assert list(vg.episode) == [1, 1, 1]


def test_arrays_are_the_vector_games_own_and_rewritten_in_place(one_game: tw.Game) -> None:
    vg = tw.VectorGame(one_game, 4, seed=1)
    mask, player, returns = vg.legal_action_mask(), vg.current_player, vg.returns
    obs = vg.observation_tensor()
    seat0 = vg.observation_tensor(0)
    assert obs is not seat0 and vg.observation_tensor() is obs and vg.observation_tensor(0) is seat0
    assert mask.dtype == np.bool_ and player.dtype == np.int32 and returns.dtype == np.float64
    assert mask.flags.c_contiguous and mask.flags.writeable
    rng = np.random.default_rng(0)
    history = []
    for _ in range(30):
        out = vg.step(random_legal(vg, rng))
        assert vg.legal_action_mask() is mask and vg.current_player is player and out.returns is vg.returns
        assert vg.observation_tensor() is obs
        history.append(obs.copy())
    assert any(not np.array_equal(history[0], h) for h in history)
    # Writing into them changes no game, and the next call rewrites them.
    saved = [vg.state(i).to_json() for i in range(4)]
    truth = mask.copy()
    mask[:] = ~mask
    player[:] = 99
    assert [vg.state(i).to_json() for i in range(4)] == saved
    vg.step(np.full(4, -1))
    assert np.array_equal(mask, truth) and (player != 99).all()
    # Views made once (numpy's, or any DLPack consumer's) see every later call without a copy.
    imported = np.from_dlpack(vg.observation_tensor())
    view = np.asarray(vg.legal_action_mask())
    assert np.shares_memory(imported, obs) and np.shares_memory(view, mask)
    vg.step(random_legal(vg, rng))
    assert np.array_equal(imported, vg.observation_tensor()) and np.array_equal(view, vg.legal_action_mask())
    # out=: the caller's array, returned itself.
    mine = np.empty(obs.shape, np.float32)
    assert vg.observation_tensor(out=mine) is mine
    assert np.array_equal(mine, vg.observation_tensor())


def test_state_is_a_copy_that_draws_the_games_chance(one_game: tw.Game) -> None:
    vg = tw.VectorGame(one_game, 2, seed=3)
    rng = np.random.default_rng(2)
    for _ in range(5):
        vg.step(random_legal(vg, rng))
    copy = vg.state(1)
    assert copy.history() == [] and copy.game == one_game
    actions = random_legal(vg, rng)
    copy.apply(int(actions[1]))
    assert vg.state(1) != copy
    vg.step(actions)
    if vg.episode[1] == 0:  # (a game that ended has started its next episode)
        # The same table (the copy's history holds one more move).
        now = vg.state(1)
        assert now.render() == copy.render() and now.legal_actions() == copy.legal_actions()


def test_repr_and_properties(one_game: tw.Game) -> None:
    vg = tw.VectorGame(one_game.name, 3, seed=2**64 - 1, threads=1, **one_game.options)
    assert vg.seed == 2**64 - 1 and vg.threads == 1 and vg.auto_reset and not vg.explicit_chance
    assert one_game.name in repr(vg) and "num_games=3" in repr(vg)
    step = vg.step(random_legal(vg, np.random.default_rng(0)))
    assert isinstance(step, tw.VectorStep) and "finished=" in repr(step)
    assert step.finished.dtype == np.int64


# ----- the legal actions as lists (legal="actions" / "both") ----------------------------------


def random_listed(vg: tw.VectorGame, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """A uniformly random legal action of every game read from the lists, with no Python loop
    over the games (the recipe of docs/embedding.md); -1 where no seat acts."""
    offsets, legal = vg.legal_actions()
    counts = offsets[1:] - offsets[:-1]
    pick = offsets[:-1] + (rng.random(len(counts)) * counts).astype(np.int64)
    actions = np.full(len(counts), -1, dtype=np.int64)
    acting = counts > 0
    actions[acting] = legal[pick[acting]]
    return actions


def assert_lists_match_the_mask(vg: tw.VectorGame) -> None:
    offsets, legal = vg.legal_actions()
    mask = vg.legal_action_mask()
    assert offsets.dtype == np.int64 and legal.dtype == np.int32
    assert offsets.shape == (len(vg) + 1,) and offsets[0] == 0 and len(legal) == offsets[-1]
    assert np.array_equal(offsets[1:] - offsets[:-1], mask.sum(axis=1))
    assert np.array_equal(legal, np.nonzero(mask)[1])  # row by row, increasing ids


def test_action_lists_are_the_masks_legal_actions_over_random_steps(game: tw.Game) -> None:
    both = tw.VectorGame(game, 8, seed=21, legal="both")
    lists = tw.VectorGame(game, 8, seed=21, legal="actions")
    assert (both.legal, lists.legal, tw.VectorGame(game, 1).legal) == ("both", "actions", "mask")
    rng = np.random.default_rng(8)
    for step in range(60):
        assert_lists_match_the_mask(both)
        offsets, legal = lists.legal_actions()
        assert np.array_equal(offsets, both.legal_actions()[0]) and np.array_equal(legal, both.legal_actions()[1])
        actions = random_listed(both, rng) if step % 2 else random_legal(both, rng)
        assert (actions >= 0).all()
        out = both.step(actions)
        assert np.array_equal(out.finished, lists.step(actions).finished)
        assert np.array_equal(both.current_player, lists.current_player)


def test_action_lists_at_chance_nodes_ends_and_with_agents(one_game: tw.Game) -> None:
    raises(tw.TradewindsError, lambda: tw.VectorGame(one_game, 2).legal_actions(), 'legal="actions"')
    raises(tw.TradewindsError, lambda: tw.VectorGame(one_game, 2, legal="actions").legal_action_mask(), "no mask")
    raises(tw.OptionError, lambda: tw.VectorGame(one_game, 2, legal="list"), "legal", '"both"')
    raises(TypeError, lambda: tw.VectorGame(one_game, 2, legal=True))  # type: ignore[arg-type]
    rng = np.random.default_rng(9)
    # Explicit chance: no actions listed at a chance node.
    vg = tw.VectorGame(one_game, 6, seed=5, explicit_chance=True, legal="both")
    seen = 0
    for _ in range(200):
        assert_lists_match_the_mask(vg)
        offsets, _ = vg.legal_actions()
        at_chance = vg.current_player == tw.CHANCE
        seen += int(at_chance.sum())
        assert (offsets[1:][at_chance] == offsets[:-1][at_chance]).all()
        vg.step(random_legal(vg, rng))
    assert seen > 0
    # Without auto-reset: none at a game's end.
    vg = tw.VectorGame(one_game, 3, seed=8, auto_reset=False, legal="both")
    for _ in range(20_000):
        if (vg.current_player == tw.TERMINAL).any():
            break
        assert_lists_match_the_mask(vg)
        vg.step(random_listed(vg, rng))
    assert_lists_match_the_mask(vg)
    over = int(np.flatnonzero(vg.current_player == tw.TERMINAL)[0])
    offsets, _ = vg.legal_actions()
    assert offsets[over] == offsets[over + 1] and random_listed(vg, rng)[over] == -1
    vg.reset(games=[over])
    assert_lists_match_the_mask(vg)
    # Agents on every other seat: the lists are the caller's seat's.
    seat = one_game.players - 1
    others = {p: "random" for p in range(one_game.players) if p != seat}
    vg = tw.VectorGame(one_game, 6, seed=3, agents=others, legal="both")
    for _ in range(200):
        assert (vg.current_player == seat).all()
        assert_lists_match_the_mask(vg)
        vg.step(random_listed(vg, rng))


def test_action_lists_are_bit_identical_whatever_the_thread_count(one_game: tw.Game) -> None:
    def trace(threads: int) -> list[bytes]:
        vg = tw.VectorGame(one_game, 300, seed=4, threads=threads, legal="actions")
        rng = np.random.default_rng(3)
        out = []
        for _ in range(25):
            vg.step(random_listed(vg, rng))
            out.extend(a.tobytes() for a in (*vg.legal_actions(), vg.current_player, vg.returns))
        return out

    assert trace(1) == trace(2) == trace(0)


def test_action_lists_are_the_vector_games_own_arrays(one_game: tw.Game) -> None:
    vg = tw.VectorGame(one_game, 4, seed=1, legal="actions")
    offsets, legal = vg.legal_actions()
    assert offsets.flags.c_contiguous and legal.flags.c_contiguous
    vg.step(random_listed(vg, np.random.default_rng(0)))
    again, listed = vg.legal_actions()
    assert again is offsets and np.shares_memory(listed, legal)
    # Writing into them changes no game; the next call rewrites them.
    truth = listed.copy()
    listed[:] = -7
    vg.step(np.full(4, -1))
    assert np.array_equal(vg.legal_actions()[1], truth)
