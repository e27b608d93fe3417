"""A ladder game watched live in the browser: the replay page's board and narration
(services/render), fed by Server-Sent Events as the game goes.

`steps(lines)` turns a spectator's stream of a game (the gateway's ViewerStream, which folds
the log) into *steps*: the board as a spectator sees it now (an SVG, the same picture as
`hexlog render`), the narration of each event since the last step, the dice, the turn. A step
is drawn once per batch of events, at most STEPS_PER_S a second (a fast game is still shown
at its last version). `LIVE_PAGE` is the page: an EventSource on the steps, the board, the
narration; at the end, the winner and a link to the game's replay page.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any, Protocol

from events.events import Event
from services.render.narrate import Context, narrate
from services.render.page import dice_of
from services.render.picture import highlight_of
from services.render.svg import board_svg
from services.rules.engine import view
from services.rules.engine.state import State

STEPS_PER_S = 4.0


class Folding(Protocol):
    """A spectator's stream that keeps its fold (services/gateway/ladder_streams.SeatLines)."""

    state: State | None
    game_id: str

    def lines(self) -> AsyncIterator[list[dict[str, Any]]]: ...


def step_of(state: State, game_id: str, said: list[tuple[int, str]], moved: list[Event],
            dice: tuple[int, int] | None) -> dict[str, Any]:
    seen = view(state, None)
    svg = board_svg(state, seen, highlight=highlight_of(moved), title=f"{game_id} · live",
                    narration=said[-1][1] if said else "")
    return {"v": state.version, "turn": state.turn, "svg": svg, "said": said,
            "dice": list(dice) if dice else None, "finished": state.finished,
            "winner": None if state.winner < 0 else state.names[state.winner]}


async def steps(lines: Folding) -> AsyncIterator[dict[str, Any] | None]:
    """Steps of the game (None: a keep-alive). Each event line of the stream carries the
    event as the spectator sees it under `_event`."""
    said: list[tuple[int, str]] = []
    moved: list[Event] = []
    dice: tuple[int, int] | None = None
    drawn = 0.0
    async for batch in lines.lines():
        state = lines.state
        if state is None:
            continue
        ctx = Context(state.names, state.board)
        for line in batch:
            if line["type"] != "event":
                continue
            event = line["_event"]
            said.append((int(line["version"]), narrate(event, ctx)))
            moved = [*moved[-8:], event]
            dice = dice_of(event) or dice
        if not batch and drawn:
            yield None
            continue
        first = drawn == 0.0  # the board as it is now, whatever came before it
        if first or (said and (state.finished or time.monotonic() - drawn >= 1 / STEPS_PER_S)):
            drawn = time.monotonic()
            yield step_of(state, lines.game_id, said, moved, dice)
            said, moved = [], []


LIVE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{TITLE}}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{margin:0;font:14px/1.4 "DejaVu Sans",Verdana,sans-serif;background:#0f1e33;color:#eee;
 display:grid;grid-template-columns:minmax(0,1fr) 360px;grid-template-rows:auto 1fr;height:100vh}
header{grid-column:1/3;padding:8px 12px;background:#1d3557;display:flex;gap:12px;align-items:center}
a{color:#8ecae6}#board{overflow:auto;padding:8px}#board svg{max-width:100%;height:auto}
aside{overflow:auto;background:#13253d;padding:8px 10px;border-left:1px solid #345}
#log{padding:0;margin:0}#log li{list-style:none;padding:1px 4px}.dice{font-weight:bold;color:#ffeb3b}
</style></head>
<body>
<header><a href="/ladder.html">ladder</a><b>{{GAME}}</b><span id="status">connecting…</span>
<span id="dice" class="dice"></span><span id="result"></span></header>
<main id="board"></main><aside><ol id="log"></ol></aside>
<script>
"use strict";
const $=id=>document.getElementById(id);
const feed=new EventSource("{{STEPS}}");
feed.addEventListener("step",e=>{
  const s=JSON.parse(e.data);
  $("board").innerHTML=s.svg;
  $("status").textContent="version "+s.v+" · turn "+s.turn;
  $("dice").textContent=s.dice?("dice "+s.dice.join(" + ")):"";
  const log=$("log");
  s.said.forEach(([v,text])=>{const li=document.createElement("li");li.textContent="v"+v+" "+text;log.appendChild(li);});
  while(log.children.length>400)log.removeChild(log.firstChild);
  log.lastChild&&log.lastChild.scrollIntoView({block:"nearest"});
  document.body.dataset.version=s.v;
  if(s.finished){$("result").innerHTML="Finished · "+(s.winner?("winner: "+s.winner.replace(/[<>&]/g,""))
    :"no winner")+' · <a href="{{REPLAY}}">replay</a>';feed.close();document.body.dataset.finished="1";}
});
feed.addEventListener("error",()=>{$("status").textContent="reconnecting…";});
</script></body></html>
"""


def live_page(game_id: str) -> str:
    from html import escape

    base = f"/v1/ladder/games/{game_id}"
    return (LIVE_PAGE.replace("{{TITLE}}", escape(f"hexlog ladder · {game_id} · live"))
            .replace("{{GAME}}", escape(game_id)).replace("{{STEPS}}", f"{base}/steps")
            .replace("{{REPLAY}}", f"{base}/replay.html"))
