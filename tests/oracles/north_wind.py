"""North Wind in plain Python: a line-by-line twin of the Rust engine (`src/games/north_wind/`).

It is not a second reading of the rulebook. It follows the engine step by step: the same
state layout, the same action ids, the same order of legal actions, the same seeded chance
stream, and the engine's rulings (`docs/games/north-wind.md`) made as the engine makes them,
right or wrong. So a game played from the same seed with the same decisions goes through the
same states in both. That is what it is for:

* it guards refactors and speed work on the engine (`tests/games/north_wind/test_oracle.py`
  compares the two step by step on fixed seeds, `test_oracle_machine.py` on drawn options,
  seeds and decisions, shrinking a divergence to a short case): a change that alters any
  game shows up, and
* it is the speed baseline a user would write instead of tradewinds
  (`benches/test_bench_pure_python.py`, `benches/compare.py`).

It does not check the engine against the rulebook: a misreading shared by the twins passes.
That is the job of the game's own tests (`src/games/north_wind/tests.rs`, the rulebook's
illustrations among them).

The random numbers are a port of the engine's: a xoshiro256++ generator seeded from a 64-bit
seed by SplitMix64 (``rand_xoshiro``'s ``seed_from_u64``), Lemire's method for a uniform
integer below ``n``, and ``derive_seed`` for the seed of game ``i`` of a bulk run.

    game = NorthWind(players=3)
    session = Session(game, seed=42)           # chance is resolved automatically
    while not session.is_terminal():
        session.apply(session.legal_actions()[0])
    print(game.scores(session.state), session.state.winner)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# ----- random numbers (a port of the engine's generator) -------------------------------------

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK64


def splitmix64(z: int) -> int:
    """One step of SplitMix64: a well-mixed 64-bit value from any 64-bit input."""
    z = (z + GOLDEN_GAMMA) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def derive_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a bulk run seeded ``seed``."""
    return splitmix64(splitmix64(seed) ^ splitmix64((index + 0x5851F42D4C957F2D) & MASK64))


class Xoshiro256PlusPlus:
    """The xoshiro256++ generator (Blackman and Vigna)."""

    __slots__ = ("s",)

    def __init__(self, state: list[int]) -> None:
        if not any(state):  # an all-zero state is mapped to the state of seed 0
            state = Xoshiro256PlusPlus.seed_from_u64(0).s
        self.s: list[int] = list(state)

    @classmethod
    def seed_from_u64(cls, seed: int) -> Xoshiro256PlusPlus:
        """The state is four outputs of a SplitMix64 generator started at ``seed``."""
        x = seed & MASK64
        words = []
        for _ in range(4):
            words.append(splitmix64(x))
            x = (x + GOLDEN_GAMMA) & MASK64
        return cls(words)

    def next_u64(self) -> int:
        s0, s1, s2, s3 = self.s
        result = (_rotl((s0 + s3) & MASK64, 23) + s0) & MASK64
        t = (s1 << 17) & MASK64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = _rotl(s3, 45)
        self.s = [s0, s1, s2, s3]
        return result

    def next_u32(self) -> int:
        return self.next_u64() >> 32


def below(rng: Xoshiro256PlusPlus, n: int) -> int:
    """A uniform integer in ``0..n`` by Lemire's nearly-divisionless method."""
    m = rng.next_u32() * n
    low = m & 0xFFFFFFFF
    if low < n:
        threshold = ((1 << 32) - n) % n
        while low < threshold:
            m = rng.next_u32() * n
            low = m & 0xFFFFFFFF
    return m >> 32


# ----- component data ------------------------------------------------------------------------

GOODS = ["grain", "fish", "salt", "wood", "wine"]
PORTS = ["Northcape", "Trutzhaven", "Olesand"]
CREW_SLOTS = ["boatswain", "bookkeeper", "gunner", "treasurer", "lookout"]
BOATSWAIN, BOOKKEEPER, GUNNER, TREASURER, LOOKOUT = range(5)

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "src" / "games" / "north_wind" / "data.json"


@dataclass(frozen=True)
class Card:
    name: str
    kind: str  # destination, fog, trading_port, outfitting_port, merchant, shipwreck
    good: int = -1
    price: int = 0
    port: int = -1

    def is_trade_card(self) -> bool:
        """Cards whose "A" is underlined: the others may use them with a trade letter."""
        return self.kind in ("trading_port", "outfitting_port", "merchant")


@dataclass(frozen=True)
class Contract:
    goods: tuple[int, ...]
    gold: int
    captains: int


