// Rules inside the app (issue 14), for the game page and the lobby:
// - the rule bar under the banner: "Rule: <section>" for the pending decision (the frame's `rule`),
//   a link to the game's How to play page, and a refused move in the engine's own words;
// - learn mode (/g/ID?learn=1, or a game started from "Learn to play"): every legal action listed
//   with its label, what it does and the rule behind it (/api/games/ID/learn), and each bot move in
//   the log followed by why that kind of move is made (/api/rules/GAME: data, not words kept here);
// - the lobby's "Learn to play" panel: a first 2-player game against an easy bot.
// The words all come from the server (each game's content/learn.json and how_to_play.md).

import { api, mySeat, remember } from "./api.js";
import { refusalLine, showRefusal } from "./refusals.js";
import { clear, h, namedSeats, toast } from "./ui.js";
import { plain } from "./words.js";

const state = {
  gameId: null,
  learning: false,
  rules: null, // /api/rules/GAME
  refusal: null, // the engine's explanation of the last refused move, until the next move
  asked: -1, // the move number whose options were last fetched
  options: null, // {move, options}
};

function rulesHref(frame, anchor) {
  const game = frame.game;
  const params = new URLSearchParams({ variant: game.variant });
  const options = Object.fromEntries(Object.entries(game.options || {}).filter(([, v]) => v !== null));
  if (Object.keys(options).length) params.set("options", JSON.stringify(options));
  return `/rules/${encodeURIComponent(game.game)}?${params}${anchor ? `#${anchor}` : ""}`;
}

// ----------------------------------------------------------------------------- game page
/** Called once by the game page: is this a learn game (remembered per game in this browser)? */
export function start(gameId) {
  state.gameId = gameId;
  const params = new URLSearchParams(location.search);
  if (params.get("learn") === "1") remember(gameId, { learn: true });
  const mine = mySeat(gameId);
  state.learning = Boolean(mine && mine.learn);
  if (state.learning) document.body.classList.add("learning");
}

function place(id, make) {
  let el = document.getElementById(id);
  if (!el) {
    el = make();
    document.getElementById("banner").after(el);
  }
  return el;
}

/** After every frame: the rule bar, and in learn mode the options explained. */
export function render(frame, { token, act, replaying, held = null }) {
  const bar = place("rule-bar", () => h("div.rule-bar", { id: "rule-bar" }));
  // learn mode's toggle stays across redraws (a bot's move must not take a keyboard's focus off it)
  const toggle = state.learning ? learnToggle(bar) : null;
  for (const old of [...bar.childNodes]) if (old !== toggle) old.remove();
  const add = (el) => (toggle ? toggle.before(el) : bar.append(el));
  if (replaying) return;
  if (frame.rule && !frame.over) {
    add(h("span.rule", "Rule: ",
      h("a", { href: rulesHref(frame, frame.rule.anchor), target: "_blank", rel: "noopener", dataset: { anchor: frame.rule.anchor } }, frame.rule.title)));
  }
  add(h("a.howto", { href: rulesHref(frame, ""), target: "_blank", rel: "noopener" }, "How to play"));
  if (state.refusal && state.refusal.move === frame.move) {
    bar.append(h("p.refusal", { role: "alert" }, `Not allowed: ${state.refusal.message}`));
  } else {
    state.refusal = null;
  }
  if (state.learning) renderLearn(frame, token, act, held);
}

/** A move the server refused: the engine's explanation, shown under the banner. */
export function refused(message, frame) {
  state.refusal = { message, move: frame ? frame.move : -1 };
  const bar = document.getElementById("rule-bar");
  if (!bar) return;
  for (const old of bar.querySelectorAll(".refusal")) old.remove();
  bar.append(h("p.refusal", { role: "alert" }, `Not allowed: ${message}`));
}

async function loadRules(game) {
  if (state.rules && state.rules.game === game) return state.rules;
  state.rules = await api(`/api/rules/${encodeURIComponent(game)}`).catch(() => null);
  return state.rules;
}

// Learn mode keeps the board, and all of the decision, in the first screen (issue 36). Beside a wide
// table the explanations are the sidebar's first panel, open; above a narrow one (a phone) they fold
// into the rule bar's one line, a toggle there opening them. Folded or not is remembered in this
// browser once the player has chosen; until then it follows the screen's width.
const FOLDED = "candlebox.learnFolded";
const WIDE = window.matchMedia("(min-width: 981px)"); // the sidebar beside the table (base.css)

function folded() {
  const chosen = localStorage.getItem(FOLDED);
  return chosen === null ? !WIDE.matches : chosen === "1";
}

