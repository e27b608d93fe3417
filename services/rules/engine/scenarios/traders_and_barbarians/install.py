"""How the scenario changes the base rules (docs/rules/traders-and-barbarians.md §10): its
terrains and deck, settlement-then-city set-up, the wagon, gold, barbarians instead of the
robber, no Longest Road, and its victory points and target."""

from __future__ import annotations

from events.commands import BuyDevelopmentCard, Command, EndTurn, PlayKnight
from events.events import DiceRolled, Event, SettlementBuilt, TurnEnded
from events.traders_and_barbarians import (
    BarbarianDriveOffTried,
    BarbarianMovedOnPath,
    CommodityDelivered,
    CommodityDrawn,
    EndWagonMovement,
    MoveBarbarianOnPath,
    MovementPointsBought,
    MoveWagon,
    PayGrainForMovement,
    PlaySwiftJourney,
    SecondMovementStarted,
    SwiftJourneyPlayed,
    TraderBoughtResource,
    TraderBuyResource,
    TraderCardBought,
    TraderSellResource,
    TraderSoldResource,
    TryDriveOff,
    UpgradeWagon,
    WagonMoved,
    WagonMovementStarted,
    WagonUpgraded,
)
from services.rules.engine import hook_keys as hk
from services.rules.engine.base import scoring
from services.rules.engine.base.building import setup_round
from services.rules.engine.base.turn import base_roll
from services.rules.engine.chance import DICE_OUTCOMES, Dealer
from services.rules.engine.currency import install_gold
from services.rules.engine.ruleset import SetupRound
from services.rules.engine.scenarios.traders_and_barbarians import (
    barbarians,
    board,
    cards,
    gold,
    prompts,
    wagon,
)
from services.rules.engine.scenarios.traders_and_barbarians.common import (
    BARBARIAN,
    TRADERS,
    WAGON,
    init,
    new_turn,
    tb,
)
from services.rules.engine.scenarios.traders_and_barbarians.data import (
    SWIFT_COPIES,
    TARGET,
    TRADE_HEXES,
    P,
    card,
)
from services.rules.engine.scenarios.traders_and_barbarians.view import view_ext
from services.rules.engine.state import MAIN, SETUP, Rules, State

# A 2 or a 12 is thrown again until another total comes up (`roll.reroll`): the total that
# stands is exactly a throw of two dice conditioned on being neither, so it is drawn as one
# chance point with those two faces weighted 0 (a Decision: one recorded draw per roll keeps
# every turn's chance finite for `chance_outcomes`).
REROLL_WEIGHTS = tuple(0 if a + b in (2, 12) else 1 for a, b in DICE_OUTCOMES)


def roll(state: State, seat: int, dealer: Dealer) -> list[Event]:
    d1, d2 = dealer.pick(f"dice:{state.rolls}", DICE_OUTCOMES, REROLL_WEIGHTS)
    return [DiceRolled(seat=seat, d1=d1, d2=d2, n=state.rolls),
            *state.rules.hooks.resolve_dice(state, seat, d1, d2, dealer)]


def vp_bonus(state: State, seat: int, public: bool) -> int:
    """Delivered commodities (1 each) and wagon card 5 (`wagon.card_vp`); both public."""
    t = tb(state)
    return sum(t.delivered[seat]) + card(t.level[seat]).vp


def wagon_phase_refusal(state: State, command: Command) -> str | None:
    """Trading and building are over once the wagon part of the turn has begun."""
    if state.phase == WAGON and type(command) in state.rules.registry.phase_commands.get(MAIN, ()):
        return P + "wagon.phase"
    return None


def gold_of(state: State) -> list[int]:
    return tb(state).gold


def wrap_setup_city(rules: Rules) -> None:
    """The wagon starts on the set-up city (`setup.wagon`)."""
    built = rules.registry.evolvers[SettlementBuilt]

    def evolve(state: State, e: SettlementBuilt) -> None:
        if state.phase == SETUP and setup_round(state).piece == "city":
            tb(state).wagon[e.seat] = e.vertex
        tb(state).built = (e.seat, e.vertex)  # the building just placed: the pair rules read it
        built(state, e)

    rules.evolve_with(SettlementBuilt, evolve, wraps=True)