class Data:
    """The numbers of the rules, the sea cards (one entry per physical card), the contracts
    and the dice, read from a North Wind data file."""

    def __init__(self, path: Path | str = DEFAULT_DATA) -> None:
        with open(path, encoding="utf-8") as f:
            raw = json.load(f)
        self.rules: dict[str, int] = {name: entry["value"] for name, entry in raw["rules"].items()}
        self.tokens: dict[int, int] = {int(k): v["value"] for k, v in raw["victory_tokens"].items()}
        self.cards: list[Card] = []
        for c in raw["sea_cards"]:
            card = Card(
                name=c["name"],
                kind=c["kind"],
                good=GOODS.index(c["good"]) if "good" in c else -1,
                price=c.get("price", 0),
                port=PORTS.index(c["port"]) if "port" in c else -1,
            )
            self.cards.extend([card] * c.get("count", 1))
        self.destination_card = [
            next(i for i, c in enumerate(self.cards) if c.kind == "destination" and c.port == port)
            for port in range(3)
        ]
        self.deal_cards = [i for i, c in enumerate(self.cards) if c.kind != "destination"]
        self.slots_per_stack = len(self.deal_cards) // 3
        self.contracts: list[list[Contract]] = []
        for port in PORTS:
            self.contracts.append(
                [
                    Contract(tuple(c.get(g, 0) for g in GOODS), c.get("gold", 0), c.get("captains", 0))
                    for c in raw["contracts"][port]
                ]
            )
        # Die faces in file order: ("treasure", 0) or ("pirates", strength), and their counts.
        self.event_faces = [(e["face"], e.get("strength", 0)) for e in raw["event_die"]]
        self.event_counts = [e["count"] for e in raw["event_die"]]
        self.combat_faces = [e["face"] for e in raw["combat_die"]]  # hit, double, miss
        self.combat_counts = [e["count"] for e in raw["combat_die"]]


# ----- actions -------------------------------------------------------------------------------

SAIL = 0  # SAIL + stack
KEEP_TOP = 3
SLIDE_UNDER = 4
PASS = 5
PAY_PIRATES = 6
FIGHT = 7
BUY_1 = 8
BUY_2 = 9
SELL_1 = 10
SELL_2 = 11
JETTISON = 12  # JETTISON + good
OUTFIT_SAIL = 17
OUTFIT_CANNON = 18
HIRE = 19  # HIRE + crew slot
MERCHANT_BUY = 24  # MERCHANT_BUY + good
MERCHANT_SELL = 29  # MERCHANT_SELL + good
FULFIL = 34
SALVAGE = 35
NUM_ACTIONS = 36


def action_name(a: int) -> str:
    if a < 3:
        return f"sail:{PORTS[a]}"
    if JETTISON <= a < JETTISON + 5:
        return f"jettison:{GOODS[a - JETTISON]}"
    if HIRE <= a < HIRE + 5:
        return f"hire:{CREW_SLOTS[a - HIRE]}"
    if MERCHANT_BUY <= a < MERCHANT_BUY + 5:
        return f"merchant-buy:{GOODS[a - MERCHANT_BUY]}"
    if MERCHANT_SELL <= a < MERCHANT_SELL + 5:
        return f"merchant-sell:{GOODS[a - MERCHANT_SELL]}"
    names = {
        KEEP_TOP: "keep-top", SLIDE_UNDER: "slide-under", PASS: "pass", PAY_PIRATES: "pay-pirates",
        FIGHT: "fight", BUY_1: "buy-1", BUY_2: "buy-2", SELL_1: "sell-1", SELL_2: "sell-2",
        OUTFIT_SAIL: "outfit:sail", OUTFIT_CANNON: "outfit:cannon", FULFIL: "fulfil-contract",
        SALVAGE: "search-shipwreck",
    }
    return names.get(a, f"action-{a}")


# ----- state ---------------------------------------------------------------------------------

# Phases: whose decision or which chance event comes next.
DEAL = "Deal"  # chance: the next sea card is dealt to a stack
CHOOSE_STACK = "ChooseStack"
PEEK = "Peek"  # chance: the lookout looks at the top card
PEEK_DECISION = "PeekDecision"
REVEAL = "Reveal"  # chance: the next sea card is revealed
EVENT = "Event"  # chance: the event die
PIRATE = "Pirate"
COMBAT = "Combat"  # chance: one roll of the combat die
CARD = "Card"
LETTER = "Letter"
BOATSWAIN_PHASE = "Boatswain"
GAME_OVER = "GameOver"

CHANCE_PHASES = (DEAL, PEEK, REVEAL, EVENT, COMBAT)
CHANCE = -1
TERMINAL = -4


@dataclass(slots=True)
class Ship:
    gold: int
    goods: list[int]
    captains: int
    letters: int
    cannons: int
    sail: int
    crew: list[bool] = field(default_factory=lambda: [False] * 5)
    supply_bonus: bool = False
    crew_bonus: bool = False

    def hold(self) -> int:
        return sum(self.goods)

    def crew_count(self) -> int:
        return sum(self.crew)