function fold(isFolded) {
  const panel = document.getElementById("learn-panel");
  const toggle = document.querySelector("#rule-bar .learn-toggle");
  if (panel) panel.hidden = isFolded;
  if (!toggle) return;
  toggle.setAttribute("aria-expanded", String(!isFolded));
  toggle.textContent = isFolded ? "Explain my options" : "Hide the explanations";
}

function learnToggle(bar) {
  let toggle = bar.querySelector(".learn-toggle");
  if (toggle) return toggle;
  toggle = h("button.small.subtle.learn-toggle", { type: "button", "aria-controls": "learn-panel" });
  toggle.addEventListener("click", () => {
    const now = !folded();
    localStorage.setItem(FOLDED, now ? "1" : "0");
    fold(now);
    if (!now) placePanel(document.getElementById("learn-panel"), true);
  });
  bar.append(toggle);
  fold(folded());
  return toggle;
}

/** The panel beside a wide table (the sidebar's first) or under the rule bar of a narrow one; opened
 * by the toggle, it is brought into view (a sidebar may have scrolled). */
function placePanel(panel, opened = false) {
  if (!panel) return;
  const side = document.querySelector(".sidebar");
  if (WIDE.matches && side) {
    if (side.firstElementChild !== panel) side.prepend(panel);
  } else {
    const bar = document.getElementById("rule-bar");
    if (bar && bar.nextElementSibling !== panel) bar.after(panel);
  }
  if (opened) panel.scrollIntoView({ block: "nearest" });
}

WIDE.addEventListener("change", () => {
  placePanel(document.getElementById("learn-panel"));
  if (localStorage.getItem(FOLDED) === null) fold(folded());
});

function learnPanel() {
  let panel = document.getElementById("learn-panel");
  if (panel) return panel;
  panel = h("section.panel.learn-panel", { id: "learn-panel", "aria-labelledby": "learn-title" },
    h("div.learn-head", h("h2", { id: "learn-title" }, "Your options, explained")),
    h("div.learn-body", { id: "learn-body" }));
  placePanel(panel);
  fold(folded());
  return panel;
}

function renderLearn(frame, token, act, held = null) {
  const panel = learnPanel();
  placePanel(panel);
  const body = panel.querySelector(".learn-body");
  loadRules(frame.game.game).then((rules) => {
    // folded under one line: the board stays in the first screen, the words a click away
    if (rules && !body.querySelector(".learn-intro")) {
      body.prepend(h("details.learn-intro.note",
        h("summary", "About learn mode"),
        h("p", `Learn mode: ${rules.learn.why} Each choice below says what it does and links to its rule; the log says why the bot did what it did.`)));
    }
  });
  const mine = frame.you !== null && frame.legal.length > 0 && !frame.over;
  let list = body.querySelector(".learn-options");
  const heading = panel.querySelector("h2");
  if (!list) body.append((list = h("ol.learn-options")));
  if (!mine) {
    heading.textContent = frame.over ? "The game is over" : "Waiting for the other player…";
    clear(list);
    return;
  }
  // the table held on something of the game's own (16 Candies: a round's result): the next
  // decision's options would explain what the player cannot see yet (issue 36)
  if (held) {
    heading.textContent = "Your options, explained";
    clear(list).append(h("li.note.learn-held", "Explained after “Next deal”."));
    return;
  }
  // the prompt is the banner's, just above: not said a second time
  heading.textContent = "Your options, explained";
  if (state.options && state.options.move === frame.move) {
    fill(list, frame, state.options.options, act);
    return;
  }
  if (state.asked === frame.move) return;
  state.asked = frame.move;
  clear(list).append(h("li.note", "…")); // never a stale option: they are fetched for this move
  api(`/api/games/${encodeURIComponent(state.gameId)}/learn`, { token })
    .then((data) => {
      state.options = data;
      if (data.move === frame.move) fill(list, frame, data.options, act);
    })
    .catch((err) => toast(err.message, "error"));
}

/** "seat 1" in the engine's words becomes that player's name, as in the banner (ui.namedSeats). */
function named(frame, text) {
  return namedSeats(frame, plain(text)); // a card's name, not its code too ("(S6)" said nothing)
}

// Options alike (the same explanation and rule) whose labels differ only at the end, such as an
// auction's twelve opening bids, are one entry: their shared words once, a short button for each.
const GROUP_AT_LEAST = 3;

function groups(frame, options) {
  const out = [];
  for (const option of options) {
    const last = out[out.length - 1];
    if (last && last[0].does === option.does && last[0].anchor === option.anchor) last.push(option);
    else out.push([option]);
  }
  // each entry: its options and their shared words (null: one option, shown whole)
  return out.flatMap((group) => {
    const head = group.length >= GROUP_AT_LEAST ? shared(frame, group) : null;
    return head ? [{ group, head }] : group.map((o) => ({ group: [o], head: null }));
  });
}

