"""The replay page: one self-contained HTML file for one game and one viewer.

Open it from disk (no server, no network): step back and forth, play, drag a slider over the
versions, read the narration beside the board, see every die and every ruling (contested ones
with their verdicts). Python renders every version with the same SVG renderer as `hexlog
render` (services/render/svg.py); the page only swaps pictures. Per version it stores the
pieces layer and, when it changed, the terrain layer; the whole is gzip-compressed and
base64-inlined (browsers decompress with `DecompressionStream`), because `file://` pages may
not fetch sibling files.

Hidden information is removed *at export*, for the chosen viewer: the panel is that viewer's
`view`, events are narrated through `redact`, rulings show a refused command's body to the
referee only. Nothing hidden is in the file to be hidden with CSS.
"""

from __future__ import annotations

import base64
import gzip
import json
from html import escape
from typing import Any

from events.disputes import RulingReviewed
from events.events import Event
from services.render.narrate import Context, narrate
from services.render.picture import highlight_of, last_move
from services.render.places import Places
from services.render.replay import Viewer, reverted_versions
from services.render.svg import frame_of, pieces_layer, svg_open, terrain_layer
from services.rules.engine import evolve, initial_state, view
from services.rules.record import GameRecord


def page_data(record: GameRecord, who: Viewer) -> dict[str, Any]:
    """Everything the page shows, per version, as `who` may see it."""
    state = initial_state(record.created)
    ctx = Context(state.names, state.board)
    undone = reverted_versions(r.event for r in record.events)
    terrains: list[str] = []
    steps: list[dict[str, Any]] = []
    for r in record.events:
        if r.version > 1:
            evolve(state, r.event)
        said = narrate(who.sees(state, r.event), ctx)
        terrain = terrain_layer(state)
        if not terrains or terrains[-1] != terrain:
            terrains.append(terrain)
        seen = view(state, who.seat, referee=who.referee)
        move = last_move(record, state.version)
        step: dict[str, Any] = {
            "v": state.version,
            "t": len(terrains) - 1,
            "p": pieces_layer(state, seen, highlight=highlight_of(move),
                              title=f"{record.game_id} · as {who}", narration=said),
            "n": said + (" [reverted]" if r.version in undone else ""),
            "turn": state.turn,
        }
        dice = dice_of(r.event)
        if dice is not None:
            step["dice"] = list(dice)
        steps.append(step)
    return {
        "game": record.game_id,
        "viewer": str(who),
        "open": svg_open(state, frame_of(state)),
        "terrains": terrains,
        "steps": steps,
        "rulings": rulings_shown(record, who),
        "winner": None if state.winner < 0 else state.names[state.winner],
        "finished": state.finished,
    }


def dice_of(event: Event) -> tuple[int, int] | None:
    """The two dice an event shows (any event with `d1` and `d2`: a roll, a module's die)."""
    d1, d2 = getattr(event, "d1", None), getattr(event, "d2", None)
    return (d1, d2) if isinstance(d1, int) and isinstance(d2, int) else None


def rulings_shown(record: GameRecord, who: Viewer) -> list[dict[str, Any]]:
    """The refusals on the rulings stream, at the version they were judged, each with the
    verdict of a contest of it if there was one. A refused command's body can reveal a hand
    (a discard, a trade): only the referee sees it."""
    verdicts = {r.event.command_id: r.event for r in record.events
                if isinstance(r.event, RulingReviewed)}
    places = Places(initial_state(record.created).board)
    out = []
    for ruling in record.rulings:
        if ruling.rule_id == "service.command.duplicate":
            continue
        shown: dict[str, Any] = {"v": ruling.version, "seat": ruling.seat, "rule": ruling.rule_id,
                                 "message": places.readable(ruling.message),
                                 "command_id": ruling.command_id}
        if who.referee and ruling.command is not None:
            shown["command"] = type(ruling.command).__name__
        review = verdicts.get(ruling.command_id)
        if review is not None:
            shown["verdict"] = f"contested: {review.verdict} ({review.rule_id})"
        out.append(shown)
    return out


def replay_page(record: GameRecord, who: Viewer) -> str:
    """The HTML file."""
    data = json.dumps(page_data(record, who), separators=(",", ":")).encode()
    packed = base64.b64encode(gzip.compress(data, 9)).decode()
    title = f"hexlog replay · {record.game_id} · as {who}"
    return (PAGE.replace("{{TITLE}}", escape(title))
                .replace("{{DATA}}", packed)
                .replace("{{RAW_BYTES}}", str(len(data))))


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{TITLE}}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{margin:0;font:14px/1.4 "DejaVu Sans",Verdana,sans-serif;background:#0f1e33;color:#eee;
 display:grid;grid-template-columns:minmax(0,1fr) 360px;grid-template-rows:auto 1fr;height:100vh}