@dataclass(slots=True)
class Voyage:
    stack: int | None = None
    drawn: list[int] = field(default_factory=list)  # cards taken from the stack this voyage
    revealed: list[int] = field(default_factory=list)  # revealed cards, in order
    peeked: int | None = None  # the card the lookout looks at
    slid: int | None = None  # the card the lookout slid under the stack
    current: int | None = None  # the revealed card being resolved
    actions: int = 0
    pirates: int = 0
    rolls_left: int = 0
    hits: int = 0
    decider: int | None = None  # who decides in the Letter and Boatswain phases
    trades: int = 0  # merchant trades in the current use of the card
    first_trade: int | None = None
    sold: bool = False  # the current use sold goods (the bookkeeper pays once per use)
    jettisoned: int = 0  # goods thrown overboard for the purchase under way (ruling 7)


@dataclass(slots=True)
class State:
    phase: str
    players: int
    active: int
    turn: int
    deal_next: int
    stacks: list[list[int]]  # the cards of each stack; stacks keep their cards all game
    ships: list[Ship]
    supply_goods: list[int]
    supply_gold: int  # the bank with gold="limited": the gold no player holds (else unused, 0)
    supply_captains: int
    supply_letters: int
    done: list[int]  # contracts fulfilled per port
    fulfilled: list[list[int]]  # who fulfilled each contract, per port
    column: list[list[int]]  # tokens per port and player
    majority: list[int | None]
    winner: int | None = None
    truncated: bool = False
    voyage: Voyage = field(default_factory=Voyage)


# ----- the rules -----------------------------------------------------------------------------


