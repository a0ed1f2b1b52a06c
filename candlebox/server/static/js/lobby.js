// The lobby: create a game (game, variant, players, each seat a person or a bot of some strength,
// options), see open games and join a seat, watch games being played, replay finished ones.

import { api, joinLink, myGames, remember } from "./api.js";
import { lobbyPanel } from "./learn.js";
import { LEVELS } from "./thinking.js";
import { keepRefusal, keptLine, refusalLine, showRefusal } from "./refusals.js";
import { clear, h, roving } from "./ui.js";
import { lookUp, mineCard } from "./mygames.js";
import { quickPlay } from "./quickplay.js";
import { showWho, whoAmI } from "./account.js";
import { boardLink, seatNames } from "./people.js";
import { clockOf, clockRow } from "./clock.js";

const $ = (id) => document.getElementById(id);
const SPEEDS = [["Fast", 0], ["Normal", 0.8], ["Slow", 2]];
// Options that fix chance or cut a game short: for practising a situation, not for a normal game.
const PRACTICE = new Set(["deck", "decks", "first_player", "houses", "max_turns"]);
// Options the lobby never offers (a folder on the server's disk is not a player's business).
const HIDDEN = new Set(["content"]);
const LABELS = {
  deck: ["Stack the draw pile", "card codes, top first, e.g. Y2 O3 G4"],
  decks: ["Stack the decks", "deck: codes; … e.g. curse: 5 8 1; tactics: 2I 3X"],
  first_player: ["Who starts", null],
  houses: ["Houses by seat", "house codes or names, seat 1 first, e.g. C N S"],
  max_turns: ["Stop after turns", null],
};

const form = {
  meta: null,
  game: null,
  variant: null,
  players: 2,
  seats: [],
  options: {},
  speed: 0.8,
  public: true,
  hints: false,
  rated: false,
  clock: "", // none by default (js/clock.js CHOICES)
  levelHelp: false,
  // kept here as it is typed: every choice above it re-renders the form, which would otherwise
  // reset the field to the last name saved
  name: localStorage.getItem("candlebox.name") || "",
  me: null, // the signed-in player (GET /api/me), or null: a guest
};

function gameMeta() {
  return form.meta.games.find((g) => g.id === form.game);
}

function variantMeta() {
  return gameMeta().variants.find((v) => v.name === form.variant);
}

function defaultSeat(i) {
  return i === 0 ? { kind: "you" } : { kind: "bot", level: "medium" };
}

// One list of opponents a player understands: the game's own levels (the server's meta, weakest
// first), sent by name; the server knows which bot and settings each level is in that game.
function opponents() {
  return (gameMeta().levels || []).map((l) => ({ level: l.name, label: LEVELS[l.name] || l.name, doc: l.doc }));
}

function chooseGame(id) {
  form.game = id;
  const game = gameMeta();
  form.variant = game.default_variant[String(form.players)] || game.variants[0].name;
  form.switched = form.variant !== game.variants[0].name ? form.players : null;
  form.options = {};
  fitPlayers();
  render();
}

/** A player count outside the variant picks the variant made for it, and says so. */
function choosePlayers(n) {
  form.players = n;
  const game = gameMeta();
  const v = variantMeta();
  form.switched = null;
  if (n < v.min_players || n > v.max_players) {
    form.variant = game.default_variant[String(n)] || form.variant;
    form.options = {};
    form.switched = n;
  }
  fitPlayers();
  render();
}

function fitPlayers() {
  const v = variantMeta();
  form.players = Math.min(v.max_players, Math.max(v.min_players, form.players));
  while (form.seats.length < form.players) form.seats.push(defaultSeat(form.seats.length));
  form.seats.length = form.players;
  const levels = opponents().map((o) => o.level);
  for (const seat of form.seats) {
    if (seat.kind === "bot" && !levels.includes(seat.level)) seat.level = levels.includes("medium") ? "medium" : levels[0];
    if (seat.kind === "bot" && !seat.level) seat.kind = "human";
  }
}

