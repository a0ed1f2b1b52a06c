// The lobby: create a game (game, variant, players, each seat a person or a bot of some strength,
// options), see open games and join a seat, watch games being played, replay finished ones.

import { api, joinLink, myGames, remember } from "./api.js";
import { clear, h, toast } from "./ui.js";

const $ = (id) => document.getElementById(id);
const SPEEDS = [["Fast", 0], ["Normal", 0.8], ["Slow", 2]];
const LEVELS = [["Easy", 0.35], ["Medium", 0.7], ["Hard", 1.0]];

const form = {
  meta: null,
  game: null,
  variant: null,
  players: 2,
  seats: [],
  options: {},
  speed: 0.8,
  public: true,
  practice: false,
};

function gameMeta() {
  return form.meta.games.find((g) => g.id === form.game);
}

function variantMeta() {
  return gameMeta().variants.find((v) => v.name === form.variant);
}

function defaultSeat(i) {
  return i === 0 ? { kind: "you" } : { kind: "bot", bot: gameMeta().bots[0] || "random", strength: 0.7 };
}

function chooseGame(id) {
  form.game = id;
  const game = gameMeta();
  form.variant = game.default_variant[String(form.players)] || game.variants[0].name;
  form.options = {};
  fitPlayers();
  render();
}

function fitPlayers() {
  const v = variantMeta();
  form.players = Math.min(v.max_players, Math.max(v.min_players, form.players));
  while (form.seats.length < form.players) form.seats.push(defaultSeat(form.seats.length));
  form.seats.length = form.players;
  const bots = gameMeta().bots;
  for (const seat of form.seats) {
    if (seat.kind === "bot" && !bots.includes(seat.bot)) seat.bot = bots[0];
    if (seat.kind === "bot" && !seat.bot) seat.kind = "human";
  }
}

function segmented(choices, current, onpick, label) {
  return h(
    "div.segmented",
    { role: "group", "aria-label": label },
    choices.map(([text, value]) =>
      h("button", { type: "button", class: value === current ? "chosen" : "", "aria-pressed": String(value === current), onclick: () => onpick(value) }, text),
    ),
  );
}

function seatRow(i) {
  const seat = form.seats[i];
  const game = gameMeta();
  const kinds = [["You", "you"], ["Friend", "human"]];
  if (game.bots.length) kinds.push(["Bot", "bot"]);
  const config = h("div.seat-config");
  config.append(
    segmented(kinds, seat.kind, (kind) => {
      if (kind === "you") form.seats.forEach((s) => s.kind === "you" && (s.kind = "human"));
      seat.kind = kind;
      if (kind === "bot") seat.bot = seat.bot || game.bots[0];
      render();
    }, `Seat ${i + 1}`),
  );
  if (seat.kind === "bot") {
    if (game.bots.length > 1) {
      config.append(
        h("select", { "aria-label": `Seat ${i + 1} bot`, onchange: (e) => ((seat.bot = e.target.value), render()) },
          game.bots.map((b) => h("option", { value: b, selected: b === seat.bot }, b))),
      );
    }
    const info = form.meta.bots.find((b) => b.name === seat.bot);
    if (info && info.strength) {
      config.append(segmented(LEVELS, seat.strength, (s) => ((seat.strength = s), render()), `Seat ${i + 1} strength`));
    }
  } else if (seat.kind === "human") {
    config.append(h("span.note", "gets a join link"));
  }
  return h("div.seat-row", h("span.seat-no", `Seat ${i + 1}`), config);
}

function optionInput(opt) {
  const id = `opt-${opt.name}`;
  const current = form.options[opt.name];
  let input;
  if (opt.kind === "bool") {
    input = h("input", { id, type: "checkbox", checked: current ?? opt.default, onchange: (e) => (form.options[opt.name] = e.target.checked) });
  } else if (opt.kind === "choice") {
    const pick = (e) => {
      if (e.target.value === "") delete form.options[opt.name]; // a blank choice: the default
      else form.options[opt.name] = e.target.value;
    };
    input = h("select", { id, onchange: pick },
      opt.choices.map((c) => h("option", { value: c, selected: c === (current ?? opt.default) }, c)));
  } else if (opt.kind === "int") {
    input = h("input", {
      id, type: "number", min: opt.minimum ?? undefined, max: opt.maximum ?? undefined,
      value: current ?? opt.default ?? "", placeholder: opt.default === null ? "default" : "",
      onchange: (e) => {
        if (e.target.value === "") delete form.options[opt.name];
        else form.options[opt.name] = Number(e.target.value);
      },
    });
  } else {
    input = h("input", {
      id, type: "text", value: current ? current.join(" ") : "", placeholder: "codes, space separated",
      onchange: (e) => {
        const codes = e.target.value.split(/[\s,]+/).filter(Boolean);
        if (codes.length) form.options[opt.name] = codes;
        else delete form.options[opt.name];
      },
    });
  }
  return h("div.option", h("label", { htmlFor: id }, opt.name.replaceAll("_", " ")), input, h("span.doc", opt.doc));
}