class NorthWind:
    def __init__(self, players: int = 3, max_turns: int = 1000, data: Data | None = None,
                 gold: str = "unlimited") -> None:
        if players not in (2, 3, 4):
            raise ValueError("North Wind is for 2, 3 or 4 players")
        if gold not in ("unlimited", "limited"):
            raise ValueError('gold is "unlimited" or "limited"')
        self.players = players
        self.max_turns = max_turns
        self.limited_gold = gold == "limited"  # the bank holds the box's coins (ruling 13)
        self.data = data if data is not None else Data()
        self.r = self.data.rules
        self.tokens = self.data.tokens[players]

    def initial_state(self) -> State:
        r = self.r
        n = self.players
        ships = [
            Ship(r["starting_gold"], [0] * 5, 0, r["starting_trade_letters"], r["starting_cannons"],
                 r["starting_sail_level"])
            for _ in range(n)
        ]
        return State(
            phase=DEAL,
            players=n,
            active=0,
            turn=0,
            deal_next=0,
            # Each destination card lies in the stack under its picture.
            stacks=[[self.data.destination_card[port]] for port in range(3)],
            ships=ships,
            supply_goods=[r["goods_per_kind"]] * 5,
            supply_gold=r["gold_total"] - n * r["starting_gold"] if self.limited_gold else 0,
            supply_captains=r["pirate_captains"],
            supply_letters=r["trade_letters_total"] - n * r["starting_trade_letters"],
            done=[0, 0, 0],
            fulfilled=[[], [], []],
            column=[[0] * n for _ in range(3)],
            majority=[None, None, None],
        )

    def actor(self, s: State) -> int:
        if s.phase in CHANCE_PHASES:
            return CHANCE
        if s.phase == GAME_OVER:
            return TERMINAL
        if s.phase in (LETTER, BOATSWAIN_PHASE):
            assert s.voyage.decider is not None
            return s.voyage.decider
        return s.active

    # ----- tokens and bonuses ----------------------------------------------------------------

    def placed(self, s: State, p: int) -> int:
        """Victory point tokens ``p`` has placed on the scoring board."""
        ship = s.ships[p]
        n = sum(s.column[port][p] for port in range(3))
        n += sum(1 for port in range(3) if s.majority[port] == p)
        return n + ship.supply_bonus + ship.crew_bonus

    def available(self, s: State, p: int) -> bool:
        return self.placed(s, p) < self.tokens

    def refresh_bonuses(self, s: State) -> None:
        """The majority of each column (a tie empties it), supplying all ports, full crew."""
        for port in range(3):
            col = s.column[port]
            most = max(col)
            leader = col.index(most) if most > 0 and col.count(most) == 1 else None
            if s.majority[port] != leader:
                s.majority[port] = None
                if leader is not None and self.available(s, leader):
                    s.majority[port] = leader
        crew_needed = self.r["crew_per_player"]
        for p, ship in enumerate(s.ships):
            if not ship.supply_bonus and all(s.column[port][p] > 0 for port in range(3)) and self.available(s, p):
                ship.supply_bonus = True
            if not ship.crew_bonus and crew_needed > 0 and ship.crew_count() >= crew_needed and self.available(s, p):
                ship.crew_bonus = True

    def check_win(self, s: State) -> bool:
        """Whoever is on turn and has placed all his tokens wins."""
        if self.placed(s, s.active) >= self.tokens:
            s.winner = s.active
            s.phase = GAME_OVER
            return True
        return False

    # ----- turn structure --------------------------------------------------------------------

    def start_turn(self, s: State) -> None:
        if s.turn >= self.max_turns:
            s.truncated = True
            s.phase = GAME_OVER
            return
        if self.check_win(s):
            return
        ship = s.ships[s.active]
        if ship.gold == 0:  # gold income for the poor
            self.pay(s, s.active, self.r["treasurer_income"] if ship.crew[TREASURER] else self.r["poor_income"])
        s.phase = CHOOSE_STACK

    def pay(self, s: State, p: int, amount: int) -> None:
        """Gold from the bank: ``amount``; with gold="limited", what the bank holds if that is less."""
        if self.limited_gold:
            amount = min(amount, s.supply_gold)
            s.supply_gold -= amount
        s.ships[p].gold = min(s.ships[p].gold + amount, 2**32 - 1)

    def charge(self, s: State, p: int, amount: int) -> None:
        """Gold to the bank."""
        s.ships[p].gold -= amount
        if self.limited_gold:
            s.supply_gold += amount

    def bank_pays(self, s: State, amount: int) -> bool:
        """Whether the bank can pay ``amount`` in full: always, unless gold="limited"."""
        return not self.limited_gold or s.supply_gold >= amount

    def remaining(self, s: State) -> list[int]:
        """The cards still in the voyage's stack, in card order."""
        v = s.voyage
        assert v.stack is not None
        return sorted(c for c in s.stacks[v.stack] if c not in v.drawn)

    def continue_voyage(self, s: State) -> None:
        v = s.voyage
        if (
            v.actions >= self.r["actions_per_voyage"]
            or len(v.revealed) >= s.ships[s.active].sail
            or not self.remaining(s)
        ):
            self.end_voyage(s)
        else:
            v.current = None
            s.phase = REVEAL

    def end_voyage(self, s: State) -> None:
        """A trade letter for a voyage of at most 1 action; then the next player's turn."""
        ship = s.ships[s.active]
        if s.voyage.actions <= 1 and ship.letters < self.r["trade_letters_max_held"] and s.supply_letters > 0:
            ship.letters += 1
            s.supply_letters -= 1
        s.voyage = Voyage()
        s.active = (s.active + 1) % s.players
        s.turn += 1
        self.start_turn(s)

    def handle_card(self, s: State, card: int) -> None:
        v = s.voyage
        v.current = card
        if self.data.cards[card].kind == "fog":
            s.phase = EVENT
        elif not self.card_options(s, s.active, card):
            self.continue_voyage(s)  # nothing can be done with the card
        else:
            v.decider = s.active
            v.trades = 0
            v.sold = False
            v.first_trade = None
            s.phase = CARD

    # ----- what a player may do with a card ---------------------------------------------------

    def can_buy(self, s: State, p: int, good: int, units: int, price: int, need_room: bool) -> bool:
        ship = s.ships[p]
        return (
            ship.gold >= price * units
            and s.supply_goods[good] >= units
            and ship.goods[good] + units <= self.r["max_goods_per_kind"]
            and (not need_room or ship.hold() + units <= self.r["hold_slots"])
        )

    def card_options(self, s: State, p: int, card: int) -> list[int]:
        """What player ``p`` may do with ``card`` (besides passing), sorted."""
        ship = s.ships[p]
        c = self.data.cards[card]
        out: list[int] = []
        thrown = s.voyage.jettisoned
        if c.kind == "trading_port":
            jettison = False
            for units in range(1, self.r["trading_port_max_units"] + 1):
                if self.can_buy(s, p, c.good, units, c.price, True):
                    # After a throw, only the purchase that needed all the room made (ruling 7).
                    if thrown == 0 or ship.hold() + units == self.r["hold_slots"]:
                        out.append(BUY_1 + units - 1)
                elif self.can_buy(s, p, c.good, units, c.price, False):
                    jettison = True  # only the hold's room stops this purchase
            for units in range(1, self.r["trading_port_max_units"] + 1):
                # A throw commits to the purchase; a sale needs the bank to pay.
                if thrown == 0 and ship.goods[c.good] >= units and self.bank_pays(s, c.price * units):
                    out.append(SELL_1 + units - 1)
            if jettison:
                out.extend(JETTISON + g for g in range(5) if ship.goods[g] > 0)
        elif c.kind == "merchant":
            out = self.merchant_options(s, p, c.price, None)
        elif c.kind == "outfitting_port":
            if ship.gold >= c.price:
                if ship.sail < self.r["max_sail_level"]:
                    out.append(OUTFIT_SAIL)
                if ship.cannons < self.r["cannons_per_player"]:
                    out.append(OUTFIT_CANNON)
                if ship.crew_count() < self.r["crew_per_player"]:
                    out.extend(HIRE + slot for slot in range(5) if not ship.crew[slot])
        elif c.kind == "destination":
            if self.can_fulfil(s, p, c.port):
                out.append(FULFIL)
        elif c.kind == "shipwreck":
            out.append(SALVAGE)
        out.sort()
        return out

    def merchant_options(self, s: State, p: int, price: int, first: int | None) -> list[int]:
        """Merchant trades; ``first`` is the first trade of this use when a boatswain trades again:
        after selling a good he may not buy it back, after buying one he may not sell it."""
        ship = s.ships[p]
        first_buy = first - MERCHANT_BUY if first is not None and first < MERCHANT_SELL else None
        first_sell = first - MERCHANT_SELL if first is not None and first >= MERCHANT_SELL else None
        thrown = s.voyage.jettisoned
        out = []
        jettison = False
        for g in range(5):
            if g == first_sell:
                continue
            if self.can_buy(s, p, g, 1, price, True):
                # After a throw, only a purchase that needed the room (ruling 7).
                if thrown == 0 or ship.hold() + 1 == self.r["hold_slots"]:
                    out.append(MERCHANT_BUY + g)
            elif self.can_buy(s, p, g, 1, price, False):
                jettison = True
        for g in range(5):
            # A throw commits to the purchase; a sale needs the bank to pay.
            if thrown == 0 and g != first_buy and ship.goods[g] > 0 and self.bank_pays(s, price):
                out.append(MERCHANT_SELL + g)
        if jettison:
            out.extend(JETTISON + g for g in range(5) if ship.goods[g] > 0)
        return out

    def can_fulfil(self, s: State, p: int, port: int) -> bool:
        contracts = self.data.contracts[port]
        if s.done[port] >= len(contracts):
            return False
        c = contracts[s.done[port]]
        ship = s.ships[p]
        return (
            self.available(s, p)
            and ship.gold >= c.gold
            and ship.captains >= c.captains
            and all(have >= need for have, need in zip(ship.goods, c.goods))
        )

    # ----- legal actions ---------------------------------------------------------------------

    def legal_actions(self, s: State) -> list[int]:
        """Sorted legal actions; at a chance node, the chance outcomes."""
        phase = s.phase
        if phase in CHANCE_PHASES:
            return [a for a, _ in self.chance_weights(s)]
        if phase == CHOOSE_STACK:
            return [SAIL, SAIL + 1, SAIL + 2]
        if phase == PEEK_DECISION:
            return [KEEP_TOP, SLIDE_UNDER]
        if phase == PIRATE:
            if s.ships[s.active].gold >= self.r["pirate_toll"]:
                return [PAY_PIRATES, FIGHT]
            return [FIGHT]
        v = s.voyage
        passing = [PASS] if v.jettisoned == 0 else []  # a throw commits to the purchase (ruling 7)
        if phase in (CARD, LETTER):
            assert v.decider is not None and v.current is not None
            return sorted(passing + self.card_options(s, v.decider, v.current))
        if phase == BOATSWAIN_PHASE:
            assert v.decider is not None and v.current is not None
            price = self.data.cards[v.current].price
            return sorted(passing + self.merchant_options(s, v.decider, price, v.first_trade))
        return []

    # ----- chance ----------------------------------------------------------------------------

    def chance_weights(self, s: State) -> list[tuple[int, int]]:
        """The outcomes of a chance node with integer weights (card counts, die faces)."""
        phase = s.phase
        if phase == DEAL:
            size = self.data.slots_per_stack + 1
            return [(st, size - len(s.stacks[st])) for st in range(3) if len(s.stacks[st]) < size]
        if phase in (PEEK, REVEAL):
            return [(card, 1) for card in self.remaining(s)]
        if phase == EVENT:
            return list(enumerate(self.data.event_counts))
        if phase == COMBAT:
            return list(enumerate(self.data.combat_counts))
        return []

    def chance_outcomes(self, s: State) -> list[tuple[int, float]]:
        weights = self.chance_weights(s)
        total = sum(w for _, w in weights)
        return [(a, w / total) for a, w in weights]

    def sample_chance(self, s: State, rng: Xoshiro256PlusPlus) -> int:
        weights = self.chance_weights(s)
        pick = below(rng, sum(w for _, w in weights))
        for a, w in weights:
            if pick < w:
                return a
            pick -= w
        raise AssertionError("unreachable")

    # ----- transitions -----------------------------------------------------------------------

    def apply(self, s: State, a: int) -> None:
        """Applies an action known to be legal."""
        phase = s.phase
        v = s.voyage
        r = self.r
        if phase == DEAL:
            s.stacks[a].append(self.data.deal_cards[s.deal_next])
            s.deal_next += 1
            if s.deal_next == len(self.data.deal_cards):
                self.start_turn(s)
        elif phase == CHOOSE_STACK:
            s.voyage = Voyage(stack=a)
            s.phase = PEEK if s.ships[s.active].crew[LOOKOUT] else REVEAL
        elif phase == PEEK:
            v.peeked = a
            v.drawn.append(a)
            s.phase = PEEK_DECISION
        elif phase == PEEK_DECISION:
            card = v.peeked
            assert card is not None
            v.peeked = None
            if a == KEEP_TOP:
                self.reveal(s, card)
            else:
                v.slid = card  # it does not count for the voyage
                s.phase = REVEAL
        elif phase == REVEAL:
            v.drawn.append(a)
            self.reveal(s, a)
        elif phase == EVENT:
            face, strength = self.data.event_faces[a]
            ship = s.ships[s.active]
            if face == "treasure":
                self.pay(s, s.active, r["treasure_gold"])
                self.continue_voyage(s)
            else:
                v.pirates = strength
                if ship.gold < r["pirate_toll"]:
                    self.fight(s)  # only fighting is possible
                else:
                    s.phase = PIRATE
        elif phase == PIRATE:
            if a == PAY_PIRATES:
                self.charge(s, s.active, r["pirate_toll"])
                self.continue_voyage(s)
            else:
                self.fight(s)
        elif phase == COMBAT:
            gunner = s.ships[s.active].crew[GUNNER]
            mult = 2 if gunner else 1
            face = self.data.combat_faces[a]
            v.rolls_left -= 1
            if face == "hit":
                v.hits += 1
            elif face == "double" and gunner:  # the blue double ball: 2 hits with a gunner
                v.hits += 2
            if v.hits >= v.pirates:
                self.victory(s)
            elif v.rolls_left == 0 or v.hits + v.rolls_left * mult < v.pirates:
                self.end_voyage(s)  # the remaining rolls cannot win: defeat
        elif phase in (CARD, LETTER, BOATSWAIN_PHASE):
            self.apply_card_action(s, a)

    def reveal(self, s: State, card: int) -> None:
        s.voyage.revealed.append(card)
        self.handle_card(s, card)

    def fight(self, s: State) -> None:
        """One combat-die roll per cannon; with too few cannons to win, an immediate defeat."""
        ship = s.ships[s.active]
        mult = 2 if ship.crew[GUNNER] else 1
        if ship.cannons * mult < s.voyage.pirates:
            self.end_voyage(s)
        else:
            s.voyage.rolls_left = ship.cannons
            s.voyage.hits = 0
            s.phase = COMBAT

    def victory(self, s: State) -> None:
        ship = s.ships[s.active]
        if ship.captains < self.r["prison_slots"] and s.supply_captains > 0:
            ship.captains += 1
            s.supply_captains -= 1
        else:
            self.pay(s, s.active, self.r["full_prison_gold"])
        self.continue_voyage(s)

    def sale(self, s: State, p: int) -> None:
        if not s.voyage.sold:
            s.voyage.sold = True
            if s.ships[p].crew[BOOKKEEPER]:
                self.pay(s, p, self.r["bookkeeper_bonus"])

    def apply_card_action(self, s: State, a: int) -> None:
        v = s.voyage
        p = v.decider
        assert p is not None and v.current is not None
        ship = s.ships[p]
        card = self.data.cards[v.current]
        if JETTISON <= a < JETTISON + 5:
            g = a - JETTISON
            ship.goods[g] -= 1
            s.supply_goods[g] += 1
            v.jettisoned += 1
            return  # the same decision continues, until the purchase
        v.jettisoned = 0
        if a == PASS:
            if s.phase == CARD:
                self.continue_voyage(s)
            elif s.phase == LETTER:
                self.next_letter_offer(s)
            else:
                self.use_finished(s)
            return
        # A use of the card.
        if s.phase == CARD:
            v.actions += 1
        elif s.phase == LETTER:
            ship.letters -= 1
            s.supply_letters += 1
        if a in (BUY_1, BUY_2):
            units = a - BUY_1 + 1
            self.charge(s, p, card.price * units)
            ship.goods[card.good] += units
            s.supply_goods[card.good] -= units
        elif a in (SELL_1, SELL_2):
            units = a - SELL_1 + 1
            self.pay(s, p, card.price * units)
            ship.goods[card.good] -= units
            s.supply_goods[card.good] += units
            self.sale(s, p)
        elif a == OUTFIT_SAIL or a == OUTFIT_CANNON or HIRE <= a < HIRE + 5:
            self.charge(s, p, card.price)
            if a == OUTFIT_SAIL:
                ship.sail += 1
            elif a == OUTFIT_CANNON:
                ship.cannons += 1
            else:
                ship.crew[a - HIRE] = True
            self.refresh_bonuses(s)
        elif MERCHANT_BUY <= a < MERCHANT_SELL + 5:
            if a < MERCHANT_SELL:
                g = a - MERCHANT_BUY
                self.charge(s, p, card.price)
                ship.goods[g] += 1
                s.supply_goods[g] -= 1
            else:
                g = a - MERCHANT_SELL
                self.pay(s, p, card.price)
                ship.goods[g] -= 1
                s.supply_goods[g] += 1
                self.sale(s, p)
            v.trades += 1
            if v.first_trade is None:
                v.first_trade = a
            if (
                ship.crew[BOATSWAIN]
                and v.trades < self.r["boatswain_transactions"]
                and self.merchant_options(s, p, card.price, v.first_trade)
            ):
                s.phase = BOATSWAIN_PHASE  # the boatswain may trade once more
                return
        elif a == FULFIL:
            port = card.port
            c = self.data.contracts[port][s.done[port]]
            self.charge(s, p, c.gold)
            ship.captains -= c.captains
            s.supply_captains += c.captains
            for g in range(5):
                ship.goods[g] -= c.goods[g]
                s.supply_goods[g] += c.goods[g]
            s.fulfilled[port].append(p)
            s.done[port] += 1
            s.column[port][p] += 1
            self.refresh_bonuses(s)
        elif a == SALVAGE:
            self.pay(s, p, self.r["shipwreck_gold"])
        else:
            raise ValueError(f"action {a} in phase {s.phase}")
        if s.phase == BOATSWAIN_PHASE:
            self.use_finished(s)
        else:
            self.use_finished_from(s, s.phase)

    def use_finished(self, s: State) -> None:
        self.use_finished_from(s, CARD if s.voyage.decider == s.active else LETTER)

    def use_finished_from(self, s: State, phase: str) -> None:
        """A use of a card is complete: the active player may have won; a trade card is offered
        to the others in turn order; otherwise the voyage goes on."""
        if phase == CARD:
            if self.check_win(s):
                return
            assert s.voyage.current is not None
            if self.data.cards[s.voyage.current].is_trade_card():
                s.voyage.decider = s.active
                self.next_letter_offer(s)
            else:
                self.continue_voyage(s)
        else:
            self.next_letter_offer(s)

    def next_letter_offer(self, s: State) -> None:
        """The next player after the decider, in turn order, who holds a trade letter and can
        use the card is asked; after the last one the voyage goes on."""
        v = s.voyage
        assert v.decider is not None and v.current is not None
        q = (v.decider + 1) % s.players
        while q != s.active:
            if s.ships[q].letters > 0 and self.card_options(s, q, v.current):
                v.decider = q
                v.trades = 0
                v.sold = False
                v.first_trade = None
                s.phase = LETTER
                return
            q = (q + 1) % s.players
        v.decider = None
        self.continue_voyage(s)

    # ----- results ---------------------------------------------------------------------------

    def scores(self, s: State) -> list[int]:
        return [self.placed(s, p) for p in range(self.players)]

    def returns(self, s: State) -> list[float]:
        if s.winner is None:
            return [0.0] * self.players
        loss = -1.0 / (self.players - 1)
        return [1.0 if p == s.winner else loss for p in range(self.players)]

    def category_points(self, s: State) -> list[list[int]]:
        """Per player: tokens in each port's column, majority bonuses, supply bonus, crew bonus."""
        return [
            [s.column[port][p] for port in range(3)]
            + [sum(1 for m in s.majority if m == p), int(s.ships[p].supply_bonus), int(s.ships[p].crew_bonus)]
            for p in range(self.players)
        ]


