"""The one error path of the `hexlog` command: every failure ends as one line on stderr and a
documented exit code, never a traceback (unless `--debug`).

Why one place: a new user reads the last line a command printed. Each command raises
`CliError` (or a subclass) with a sentence the user can act on; anything else that escapes a
command (a lost Redis, a closed pipe, Ctrl-C, a bug) is turned into such a sentence here, so no
command needs its own try/except around the same failures.

Exit codes (README "Exit codes", `hexlog --help`):
    0 ok · 1 the command ran and failed (Redis unreachable, a service did not answer, an audit
    divergence) · 2 bad usage: an option, a file or a game id that cannot work, refused before
    anything starts · 3 an audit that could not check everything · 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass

OK = 0
FAILURE = 1
USAGE = 2
INCOMPLETE = 3
INTERRUPTED = 130

EXIT_CODES = (
    "exit codes: 0 ok; 1 the command failed (Redis unreachable, a service did not answer, an "
    "audit found a divergence); 2 bad usage (an option, file or game that cannot work; "
    "refused before anything starts); 3 an audit that could not check everything; "
    "130 interrupted (Ctrl-C). Errors are one line on stderr; --debug adds the traceback."
)


class CliError(Exception):
    """A failure the user can act on: printed as `hexlog: <message>`, exit `code`."""

    code = FAILURE

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class UsageError(CliError):
    """Bad usage (an option, a file or a game id that cannot work): exit 2."""

    code = USAGE


@dataclass
class Situation:
    """What this command is doing, for the sentence that ends it early: the game it plays or
    follows, and the server it uses (`env`, `started` by it, or `attached` to another
    command's, owned by `owner` with `owner_pid`)."""

    game: str = ""
    server: str = ""
    owner: str = ""
    owner_pid: int = 0
    data_dir: str = ""

    def interrupted(self) -> str:
        """Ctrl-C: what happens to the game now, and what to do."""
        if not self.game:
            return "interrupted"
        watch = f"`hexlog replay {self.game} --follow` keeps watching it"
        if self.server == "attached":
            return (f"interrupted: game {self.game} goes on in the server of {self.owned()}; "
                    f"{watch}")
        if self.server == "started":
            return (f"interrupted: game {self.game} stops with the server this command started "
                    f"and goes on when one runs on {self.data_dir} again (`hexlog up`); then "
                    f"{watch}")
        return f"interrupted: game {self.game} goes on while the rules service runs; {watch}"

    def lost(self, reason: str) -> str:
        """The server went away under the command."""
        game = (f" Game {self.game} goes on when it is back; `hexlog replay {self.game} "
                "--follow` then keeps watching it." if self.game else "")
        if self.server == "attached":
            return (f"lost the server of {self.owned()}: {reason}. Did it stop?{game} "
                    f"(`hexlog up` starts it again on {self.data_dir})")
        if self.server == "started":
            return (f"lost the embedded Valkey this command started: {reason} (its log: "
                    f"{self.data_dir}/valkey.log).{game}")
        where = "REDIS_URL" if os.environ.get("REDIS_URL") else "the embedded Valkey"
        return (f"lost Redis ({where}): {reason}. Is the server running? Without REDIS_URL "
                f"hexlog starts its own.{game}")

    def owned(self) -> str:
        by = f"`hexlog {self.owner}`" if self.owner else "another hexlog command"
        return by + (f" (pid {self.owner_pid})" if self.owner_pid else "")


SITUATION = Situation()


def one_line(text: str) -> str:
    """Messages from libraries may span lines; the user gets one."""
    return " ".join(text.split())


def describe(exc: BaseException) -> tuple[str, int]:
    """The sentence and exit code for an exception that escaped a command."""
    if isinstance(exc, CliError):
        return str(exc), exc.code
    # Imported only on this path: `hexlog bench engine` loads no service module.
    from redis import exceptions as redis_errors

    from services.client import ServiceError
    from services.runtime.valkey import DataDirInUseError
    from services.store import StoreError
    from services.store.connect import BadSettingError, BadUrlError
    from services.tournament.runner import TournamentError

    if isinstance(exc, BadUrlError | BadSettingError):
        return str(exc), UsageError.code
    if isinstance(exc, ServiceError | TournamentError | DataDirInUseError | StoreError):
        return str(exc), FAILURE

    if isinstance(exc, redis_errors.AuthenticationError | redis_errors.NoPermissionError):
        return (f"Redis refused this command's user: {exc} (check the user and password in "
                "REDIS_URL, and deploy/users.acl)"), FAILURE
    if isinstance(exc, redis_errors.ConnectionError | redis_errors.TimeoutError):
        return SITUATION.lost((str(exc) or type(exc).__name__).rstrip(".")), FAILURE
    if isinstance(exc, redis_errors.ResponseError):
        return f"Redis answered with an error: {exc}", FAILURE
    if isinstance(exc, OSError) and exc.strerror:
        where = f": {exc.filename}" if exc.filename else ""
        return f"{exc.strerror}{where}", FAILURE
    return (f"internal error: {type(exc).__name__}: {exc} "
            "(run again with --debug for the traceback, and please report it)"), FAILURE


def leaf(exc: BaseException) -> BaseException:
    """The first real failure inside an exception group (asyncio.TaskGroup wraps them)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def quiet_stdout() -> None:
    """After the reader of our stdout went away (`hexlog replay G | head`): point stdout at
    /dev/null so the interpreter's final flush does not fail a second time."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def run_guarded(func: Callable[[argparse.Namespace], int], args: argparse.Namespace,
                debug: bool) -> int:
    """Run one command; whatever escapes it becomes one line and an exit code."""
    try:
        return func(args)
    except KeyboardInterrupt:
        print(f"\nhexlog: {SITUATION.interrupted()}", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        quiet_stdout()  # the reader closed the pipe: it has what it wanted
        return OK
    except (Exception, BaseExceptionGroup) as raised:
        exc = leaf(raised)
        if isinstance(exc, KeyboardInterrupt):
            print(f"\nhexlog: {SITUATION.interrupted()}", file=sys.stderr)
            return INTERRUPTED
        if isinstance(exc, BrokenPipeError):
            quiet_stdout()
            return OK
        if debug:
            traceback.print_exception(raised)
        message, code = describe(exc)
        print(f"hexlog: {one_line(message)}", file=sys.stderr)
        return code