function segmented(choices, current, onpick, label) {
  return roving(h(
    "div.segmented",
    { role: "group", "aria-label": label },
    choices.map(([text, value]) =>
      h("button", { type: "button", class: value === current ? "chosen" : "", "aria-pressed": String(value === current), onclick: () => onpick(value) }, text),
    ),
  ));
}

function seatRow(i) {
  const seat = form.seats[i];
  const game = gameMeta();
  const kinds = [["You", "you"], ["Friend", "human"]];
  if (opponents().length) kinds.push(["Bot", "bot"]);
  const config = h("div.seat-config");
  config.append(
    segmented(kinds, seat.kind, (kind) => {
      if (kind === "you") form.seats.forEach((s) => s.kind === "you" && (s.kind = "human"));
      seat.kind = kind;
      if (kind === "bot") seat.level = seat.level || "medium";
      fitPlayers();
      render();
    }, `Seat ${i + 1}`),
  );
  if (seat.kind === "bot") {
    const chosen = opponents().find((o) => o.level === seat.level);
    config.append(
      h("select", { "aria-label": `Seat ${i + 1} opponent`, onchange: (e) => ((seat.level = e.target.value), render()) },
        opponents().map((o) => h("option", { value: o.level, selected: o.level === seat.level }, o.label))),
      h("span.note.level-doc", chosen ? chosen.doc : ""),
    );
  } else if (seat.kind === "human") {
    config.append(h("span.note", "gets a join link"));
  }
  return h("div.seat-row", h("span.seat-no", `Seat ${i + 1}`), config);
}

/** The test games of a record, by their table size: "two-player test games", "test games at tables of four". */
function tables(players) {
  const words = ["", "", "two", "three", "four", "five", "six", "seven", "eight"];
  return players === 2 ? "two-player test games" : `test games at tables of ${words[players] || players}`;
}

/** "How strong are the bots?": each level of this game, how it plays and how it did in our tests. */
function levelHelp() {
  const levels = gameMeta().levels || [];
  const items = levels.map((level, i) => {
    const name = LEVELS[level.name] || level.name;
    const below = i > 0 ? LEVELS[levels[i - 1].name] || levels[i - 1].name : null;
    const record = level.record;
    const tested = record && below
      ? ` In our ${tables(record.players)} it finished ahead of the ${below} ${Math.round(record.ahead)} times in ${record.games}.`
      : "";
    return h("li", h("strong", name), `: ${level.doc}.${tested}`);
  });
  // stays open across the form's redraws (a change of seat or game redraws it)
  return h("details.level-help", { open: form.levelHelp, ontoggle: (e) => (form.levelHelp = e.target.open) },
    h("summary", "How strong are the bots?"), h("ul", items));
}