def snapshot(s: State) -> dict[str, Any]:
    """The whole state as plain values (for comparisons)."""
    v = s.voyage
    return {
        "phase": s.phase,
        "active": s.active,
        "turn": s.turn,
        "deal_next": s.deal_next,
        "stacks": [sorted(stack) for stack in s.stacks],
        "ships": [
            {
                "gold": sh.gold, "goods": list(sh.goods), "captains": sh.captains, "letters": sh.letters,
                "cannons": sh.cannons, "sail": sh.sail, "crew": list(sh.crew),
                "supply_bonus": sh.supply_bonus, "crew_bonus": sh.crew_bonus,
            }
            for sh in s.ships
        ],
        "supply_goods": list(s.supply_goods),
        "supply_gold": s.supply_gold,
        "supply_captains": s.supply_captains,
        "supply_letters": s.supply_letters,
        "done": list(s.done),
        "fulfilled": [list(f) for f in s.fulfilled],
        "column": [list(c) for c in s.column],
        "majority": list(s.majority),
        "winner": s.winner,
        "truncated": s.truncated,
        "voyage": {
            "stack": v.stack, "drawn": sorted(v.drawn), "revealed": list(v.revealed), "peeked": v.peeked,
            "slid": v.slid, "current": v.current, "actions": v.actions, "pirates": v.pirates,
            "rolls_left": v.rolls_left, "hits": v.hits, "decider": v.decider, "trades": v.trades,
            "first_trade": v.first_trade, "sold": v.sold, "jettisoned": v.jettisoned,
        },
    }


