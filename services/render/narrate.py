"""Events in plain words: "random2 (White) built a settlement on the 6 forest / 8 hills / 3:1
harbor corner (F4)".

One small function per event type, registered with `@narrates(EventType)`; a rule module adds
its own the same way (or gives its event a `describe()` method). An event nobody narrates yet
is written generically, its fields with places and seats named. Narration never looks behind a
redaction: pass it the event as the reader may see it (`engine.redact`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from events.disputes import (
    REFEREE,
    Reverted,
    RulingReviewed,
    UndoApproved,
    UndoProposed,
    UndoRejected,
)
from events.events import (
    CardStolen,
    CityBuilt,
    DevelopmentCardBought,
    DiceRolled,
    DiscardRequired,
    Event,
    GameCreated,
    GameFinished,
    KnightPlayed,
    LargestArmyChanged,
    LongestRoadChanged,
    MaritimeTraded,
    MonopolyPlayed,
    ResourcesDiscarded,
    ResourcesProduced,
    RoadBuildingPlayed,
    RoadBuilt,
    RobberMoved,
    SeatForfeited,
    SettlementBuilt,
    StartingResourcesTaken,
    TradeAnswered,
    TradeCancelled,
    TradeCompleted,
    TradeProposed,
    TurnEnded,
    YearOfPlentyPlayed,
)
from services.render.places import Places
from services.rules.engine.board import Board
from services.rules.engine.modules import narrators as module_narrators

COLORS = ("Red", "Blue", "White", "Orange", "Green", "Brown")


class Context(Places):
    """Names of the game's seats and places, for sentences (places as services/render/places.py
    names them: words a player knows and the label the pictures draw)."""

    def __init__(self, names: tuple[str, ...] | list[str], board: Board) -> None:
        super().__init__(board)
        self.names = tuple(names)

    def who(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        if seat == REFEREE:
            return "the referee"
        if 0 <= seat < len(self.names):
            return f"{self.names[seat]} ({COLORS[seat % len(COLORS)]})"
        return f"neutral {seat} ({COLORS[seat % len(COLORS)]})"


Narrator = Callable[[Any, Context], str]
NARRATORS: dict[type[Event], Narrator] = {}


def narrates(*types: type[Event]) -> Callable[[Narrator], Narrator]:
    def register(fn: Narrator) -> Narrator:
        for t in types:
            NARRATORS[t] = fn
        return fn

    return register


def narrate(event: Event, ctx: Context) -> str:
    """The event in words: the base game's narrators, else its module's (`Module.narration`),
    else its `describe()`, else generically."""
    fn = NARRATORS.get(type(event)) or module_narrators().get(type(event))
    if fn is not None:
        return fn(event, ctx)
    describe = getattr(event, "describe", None)
    if callable(describe):
        return str(describe())
    return generic(event, ctx)


def generic(event: Event, ctx: Context) -> str:
    """`EventName: field value, …` with seats, vertices, edges and hexes by name."""
    parts = []
    for name in event.__struct_fields__:
        value = getattr(event, name)
        if name in ("seat", "victim", "thief", "giver", "receiver", "holder", "partner", "neutral") and (
            isinstance(value, int)
        ):
            value = ctx.who(value)
        elif name == "vertex" and isinstance(value, int):
            value = ctx.vertex(value)
        elif name == "edge" and isinstance(value, int) and value >= 0:
            value = ctx.edge(value)
        elif name == "hex" and isinstance(value, int):
            value = ctx.hex(value)
        elif isinstance(value, dict):
            value = cards(value)
        parts.append(f"{name} {value}")
    return f"{type(event).__name__}: " + ", ".join(parts)


def cards(bundle: Mapping[Any, int] | None) -> str:
    if not bundle:
        return "nothing"
    return ", ".join(f"{n} {r}" for r, n in bundle.items() if n)


# --- the base game --------------------------------------------------------------------------


@narrates(GameCreated)
def _created(e: GameCreated, ctx: Context) -> str:
    modules = ", ".join(m.name + (f" {m.params}" if m.params else "") for m in e.modules)
    seats = ", ".join(ctx.who(s) for s in range(e.seats))
    at = ctx.board.topo.hex_index.get(e.robber) if e.robber else None
    robber = f"on {ctx.hex(at)}" if at is not None else "off the board"
    return (f"Game {e.game_id} created: {e.ruleset}{' + ' + modules if modules else ''}; "
            f"seats {seats}; robber {robber}; seed commitment {e.seed_sha256[:16]}…")


@narrates(SettlementBuilt)
def _settlement(e: SettlementBuilt, ctx: Context) -> str:
    return f"{ctx.who(e.seat)} built a settlement on {ctx.vertex(e.vertex)}" + (" (free)" if e.free else "")


@narrates(RoadBuilt)
def _road(e: RoadBuilt, ctx: Context) -> str:
    return f"{ctx.who(e.seat)} built a road on {ctx.edge(e.edge)}" + (" (free)" if e.free else "")


@narrates(CityBuilt)
def _city(e: CityBuilt, ctx: Context) -> str:
    return f"{ctx.who(e.seat)} built a city on {ctx.vertex(e.vertex)}"


@narrates(StartingResourcesTaken)
def _starting(e: StartingResourcesTaken, ctx: Context) -> str:
    return f"{ctx.who(e.seat)} took starting resources: {cards(e.resources)}"


@narrates(DiceRolled)
def _dice(e: DiceRolled, ctx: Context) -> str:
    return f"{ctx.who(e.seat)} rolled {e.d1}+{e.d2} = {e.d1 + e.d2}"


@narrates(ResourcesProduced)
def _produced(e: ResourcesProduced, ctx: Context) -> str:
    got = "; ".join(f"{ctx.who(s)} gets {cards(b)}" for s, b in enumerate(e.gains) if b) or "nobody gets anything"
    short = f" (the bank is short of {', '.join(e.short)})" if e.short else ""
    return f"Production: {got}{short}"


@narrates(DiscardRequired)
def _discard_required(e: DiscardRequired, ctx: Context) -> str:
    who = ", ".join(f"{ctx.who(s)} {n}" for s, n in enumerate(e.counts) if n)
    return f"A seven: discard half the cards: {who}"


@narrates(ResourcesDiscarded)
def _discarded(e: ResourcesDiscarded, ctx: Context) -> str:
    return f"{ctx.who(e.seat)} discarded {cards(e.resources)}"


@narrates(RobberMoved)
def _robber(e: RobberMoved, ctx: Context) -> str:
    victim = f" to rob {ctx.who(e.victim)}" if e.victim is not None else ""
    return f"{ctx.who(e.seat)} moved the robber to {ctx.hex(e.hex)}{victim}"


@narrates(CardStolen)
def _stolen(e: CardStolen, ctx: Context) -> str:
    what = e.resource if e.resource is not None else "a card"
    return f"{ctx.who(e.thief)} stole {what} from {ctx.who(e.victim)}"


@narrates(TurnEnded)
def _turn(e: TurnEnded, ctx: Context) -> str:
    return f"{ctx.who(e.seat)} ended the turn; {ctx.who(e.next)} is next"


@narrates(DevelopmentCardBought)
def _bought(e: DevelopmentCardBought, ctx: Context) -> str:
    what = f" ({e.card.replace('_', ' ')})" if e.card is not None else ""
    return f"{ctx.who(e.seat)} bought a development card{what}"


@narrates(KnightPlayed)
def _knight(e: KnightPlayed, ctx: Context) -> str:
    return f"{ctx.who(e.seat)} played a knight"


@narrates(RoadBuildingPlayed)
def _road_building(e: RoadBuildingPlayed, ctx: Context) -> str:
    return f"{ctx.who(e.seat)} played Road Building ({e.roads} free roads)"


@narrates(YearOfPlentyPlayed)
def _plenty(e: YearOfPlentyPlayed, ctx: Context) -> str:
    return f"{ctx.who(e.seat)} played Year of Plenty: {cards(e.resources)}"


@narrates(MonopolyPlayed)
def _monopoly(e: MonopolyPlayed, ctx: Context) -> str:
    return f"{ctx.who(e.seat)} played Monopoly on {e.resource} and took {sum(e.taken)}"


@narrates(LongestRoadChanged)
def _longest(e: LongestRoadChanged, ctx: Context) -> str:
    if e.holder is None:
        return f"Longest Road is set aside (longest: {e.length})"
    return f"{ctx.who(e.holder)} takes Longest Road ({e.length} roads)"


@narrates(LargestArmyChanged)
def _army(e: LargestArmyChanged, ctx: Context) -> str:
    if e.holder is None:
        return "Largest Army is set aside"
    return f"{ctx.who(e.holder)} takes Largest Army ({e.knights} knights)"


@narrates(MaritimeTraded)
def _maritime(e: MaritimeTraded, ctx: Context) -> str:
    return f"{ctx.who(e.seat)} traded {e.count} {e.give} with the bank for 1 {e.get}"


@narrates(TradeProposed)
def _proposed(e: TradeProposed, ctx: Context) -> str:
    to = f" to {', '.join(ctx.who(s) for s in e.to)}" if e.to else ""
    return f"{ctx.who(e.seat)} offers {cards(e.give)} for {cards(e.get)}{to}"


@narrates(TradeAnswered)
def _answered(e: TradeAnswered, ctx: Context) -> str:
    if e.answer == "counter":
        return f"{ctx.who(e.seat)} counters: gives {cards(e.give)} for {cards(e.get)}"
    return f"{ctx.who(e.seat)} {'accepts' if e.answer == 'accept' else 'rejects'} the offer"


@narrates(TradeCompleted)
def _traded(e: TradeCompleted, ctx: Context) -> str:
    return f"{ctx.who(e.seat)} gave {cards(e.give)} to {ctx.who(e.partner)} for {cards(e.get)}"


@narrates(TradeCancelled)
def _cancelled(e: TradeCancelled, ctx: Context) -> str:
    return f"{ctx.who(e.seat)} withdrew the offer"


@narrates(SeatForfeited)
def _forfeited(e: SeatForfeited, ctx: Context) -> str:
    return f"{ctx.who(e.seat)} forfeited ({e.reason}); the rules play its default moves"


@narrates(GameFinished)
def _finished(e: GameFinished, ctx: Context) -> str:
    scores = ", ".join(f"{ctx.who(s)} {vp}" for s, vp in enumerate(e.scores))
    if e.winner is None:
        head = f"Game over ({e.reason.replace('_', ' ')}), no winner"
    else:
        head = f"Game over: {ctx.who(e.winner)} wins with {e.scores[e.winner]} VP"
    return f"{head}. Scores: {scores}. Seed revealed: {e.seed}"


# --- undo and contests ----------------------------------------------------------------------


@narrates(UndoProposed)
def _undo_proposed(e: UndoProposed, ctx: Context) -> str:
    who = ", ".join(ctx.who(s) for s in e.needs) if e.needs else "the referee"
    return f"{ctx.who(e.seat)} proposes to undo back to version {e.to_version} (to approve: {who})"


@narrates(UndoApproved)
def _undo_approved(e: UndoApproved, ctx: Context) -> str:
    return f"{ctx.who(e.seat)} approves the undo"


@narrates(UndoRejected)
def _undo_rejected(e: UndoRejected, ctx: Context) -> str:
    return f"{ctx.who(e.seat)} rejects the undo"


@narrates(Reverted)
def _reverted(e: Reverted, ctx: Context) -> str:
    return (f"Reverted to version {e.to_version}: events {e.first}-{e.last} are undone "
            f"(proposed by {ctx.who(e.by)})")


@narrates(RulingReviewed)
def _reviewed(e: RulingReviewed, ctx: Context) -> str:
    return (f"{ctx.who(e.seat)} contested the {e.kind} of {e.command_id} (version {e.version}): "
            f"\"{e.claim}\" — {e.verdict.upper()} under {e.rule_id}: {e.rule} "
            f"({ctx.readable(e.message)})")
