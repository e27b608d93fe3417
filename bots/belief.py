"""What one seat believes about the others' hidden cards, from its own log.

A seat's log (every event redacted for it, `engine.redact`) hides two things in the base game:
the resource of a steal it was not part of, and the card another seat bought. Everything else
(production, builds, trades, discards, monopolies, year of plenty) is public and exact.

The tracker is a particle filter over whole engine states: `particles` copies of the game, each
one a guess at the hidden part, folded with the same `evolve` the engine uses, so the costs and
effects of every module are followed without knowing them. A hidden value is filled per particle
by drawing it from that particle's own state (a steal from its victim's hand there, a bought
card from its deck there): the draw is the prior, and a later public event that a particle
cannot explain (a seat discarding a card it does not hold there, paying for a city it cannot
afford there) kills that particle, which is the Bayes update. Dead particles are replaced by
copies of the living, so the filter keeps its size.

Where the log is exact, every particle agrees and `hand_distribution` is one hand with
probability 1; otherwise it is the particles' spread. `sample` hands a bot one whole
determinized state (a copy) to search on: it never holds more than the seat could know.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from events.events import CardStolen, DevelopmentCardBought, Event, GameCreated, MonopolyPlayed
from services.rules.engine import evolve, initial_state
from services.rules.engine.state import State

DEFAULT_PARTICLES = 32


class BeliefError(RuntimeError):
    """The log cannot be followed (an event of a module that hides what the tracker cannot
    fill): a bot falls back to what its view says."""


class BeliefTracker:
    def __init__(self, created: GameCreated, seat: int, particles: int = DEFAULT_PARTICLES,
                 seed: int = 0) -> None:
        self.seat = seat
        self.rng = random.Random(seed)
        start = initial_state(created)
        self.particles: list[State] = [start] + [start.copy() for _ in range(particles - 1)]
        self.rebuilt = 0  # times every particle died and the filter mended one (approximate)

    @property
    def version(self) -> int:
        return self.particles[0].version

    def observe(self, event: Event) -> None:
        """Fold one event of this seat's log (already redacted for it)."""
        alive: list[State] = []
        evolved: list[State] = []
        for state in self.particles:
            try:
                evolve(state, self._fill(state, event))
            except (AssertionError, KeyError, IndexError, TypeError, ValueError) as exc:
                raise BeliefError(f"cannot follow {type(event).__name__}: {exc}") from exc
            evolved.append(state)
            if consistent(state) and monopoly_took_all(state, event):
                alive.append(state)
        if not alive:
            # A seat played a card no particle guessed it bought: the count was right, the
            # guess of which card wrong. Swap the guess in each particle and look again.
            for state in evolved:
                if swap_dev_guesses(state) and consistent(state) and monopoly_took_all(state, event):
                    alive.append(state)
        if not alive:
            # Nothing explains the log (too few particles met a rare history): keep one state
            # and mend its hands, moving each missing card from the seat's largest pile.
            self.rebuilt += 1
            mended = self.particles[0]
            mend(mended)
            alive = [mended]
        while len(alive) < len(self.particles):
            alive.append(self.rng.choice(alive[: len(alive)]).copy())
        self.particles = alive

    def observe_all(self, events: Sequence[Event]) -> None:
        for e in events:
            self.observe(e)

    def _fill(self, state: State, event: Event) -> Event:
        """The event with its hidden part drawn from this particle."""
        vocab = state.rules.vocab
        if isinstance(event, CardStolen) and event.resource is None:
            hand = state.players[event.victim].hand
            if sum(hand) == 0:
                return event  # this particle cannot explain the steal: `consistent` drops it
            r = self.rng.choices(range(len(hand)), weights=hand)[0]
            return CardStolen(thief=event.thief, victim=event.victim,
                              resource=vocab.wire_resource(vocab.resources[r]), n=event.n)
        if isinstance(event, DevelopmentCardBought) and event.card is None:
            deck = state.deck
            if sum(deck) == 0:
                return event
            c = self.rng.choices(range(len(deck)), weights=deck)[0]
            return DevelopmentCardBought(seat=event.seat, card=vocab.dev_cards[c],  # type: ignore[arg-type]
                                         n=event.n)
        return event

    # --- what a bot asks ----------------------------------------------------------------------

    def hand_distribution(self, seat: int) -> dict[tuple[int, ...], float]:
        """Resource hands of `seat` (engine vectors) with their probabilities."""
        counts = Counter(tuple(s.players[seat].hand) for s in self.particles)
        total = len(self.particles)
        return {hand: n / total for hand, n in counts.items()}

    def dev_distribution(self, seat: int) -> dict[tuple[int, ...], float]:
        """Unplayed development cards of `seat` (by card index) with their probabilities."""
        counts = Counter(tuple(s.players[seat].dev) for s in self.particles)
        total = len(self.particles)
        return {dev: n / total for dev, n in counts.items()}

    def exact_hand(self, seat: int) -> tuple[int, ...] | None:
        """The hand if the log makes it certain, else None."""
        dist = self.hand_distribution(seat)
        return next(iter(dist)) if len(dist) == 1 else None

    def expected_hand(self, seat: int) -> list[float]:
        n = len(self.particles)
        width = len(self.particles[0].players[seat].hand)
        return [sum(s.players[seat].hand[r] for s in self.particles) / n for r in range(width)]

    def sample(self, rng: random.Random) -> State:
        """One whole state drawn from the belief (a copy: search may change it)."""
        return rng.choice(self.particles).copy()


def consistent(state: State) -> bool:
    for p in state.players:
        if min(p.hand, default=0) < 0 or min(p.dev, default=0) < 0:
            return False
    return min(state.deck, default=0) >= 0


def swap_dev_guesses(state: State) -> bool:
    """Turn another unplayed card of a seat into the one it played (and put the other back
    in the deck's count); False if some seat had no card to turn."""
    for p in state.players[: state.n]:
        for c, n in enumerate(p.dev):
            while n < 0:
                other = next((k for k in range(len(p.dev)) if k != c and p.dev[k] > 0), None)
                if other is None:
                    return False
                p.dev[other] -= 1
                p.dev_new[other] = min(p.dev_new[other], p.dev[other])
                state.deck[other] += 1
                state.deck[c] -= 1
                n += 1
                p.dev[c] = n
    return True


def monopoly_took_all(state: State, event: Event) -> bool:
    """A monopoly takes every card of its resource: a particle that had more than the log
    says was taken from a seat is wrong about that seat."""
    if not isinstance(event, MonopolyPlayed):
        return True
    r = state.rules.vocab.resource_index[event.resource]
    return all(p.hand[r] == 0 for p in state.players[: state.n] if p.seat != event.seat)


def mend(state: State) -> None:
    for p in state.players:
        for vec in (p.hand, p.dev):
            for i, n in enumerate(vec):
                while n < 0:
                    j = max(range(len(vec)), key=lambda k: vec[k])
                    if vec[j] <= 0:
                        vec[i] = 0
                        break
                    vec[j] -= 1
                    n += 1
                    vec[i] = n
    for i, n in enumerate(state.deck):
        if n < 0:
            state.deck[i] = 0
