"""`hexlog schemas`: write (or check) the JSON Schemas of the bot protocol's messages, and the
generated sections of docs/protocol.md (its tables of stages, command types and View fields).

Both are made from the code (services/schemas.py, services/protocol_doc.py); this is the one
command that makes them again after a command, event, field or stage is added
(docs/protocol.md §9).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from services.cli.errors import CliError
from services.cli.registry import COMMANDS

DEFAULT_DOC = "docs/protocol.md"


def cmd_schemas(args: argparse.Namespace) -> int:
    from services.schemas import generate

    out = Path(args.out)
    files = {out / name: text for name, text in generate().items()}
    doc = protocol_doc(args)
    if doc is not None:
        files[doc] = filled(doc)
    if args.check:
        stale = [str(path) for path, text in files.items()
                 if not path.is_file() or path.read_text(encoding="utf-8") != text]
        if stale:
            again = f"hexlog schemas --out {out}" + (f" --doc {doc}" if args.doc else "")
            raise CliError(f"{', '.join(stale)} differ from the code; run `{again}`")
        print(f"{len(files)} files match the code ({out}" + (f", {doc})" if doc else ")"))
        return 0
    out.mkdir(parents=True, exist_ok=True)
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
    print(f"wrote {len(files) - (doc is not None)} files to {out}"
          + (f" and the generated sections of {doc}" if doc is not None else ""))
    return 0


def protocol_doc(args: argparse.Namespace) -> Path | None:
    """The document whose generated sections are made again: `--doc`, else docs/protocol.md
    when there is one here (outside a checkout only the schemas are written)."""
    if args.doc:
        path = Path(args.doc)
        if not path.is_file():
            raise CliError(f"--doc {path}: no such file (the protocol document, whose "
                           "generated sections are rewritten)")
        return path
    default = Path(DEFAULT_DOC)
    return default if default.is_file() else None


def filled(doc: Path) -> str:
    from services.protocol_doc import DocError, fill

    try:
        return fill(doc.read_text(encoding="utf-8"))
    except DocError as exc:
        raise CliError(f"{doc}: {exc}") from None


def register(sub: Any) -> None:
    p = sub.add_parser("schemas", help="write the JSON Schemas of the bot protocol's messages "
                                       "and the generated tables of docs/protocol.md",
                       description="Write JSON Schemas of Prompt, View, the commands, the "
                                   "events and their envelopes, and the tables of "
                                   "docs/protocol.md that list the stages, the command types "
                                   "and the View's fields, all made from the code.")
    p.add_argument("--out", default="docs/schemas",
                   help="the folder to write the schemas to (default docs/schemas)")
    p.add_argument("--doc", default="", metavar="FILE",
                   help="the protocol document whose generated sections (between "
                        "`<!-- generated: NAME -->` and `<!-- end generated -->`) are made "
                        f"again (default {DEFAULT_DOC}, when there is one)")
    p.add_argument("--check", action="store_true",
                   help="write nothing; exit 1 if the files differ from the code")
    p.set_defaults(func=cmd_schemas)


COMMANDS.append(register)