def wrap_turn_end(rules: Rules) -> None:
    ended = rules.registry.evolvers[TurnEnded]

    def evolve(state: State, e: TurnEnded) -> None:
        ended(state, e)
        new_turn(tb(state))

    rules.evolve_with(TurnEnded, evolve, wraps=True)


def install(rules: Rules, params: None) -> None:
    vocab = rules.vocab
    for terrain in TRADE_HEXES:
        vocab.add_terrain(terrain)  # produces nothing
    cards.install_deck(vocab, SWIFT_COPIES)
    rules.settings(target=TARGET, setup=(SetupRound(), SetupRound(piece="city", resources=True)))
    rules.module_state(TRADERS, init, view=view_ext)
    if rules.hooks.roll is base_roll:  # Event Cards draws a card instead, whatever the order
        rules.set_hook(hk.ROLL, roll)
    rules.set_hook(hk.SEVEN_STAGE, barbarians.seven_stage)
    # No Longest Road (`road.no_longest`).
    rules.settings(longest_road=False)
    rules.add_hook(hk.SETTLEMENT_BLOCKED, board.settlement_blocked)
    rules.add_hook(hk.ROAD_BLOCKED, board.road_blocked)
    rules.add_hook(hk.VP_BONUS, vp_bonus)
    rules.add_hook(hk.EXTRA_OPTIONS, prompts.main_options)
    rules.add_hook(hk.PHASE_REFUSAL, wagon_phase_refusal)

    rules.handle(MoveWagon, wagon.move_wagon)
    rules.handle(PayGrainForMovement, wagon.pay_grain)
    rules.handle(EndWagonMovement, wagon.end_movement)
    rules.handle(UpgradeWagon, wagon.upgrade)
    rules.handle(TryDriveOff, barbarians.try_drive_off)
    rules.handle(MoveBarbarianOnPath, barbarians.move_barbarian)
    rules.handle(TraderBuyResource, gold.buy)
    rules.handle(TraderSellResource, gold.sell)
    rules.handle(BuyDevelopmentCard, cards.buy)
    rules.handle(PlaySwiftJourney, cards.play_swift)
    wagon_commands = (MoveWagon, PayGrainForMovement, TryDriveOff, PlaySwiftJourney)
    rules.allow(MAIN, *wagon_commands, UpgradeWagon, TraderBuyResource, TraderSellResource)
    rules.allow(WAGON, *wagon_commands, EndWagonMovement, PlayKnight, EndTurn)
    rules.allow(BARBARIAN, MoveBarbarianOnPath)
    rules.prompt(WAGON, prompts.prompt_wagon)
    rules.prompt(BARBARIAN, prompts.prompt_barbarian)

    rules.evolve_with(WagonMovementStarted, wagon.evolve_started)
    rules.evolve_with(WagonMoved, wagon.evolve_moved)
    rules.evolve_with(MovementPointsBought, wagon.evolve_points)
    rules.evolve_with(SecondMovementStarted, wagon.evolve_second)
    rules.evolve_with(CommodityDelivered, wagon.evolve_delivered)
    rules.evolve_with(CommodityDrawn, wagon.evolve_drawn)
    rules.evolve_with(WagonUpgraded, wagon.evolve_upgraded)
    rules.evolve_with(BarbarianDriveOffTried, barbarians.evolve_tried)
    rules.evolve_with(BarbarianMovedOnPath, barbarians.evolve_moved)
    rules.evolve_with(TraderBoughtResource, gold.evolve_bought)
    rules.evolve_with(TraderSoldResource, gold.evolve_sold)
    rules.evolve_with(TraderCardBought, cards.evolve_bought)
    rules.evolve_with(SwiftJourneyPlayed, cards.evolve_swift)
    rules.redact(TraderCardBought, cards.redact_bought)
    barbarians.wrap_knight(rules)
    wrap_setup_city(rules)
    wrap_turn_end(rules)
    install_gold(rules, gold_of, P + "gold.trade")
    # Points this scenario adds are checked for victory like a build.
    rules.derive((CommodityDelivered, WagonUpgraded, TraderCardBought), scoring.derive_victory)
