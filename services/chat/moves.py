"""Moves as short text: `roll`, `road F2-3`, `settle F4`, `city F4`, `buy`, `robber K 2`,
`trade grain ore`, `discard brick=1 ore=2`, `knight`, `monopoly ore`, `plenty ore wool`,
`end`, `#3` (option 3 of the prompt), `default`.

Places are named by the labels the pictures draw (services/render/places.py: hex K, corner F4,
path F2-3); a label is read on the game's own board (`Places`). A bare number is still read as
the place's id, for scripts.

Only syntax lives here: a text becomes a command object, the prompt's option with those values
when there is one, else the command as written, which the rules service then judges (and
refuses, with its rule, when it is not legal). Where two command types share a word (a
settlement placed in the setup or built later) the prompt's options decide, else its stage.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from services.render.places import Places, command_places, place_kind

Json = dict[str, Any]
RESOURCES = ("brick", "grain", "lumber", "ore", "wool")


@dataclass(frozen=True)
class Word:
    types: tuple[str, ...]  # the command types the word may mean, setup form first
    fields: tuple[str, ...] = ()  # positional integer fields
    help: str = ""


WORDS: dict[str, Word] = {
    "roll": Word(("RollDice",), help="roll the dice"),
    "end": Word(("EndTurn",), help="end your turn"),
    "settle": Word(("PlaceSettlement", "BuildSettlement"), ("vertex",),
                   "settle C: a settlement on corner C, a label such as F4"),
    "road": Word(("PlaceRoad", "BuildRoad"), ("edge",),
                 "road P: a road on path P, a label such as F2-3"),
    "city": Word(("BuildCity",), ("vertex",), "city C: a city on corner C, a label such as F4"),
    "buy": Word(("BuyDevelopmentCard",), help="buy a development card"),
    "robber": Word(("MoveRobber",), ("hex", "victim"),
                   "robber H [S]: the robber to hex H, a letter, stealing from seat S"),
    "knight": Word(("PlayKnight",), help="play a knight"),
    "roads": Word(("PlayRoadBuilding",), help="play road building"),
    "stop": Word(("StopRoadBuilding",), help="stop road building"),
    "accept": Word(("AcceptTrade",), help="accept the trade offered to you"),
    "reject": Word(("RejectTrade",), help="reject the trade offered to you"),
    # Pirate Islands: a ship's path is a label like any other, out at sea too.
    "ship": Word(("BuildShip",), ("edge",), "ship P: a ship on path P (Pirate Islands)"),
    "sail": Word(("MoveShip",), ("ship", "to"),
                 "sail P Q: your route's front ship from path P to path Q (Pirate Islands)"),
    "attack": Word(("AttackFortress",), ("fortress",),
                   "attack C: your pirate fortress on corner C (Pirate Islands)"),
}
TEXT_WORDS = {
    "trade": "trade G R: give G at your best harbour ratio for one R",
    "discard": "discard brick=1 ore=2: the cards you give up",
    "monopoly": "monopoly R: take every R",
    "plenty": "plenty R R: two resources from the bank",
    "#N": "option N of your prompt",
    "default": "the prompt's default move",
}
ALIASES = {"settlement": "settle", "s": "settle", "r": "road", "c": "city", "e": "end",
           "pass": "default", "dev": "buy"}


class MoveError(ValueError):
    """A text that is not a move; the text, one sentence, says what to send instead."""


NOTHING_WAITS = "Nothing waits for a move of yours now; your next prompt comes by direct message."
HELP = "`help` lists the moves"


def help_text() -> str:
    lines = [f"  {w.help}" if w.help else f"  {name}" for name, w in WORDS.items()]
    lines += [f"  {text}" for text in TEXT_WORDS.values()]
    return "Moves:\n" + "\n".join(lines)


PLACE_WORDS = {"vertex": "corner", "edge": "path", "hex": "hex"}


def parse(text: str, prompt: Json | None, seat: int, places: Places | None = None) -> Json:
    """The command a text means for `seat` (MoveError if it means none); `places` reads
    place labels on the game's board."""
    words = text.strip().lower().split()
    if not words:
        raise MoveError(f"No move given: send one such as `roll` or `#2` ({HELP}).")
    head, args = ALIASES.get(words[0], words[0]), words[1:]
    if head.startswith("#") or head.isdigit():
        return option(head.lstrip("#"), prompt)
    if head == "default":
        if prompt is None:
            raise MoveError(NOTHING_WAITS)
        return dict(prompt["default"])
    if head == "trade":
        if len([a for a in args if a != "for"]) != 2:
            raise MoveError(f"Usage: `{TEXT_WORDS['trade'].replace(': ', '` (', 1)}).")
        give, get = [a for a in args if a != "for"]
        return matched({"type": "MaritimeTrade", "seat": seat, "give": resource(give),
                        "get": resource(get)}, prompt)
    if head == "discard":
        return {"type": "DiscardResources", "seat": seat, "resources": bundle(args)}
    if head == "monopoly":
        return matched({"type": "PlayMonopoly", "seat": seat,
                        "resource": resource(args[0] if args else "")}, prompt)
    if head == "plenty":
        if len(args) != 2:
            raise MoveError("Year of plenty takes two resources, e.g. `plenty ore wool`.")
        return matched({"type": "PlayYearOfPlenty", "seat": seat,
                        "resources": [resource(a) for a in args]}, prompt)
    word = WORDS.get(head)
    if word is None:
        raise MoveError(f"`{words[0]}` is not a move; {HELP}.")
    if len(args) > len(word.fields) or (word.fields and not args and word.fields[0] != "victim"):
        raise MoveError(f"Usage: {usage(word)}.")
    values: Json = {}
    command_type = kind(word, prompt)
    for name, value in zip(word.fields, args, strict=False):
        values[name] = place_value(name, value, word, places, command_type)
    return matched({"type": command_type, "seat": seat, **values}, prompt)


