"""Make the pictures in docs/pictures/ (shown in the README) the way a user would: play games
with `hexlog play`, draw them with `hexlog render`, write a replay page with `hexlog replay
--html` and photograph it in headless Chromium.

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
        page = work / "replay.html"
        hexlog("replay", "docs-base", "--html", str(page), cwd=work)
        screenshot(page, last // 2, OUT / "replay-page.png")


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