function optionInput(opt) {
  const id = `opt-${opt.name}`;
  const current = form.options[opt.name];
  // the game's own words first (a 2-player Candelabria's first_player is who chooses a house first)
  const [fallback, hint] = LABELS[opt.name] || [opt.name.replaceAll("_", " "), null];
  const label = opt.label || fallback;
  let input;
  if (opt.kind === "bool") {
    input = h("input", { id, type: "checkbox", checked: current ?? opt.default, onchange: (e) => (form.options[opt.name] = e.target.checked) });
  } else if (opt.kind === "choice") {
    const pick = (e) => {
      if (e.target.value === "") delete form.options[opt.name]; // a blank choice: the default
      else form.options[opt.name] = e.target.value;
    };
    input = h("select", { id, onchange: pick },
      opt.choices.map((c, i) => h("option", { value: c, selected: c === (current ?? opt.default) }, (opt.choice_labels || [])[i] || c)));
  } else if (opt.name === "first_player") {
    const seats = [];
    for (let n = 0; n < form.players; n++) seats.push(n);
    input = h("select", { id, onchange: (e) => (e.target.value === "" ? delete form.options[opt.name] : (form.options[opt.name] = Number(e.target.value))) },
      h("option", { value: "" }, "as the rules say"),
      seats.map((n) => h("option", { value: String(n), selected: current === n }, `Seat ${n + 1}`)));
  } else if (opt.kind === "codes-map") {
    input = h("input", {
      id, type: "text", placeholder: hint || "",
      value: current ? Object.entries(current).map(([k, v]) => `${k}: ${v.join(" ")}`).join("; ") : "",
      onchange: (e) => {
        const map = {};
        for (const part of e.target.value.split(";")) {
          const [key, codes] = part.split(":");
          if (key && key.trim() && codes) map[key.trim()] = codes.split(/[\s,]+/).filter(Boolean);
        }
        if (Object.keys(map).length) form.options[opt.name] = map;
        else delete form.options[opt.name];
      },
    });
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
      id, type: "text", value: current ? current.join(" ") : "", placeholder: hint || "",
      onchange: (e) => {
        const codes = e.target.value.split(/[\s,]+/).filter(Boolean);
        if (codes.length) form.options[opt.name] = codes;
        else delete form.options[opt.name];
      },
    });
  }
  return h("div.option", h("label", { htmlFor: id }, label), input, h("span.doc", plainDoc(opt)));
}

/** An option's doc without the codes of its choices where the form says those in words: "must push
 * an enemy candle ('forced') or may spare it ('optional')" reads "must push an enemy candle or may
 * spare it" (the codes are the command line's). */
function plainDoc(opt) {
  if (!(opt.choice_labels || []).length) return opt.doc;
  return opt.choices.reduce((doc, code) => doc.replaceAll(` ('${code}')`, ""), opt.doc);
}