/** The words every label of the group starts with: at least two, and each label's own rest a short
 * amount ("12 shekels"), or null (long rests, as 16 Candies' orientations, read better whole). */
const SHORT_REST = 3;

function shared(frame, group) {
  const words = group.map((o) => named(frame, o.label).split(" "));
  let n = 0;
  while (words.every((w) => n < w.length - 1 && w[n] === words[0][n])) n++;
  if (n < 2 || words.some((w) => w.length - n > SHORT_REST)) return null;
  return words[0].slice(0, n).join(" ");
}

function fill(list, frame, options, act) {
  clear(list);
  list.dataset.move = String(frame.move); // which move these options answer (tools, tests)
  for (const { group, head } of groups(frame, options)) {
    const option = group[0];
    const button = (o, text) => h("button.action.learn-option", { type: "button", onclick: () => act(o.action), dataset: { action: o.action }, title: named(frame, o.label) }, text);
    const choice = head
      ? [h("p.learn-group", `${head} …`), h("div.learn-amounts", group.map((o) => button(o, named(frame, o.label).slice(head.length).trim())))]
      : [button(option, named(frame, option.label))];
    list.append(h("li", { dataset: { action: option.action } },
      ...choice,
      h("p.does", option.does),
      option.components.length
        ? h("details.about", h("summary", about(option.components)),
          option.components.map((c) => h("p", h("strong", `${c.name}: `), c.text)))
        : null,
      option.anchor ? h("a.rule", { href: rulesHref(frame, option.anchor), target: "_blank", rel: "noopener" }, `Rule: ${option.section}`) : null));
  }
}

// The folded components' summary line: what they are, every name ("Cinis Clan and 3 more" left a
// newcomer guessing what the three were).
function about(components) {
  const names = components.map((c) => c.name);
  const listed = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0];
  return `What ${names.length > 1 ? "these are" : "this is"}: ${listed}`;
}

/** A log line in learn mode: after another player's move, why that kind of move is made. */
export function annotate(li, item, frame) {
  if (!state.learning || !state.rules || !frame) return;
  const entry = item.entry;
  if (entry.seat === undefined || entry.seat === null || entry.seat === frame.you) return;
  const why = state.rules.explain[entry.event];
  if (why) li.append(h("span.why", why));
}

/** Learn mode's data may arrive after the first log was drawn: the page redraws the log then. */
export async function ready(frame) {
  if (!state.learning) return false;
  await loadRules(frame.game.game);
  return true;
}

// ----------------------------------------------------------------------------- lobby
async function startLearning(game, button, refused) {
  button.disabled = true;
  showRefusal(refused, null);
  try {
    const rules = await loadRules(game.id);
    const name = localStorage.getItem("candlebox.name") || undefined;
    const created = await api("/api/games", {
      method: "POST",
      body: {
        game: game.id, variant: rules.learn.variant, options: {},
        seats: [{ kind: "human", name }, { kind: "bot", level: "easy" }], // the game's Easy level
        you: 0, bot_delay: 0.8, public: false,
      },
    });
    remember(created.id, { seat: created.seat, token: created.token, invites: created.invites, title: game.title, created: Date.now(), learn: true });
    location.href = `/g/${encodeURIComponent(created.id)}?learn=1`;
  } catch (err) {
    showRefusal(refused, err); // under the button that asked, not a notice elsewhere
    button.disabled = false;
  }
}

/** The lobby's panel: per game, "Learn to play" and its How to play page. */
export function lobbyPanel(meta) {
  const panel = h("section.panel.learn-lobby", { id: "learn" },
    h("h2", "Learn to play"),
    h("p.note", "A first game against an easy bot, with every choice explained and a link to its rule."));
  const wanted = new URLSearchParams(location.search).get("learn");
  for (const game of meta.games) {
    const button = h("button.primary", { type: "button", dataset: { learn: game.id } }, `Learn to play ${game.title}`);
    const refused = refusalLine(button);
    button.addEventListener("click", () => startLearning(game, button, refused));
    panel.append(h("div.learn-row", button, refused, h("a.small", { href: `/rules/${encodeURIComponent(game.id)}` }, "How to play")));
    if (game.id !== wanted) continue;
    // the rules page's "Learn to play" (/?learn=ID) starts the game it names, as this button does
    // (issue 36: it led back to the lobby); the address loses it first, so a reload makes no other
    history.replaceState(null, "", "/");
    setTimeout(() => (button.focus(), startLearning(game, button, refused)), 0);
  }
  return panel;
}
