"""`hexlog render`: a game's board as a picture (SVG or PNG), at any version, as any viewer.

The same sources and visibility rules as `hexlog replay` (services/cli/replay.py): a game id in
Redis or an archive; during a live game a seat's view needs its credential and the referee's
the referee credential. The file type follows the output's extension.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from services.cli.errors import UsageError
from services.cli.options import at_least
from services.cli.registry import COMMANDS
from services.cli.replay import record_for, source_options, viewer

FORMATS = (".svg", ".png")


def cmd_render(args: argparse.Namespace) -> int:
    from services.cli.server import say
    from services.render.picture import picture, to_png

    out = Path(args.output)
    if out.suffix.lower() not in FORMATS:
        raise UsageError(f"-o {args.output}: the picture is .svg or .png")
    who = viewer(args)
    record = record_for(args, who, "render")
    if args.at is not None and args.at > record.version:
        raise UsageError(f"--at {args.at}: game {record.game_id} has versions 1 to {record.version}")
    svg = picture(record, args.at, who, labels=args.labels)
    data = to_png(svg, scale=args.scale) if out.suffix.lower() == ".png" else svg.encode()
    out.write_bytes(data)
    say(f"wrote {out} ({record.game_id} at version {args.at or record.version}, as {who}, "
        f"{len(data) // 1024} KiB)")
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("render", help="a game's board as a picture (SVG or PNG)",
                       description="Draw the board of a game (a game id or an archive) at a "
                                   "version, as a seat, a spectator or the referee sees it.")
    p.add_argument("source", metavar="GAME|FILE.jsonl",
                   help="a game id (in Redis) or an archive file (`hexlog export`)")
    p.add_argument("-o", "--output", required=True, metavar="FILE.svg|FILE.png",
                   help="where to write the picture; the extension chooses the format")
    p.add_argument("--at", type=at_least(1), default=None, metavar="VERSION",
                   help="the game after this event (default: the last)")
    p.add_argument("--as", dest="as_", default="spectator", metavar="SEAT|spectator|referee",
                   help="whose view: hands are drawn only for the seat itself (or the referee)")
    p.add_argument("--scale", type=float, default=1.0,
                   help="PNG only: pixels per SVG unit (default 1.0: about 920 x 600)")
    p.add_argument("--labels", action="store_true",
                   help="write every hex's, corner's and path's label (what moves and the "
                        "narration name: hex F, corner F4, path F2-3)")
    source_options(p)
    p.set_defaults(func=cmd_render)


COMMANDS.append(register)
