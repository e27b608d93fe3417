"""Make the pictures in docs/pictures/ (shown in the README and docs/chat.md) the way a user
would: play games with `hexlog play`, draw them with `hexlog render` (one game of the base game
and of each variant and scenario, and the base and Pirate Islands boards with `--labels`),
write a replay page with `hexlog replay --html` and photograph it in headless Chromium; and
the picture a chat player gets with a prompt (its places marked with their labels).

    .venv/bin/python scripts/docs_pictures.py
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "pictures"
HEXLOG = [sys.executable, "-m", "services.cli.main"]
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def hexlog(*args: str, cwd: Path) -> str:
    done = subprocess.run([*HEXLOG, *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        base = json.loads(hexlog("play", "--seed", "docs-base", "--game-id", "docs-base",
                                 "--json", cwd=work))
        last = base["events"]
        for name, version in (("base-setup", 17), ("base-midgame", last // 2), ("base-end", last)):
            hexlog("render", "docs-base", "--at", str(version), "-o", str(OUT / f"{name}.png"),
                   cwd=work)
        cards = json.loads(hexlog("play", "--seed", "docs-cards", "--game-id", "docs-cards",
                                  "--variant", "event-cards", "--variant", "harbormaster",
                                  "--json", cwd=work))
        hexlog("render", "docs-cards", "--at", str(cards["events"] * 2 // 3), "--as", "0",
               "-o", str(OUT / "event-cards-harbormaster-seat0.png"), cwd=work)
        hexlog("render", "docs-base", "--at", str(last // 2), "--labels",
               "-o", str(OUT / "base-labels.png"), cwd=work)
        for name, kind in RULE_SYSTEMS:
            flags = [] if kind == "base" else [f"--{kind}", name]
            bots = ["--bots", "random,heuristic"] if name == "catan-for-two" else []
            game = json.loads(hexlog("play", "--seed", f"docs-{name}", "--game-id",
                                     f"docs-rules-{name}", *flags, *bots, "--turn-limit",
                                     "150", "--json", cwd=work))
            hexlog("render", f"docs-rules-{name}", "--at", str(game["events"] * 2 // 3),
                   "-o", str(OUT / f"rules-{name}.png"), cwd=work)
        # Ship lanes out at sea carry labels too (`ship AJ3-4` in the chat).
        hexlog("render", "docs-rules-pirate-islands", "--labels",
               "-o", str(OUT / "pirate-islands-labels.png"), cwd=work)
        page = work / "replay.html"
        hexlog("replay", "docs-base", "--html", str(page), cwd=work)
        screenshot(page, last // 2, OUT / "replay-page.png")
    prompt_picture(OUT / "chat-prompt.png")


# The base game, each variant and each scenario (`hexlog rulesets`).
RULE_SYSTEMS = (("base", "base"), ("catan-for-two", "variant"), ("event-cards", "variant"),
                ("friendly-robber", "variant"), ("harbormaster", "variant"),
                ("victory-points", "variant"), ("barbarian-attack", "scenario"),
                ("caravans", "scenario"), ("fishermen", "scenario"), ("oil-springs", "scenario"),
                ("pirate-islands", "scenario"), ("rivers", "scenario"),
                ("traders-and-barbarians", "scenario"))


def prompt_picture(out: Path) -> None:
    """A set-up prompt as a chat player gets it: the board with each corner it offers marked
    by the label its options use (`settle F4`)."""
    from services.render.picture import to_png
    from services.render.svg import Target, board_svg
    from services.rules.engine import initial_state, new_game, next_prompt, pending, view

    state = initial_state(new_game("docs-chat", 4, b"docs-chat"))
    prompt = next_prompt(state, pending(state))
    marks = [Target("vertex", int(o.vertex)) for o in prompt.options  # type: ignore[attr-defined]
             if hasattr(o, "vertex")]
    svg = board_svg(state, view(state, prompt.seat), title="docs-chat · your move",
                    targets=marks)
    out.write_bytes(to_png(svg))


def screenshot(page: Path, version: int, out: Path) -> None:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=FLAGS)
        tab = browser.new_page(viewport={"width": 1300, "height": 760})
        tab.goto(f"{page.as_uri()}#v={version}")
        tab.wait_for_selector("body[data-ready='1']")
        tab.screenshot(path=str(out))
        browser.close()


if __name__ == "__main__":
    main()