function render() {
  const box = clear($("create-form"));
  const game = gameMeta();
  const variant = variantMeta();
  box.append(
    roving(h("div.game-choice", { role: "group", "aria-label": "Game" }, form.meta.games.map((g) =>
      h("button", { type: "button", class: g.id === form.game ? "chosen" : "", "aria-pressed": String(g.id === form.game), onclick: () => chooseGame(g.id), dataset: { game: g.id } },
        g.title, h("span.sub", `${Math.min(...g.variants.map((v) => v.min_players))}–${Math.max(...g.variants.map((v) => v.max_players))} players`))))),
  );
  // what the chosen game is about, for a visitor who has never played it
  if (game.summary) {
    box.append(h("p.note.game-summary", game.summary, " ", h("a", { href: `/rules/${encodeURIComponent(game.id)}` }, "How to play")));
  }
  if (game.variants.length > 1) {
    box.append(h("div.form-row", h("label", "Variant"),
      segmented(game.variants.map((v) => [v.name, v.name]), form.variant, (name) => ((form.variant = name), (form.switched = null), (form.options = {}), fitPlayers(), render()), "Variant")));
    box.append(h("p.note", variant.doc));
  }
  if (form.switched !== null && form.switched !== undefined) {
    box.append(h("p.note.switched", { role: "status" }, `${form.switched} players: this is the “${form.variant}” variant, made for ${form.switched}. Pick another number of players for the others.`));
  }
  const counts = [];
  const low = Math.min(...game.variants.map((v) => v.min_players));
  const high = Math.max(...game.variants.map((v) => v.max_players));
  for (let n = low; n <= high; n++) counts.push([String(n), n]);
  box.append(h("div.form-row", h("label", "Players"), segmented(counts, form.players, choosePlayers, "Players")));
  box.append(h("div.seat-rows", form.seats.map((_, i) => seatRow(i))));
  if (form.seats.some((s) => s.kind === "bot")) box.append(levelHelp());
  if (form.seats.some((s) => s.kind === "bot")) {
    box.append(h("div.form-row", h("label", "Bot speed"), segmented(SPEEDS, form.speed, (s) => ((form.speed = s), render()), "Bot speed")));
  }
  // signed in, your seat carries your account's name (the server's rule): nothing to type
  let name = null;
  if (form.me) {
    box.append(h("div.form-row", h("label", "Your name"), h("strong", { id: "account-name" }, form.me.name), h("span.note", "your account's")));
  } else {
    name = h("input", { type: "text", maxLength: 40, placeholder: "Your name", value: form.name, id: "your-name", oninput: (e) => (form.name = e.target.value) });
    box.append(h("div.form-row", h("label", { htmlFor: "your-name" }, "Your name"), name));
  }
  const listed = h("input", { type: "checkbox", id: "listed", checked: form.public, onchange: (e) => (form.public = e.target.checked) });
  box.append(h("div.form-row", h("label", { htmlFor: "listed" }, "Open to all"), listed, h("span.note", "list the free seats in the lobby (otherwise only join links work)")));
  // the table's "hints": true (issue 16): every player may ask the coach; the game page says so to all
  const hints = h("input", { type: "checkbox", id: "allow-hints", checked: form.hints, onchange: (e) => (form.hints = e.target.checked) });
  box.append(h("div.form-row", h("label", { htmlFor: "allow-hints" }, "Allow hints for everyone"), hints, h("span.note", "every player may ask the coach for hints; everyone at the table sees that they may")));
  // a rated table (issue 34): every seat a signed-in player, no bots, no hints; the server says what is missing
  const rated = h("input", { type: "checkbox", id: "rated", checked: form.rated, onchange: (e) => (form.rated = e.target.checked) });
  box.append(h("div.form-row", h("label", { htmlFor: "rated" }, "Rated game"), rated, h("span.note", "counts for the players' ratings: signed-in players only, no bots, no hints")));
  // a clock (issue 35) for tables with a person other than you: none by default
  if (form.seats.some((s) => s.kind !== "bot")) box.append(clockRow(form.clock, (value) => (form.clock = value)));
  const offered = variant.options.filter((o) => !HIDDEN.has(o.name));
  const rules = offered.filter((o) => !PRACTICE.has(o.name));
  const practice = offered.filter((o) => PRACTICE.has(o.name));
  const options = h("div.options");
  if (rules.length) options.append(h("details", h("summary", "Rules options"), rules.map(optionInput)));
  if (practice.length) {
    options.append(h("details.practice", h("summary", "Advanced: practice game"),
      h("p.note", "Set up a situation to practise: stack the cards, choose who starts, stop early. A game set up this way is a practice game."),
      practice.map(optionInput)));
  }
  box.append(options);
  const create = h("button.primary", { type: "button", id: "create" }, "Start the game");
  const refused = refusalLine(create); // a refusal under the button, not a notice far below it
  create.addEventListener("click", async () => {
    create.disabled = true;
    showRefusal(refused, null);
    const yourName = name ? name.value.trim() : "";
    if (yourName) localStorage.setItem("candlebox.name", yourName);
    const youSeat = form.seats.findIndex((s) => s.kind === "you");
    const seats = form.seats.map((s, i) => {
      if (s.kind === "bot") return { kind: "bot", level: s.level };
      if (s.kind === "you") return { kind: "human", name: yourName || undefined };
      return { kind: "human", name: `Player ${i + 1}` };
    });
    try {
      const created = await api("/api/games", {
        method: "POST",
        body: {
          game: form.game, variant: form.variant, options: form.options, seats,
          practice: Object.keys(form.options).some((name) => PRACTICE.has(name)),
          you: youSeat >= 0 ? youSeat : null, bot_delay: form.speed, public: form.public, hints: form.hints,
          rated: form.rated, clock: form.seats.some((s) => s.kind !== "bot") ? clockOf(form.clock) : null,
        },
      });
      // a table of bots only: its owner_token is the one way to stop it (issue 33), kept as "owner"
      remember(created.id, {
        seat: created.seat, token: created.token, invites: created.invites, title: gameMeta().title,
        created: Date.now(), owner: created.owner_token,
      });
      location.href = `/g/${encodeURIComponent(created.id)}`;
    } catch (err) {
      showRefusal(refused, optionNamed(err));
      create.disabled = false;
    }
  });
  box.append(h("div.create-row", create), refused);
}

