#!/usr/bin/env node
// A bot for hexlog's bot ladder, in JavaScript on node (18 or later) and nothing else: no npm
// package. It is made from docs/ladder.md alone: it registers (or takes an id and a token),
// says it is ready, reads its one NDJSON stream and answers each prompt with the seat protocol.
//
//   node examples/bots/ladder_bot.js --gateway http://127.0.0.1:8080 --name my-bot --owner me
//   node examples/bots/ladder_bot.js --gateway … --id b-… --token hxb_… --strategy random
//
// On registering it prints one JSON line on stdout, {"id", "name", "token"}: keep the token,
// it is shown once. Strategies: `builder` (the default: builds whenever it can, cities first,
// then settlements, development cards and roads, and ends its turn otherwise) and `random`
// (any legal option). A refused answer is followed by the prompt's default; a broken stream
// is opened again after a pause, and the bot says ready again (it keeps its seats).
"use strict";

const http = require("node:http");
const https = require("node:https");

function options(argv) {
  const out = { gateway: "http://127.0.0.1:8080", strategy: "builder", games: 0 };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, "");
    if (!(key in out) && !["name", "owner", "id", "token", "rulesets"].includes(key)) {
      throw new Error(`unknown option --${key}`);
    }
    out[key] = argv[i + 1];
  }
  out.games = Number(out.games || 0);
  return out;
}

const opts = options(process.argv.slice(2));
const base = new URL(opts.gateway);
const client = base.protocol === "https:" ? https : http;
const agent = new client.Agent({ keepAlive: true });
const say = (text) => process.stderr.write(`ladder_bot.js: ${text}\n`);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// One request; JSON in, JSON out. Past a rate limit (429) it waits what Retry-After says.
async function call(method, path, body, token) {
  for (let attempt = 0; ; attempt++) {
    const answer = await new Promise((resolve, reject) => {
      const headers = { "Content-Type": "application/json" };
      if (token) headers.Authorization = `Bearer ${token}`;
      const req = client.request(new URL(path, base), { method, headers, agent }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode, retry: Number(res.headers["retry-after"] || 1),
                    body: text ? JSON.parse(text) : null });
        });
      });
      req.on("error", reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
    if (answer.status !== 429 || attempt >= 5) return answer;
    await sleep(answer.retry * 1000);
  }
}

// The bot's stream: calls onLine with each line (an object); resolves when it ends.
function stream(botId, token, onLine) {
  return new Promise((resolve, reject) => {
    const path = `/v1/ladder/bots/${botId}/stream?views=false`;
    const req = client.get(new URL(path, base), { headers: { Authorization: `Bearer ${token}` } },
      (res) => {
        if (res.statusCode !== 200) {
          const err = new Error(`stream: ${res.statusCode}`);
          err.status = res.statusCode;
          res.resume();
          reject(err);
          return;
        }
        let buffered = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          buffered += chunk;
          let end;
          while ((end = buffered.indexOf("\n")) >= 0) {
            const text = buffered.slice(0, end).trim();
            buffered = buffered.slice(end + 1);
            if (text) onLine(JSON.parse(text)); // an empty line is a keep-alive
          }
        });
        res.on("end", resolve);
        res.on("error", reject);
      });
    req.setTimeout(30000, () => req.destroy(new Error("stream: 30 s of silence")));
    req.on("error", reject);
  });
}

// What the builder prefers, by command type; what it does not list it ranks 20, and among
// equals it draws at random. A prompt with no option (a discard, say) gets its default.
const PREFERENCE = {
  BuildCity: 100, BuildSettlement: 90, PlaceSettlement: 80, PlaceRoad: 70, RollDice: 65,
  BuyDevelopmentCard: 60, PlayKnight: 30, BuildRoad: 40, EndTurn: 10, MaritimeTrade: 5,
  RejectTrade: 50, CancelTrade: 50,
};

function choose(prompt, strategy) {
  const found = prompt.options || [];
  if (found.length === 0) return prompt.default;
  if (strategy === "random") return found[Math.floor(Math.random() * found.length)];
  const rank = (c) => (c.type in PREFERENCE ? PREFERENCE[c.type] : 20);
  const best = Math.max(...found.map(rank));
  const top = found.filter((c) => rank(c) === best);
  return top[Math.floor(Math.random() * top.length)];
}

async function answer(line, token, counts) {
  const first = choose(line.prompt, opts.strategy);
  for (const [attempt, command] of [first, line.prompt.default].entries()) {
    const body = { command, expected_version: line.version,
                   command_id: `js:${line.game}:${line.version}:${attempt}` };
    const r = await call("POST", `/v1/ladder/games/${line.game}/commands`, body, token);
    if (r.status === 401) throw Object.assign(new Error("token revoked"), { status: 401 });
    if (r.status !== 422) return;
    counts.refused += 1;
    say(`${line.game} v${line.version}: refused (${r.body.rule_id}: ${r.body.message})`);
    if (command === line.prompt.default) return;
  }
}

async function main() {
  let { id, token } = opts;
  if (!token) {
    const rulesets = opts.rulesets ? opts.rulesets.split(",") : [];
    const r = await call("POST", "/v1/ladder/bots", { name: opts.name, owner: opts.owner,
                                                       rulesets });
    if (r.status !== 201) throw new Error(`cannot register: ${r.body && r.body.error}`);
    id = r.body.bot.id;
    token = r.body.token;
  }
  process.stdout.write(JSON.stringify({ id, name: opts.name || "", token }) + "\n");
  const counts = { finished: 0, won: 0, refused: 0 };
  let pause = 500;
  let pending = Promise.resolve();
  while (!opts.games || counts.finished < opts.games) {
    try {
      const ready = await call("POST", `/v1/ladder/bots/${id}/ready`, undefined, token);
      if (ready.status === 401) throw Object.assign(new Error("token revoked"), { status: 401 });
      await stream(id, token, (line) => {
        pause = 500;
        if (line.type === "prompt") {
          // One answer at a time: the prompts of each game come in the order it needs them.
          pending = pending.then(() => answer(line, token, counts)).catch((e) => {
            if (e.status === 401) process.exit(3);
            say(`answer failed: ${e.message}`);
          });
        } else if (line.type === "gameFinish") {
          counts.finished += 1;
          counts.won += line.winner === line.seat ? 1 : 0;
          say(`${line.game}: ${line.winner === line.seat ? "won" : "lost"} (seat ${line.seat}, `
              + `scores ${line.scores.join("-")}); ${counts.finished} games, ${counts.won} won`);
          if (opts.games && counts.finished >= opts.games) process.exit(0);
        } else if (line.type === "absent") {
          call("POST", `/v1/ladder/bots/${id}/ready`, undefined, token);
        } else if (line.type === "revoked") {
          say(`the token no longer acts (${line.reason}); stopping`);
          process.exit(3);
        }
      });
    } catch (e) {
      if (e.status === 401) {
        say("the token no longer acts; stopping");
        process.exit(3);
      }
      say(`stream broke (${e.message}); again in ${pause} ms`);
    }
    await sleep(pause);
    pause = Math.min(5000, pause * 2);
  }
}

main().catch((e) => {
  say(e.message);
  process.exit(1);
});
