"""Names in commands checked against the game's vocabulary, before any rule reads them.

A wire field holding a resource (or a trade good, a card, a terrain) is a plain string: the wire
does not know which names a game has (events/types.py). Every handler of a command type with
such fields is wrapped, once per ruleset (`install`, after the modules), by a check that refuses
an unknown name with `base.vocab.unknown_<kind>` and a one-line message naming the field and the
names the game knows. The rules behind it may then index the vocabulary without a KeyError.

The fields are found from the command's annotations (`events.types.Named`), once per type.
Commands without such fields keep their handler as it was: nothing is added to the hot path of
a roll, a build or the end of a turn. Two base handlers check their own names where they look
them up anyway (`SELF_CHECKED`: a maritime trade is a seventh of a random game's decisions, a
robber move a fifteenth); they are wrapped like any other once a module wraps them.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterable
from functools import cache
from operator import attrgetter
from typing import Annotated, Final

from events.commands import Command
from events.events import Event
from events.types import Named
from services.rules.engine.chance import Dealer
from services.rules.engine.registry import Handler
from services.rules.engine.rules import Rejected, register, reject
from services.rules.engine.state import Rules, State
from services.rules.engine.vocab import Vocabulary

# The kinds of names commands carry (a command type with another kind fails the ruleset's
# assembly: give its kind a rule id here first).
RULE_IDS: Final = {
    "resource": "base.vocab.unknown_resource",
    "trade good": "base.vocab.unknown_trade_good",
}

register({
    "base.vocab.unknown_resource": "A command names only resources this game has (the base five and its modules' own, such as Oil Springs' oil).",
    "base.vocab.unknown_trade_good": "A trade names only this game's resources and its currency, if it has one (gold).",
})

# How a field holds its names: one name, several, or the keys of a bundle (any of them may be
# optional: a None holds no name).
ONE, SEVERAL, KEYS = "one", "several", "keys"
NamedField = tuple[str, str, str]  # (field, kind, how)


def _named(annotation: object) -> Named | None:
    if typing.get_origin(annotation) is Annotated:
        metadata: tuple[object, ...] = getattr(annotation, "__metadata__", ())
        return next((m for m in metadata if isinstance(m, Named)), None)
    return None


def _how(annotation: object) -> tuple[Named, str] | None:
    """The names an annotation holds, and how (None: none)."""
    named = _named(annotation)
    if named is not None:
        return named, ONE
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is dict and args and _named(args[0]) is not None:
        found = _named(args[0])
        assert found is not None
        return found, KEYS
    if origin is tuple or origin is list:
        inner = [_named(a) for a in args if a is not Ellipsis]
        if inner and inner[0] is not None:
            return inner[0], SEVERAL
    if origin is typing.Union or origin is types.UnionType:
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:
            return _how(rest[0])
    return None


@cache
def named_fields(command: type[Command]) -> tuple[NamedField, ...]:
    """The fields of `command` that hold vocabulary names."""
    hints = typing.get_type_hints(command, include_extras=True)
    out: list[NamedField] = []
    for field in command.__struct_fields__:
        found = _how(hints[field])
        if found is not None:
            named, how = found
            if named.kind not in RULE_IDS:
                raise TypeError(f"{command.__name__}.{field}: no rule id for {named.kind} names")
            out.append((field, named.kind, how))
    return tuple(out)


def unknown(vocab: Vocabulary, command: Command, fields: tuple[NamedField, ...]) -> None:
    """Raise Rejected at the first name the vocabulary does not know."""
    for field, kind, how in fields:
        value = getattr(command, field)
        if value is None:
            continue
        names: Iterable[object] = (value,) if how == ONE else value  # a sequence, or a bundle (its keys)
        known = vocab.known[kind]
        for name in names:
            if name not in known:
                raise reject(RULE_IDS[kind],
                             f"{type(command).__name__}.{field}: {name!r} is not a {kind} of this "
                             f"game (it knows {', '.join(vocab.names(kind))})")


# Handlers that refuse unknown names themselves (with `refuse`), so are not wrapped.
SELF_CHECKED: set[object] = set()


def refuse(vocab: Vocabulary, command: Command) -> Rejected:
    """The rejection of `command`'s first unknown name (a self-checking handler found one)."""
    try:
        unknown(vocab, command, named_fields(type(command)))
    except Rejected as exc:
        return exc
    raise AssertionError(f"{command!r}: every name is known")


def checked(handler: Handler[State], fields: tuple[NamedField, ...],
            vocab: Vocabulary) -> Handler[State]:
    """`handler` behind the check of `fields`. The check is built for this ruleset: a getter
    and the set of known names per field, one membership test each (MaritimeTrade is a seventh
    of a random game's decisions); the message is made only on a refusal."""
    plan = tuple((attrgetter(field), vocab.known[kind], how == ONE) for field, kind, how in fields)

    def check_then_handle(state: State, command: Command, dealer: Dealer) -> list[Event]:
        for get, known, one in plan:
            value = get(command)
            if value is not None and ((value not in known) if one else
                                      not known.issuperset(value)):
                unknown(vocab, command, fields)  # raises, naming the field
        return handler(state, command, dealer)

    return check_then_handle


def install(rules: Rules) -> None:
    """Wrap the handler of every command type with vocabulary names (after every module, the
    vocabulary frozen)."""
    for command, handler in list(rules.registry.handlers.items()):
        fields = named_fields(command)
        if fields and handler not in SELF_CHECKED:
            rules.wrap_handler(command, names_checked(fields, rules.vocab))


def names_checked(fields: tuple[NamedField, ...],
                  vocab: Vocabulary) -> Callable[[Handler[State]], Handler[State]]:
    """The wrapper that puts a handler behind the check of `fields` (`checked`)."""

    def check_names(handler: Handler[State]) -> Handler[State]:
        return checked(handler, fields, vocab)

    return check_names