/** A refusal of an option by its code ("option 'upgrade_pile' must be at most 4, got 7") says it by
 * the form's label instead, and marks that field (opened, focused) until it is changed: a newcomer
 * does not know the codes. */
function optionNamed(err) {
  const found = /option '(\w+)'/i.exec(String(err.message || ""));
  const field = found && document.getElementById(`opt-${found[1]}`);
  if (!field) return err;
  const label = document.querySelector(`label[for="opt-${found[1]}"]`);
  err.message = String(err.message).replace(found[0], `“${label ? label.textContent : found[1]}”`);
  field.setAttribute("aria-invalid", "true");
  field.addEventListener("change", () => field.removeAttribute("aria-invalid"), { once: true });
  for (let open = field.closest("details"); open; open = open.parentElement.closest("details")) open.open = true;
  field.focus();
  return err;
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
          game.practice ? h("span.gc-practice", { title: practiceTitle(game) }, "practice") : null,
          game.rated ? h("span.gc-rated", { title: "A rated game: signed-in players only" }, "rated") : null),
        h("span.gc-seats", seatNames(game)),
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
  // signed in, "Your games" comes from the server (any device's); a guest's from this browser
  const me = await whoAmI({ fresh: true }).catch(() => null);
  const kept = myGames();
  const mine = me ? accountGames(me, kept) : kept;
  const open = lists.open.games.filter((g) => !mine.some((m) => m.id === g.id && (m.token || m.account)));
  listGames("open", open, (game) =>
    game.seats.filter((s) => !s.taken).map((s) =>
      h("a.button.small.primary", { href: joinLink(game.id, s.seat) }, `Join as seat ${s.seat + 1}`)).concat(
      h("a.button.small", { href: `/g/${encodeURIComponent(game.id)}` }, "Watch")),
    "No open seats right now. Start a game and invite someone!", more("open"));
  // your own games are under "Your games", with their own buttons: not offered again to watch
  const playing = lists.playing.games.filter((g) => !mine.some((m) => m.id === g.id && (m.token || m.owner || m.account)));
  listGames("playing", playing, (game) => [h("a.button.small", { href: `/g/${encodeURIComponent(game.id)}` }, "Watch")],
    "Nobody is playing right now.", more("playing"));
  listGames("finished", lists.finished.games.map((g) => ({ ...g, seats: g.seats.map((s) => ({ ...s, taken: true })) })),
    (game) => [h("a.button.small", { href: `/g/${encodeURIComponent(game.id)}` }, "Replay")], "No finished games yet.",
    more("finished"));
  const known = new Map([...lists.open.games, ...lists.playing.games].map((g) => [g.id, g]));
  const ended = new Map(lists.finished.games.map((g) => [g.id, g]));
  const shown = mine.filter((m) => m.token || m.owner || m.account).slice(0, 8);
  await lookUp(shown, known, ended); // your games on no page shown (private, or further down)
  const mineBox = clear($("mine"));
  mineBox.dataset.source = me ? "account" : "browser"; // for the browser tests
  // a game waiting for you or an invitation: on a phone, "Your games" comes first (base.css)
  const invites = me ? invitesShown(me) : [];
  const waiting = Boolean(me && (me.invites.length || me.games.some((g) => g.your_turn)));
  document.body.toggleAttribute("data-waiting", waiting);
  mineBox.append(...invites.map(inviteCard));
  if (!shown.length && !invites.length) {
    mineBox.append(h("p.empty", me ? "Games you start or join on any device appear here." : "Games you start or join appear here."));
  }
  for (const m of shown) mineBox.append(mineCard(m, known.get(m.id), ended.get(m.id), refresh));
}

function titleOf(game) {
  const found = form.meta.games.find((g) => g.id === game);
  return found ? found.title : game;
}

