"""Golden logs: complete random games must give exactly the logs (and prompts) they gave when
these digests were recorded, byte for byte.

The engine's hot paths are optimised (the dealer's HMAC, the longest road kept incrementally,
bulk and early-out checks in prompts and production, …); none of that may change what a game
does. The digests were recorded with the engine as it was before (commit f48c07d). Each log
digest is the sha256 of a whole game's events, each encoded with the wire codec and followed by
a newline; each prompt digest covers every prompt of a game the same way. A change that alters
a digest changes behaviour: options in another order, another event, another field.

Two kinds of games, as the code plays them:
* the engine benchmark's (`services/cli/bench.py`): 4 seats, random bots seeded per game,
  `play(..., deterministic=False)`;
* the reference runs (`bots.local.play(..., deterministic=True)`: bots reseeded per decision as
  the bot worker does over Redis), with 4, 3 and 2 seats.

If a rule change is intended, re-record with `python tests/engine/test_golden_logs.py` and say
why in the commit.
"""

from __future__ import annotations

import hashlib
import hmac
import sys

import pytest

from bots.local import next_prompt, play
from bots.random_bot import RandomBot
from bots.sdk import reseed
from events.codec import codec
from services.rules.engine import decide, evolve, initial_state, new_game, pending
from services.rules.engine.chance import SeededDealer

# (kind, game index, seats): "bench" games are those of `hexlog bench engine --seed 0`.
GAMES = [("bench", g, 4) for g in range(10)] + [
    ("reference", g, seats) for g, seats in enumerate((4, 4, 4, 4, 3, 3, 3, 2, 2, 2))
]

LOG_DIGESTS = {
    "bench-0": "89370c1b97bcb4a0e93923c9986484f139f4587b454c6a349450565133fb826a",
    "bench-1": "aadbbeafeedf8bd706e2b7d66289113fe56c5535ec0418bba5527703447fc4fb",
    "bench-2": "ae4742e3fc5c02f95009a5aa9e0ab38c643f0b61a7372c7dd9ba4a060961bed4",
    "bench-3": "d631edddeef0edb8676479ec6f6dd6f0bd4b6acd7c5199921e58632683a8d494",
    "bench-4": "49b54488ea3e3466c1882c71f9e04137057ea26b6682f56d6aba38f61fd07a39",
    "bench-5": "945aae4472998a41b0bdcede54ed13c36ae21d07346407ba579e2180ea9ccca6",
    "bench-6": "88f9073ac97c846102967df24b90b32af33e2f1c0a741e21324023e75dbdcd30",
    "bench-7": "dede0b3f1251ffe557e1e0c4f5d06fde5858115546807177f2e07b0daeb3e16a",
    "bench-8": "e7932511c614d319d550f0fa7bf97d8e9ccd17e1dded6e940aad57bfd6e8ab44",
    "bench-9": "8f8b313b4a3dd78d8b39f463617788a8ead65473aafdd320544defe36cc55aeb",
    "reference-0": "88e7396c9b52e7549cd3e22c7f6f440ef5addd3a552bbd5569ec6165faed772d",
    "reference-1": "a6048bdc8eedc782e36642db4f04eda84f610d85cd9ca818360072393d5f9c6a",
    "reference-2": "0fb75ab3669941cab5cc172935f1353130ba307408ef6b212c7ea922399ba8c9",
    "reference-3": "e3b274a4acdf3c407ce2a9df6b2b86c3e03c6980d1a954edadea3355796ee0de",
    "reference-4": "e9db0e1c2aa4b520d6d4497db772d4182d3d18fef8c2f5d943211cb32e3bd322",
    "reference-5": "48251ddf5bf94eb12375deeb8767cf42137669c7c44d5d0ec6ece617b9d780dd",
    "reference-6": "cdb4466c5f9e2781b56f0848fe6bf8080b4f8e41d0ff6943b44e07a646e4bb7c",
    "reference-7": "186873c02c4d1e25cff4fbc91a660dcdabbb01294773dd54c6d8a9d488490b1a",
    "reference-8": "0ae759678262d50920fc2b014841b98832e1e6cca03fd2c853296889c41c5360",
    "reference-9": "7a0ea29ba4bbce5697d725c7dafdcc0db91e34646dc037b6315d446baf1a8f54",
}

