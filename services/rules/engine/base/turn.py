"""The turn (docs/rules/base.md §1.4–§1.6): roll, production with bank shortage, the 7 (discards, robber,
steal), end of turn. `roll`, `resolve_dice`, `resolve_number`, `seven`, `seven_stage`,
`production`, `robber_hexes`, `robber_victims`, `end_of_turn` and `wins` are ruleset hooks
(hooks.py): modules wrap them (event cards draw instead of rolling, the friendly robber narrows
the hexes, a scenario's 7 moves a barbarian instead of the robber, …)."""

from __future__ import annotations

from typing import Final

from events.commands import Command, DiscardResources, EndTurn, MoveRobber, RollDice
from events.events import (
    CardStolen,
    DiceRolled,
    DiscardRequired,
    Event,
    GameFinished,
    ResourcesDiscarded,
    ResourcesProduced,
    RobberMoved,
    TurnEnded,
)
from events.prompts import Prompt
from services.rules.engine import hook_keys as hk
from services.rules.engine.base.common import (
    all_at_least,
    holds_any,
    holds_any_row,
    require_current,
    vector,
)
from services.rules.engine.base.option_commands import robber_move, robber_moves
from services.rules.engine.base.scoring import scores, total_vp
from services.rules.engine.chance import DICE_OUTCOMES, DICE_WEIGHTS, Dealer
from services.rules.engine.rules import reject
from services.rules.engine.state import DISCARD, MAIN, NO_ONE, OVER, ROBBER, ROLL, Rules, State
from services.rules.engine.vocab import base_bundle
from services.rules.engine.vocab_check import SELF_CHECKED, refuse

# --- rolling and production -----------------------------------------------------------------