/** The signed-in player's games as the server lists them (waiting for them first), with this
 * browser's seat credential where it holds one, then the bot-only tables this browser started
 * (no seat: only their owner token, which stays in this browser). */
function accountGames(me, kept) {
  const byId = new Map(kept.map((m) => [m.id, m]));
  const games = me.games.map((g) => ({
    ...(byId.get(g.id) || {}),
    id: g.id,
    seat: g.seat,
    account: true,
    yourTurn: g.your_turn,
    title: titleOf(g.game),
    created: g.created_at * 1000,
  }));
  const tables = kept.filter((m) => m.owner && !m.token && !games.some((g) => g.id === m.id));
  return [...games, ...tables];
}

// Invitations whose answer was refused, kept on screen with the refusal: the refusal usually means
// the invitation is gone (the seat taken through its join link, the game over), and its card would
// leave the list at once, the refusal with it.
const refusedInvites = new Map(); // id -> the invitation as last listed

/** The invitations to show: the server's, then those refused since that it no longer lists. */
function invitesShown(me) {
  const gone = [...refusedInvites.values()].filter((i) => !me.invites.some((m) => m.id === i.id));
  return me.invites.concat(gone.map((i) => ({ ...i, gone: true })));
}

/** Run ``request`` for ``invite``; a refusal is kept beside its buttons (and its card kept). */
async function answerInvite(invite, request) {
  const key = `invite:${invite.id}`;
  keepRefusal(key, null);
  refusedInvites.delete(invite.id);
  try {
    await request();
  } catch (err) {
    keepRefusal(key, err);
    refusedInvites.set(invite.id, invite);
  }
  refresh();
}

/** An invitation by name into a seat: take it (the seat becomes yours) or decline it; one whose
 * answer was refused and that the server no longer lists is only removed from the list. */
function inviteCard(invite) {
  const title = titleOf(invite.game);
  const accept = () => answerInvite(invite, async () => {
    const taken = await api(`/api/me/invites/${invite.id}/accept`, { method: "POST" });
    remember(taken.game, { seat: taken.seat, token: taken.token, title, created: Date.now() });
    location.assign(`/g/${encodeURIComponent(taken.game)}`);
  });
  const decline = () => answerInvite(invite, () => api(`/api/me/invites/${invite.id}`, { method: "DELETE" }));
  const remove = () => (refusedInvites.delete(invite.id), keepRefusal(`invite:${invite.id}`, null), refresh());
  const buttons = invite.gone
    ? [h("button.small.subtle", { type: "button", onclick: remove, "aria-label": `Remove the invitation to ${title}` }, "Remove")]
    : [
        h("button.small.primary", { type: "button", onclick: accept, "aria-label": `Take seat ${invite.seat + 1} of ${title}` }, "Take the seat"),
        h("button.small", { type: "button", onclick: decline, "aria-label": `Decline the invitation to ${title}` }, "Decline"),
      ];
  return h("div.game-card.invite", { dataset: { invite: invite.id, game: invite.game_id } },
    h("span.gc-title", `${title} · ${invite.variant}`),
    h("span.gc-seats.gc-state", `${invite.from} invites you to seat ${invite.seat + 1}`),
    h("div.gc-actions", buttons),
    keptLine(`invite:${invite.id}`, buttons[0]));
}

async function start() {
  const signedIn = showWho($("who"));
  form.meta = await api("/api/meta");
  form.seats = [];
  chooseGame(form.meta.games[0].id);
  signedIn.then((me) => {
    form.me = me;
    if (me) render();
  });
  document.querySelector(".lobby-side").prepend(lobbyPanel(form.meta)); // learn.js
  quickPlay(form.meta); // quickplay.js
  // every game's leaderboard (issue 34), under the site's name
  clear($("boards")).append(h("ul", h("li", "Leaderboards:"), form.meta.games.map((g) => h("li", h("a", { href: boardLink(g.id) }, g.title)))));
  refresh();
  setInterval(refresh, 5000);
}

start();