# Re-recorded 2026-12 (the logs' digests did not change): every robber option now carries
# MoveRobber's `take` field (null: a random card), which names the card a rule lets the thief
# choose (Oil Springs' oil).
PROMPT_DIGESTS = {
    "reference-0": "2586d7d587f965a69c1a2b976531a0efd5bcfd370ea173300955631a6bb469eb",
    "reference-1": "1a3b8c96d0be5338c6c835560b19b6b8b890356cd9b562c599bec30e450ad5c6",
    "reference-2": "af9e96da2ecbbd698faebd2d73657d1e6cb10dbfa3e5dc6de833afed425ce3aa",
}


def play_golden(kind: str, g: int, seats: int) -> list[bytes]:
    """One game's log, encoded event by event."""
    if kind == "bench":  # exactly as services/cli/bench.py plays game g with --seed 0
        seed = f"bench:0:{g}".encode()
        created = new_game(f"bench-{g}", seats, seed, turn_limit=2000)
        bots = [RandomBot(g * 10 + s) for s in range(seats)]
        game = play(created, bots, SeededDealer(seed), deterministic=False)
    else:
        seed = f"golden:{g}".encode()
        created = new_game(f"golden-{g}", seats, seed, turn_limit=2000)
        bots = [RandomBot(s) for s in range(seats)]
        game = play(created, bots, SeededDealer(seed), deterministic=True)
    return [codec().encode(e) for e in game.log]


def prompts_digest(g: int) -> str:
    """The prompts of a reference game: every option of every prompt, in order."""
    seed = f"golden:{g}".encode()
    created = new_game(f"golden-{g}", 4, seed, turn_limit=2000)
    state = initial_state(created)
    dealer = SeededDealer(seed)
    bots = [RandomBot(s) for s in range(4)]
    h = hashlib.sha256()
    while not state.finished:
        prompts = pending(state)
        for p in prompts:
            h.update(codec().encode(p) + b"\n")
        prompt = next_prompt(state, prompts)
        reseed(bots[prompt.seat], created.seed_sha256, prompt.seat, state.version)  # as play()
        for e in decide(state, bots[prompt.seat].choose(None, prompt), dealer):
            evolve(state, e)
    return h.hexdigest()


def digest(log: list[bytes]) -> str:
    return hashlib.sha256(b"".join(b + b"\n" for b in log)).hexdigest()


@pytest.mark.parametrize(("kind", "g", "seats"), GAMES)
def test_a_random_game_gives_its_golden_log(kind: str, g: int, seats: int) -> None:
    assert digest(play_golden(kind, g, seats)) == LOG_DIGESTS[f"{kind}-{g}"]


@pytest.mark.parametrize("g", range(3))
def test_a_random_game_gives_its_golden_prompts(g: int) -> None:
    assert prompts_digest(g) == PROMPT_DIGESTS[f"reference-{g}"]


@pytest.mark.parametrize("seed", [b"x", b"bench:0:7", bytes(range(64)), bytes(range(65)) * 3])
def test_the_seeded_dealer_draws_hmac_sha256_of_the_key(seed: bytes) -> None:
    """SeededDealer keeps HMAC's padded key states; its draws are hmac.digest's all the same."""
    dealer = SeededDealer(seed)
    for key in ("dice:0", "dice:17", "steal:3", "devcard:24", "layout:terrain:4", "é"):
        mac = hmac.digest(seed, key.encode(), "sha256")
        for n in (1, 5, 36, 2**40 + 3):
            assert dealer.uniform(key, n) == int.from_bytes(mac[:8], "big") % n
    weights = [3, 0, 2, 1, 4]
    for i in range(200):
        x = dealer.uniform(f"w:{i}", sum(weights))
        expected = next(k for k in range(5) if x < sum(weights[: k + 1]))
        assert dealer.pick(f"w:{i}", "abcde", weights) == "abcde"[expected]


if __name__ == "__main__":  # print the digests to paste above
    print("LOG_DIGESTS = {")
    for kind, g, seats in GAMES:
        print(f'    "{kind}-{g}": "{digest(play_golden(kind, g, seats))}",')
    print("}")
    print("PROMPT_DIGESTS = {")
    for g in range(3):
        print(f'    "reference-{g}": "{prompts_digest(g)}",')
    print("}")
    sys.exit(0)
