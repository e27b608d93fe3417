"""Options shared by the `hexlog` commands, and their checks.

Every option is checked while the command line is parsed, or right after, before anything
starts (no Redis, no service): a bad value is exit 2 with one line that names the option, what
it got and what it takes (README "Exit codes"). argparse does the first part through the
`type=` functions here; `check_modules` does what needs the whole command line (the modules
and the seat count together).
"""

from __future__ import annotations

import argparse
import os
import re
import typing
from collections.abc import Callable
from pathlib import Path

import msgspec

from events.events import ModuleSpec
from services.cli.errors import UsageError
from services.rules.engine.modules import MODULES, RulesetError, check_combination
from services.rules.engine.ruleset import Module

DATA_DIR_ENV = "HEXLOG_DATA_DIR"
DEFAULT_DATA_DIR = ".hexlog"


# Games one command plays at once: each holds a connection of its own while it is followed, so
# the bound keeps well inside the client's pool (services/store/connect.py MAX_CONNECTIONS)
# and a server's default 10,000 clients.
MAX_CONCURRENCY = 1024


def at_least(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer >= `low` (`--games 0` is refused, not run), and at most
    `high` when given, the limit named in the refusal."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"at most {high:,}, not {value:,}")
        return value

    parse.__name__ = "integer"  # argparse names the type in its messages
    return parse


# Idle live games `hexlog bench e2e --idle` holds beside the playing ones (each is created
# through the rules service and kept in its memory).
MAX_IDLE = 100_000


def levels(one: Callable[[str], int]) -> Callable[[str], list[int]]:
    """An argparse type: comma-separated values, each checked by `one` (`1,32,256`), the
    first bad one named in the refusal."""

    def parse(text: str) -> list[int]:
        parts = text.split(",")
        if any(not part.strip() for part in parts):
            raise argparse.ArgumentTypeError(
                f"expected whole numbers separated by commas, not {text!r}")
        values = []
        for part in parts:
            try:
                values.append(one(part.strip()))
            except argparse.ArgumentTypeError as exc:
                raise argparse.ArgumentTypeError(
                    f"{exc}" + (f" (in {text!r})" if len(parts) > 1 else "")) from None
        return values

    parse.__name__ = "list"
    return parse


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of seconds, not {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return value


def seat_count(text: str) -> int:
    value = at_least(2)(text)
    if value > 4:
        raise argparse.ArgumentTypeError(f"a game has 2 to 4 seats, not {value}")
    return value


def parse_variant(text: str) -> ModuleSpec:
    """`friendly-robber` or `victory-points:target=12,other=x`."""
    name, _, rest = text.partition(":")
    if not name:
        raise argparse.ArgumentTypeError(f"{text!r} names no module (see `hexlog rulesets`)")
    params: dict[str, int | str | bool] = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise argparse.ArgumentTypeError(f"variant parameter {item!r} is not key=value")
        params[key] = int(value) if value.lstrip("-").isdigit() else value
    return ModuleSpec(name=name, params=params)


def modules_from(args: argparse.Namespace) -> tuple[ModuleSpec, ...]:
    specs: list[ModuleSpec] = []
    if getattr(args, "ruleset", "base") != "base":
        specs.append(ModuleSpec(name=args.ruleset))
    specs.extend(getattr(args, "variant", None) or [])
    return tuple(specs)


class Once(argparse.Action):
    """An option that may be given once: a second value is refused, not silently kept."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        if getattr(namespace, f"_{self.dest}_given", False):
            parser.error(f"{option_string} given twice ({getattr(namespace, self.dest)}, then "
                         f"{values}): a game is played on one scenario; add variants with "
                         "--variant")
        setattr(namespace, f"_{self.dest}_given", True)
        setattr(namespace, self.dest, values)


def add_rules_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--scenario", "--ruleset", dest="ruleset", default="base", metavar="NAME",
                   action=Once, help="base, or a scenario (see `hexlog rulesets`); once")
    p.add_argument("--variant", action="append", type=parse_variant, default=[],
                   metavar="NAME[:k=v,...]",
                   help="add a variant module; repeatable (see `hexlog rulesets`)")


def add_server_options(p: argparse.ArgumentParser, log_level: bool = True) -> None:
    """Where the embedded Valkey keeps its data (and the services their logs)."""
    p.add_argument("--data-dir", type=Path, default=None,
                   help=f"the embedded Valkey's data and the services' logs (default "
                        f"${DATA_DIR_ENV}, else ./{DEFAULT_DATA_DIR}); ignored for data with "
                        "REDIS_URL")
    if log_level:
        p.add_argument("--log-level", default=None,
                       choices=["debug", "info", "warning", "error"],
                       help="log level of this command (default warning; services started for "
                            "it log at info to DATA_DIR/logs)")


DURABILITY_HELP = ("when a command counts as done: `replica` once a replica holds its events "
                   "too (nothing acknowledged is lost with a server), `local` once the primary "
                   "does; default `auto`: replica wherever a replica exists, else local "
                   "(sets $HEXLOG_DURABILITY for the services)")


def add_durability_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--durability", choices=["local", "replica", "auto"], default=None,
                   help=DURABILITY_HELP)


def use_durability(args: argparse.Namespace) -> None:
    """`--durability`, for this process and the services it starts ($HEXLOG_DURABILITY); a
    wrong $HEXLOG_DURABILITY is refused here, before anything starts."""
    from services.store.durability import ENV, mode_from_env

    if getattr(args, "durability", None):
        os.environ[ENV] = args.durability
    try:
        mode_from_env()
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def add_failover_options(p: argparse.ArgumentParser) -> None:
    """`hexlog bench failover`'s own options (it shares --cluster, --concurrency, --json)."""
    p.add_argument("--kills", type=at_least(1), default=20,
                   help="failover: primaries to kill (default 20)")
    p.add_argument("--kill-every", type=positive_seconds, default=2.0, metavar="S",
                   help="failover: seconds between the set being whole again and the next "
                        "kill (default 2)")
    p.add_argument("--phase-s", type=positive_seconds, default=15.0, metavar="S",
                   help="failover: seconds of load measured under each durability (default 15)")


def data_dir(args: argparse.Namespace) -> Path:
    """`--data-dir`, else `$HEXLOG_DATA_DIR`, else `./.hexlog`: always absolute, so what is
    printed is where the data is."""
    given = getattr(args, "data_dir", None) or os.environ.get(DATA_DIR_ENV) or DEFAULT_DATA_DIR
    return Path(given).expanduser().resolve()


# --- modules --------------------------------------------------------------------------------


def check_modules(specs: tuple[ModuleSpec, ...], seats: int) -> None:
    """UsageError, with the reason, when these modules (and their parameters) cannot be
    played together with `seats` seats — the check the rules service would make at game
    creation, made before anything starts."""
    try:
        check_combination(specs, seats)
    except RulesetError as exc:
        raise UsageError(str(exc)) from None
    for spec in specs:
        module = MODULES[spec.name]
        try:
            module.params(spec)
        except (ValueError, TypeError) as exc:
            problem = "" if module.Params is None else f"{param_problem(module, exc)} ("
            raise UsageError(f"--variant {spec_text(spec)}: {problem}{takes(module)}"
                             f"{')' if problem else ''}") from None


def spec_text(spec: ModuleSpec) -> str:
    params = ",".join(f"{k}={v}" for k, v in spec.params.items())
    return f"{spec.name}:{params}" if params else spec.name


def takes(module: Module) -> str:
    """`victory-points takes target=INT (default 10)`."""
    if module.Params is None:
        return f"{module.name} takes no parameters"
    parts = []
    for f in msgspec.structs.fields(module.Params):
        choices = typing.get_args(f.type) if typing.get_origin(f.type) is typing.Literal else ()
        kind = "|".join(map(str, choices)) if choices else getattr(f.type, "__name__", "VALUE").upper()
        parts.append(f"{f.name}={kind} (default {f.default})")
    return f"{module.name} takes {', '.join(parts)}"


TYPE_WORDS = {"int": "a whole number", "bool": "true or false", "str": "text"}
EXPECTED = re.compile(r"Expected `(\w+)`, got `(\w+)` - at `\$\.(\w+)`")
UNKNOWN = re.compile(r"unknown field `(\w+)`")
ENUM = re.compile(r"Invalid enum value (.+) - at `\$\.(\w+)`")


def param_problem(module: Module, exc: Exception) -> str:
    """msgspec's message about a parameter, in the user's words."""
    text = str(exc)
    if m := EXPECTED.search(text):
        return f"{m[3]} must be {TYPE_WORDS.get(m[1], m[1])}"
    if m := UNKNOWN.search(text):
        return f"unknown parameter {m[1]!r}"
    if m := ENUM.search(text):
        return f"{m[2]} cannot be {m[1]}"
    return text.removeprefix(f"{module.name}: ").removesuffix(" - at `$`")