# ----- playing -------------------------------------------------------------------------------


class Session:
    """A game in progress with its seeded random stream. Unless ``explicit_chance``, chance
    nodes are resolved at once from the stream, so the caller sees only decisions."""

    def __init__(self, game: NorthWind, seed: int, explicit_chance: bool = False) -> None:
        self.game = game
        self.state = game.initial_state()
        self.rng = Xoshiro256PlusPlus.seed_from_u64(seed)
        self.explicit_chance = explicit_chance
        self.history: list[int] = []
        self.resolve_chance()

    def current_player(self) -> int:
        return self.game.actor(self.state)

    def is_terminal(self) -> bool:
        return self.state.phase == GAME_OVER

    def is_chance(self) -> bool:
        return self.state.phase in CHANCE_PHASES

    def legal_actions(self) -> list[int]:
        return self.game.legal_actions(self.state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.game.chance_outcomes(self.state) if self.is_chance() else []

    def apply(self, action: int) -> None:
        if self.is_terminal() or action not in self.game.legal_actions(self.state):
            raise ValueError(f"illegal action {action} ({action_name(action)}) in phase {self.state.phase}")
        self.game.apply(self.state, action)
        self.history.append(action)
        self.resolve_chance()

    def resolve_chance(self) -> None:
        if self.explicit_chance:
            return
        while self.state.phase in CHANCE_PHASES:
            a = self.game.sample_chance(self.state, self.rng)
            self.game.apply(self.state, a)
            self.history.append(a)


@dataclass
class GameRecord:
    scores: list[int]
    winner: int | None
    moves: int
    decisions: int
    truncated: bool
    category_points: list[list[int]]


def play_random_game(game: NorthWind, seed: int, index: int) -> GameRecord:
    """Game ``index`` of a bulk run seeded ``seed`` with uniformly random players, exactly as
    the engine's bulk simulation plays it: chance and the players draw from separate streams."""
    chance_rng = Xoshiro256PlusPlus.seed_from_u64(derive_seed(seed, index))
    agent_rng = Xoshiro256PlusPlus.seed_from_u64(derive_seed(seed ^ 0xA6E75EED, index))
    state = game.initial_state()
    moves = 0
    decisions = 0
    while state.phase != GAME_OVER:
        if state.phase in CHANCE_PHASES:
            a = game.sample_chance(state, chance_rng)
        else:
            legal = game.legal_actions(state)
            a = legal[below(agent_rng, len(legal))]
            decisions += 1
        game.apply(state, a)
        moves += 1
    return GameRecord(
        scores=game.scores(state),
        winner=state.winner,
        moves=moves,
        decisions=decisions,
        truncated=state.truncated,
        category_points=game.category_points(state),
    )


def simulate(game: NorthWind, games: int, seed: int = 0) -> list[GameRecord]:
    return [play_random_game(game, seed, i) for i in range(games)]


#: The registered game this module is the twin of.
GAME = "north-wind"


def engine(options: dict[str, Any]) -> NorthWind:
    """The twin of ``tw.load(GAME, **options)`` (the options of a configuration)."""
    return NorthWind(players=int(options.get("players", 3)), max_turns=int(options.get("max_turns", 1000)),
                     gold=str(options.get("gold", "unlimited")))


if __name__ == "__main__":
    import sys
    import time

    players = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    g = NorthWind(players=players)
    start = time.perf_counter()
    records = simulate(g, count, seed=1)
    elapsed = time.perf_counter() - start
    print(f"{count} games, {players} players: {count / elapsed:.1f} games/s; "
          f"mean decisions {sum(r.decisions for r in records) / count:.1f}")