header{grid-column:1/3;padding:8px 12px;background:#1d3557;display:flex;gap:8px;align-items:center;flex-wrap:wrap}
header button{font-size:16px;min-width:38px;padding:4px 8px;border-radius:6px;border:1px solid #8ab;background:#f1faee;cursor:pointer}
#slider{flex:1;min-width:200px}
#board{overflow:hidden;padding:8px;display:flex;justify-content:center;align-items:flex-start;min-height:0}
#board svg{width:100%;height:100%;max-height:calc(100vh - 70px)}
aside{overflow:auto;background:#13253d;padding:8px 10px;border-left:1px solid #345}
#log li{cursor:pointer;padding:1px 4px;border-radius:4px;list-style:none;overflow-wrap:anywhere}
#result{overflow-wrap:anywhere}
#log li.now{background:#ffeb3b;color:#111}#log li.future{opacity:.35}
#log li.ruling{color:#ffab91}#log{padding:0;margin:0}
.dice{font-weight:bold;color:#ffeb3b}#status{min-width:220px}
</style></head>
<body>
<header>
 <button id="first" title="first (Home)">|◀</button><button id="back" title="back (←)">◀</button>
 <button id="play" title="play / pause (space)">▶</button><button id="next" title="next (→)">▶▏</button>
 <button id="last" title="last (End)">▶|</button>
 <input id="slider" type="range" min="0" value="0" aria-label="version">
 <span id="status">loading…</span><span id="dice" class="dice"></span>
</header>
<main id="board"></main>
<aside><div id="result"></div><ol id="log"></ol></aside>
<script type="application/octet-stream" id="data" data-bytes="{{RAW_BYTES}}">{{DATA}}</script>
<script>
"use strict";
let D=null,i=0,timer=null;const $=id=>document.getElementById(id);
async function load(){
  const b64=$("data").textContent.trim();
  const bytes=Uint8Array.from(atob(b64),c=>c.charCodeAt(0));
  const text=await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
  D=JSON.parse(text);
  $("slider").max=D.steps.length-1;
  const log=$("log");
  D.steps.forEach((s,k)=>{const li=document.createElement("li");li.dataset.k=k;
    li.textContent="v"+s.v+" "+s.n;li.onclick=()=>show(k);log.appendChild(li);
    D.rulings.filter(r=>r.v===s.v).forEach(r=>{const x=document.createElement("li");
      x.className="ruling";x.dataset.k=k;x.textContent="ruling: seat "+r.seat+" refused ("+r.rule+"): "+r.message+(r.command?" ["+r.command+"]":"")+(r.verdict?" — "+r.verdict:"");
      x.onclick=()=>show(k);log.appendChild(x);});});
  const start=parseInt((location.hash.match(/v=(\\d+)/)||[])[1]||"0",10);
  show(start?Math.max(0,D.steps.findIndex(s=>s.v===start)):0);
  document.body.dataset.ready="1";
}
function show(k){
  if(!D)return;i=Math.max(0,Math.min(D.steps.length-1,k));const s=D.steps[i];
  $("board").innerHTML=D.open+D.terrains[s.t]+s.p+"</svg>";
  $("slider").value=i;$("status").textContent="version "+s.v+" of "+D.steps[D.steps.length-1].v+" · turn "+s.turn;
  $("dice").textContent=s.dice?("dice "+s.dice.join(" + ")):"";
  const end=i===D.steps.length-1&&D.finished;
  $("result").textContent=end?("Finished · "+(D.winner?("winner: "+D.winner):"no winner")):
    (D.finished?"Game in progress at this version (step to the end for the result)":"Game in progress");
  document.querySelectorAll("#log li").forEach(li=>{const k=+li.dataset.k;
    li.classList.toggle("now",k===i);li.classList.toggle("future",k>i);});
  const now=document.querySelector("#log li.now");if(now)now.scrollIntoView({block:"nearest"});
  document.body.dataset.version=s.v;
}
function play(){if(timer){clearInterval(timer);timer=null;$("play").textContent="▶";return;}
  $("play").textContent="⏸";timer=setInterval(()=>{if(i>=D.steps.length-1){play();return;}show(i+1);},350);}
$("first").onclick=()=>show(0);$("back").onclick=()=>show(i-1);$("next").onclick=()=>show(i+1);
$("last").onclick=()=>show(D.steps.length-1);$("play").onclick=play;
$("slider").oninput=e=>show(+e.target.value);
document.addEventListener("keydown",e=>{if(e.key==="ArrowRight")show(i+1);else if(e.key==="ArrowLeft")show(i-1);
  else if(e.key==="Home")show(0);else if(e.key==="End")show(D.steps.length-1);else if(e.key===" "){e.preventDefault();play();}});
load();
</script></body></html>
"""
