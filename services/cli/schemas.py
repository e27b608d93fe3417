"""`hexlog schemas`: write (or check) the JSON Schemas of the bot protocol's messages.

The schemas are made from the msgspec types (services/schemas.py); this is the one command that
makes `docs/schemas/` again after a command, event or field is added (docs/protocol.md).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from services.cli.errors import CliError
from services.cli.registry import COMMANDS


def cmd_schemas(args: argparse.Namespace) -> int:
    from services.schemas import generate

    out = Path(args.out)
    files = generate()
    if args.check:
        stale = [name for name, text in files.items()
                 if not (out / name).is_file() or (out / name).read_text(encoding="utf-8") != text]
        if stale:
            raise CliError(f"{out}: {', '.join(stale)} differ from the code; run "
                           f"`hexlog schemas --out {out}`")
        print(f"{out}: {len(files)} files match the code")
        return 0
    out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(files)} files to {out}")
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("schemas", help="write the JSON Schemas of the bot protocol's messages",
                       description="Write JSON Schemas of Prompt, View, the commands, the "
                                   "events and their envelopes, made from the code "
                                   "(docs/protocol.md).")
    p.add_argument("--out", default="docs/schemas",
                   help="the folder to write them to (default docs/schemas)")
    p.add_argument("--check", action="store_true",
                   help="write nothing; exit 1 if the files there differ from the code")
    p.set_defaults(func=cmd_schemas)


COMMANDS.append(register)