function render() {
  const box = clear($("create-form"));
  const game = gameMeta();
  const variant = variantMeta();
  box.append(
    h("div.game-choice", form.meta.games.map((g) =>
      h("button", { type: "button", class: g.id === form.game ? "chosen" : "", onclick: () => chooseGame(g.id), dataset: { game: g.id } },
        g.title, h("span.sub", `${Math.min(...g.variants.map((v) => v.min_players))}–${Math.max(...g.variants.map((v) => v.max_players))} players`)))),
  );
  if (game.variants.length > 1) {
    box.append(h("div.form-row", h("label", "Variant"),
      segmented(game.variants.map((v) => [v.name, v.name]), form.variant, (name) => ((form.variant = name), (form.options = {}), fitPlayers(), render()), "Variant")));
    box.append(h("p.note", variant.doc));
  }
  const counts = [];
  for (let n = variant.min_players; n <= variant.max_players; n++) counts.push([String(n), n]);
  box.append(h("div.form-row", h("label", "Players"), segmented(counts, form.players, (n) => ((form.players = n), fitPlayers(), render()), "Players")));
  box.append(h("div.seat-rows", form.seats.map((_, i) => seatRow(i))));
  if (form.seats.some((s) => s.kind === "bot")) {
    box.append(h("div.form-row", h("label", "Bot speed"), segmented(SPEEDS, form.speed, (s) => ((form.speed = s), render()), "Bot speed")));
  }
  const name = h("input", { type: "text", maxLength: 40, placeholder: "Your name", value: localStorage.getItem("candlebox.name") || "", id: "your-name" });
  box.append(h("div.form-row", h("label", { htmlFor: "your-name" }, "Your name"), name));
  const listed = h("input", { type: "checkbox", id: "listed", checked: form.public, onchange: (e) => (form.public = e.target.checked) });
  box.append(h("div.form-row", h("label", { htmlFor: "listed" }, "Open to all"), listed, h("span.note", "list the free seats in the lobby (otherwise only join links work)")));
  const practice = h("input", { type: "checkbox", id: "practice", checked: form.practice, onchange: (e) => (form.practice = e.target.checked) });
  box.append(h("div.form-row", h("label", { htmlFor: "practice" }, "Practice game"), practice, h("span.note", "needed to fix a deck or the content; shown to everyone (other games are dealt from a seed only the server knows)")));
  box.append(h("div.options", h("details", h("summary", "Rules options"), variant.options.map(optionInput))));
  const create = h("button.primary", { type: "button", id: "create" }, "Start the game");
  create.addEventListener("click", async () => {
    create.disabled = true;
    const yourName = name.value.trim();
    if (yourName) localStorage.setItem("candlebox.name", yourName);
    const youSeat = form.seats.findIndex((s) => s.kind === "you");
    const seats = form.seats.map((s, i) => {
      if (s.kind === "bot") return { kind: "bot", bot: s.bot, strength: form.meta.bots.find((b) => b.name === s.bot)?.strength ? s.strength : undefined };
      if (s.kind === "you") return { kind: "human", name: yourName || undefined };
      return { kind: "human", name: `Player ${i + 1}` };
    });
    try {
      const created = await api("/api/games", {
        method: "POST",
        body: {
          game: form.game, variant: form.variant, options: form.options, seats,
          you: youSeat >= 0 ? youSeat : null, bot_delay: form.speed, public: form.public,
          practice: form.practice,
        },
      });
      remember(created.id, {
        seat: created.seat, token: created.token, invites: created.invites, title: gameMeta().title,
      });
      location.href = `/g/${encodeURIComponent(created.id)}`;
    } catch (err) {
      toast(err.message, "error");
      create.disabled = false;
    }
  });
  box.append(h("div.create-row", create));
}