def roll_dice(state: State, cmd: RollDice, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    return state.rules.hooks.roll(state, cmd.seat, dealer)


def base_roll(state: State, seat: int, dealer: Dealer) -> list[Event]:
    d1, d2 = dealer.pick(f"dice:{state.rolls}", DICE_OUTCOMES, DICE_WEIGHTS)
    events: list[Event] = [DiceRolled(seat=seat, d1=d1, d2=d2, n=state.rolls)]
    events.extend(state.rules.hooks.resolve_dice(state, seat, d1, d2, dealer))
    return events


def base_resolve_dice(state: State, seat: int, d1: int, d2: int, dealer: Dealer) -> list[Event]:
    """The faces are known: resolve their total (a module may look at the faces first)."""
    return state.rules.hooks.resolve_number(state, seat, d1 + d2, dealer)


def base_resolve_number(state: State, seat: int, total: int, dealer: Dealer) -> list[Event]:
    if total == 7:
        return state.rules.hooks.seven(state, seat, dealer)
    return produce(state, total)


def base_production(state: State, total: int) -> list[list[int]]:
    """What each seat is due for `total`, before the bank shortage rule (§1.5)."""
    board = state.board
    hex_vertices = board.topo.hex_vertices
    owner = state.vertex_owner
    level = state.vertex_level
    robber = state.robber
    width = len(state.bank)
    n = state.n  # owners beyond the seats (neutral pieces) never produce
    # A literal row where the width is the base game's: compiled, `[0] * width` is a generic
    # sequence repeat, several times the cost of building five items.
    gains = [[0, 0, 0, 0, 0] if width == 5 else [0] * width for _ in range(n)]
    for h in board.number_hexes.get(total, ()):
        if h == robber:
            continue
        r = board.hex_resource[h]
        if r < 0:
            continue
        for v in hex_vertices[h]:
            o = owner[v]
            if 0 <= o < n:
                gains[o][r] += level[v]
    return gains


def apply_shortage(state: State, gains: list[list[int]]) -> tuple[list[list[int]], list[int]]:
    """Bank shortage (§0.3): a resource the bank cannot pay everyone goes to nobody, unless
    only one seat is due it (that seat takes what is left)."""
    short: list[int] = []
    bank = state.bank
    # Plain loops, not sum/min/zip/map (see base.common.holds_any).
    total = 0
    for row in gains:
        for n in row:
            total += n
    if all_at_least(bank, total):  # gains are counts (never negative)
        return gains, short  # the common case: the bank can pay everything due
    for r in range(len(gains[0]) if gains else 0):
        need = 0
        for row in gains:
            need += row[r]
        if need <= bank[r]:
            continue
        due = [s for s in range(len(gains)) if gains[s][r]]
        short.append(r)
        if len(due) == 1:
            gains[due[0]][r] = state.bank[r]
        else:
            for s in due:
                gains[s][r] = 0
    return gains, short


def produce(state: State, total: int) -> list[Event]:
    gains, short = apply_shortage(state, state.rules.hooks.production(state, total))
    if not short and not holds_any_row(gains):
        return []
    vocab = state.rules.vocab
    wire = vocab.wire_bundle
    # The base vocabulary's bundle called directly (a C call compiled, where a call through
    # the vocabulary's field parses its arguments again): four per roll.
    bundles = ([base_bundle(row) for row in gains] if wire is base_bundle
               else [wire(row) for row in gains])
    return [ResourcesProduced(gains=tuple(bundles),
                              short=tuple([vocab.resources[r] for r in short]))]


def base_seven(state: State, seat: int, dealer: Dealer) -> list[Event]:
    """A 7: every seat with more than 7 cards discards half (then the robber: seven_stage)."""
    counts = tuple(p.cards // 2 if p.cards > 7 else 0 for p in state.players[: state.n])
    if any(counts):
        return [DiscardRequired(counts=counts)]
    return []


def base_seven_stage(state: State) -> None:
    """A 7's discards are done (or none were due): the robber moves."""
    state.phase = ROBBER
    state.robber_from = "seven"


# --- discards and the robber ----------------------------------------------------------------


def discard(state: State, cmd: DiscardResources, dealer: Dealer) -> list[Event]:
    due = state.discards[cmd.seat]
    if due == 0:
        raise reject("base.turn.not_your_turn", f"{state.names[cmd.seat]} has nothing to discard")
    vec = vector(state, cmd.resources)
    given = 0
    for n in vec:  # plain loops, not sum/any over zip (see base.common.holds_any)
        given += n
    if given != due:
        raise reject("base.discard.count", f"discard exactly {due} cards, not {given}")
    hand = state.players[cmd.seat].hand
    for i, n in enumerate(vec):
        if n > hand[i]:
            raise reject("base.discard.not_held", "you cannot discard cards you do not hold")
    return [ResourcesDiscarded(seat=cmd.seat, resources=state.rules.vocab.wire_bundle(vec))]


def base_robber_hexes(state: State, seat: int) -> list[int]:
    robber = state.robber
    return [h for h in state.board.topo.land_hexes if h != robber]


OFF_BOARD: Final = NO_ONE  # the robber's place when it is off the board (a map starting it there)


def base_robber_home(state: State) -> int | None:
    """Where "to the desert" sends the robber: the first desert; on a map without one whose
    robber starts off the board, off the board; else nowhere (it stays)."""
    deserts = state.board.desert_hexes
    if deserts:
        return deserts[0]
    m = state.board.mapdata
    return OFF_BOARD if m is not None and m.robber == "none" else None


def robber_refuges(state: State) -> tuple[int, ...]:
    """Where a rule that sends the robber "to the desert" may send it (Friendly Robber with no
    open hex, Robber Flees, Catan for Two's token action): every desert (terrains that count as
    one included), else the ruleset's `robber_home` (off the board, a scenario's place), else
    nowhere (docs/rules/combinations.md §13.3)."""
    deserts = state.board.desert_hexes
    if deserts:
        return deserts
    home = state.rules.hooks.robber_home(state)
    return (home,) if home is not None else ()


def base_robber_victims(state: State, seat: int, hex_id: int) -> list[int]:
    if hex_id == OFF_BOARD:
        return []  # off the board: nobody to rob
    owner = state.vertex_owner
    n = state.n
    out: list[int] = []
    for v in state.board.topo.hex_vertices[hex_id]:
        o = owner[v]
        if 0 <= o < n and o != seat and o not in out:  # seats only
            out.append(o)
    if len(out) > 1:
        out.sort()
    return out


def move_robber(state: State, cmd: MoveRobber, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    h = cmd.hex
    topo = state.board.topo
    legal = state.rules.hooks.robber_hexes(state, cmd.seat)
    # Off the board (-1) only where a module's rule sends it there (robber_hexes lists it).
    if h not in legal and not 0 <= h < len(topo.hexes):
        raise reject("base.place.unknown", f"there is no hex {h} on this map")
    if h not in legal:
        if h == state.robber:
            raise reject("base.robber.same_hex", "the robber must move to another hex")
        if not topo.hex_is_land[h]:
            raise reject("base.robber.not_land", f"{state.board.hex_name(h)} is not land")
        rule_id = robber_refusal(state, cmd.seat, h, None) or "base.robber.hex"
        raise reject(rule_id, f"the robber may not go to {state.board.hex_name(h)}")
    if cmd.take is not None:  # the name is checked here (vocab_check.SELF_CHECKED)
        if cmd.take not in state.rules.vocab.resource_index:
            raise refuse(state.rules.vocab, cmd)
        raise reject("base.robber.no_choice",
                     f"the robber's card is drawn at random: no rule lets you take {cmd.take}")
    victims = state.rules.hooks.robber_victims(state, cmd.seat, h)
    if cmd.victim is None:
        if victims:
            raise reject("base.robber.victim", "choose whom to rob: " + ", ".join(map(str, victims)))
    elif cmd.victim not in victims:
        rule_id = robber_refusal(state, cmd.seat, h, cmd.victim) or "base.robber.victim"
        raise reject(rule_id, f"seat {cmd.victim} cannot be robbed at that hex")
    events: list[Event] = [RobberMoved(seat=cmd.seat, hex=h, victim=cmd.victim)]
    if cmd.victim is not None:
        events.extend(state.rules.hooks.steal(state, cmd.seat, cmd.victim, dealer))
    return events


SELF_CHECKED.add(move_robber)


def robber_refusal(state: State, seat: int, h: int, victim: int | None) -> str | None:
    """The module rule that refuses this robber move, if a module explains it."""
    for explain in state.rules.hooks.robber_refusal:
        rule_id = explain(state, seat, h, victim)
        if rule_id is not None:
            return rule_id
    return None


def steal(state: State, thief: int, victim: int, dealer: Dealer) -> list[Event]:
    """One random resource card from the victim's hand (nothing if it is empty)."""
    hand = state.players[victim].hand
    if not holds_any(hand):
        return []
    names = state.rules.vocab.resources
    resource = dealer.pick(f"steal:{state.steals}", names, hand)
    return [CardStolen(thief=thief, victim=victim, resource=resource, n=state.steals)]


def roll_refusal(state: State, cmd: Command) -> str | None:
    """The active seat rolls once, at the start of its turn, before trading or building (§1.4)."""
    if cmd.seat != state.current:
        return None
    if isinstance(cmd, RollDice):
        return "base.roll.already" if state.rolled else None
    if state.phase == ROLL and type(cmd) in state.rules.registry.phase_commands.get(MAIN, ()):
        return "base.roll.required"
    return None


# --- end of turn ----------------------------------------------------------------------------


def end_turn(state: State, cmd: EndTurn, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    if not state.rules.hooks.end_of_turn:
        return pass_turn(state, cmd.seat, dealer)
    return finish_turn(state, cmd.seat, dealer)


def finish_turn(state: State, seat: int, dealer: Dealer) -> list[Event]:
    """The end-of-turn steps (`end_of_turn` hooks), then the turn passes. A step whose events
    open a stage (the phase leaves MAIN) stops here; its stage calls this again when it
    closes. Steps already done this turn return nothing, so a second call is safe."""
    steps = state.rules.hooks.end_of_turn
    scratch = state.copy()
    events: list[Event] = []
    for step in steps:
        for e in step(scratch, seat, dealer):
            scratch.rules.registry.evolvers[type(e)](scratch, e)
            scratch.version += 1
            events.append(e)
        if scratch.finished or scratch.phase != MAIN:
            return events
    return events + pass_turn(scratch, seat, dealer)


def base_wins(state: State, seat: int) -> bool:
    return total_vp(state, seat) >= state.rules.hooks.win_target(state, seat)


def pass_turn(state: State, seat: int, dealer: Dealer) -> list[Event]:
    nxt = state.next_seat(seat)
    events: list[Event] = [TurnEnded(seat=seat, next=nxt)]
    # A seat that reached its target on someone else's turn wins as its own turn begins.
    if state.rules.hooks.wins(state, nxt):
        events.append(
            GameFinished(winner=nxt, scores=scores(state), reason="victory", seed=dealer.seed_hex())
        )
    elif state.turn_limit and state.turn >= state.turn_limit:
        events.append(
            GameFinished(winner=None, scores=scores(state), reason="turn_limit", seed=dealer.seed_hex())
        )
    return events


# --- evolvers -------------------------------------------------------------------------------


def evolve_dice(state: State, e: DiceRolled) -> None:
    total = e.d1 + e.d2
    state.rolls += 1
    state.rolled = True
    state.last_roll = total
    after_number(state, total)


def after_number(state: State, total: int) -> None:
    """The phase a rolled number leads to (a 7 to its stage, discards come first)."""
    if total == 7:
        state.rules.hooks.seven_stage(state)
    else:
        state.rules.hooks.roll_resolved(state)


def base_roll_resolved(state: State) -> None:
    """A roll's production (or a 7's discards and robber) is done: on to trade and build."""
    state.phase = MAIN


def evolve_produced(state: State, e: ResourcesProduced) -> None:
    bank = state.bank
    players = state.players
    index = state.rules.vocab.resource_index
    for seat, bundle in enumerate(e.gains):
        if bundle:
            hand = players[seat].hand
            for name, n in bundle.items():
                r = index[name]
                hand[r] += n
                bank[r] -= n


def evolve_discard_required(state: State, e: DiscardRequired) -> None:
    state.discards = list(e.counts)
    state.phase = DISCARD


def evolve_discarded(state: State, e: ResourcesDiscarded) -> None:
    vec = state.rules.vocab.vector(e.resources)
    hand = state.players[e.seat].hand
    given = 0
    for i, n in enumerate(vec):
        hand[i] -= n
        state.bank[i] += n
        given += n
    # The whole discard is one event; a log from before oil merged into it holds the oil in
    # an event of its own first (events/oil_springs.py), so a part leaves the rest owed.
    left = state.discards[e.seat] - given
    state.discards[e.seat] = left if left > 0 else 0
    if not holds_any(state.discards):
        state.rules.hooks.seven_stage(state)


def evolve_robber(state: State, e: RobberMoved) -> None:
    state.robber = e.hex
    if state.robber_from == "seven":
        state.rules.hooks.roll_resolved(state)
    else:
        state.phase = MAIN if state.rolled else ROLL


def evolve_stolen(state: State, e: CardStolen) -> None:
    if e.n >= 0:  # drawn: the next steal is the next chance point (a chosen card is not)
        state.steals += 1
    if e.resource is not None:
        r = state.rules.vocab.resource_index[e.resource]
        state.players[e.victim].hand[r] -= 1
        state.players[e.thief].hand[r] += 1


def evolve_turn_ended(state: State, e: TurnEnded) -> None:
    state.current = e.next
    state.turn += 1
    state.rolled = False
    state.dev_played = False
    state.phase = ROLL
    for p in state.players:
        if holds_any(p.dev_new):  # a plain loop: compiled, a list comparison is a generic call
            p.dev_new = [0] * len(p.dev_new)


def evolve_finished(state: State, e: GameFinished) -> None:
    state.finished = True
    state.winner = e.winner if e.winner is not None else NO_ONE
    state.phase = OVER


# --- prompts --------------------------------------------------------------------------------


def default_discard(state: State, seat: int) -> DiscardResources:
    """Discard from the most plentiful resources first (the silent seat's default)."""
    hand = state.players[seat].hand[:]
    out = [0] * len(hand)
    for _ in range(state.discards[seat]):
        r = hand.index(max(hand))  # the first of the most plentiful
        hand[r] -= 1
        out[r] += 1
    return DiscardResources(seat=seat, resources=state.rules.vocab.wire_bundle(out))


def prompt_discard(state: State) -> list[Prompt]:
    return [
        Prompt(
            seat=s,
            stage=DISCARD,
            options=[],
            default=default_discard(state, s),
            discard=n,
            hand=state.rules.vocab.wire_bundle(state.players[s].hand),
        )
        for s, n in enumerate(state.discards)
        if n
    ]


def robber_options(state: State, seat: int) -> list[Command]:
    rules = state.rules
    moves = robber_moves(seat, len(state.board.topo.hexes), state.n)
    if rules.hooks.robber_victims is base_robber_victims:
        return _base_robber_options(state, seat, moves)
    options: list[Command] = []
    victims_at = rules.hooks.robber_victims
    for h in rules.hooks.robber_hexes(state, seat):
        victims = victims_at(state, seat, h)
        if victims:
            options.extend([robber_move(moves, seat, h, v) for v in victims])
        else:
            options.append(robber_move(moves, seat, h, None))
    return options


def _base_robber_options(
    state: State, seat: int, moves: tuple[tuple[MoveRobber, ...], ...]
) -> list[Command]:
    """`robber_options` when no module wraps `robber_victims`: `base_robber_victims` inlined,
    the victims of a hex kept as bits (seat order) instead of a list per land hex. Asked once
    per hex through the ruleset, the victims had cost the compiled build more than the rest of
    the prompt."""
    options: list[Command] = []
    owner = state.vertex_owner
    hex_vertices = state.board.topo.hex_vertices
    n = state.n
    for h in state.rules.hooks.robber_hexes(state, seat):
        found = 0
        if h != OFF_BOARD:
            for v in hex_vertices[h]:
                o = owner[v]
                if 0 <= o < n and o != seat:  # seats only
                    found |= 1 << o
        if found == 0:
            options.append(robber_move(moves, seat, h, None))
            continue
        for o in range(n):
            if found >> o & 1:
                options.append(robber_move(moves, seat, h, o))
    return options


def prompt_robber(state: State) -> list[Prompt]:
    seat = state.current
    options = robber_options(state, seat)
    return [Prompt(seat=seat, stage=ROBBER, options=options, default=options[0])]


def install(rules: Rules) -> None:
    rules.set_hook(hk.ROLL, base_roll)
    rules.set_hook(hk.RESOLVE_DICE, base_resolve_dice)
    rules.set_hook(hk.RESOLVE_NUMBER, base_resolve_number)
    rules.set_hook(hk.SEVEN, base_seven)
    rules.set_hook(hk.SEVEN_STAGE, base_seven_stage)
    rules.set_hook(hk.WINS, base_wins)
    rules.set_hook(hk.ROLL_RESOLVED, base_roll_resolved)
    rules.set_hook(hk.PRODUCTION, base_production)
    rules.set_hook(hk.ROBBER_HEXES, base_robber_hexes)
    rules.set_hook(hk.ROBBER_VICTIMS, base_robber_victims)
    rules.set_hook(hk.ROBBER_HOME, base_robber_home)
    rules.set_hook(hk.STEAL, steal)
    rules.handle(RollDice, roll_dice)
    rules.handle(DiscardResources, discard)
    rules.handle(MoveRobber, move_robber)
    rules.handle(EndTurn, end_turn)
    rules.allow(ROLL, RollDice)
    rules.allow(DISCARD, DiscardResources)
    rules.allow(ROBBER, MoveRobber)
    rules.allow(MAIN, EndTurn)
    rules.add_hook(hk.PHASE_REFUSAL, roll_refusal)
    rules.prompt(DISCARD, prompt_discard)
    rules.prompt(ROBBER, prompt_robber)
    rules.evolve_with(DiceRolled, evolve_dice)
    rules.evolve_with(ResourcesProduced, evolve_produced)
    rules.evolve_with(DiscardRequired, evolve_discard_required)
    rules.evolve_with(ResourcesDiscarded, evolve_discarded)
    rules.evolve_with(RobberMoved, evolve_robber)
    rules.evolve_with(CardStolen, evolve_stolen)
    rules.evolve_with(TurnEnded, evolve_turn_ended)
    rules.evolve_with(GameFinished, evolve_finished)
