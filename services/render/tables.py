"""Tables as text, drawn by rich: one look for every table hexlog prints or writes.

Rendered to a string (no colour, no terminal codes, nothing wrapped), so the same text goes to
a terminal, a pipe or a file such as `standings.txt`; columns are as wide as their widest cell.
"""

from __future__ import annotations

import io
from collections.abc import Collection, Sequence

from rich import box
from rich.console import Console
from rich.table import Table

WIDTH = 240  # wide enough that no table of ours is ever wrapped


def render_table(columns: Sequence[str], rows: Sequence[Sequence[str]],
                 right: Collection[str] = ()) -> str:
    """A header, a rule, one line per row; columns named in `right` are right-aligned."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for name in columns:
        table.add_column(name, justify="right" if name in right else "left", no_wrap=True)
    for row in rows:
        table.add_row(*row)
    out = io.StringIO()
    Console(file=out, width=WIDTH, no_color=True, highlight=False, emoji=False,
            markup=False).print(table)
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines())