function seatsLine(game) {
  return game.seats.map((s) => (s.kind === "bot" ? `${s.name}` : s.taken === false ? "open seat" : s.name)).join(" · ");
}

function practiceTitle(game) {
  const fixed = (game.fixed || []).map((name) => (name === "seed" ? `seed ${game.seed}` : name));
  return fixed.length ? `A practice game: the host fixed ${fixed.join(", ")}` : "A practice game";
}

// The lobby's lists come a page at a time (newest first): the poll fetches the first page of each,
// and "More" follows the list's cursor; pages asked for stay shown across polls.
const lists = {
  open: { extra: 0, games: [], next: null },
  playing: { extra: 0, games: [], next: null },
  finished: { extra: 0, games: [], next: null },
};

function listGames(id, games, actions, empty, more) {
  const box = clear($(id));
  if (!games.length) box.append(h("p.empty", empty));
  for (const game of games) {
    box.append(
      h("div.game-card", { dataset: { game: game.id } },
        h("span.gc-title", `${game.title} · ${game.variant}`, game.practice ? " " : null,
          game.practice ? h("span.gc-practice", { title: practiceTitle(game) }, "practice") : null),
        h("span.gc-seats", seatsLine(game)),
        h("div.gc-actions", actions(game))),
    );
  }
  if (more) {
    box.append(h("button.small.more", { type: "button", dataset: { list: id }, onclick: more }, "More"));
  }
}

async function loadPages(lobby) {
  for (const [name, list] of Object.entries(lists)) {
    list.games = lobby[name];
    list.next = lobby.next[name];
    for (let page = 0; page < list.extra && list.next; page++) {
      const more = await api(`/api/games?list=${name}&cursor=${encodeURIComponent(list.next)}`);
      list.games = list.games.concat(more.games.filter((g) => !list.games.some((s) => s.id === g.id)));
      list.next = more.next;
    }
  }
}

function more(name) {
  return lists[name].next ? () => ((lists[name].extra += 1), refresh()) : null;
}

async function refresh() {
  let lobby;
  try {
    lobby = await api("/api/games");
    await loadPages(lobby);
  } catch {
    return;
  }
  const mine = myGames();
  const open = lists.open.games.filter((g) => !mine.some((m) => m.id === g.id && m.token));
  listGames("open", open, (game) =>
    game.seats.filter((s) => !s.taken).map((s) =>
      h("a.button.small.primary", { href: joinLink(game.id, s.seat) }, `Join as seat ${s.seat + 1}`)).concat(
      h("a.button.small", { href: `/g/${encodeURIComponent(game.id)}` }, "Watch")),
    "No open seats right now. Start a game and invite someone!", more("open"));
  listGames("playing", lists.playing.games, (game) => [h("a.button.small", { href: `/g/${encodeURIComponent(game.id)}` }, "Watch")],
    "Nobody is playing right now.", more("playing"));
  listGames("finished", lists.finished.games.map((g) => ({ ...g, seats: g.seats.map((s) => ({ ...s, taken: true })) })),
    (game) => [h("a.button.small", { href: `/g/${encodeURIComponent(game.id)}` }, "Replay")], "No finished games yet.",
    more("finished"));
  const known = new Map([...lists.open.games, ...lists.playing.games].map((g) => [g.id, g]));
  const shown = mine.filter((m) => m.token).slice(0, 8);
  // your games that are not on the pages shown (private, or further down a list): asked one by one
  await Promise.all(shown.filter((m) => !known.has(m.id)).map(async (m) => {
    try {
      const info = await api(`/api/games/${encodeURIComponent(m.id)}`);
      if (info.game.status === "live") known.set(m.id, info.game);
    } catch {
      // gone (closed or deleted): shown as such
    }
  }));
  const mineBox = clear($("mine"));
  if (!shown.length) mineBox.append(h("p.empty", "Games you start or join appear here."));
  for (const m of shown) {
    const live = known.get(m.id);
    mineBox.append(
      h("div.game-card",
        h("span.gc-title", m.title || "Game"),
        h("span.gc-seats", live ? `in play · move ${live.moves}` : "finished or closed"),
        h("div.gc-actions", h("a.button.small.primary", { href: `/g/${encodeURIComponent(m.id)}` }, live ? "Resume" : "Open"))),
    );
  }
}

async function start() {
  form.meta = await api("/api/meta");
  form.seats = [];
  chooseGame(form.meta.games[0].id);
  refresh();
  setInterval(refresh, 5000);
}

start();