def place_value(name: str, value: str, word: Word, places: Places | None,
                command_type: str = "") -> int:
    """A field's value: a seat or an id as a number, a place by its label (a field names a
    corner, a path or a hex by its name or by its command's: services/render/places.py)."""
    if value.isdigit():
        return int(value)
    place = place_kind(command_type, name)
    what = PLACE_WORDS.get(place or "")
    if place is None or what is None:
        raise MoveError(f"The {name} is a seat number, not `{value}`: {usage(word)}.")
    if places is None:
        raise MoveError(f"`{value.upper()}` names no {what} yet (the board comes with the first "
                        f"prompt): {usage(word)}.")
    found = places.labels.find(value)
    if found is None or found[0] != place:
        raise MoveError(f"`{value.upper()}` is not a {what} of this board: {usage(word)}; the picture "
                        "with your prompt marks the ones you may take.")
    return found[1]


def usage(word: Word) -> str:
    """`road E` (a road on edge E): a word's form, then what it does."""
    form, _, meaning = word.help.partition(": ")
    return f"`{form}` ({meaning})" if meaning else f"`{form}`"


def kind(word: Word, prompt: Json | None) -> str:
    if len(word.types) == 1 or prompt is None:
        return word.types[0]
    offered = {o["type"] for o in prompt["options"]}
    for t in word.types:
        if t in offered:
            return t
    return word.types[0] if str(prompt.get("stage", "")).startswith("setup") else word.types[-1]


def matched(command: Json, prompt: Json | None) -> Json:
    """The prompt's option that `command` names (so optional fields come from it), else the
    command as written."""
    for o in (prompt or {}).get("options", []):
        if o["type"] == command["type"] and all(o.get(k) == v for k, v in command.items()):
            return dict(o)
    return command


def option(number: str, prompt: Json | None) -> Json:
    if prompt is None:
        raise MoveError(NOTHING_WAITS)
    options = prompt["options"]
    if not options:
        raise MoveError(no_options(prompt))
    if not number.isdigit() or not 1 <= int(number) <= len(options):
        some = ("its one option is #1" if len(options) == 1
                else f"its options are #1 to #{len(options)}")
        raise MoveError(f"There is no option #{number} in this prompt: {some}.")
    return dict(options[int(number) - 1])


def no_options(prompt: Json) -> str:
    """What to send to a prompt that numbers no option (a discard: the cards are yours to
    choose)."""
    if prompt.get("discard"):
        return (f"This prompt has no numbered options: discard {prompt['discard']} cards with "
                "`discard brick=1 ore=2 …` (any cards of your hand), or send `default`.")
    return f"This prompt has no numbered options: send a move in words ({HELP}) or `default`."


def resource(text: str) -> str:
    for r in RESOURCES:
        if text and r.startswith(text):
            return r
    named = f"`{text}` is not a resource" if text else "Name a resource"
    raise MoveError(f"{named}: {', '.join(RESOURCES[:-1])} or {RESOURCES[-1]}.")


def bundle(args: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for a in args:
        name, _, count = a.partition("=")
        if count and not count.isdigit():
            raise MoveError(f"`{a}` is not resource=count, e.g. `discard brick=1 ore=2`.")
        r = resource(name)
        out[r] = out.get(r, 0) + (int(count) if count else 1)
    if not out:
        raise MoveError("Say which cards to discard, e.g. `discard brick=1 ore=2`.")
    return out


def label(places: Places | None, field: str, value: Any, command_type: str = "") -> str:
    """A field's value as a person types it: a place's label, else the value."""
    place = place_kind(command_type, field)
    if places is None or not isinstance(value, int) or place is None:
        return str(value)
    names = {"vertex": places.labels.vertices, "edge": places.labels.edges,
             "hex": places.labels.hexes}[place]
    return names[value] if 0 <= value < len(names) else str(value)


def words_of(command: Json, places: Places | None) -> str:
    """Where a command's place is, in words (`the 6 forest / 8 hills corner`), or ''."""
    if places is None:
        return ""
    for field, say in (("vertex", places.vertex_words), ("edge", places.edge_words),
                       ("hex", places.hex_words)):
        value = command.get(field)
        if isinstance(value, int) and value >= 0:
            try:
                text = say(value)
            except IndexError:
                return ""
            return text if field != "hex" else f"the {text}"
    return ""


def targets(command: Json) -> list[tuple[str, int]]:
    """The places a command names (its `vertex`, `edge`, `hex`, and a module command's own
    place fields: a ship's path), for the prompt's picture."""
    return command_places(command)


def describe(command: Json, places: Places | None = None) -> str:
    """A command as the text that makes it (`road F2-3`), for prompts and replies."""
    t = command.get("type", "?")
    for name, word in WORDS.items():
        if t in word.types:
            values = [label(places, f, command[f], t) for f in word.fields
                      if command.get(f) is not None]
            return " ".join([name, *values])
    if t == "MaritimeTrade":
        return f"trade {command['give']} {command['get']}"
    if t == "DiscardResources":
        return "discard " + " ".join(f"{k}={v}" for k, v in command["resources"].items() if v)
    if t == "PlayMonopoly":
        return f"monopoly {command['resource']}"
    if t == "PlayYearOfPlenty":
        return "plenty " + " ".join(command["resources"])
    fields = ", ".join(f"{k}={label(places, k, v, t)}" for k, v in command.items()
                       if k not in ("type", "seat"))
    return f"{t}({fields})"
