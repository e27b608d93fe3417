"""The ladder's settings and its rule sets.

A *rule set* is the base game with some modules (`catan-for-two`, `fishermen+harbormaster`,
`victory-points:target=8`), played with as many seats as its modules allow, up to 4. The
ladder plays the rule sets of its rotation in turn; each has a board of its own, and every
game counts on the overall board too.

The matchmaker that leads writes its settings to Redis (keys.CONFIG), where the gateway reads
them: what a bot may choose at registration, the limits the public page states.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from events.events import ModuleSpec
from services.rules.engine import RulesetError
from services.rules.engine.modules import MODULES, check_combination

MAX_SEATS = 4
REFUSED = {"undo": "undo is a table rule for people at a table; bots do not vote"}


class RuleSet(msgspec.Struct, frozen=True, kw_only=True):
    key: str  # what bots and boards call it: `base`, `catan-for-two`, `fishermen+harbormaster`
    modules: tuple[ModuleSpec, ...] = ()
    seats: int = MAX_SEATS


BASE = RuleSet(key="base")


class LadderConfig(msgspec.Struct, kw_only=True):
    rulesets: tuple[RuleSet, ...] = (BASE,)
    deadline_ms: int = 10_000  # per decision; a silent bot's default move is played then
    games_per_bot: int = 2  # games a bot plays at once
    max_live: int = 64  # games the ladder runs at once
    absent_after: int = 3  # deadlines missed in a row before a bot is marked absent
    seen_timeout_s: float = 15.0  # a bot whose stream was not open this long is not matched
    provisional_games: int = 10  # a rating is provisional until this many games
    owners_together: bool = False  # may bots of one owner play in one game
    duplicates: bool = True  # pods formed together share a seed (never a bot)
    stop_after: int = 0  # create no game after this many (0: never stop); benchmarks, tests
    turn_limit: int = 0  # 0: the rules service's

    def ruleset(self, key: str) -> RuleSet | None:
        return next((r for r in self.rulesets if r.key == key), None)

    def public(self) -> dict[str, object]:
        """What the public page and the API say about the ladder."""
        return {
            "rulesets": [{"key": r.key, "seats": r.seats,
                          "modules": [spec_text(m) for m in r.modules]} for r in self.rulesets],
            "deadline_ms": self.deadline_ms, "games_per_bot": self.games_per_bot,
            "max_live": self.max_live, "absent_after": self.absent_after,
            "seen_timeout_s": self.seen_timeout_s,
            "provisional_games": self.provisional_games,
            "owners_together": self.owners_together, "duplicates": self.duplicates,
        }


def spec_text(spec: ModuleSpec) -> str:
    """`victory-points:target=8`, as a rule set names it."""
    params = ",".join(f"{k}={v}" for k, v in sorted(spec.params.items()))
    return f"{spec.name}:{params}" if params else spec.name


def parse_module(text: str) -> ModuleSpec:
    name, _, rest = text.partition(":")
    params: dict[str, int | str | bool] = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"{text!r}: a module parameter is key=value")
        params[key] = int(value) if value.lstrip("-").isdigit() else value
    return ModuleSpec(name=name, params=params)


def parse_ruleset(text: str) -> RuleSet:
    """`base`, or modules joined by `+`; ValueError saying what is wrong."""
    text = text.strip()
    if text in ("", "base"):
        return BASE
    specs = tuple(parse_module(part) for part in text.split("+"))
    for spec in specs:
        if spec.name in REFUSED:
            raise ValueError(f"{text!r}: {REFUSED[spec.name]}")
        if spec.name not in MODULES:
            raise ValueError(f"{text!r}: no module {spec.name!r} (see `hexlog rulesets`)")
    allowed = set.intersection({2, 3, MAX_SEATS}, *(set(MODULES[s.name].seats) for s in specs))
    if not allowed:
        raise ValueError(f"{text!r}: its modules share no seat count")
    seats = max(allowed)
    try:
        check_combination(specs, seats)
        for spec in specs:
            MODULES[spec.name].params(spec)
    except (RulesetError, ValueError, TypeError) as exc:
        raise ValueError(f"{text!r}: {exc}") from None
    return RuleSet(key=ruleset_key(specs), modules=specs, seats=seats)


def parse_rotation(text: str) -> tuple[RuleSet, ...]:
    """`base,catan-for-two,fishermen`: the rule sets the ladder plays in turn."""
    found: dict[str, RuleSet] = {}
    for part in text.split(","):
        ruleset = parse_ruleset(part)
        found.setdefault(ruleset.key, ruleset)
    if not found:
        raise ValueError("no rule set")
    return tuple(found.values())


def ruleset_key(specs: Iterable[ModuleSpec]) -> str:
    """The key of the rule set these modules make: the same from the ladder's settings and
    from a game's `GameCreated` (a finished game's board)."""
    return "+".join(spec_text(s) for s in sorted(specs, key=lambda s: s.name)) or "base"


def encode(config: LadderConfig) -> bytes:
    return msgspec.json.encode(config)


def decode(raw: bytes | str) -> LadderConfig:
    return msgspec.json.decode(raw, type=LadderConfig)
