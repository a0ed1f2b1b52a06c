// Quick play (issue 34): choose a game and a player count, wait in the queue with others, and be
// seated together (POST /api/queue, then GET /api/queue/{ticket} once a second until matched).
// The ticket is this tab's (sessionStorage): a reload keeps the place, another tab does not share it.

import { api, remember } from "./api.js";
import { whoAmI } from "./account.js";
import { refusalLine, showRefusal } from "./refusals.js";
import { clear, h, roving } from "./ui.js";

const KEY = "candlebox.ticket";
const LOOK_EVERY = 1000; // ms between looks at the ticket (the server expires silent tickets)
const BOTS = [["Never", null], ["After 30 s", 30], ["After 2 min", 120]];

const quick = {
  meta: null,
  game: null,
  players: 2,
  rated: false,
  botsAfter: null,
  signedIn: false,
  ticket: null, // {ticket, title}
  answer: null, // the last look at it
  timer: null,
  said: null, // why the last ticket ended, said under "Find opponents" once the chooser is back
};

function segmented(choices, current, onpick, label) {
  return roving(h(
    "div.segmented",
    { role: "group", "aria-label": label },
    choices.map(([text, value]) =>
      h("button", { type: "button", class: value === current ? "chosen" : "", "aria-pressed": String(value === current), onclick: () => onpick(value) }, text),
    ),
  ));
}

function gameMeta() {
  return quick.meta.games.find((g) => g.id === quick.game);
}

function playerCounts() {
  const variants = gameMeta().variants;
  const counts = [];
  const low = Math.min(...variants.map((v) => v.min_players));
  const high = Math.max(...variants.map((v) => v.max_players));
  for (let n = low; n <= high; n++) counts.push([String(n), n]);
  return counts;
}

function saved() {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) || "null");
  } catch {
    return null;
  }
}

function keep(ticket) {
  if (ticket) sessionStorage.setItem(KEY, JSON.stringify(ticket));
  else sessionStorage.removeItem(KEY);
  quick.ticket = ticket;
}

function seconds(s) {
  const whole = Math.floor(s);
  return whole < 60 ? `${whole} s` : `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, "0")} s`;
}

function chooser(box) {
  const game = gameMeta();
  box.append(
    h("div.form-row", h("label", { id: "qp-game-label" }, "Game"),
      segmented(quick.meta.games.map((g) => [g.title, g.id]), quick.game, (id) => {
        quick.game = id;
        const counts = playerCounts().map(([, n]) => n);
        if (!counts.includes(quick.players)) quick.players = counts[0];
        render();
      }, "Quick play: game")),
    h("div.form-row", h("label", "Players"),
      segmented(playerCounts(), quick.players, (n) => ((quick.players = n), render()), "Quick play: people at the table")),
  );
  const rated = h("input", {
    type: "checkbox", id: "qp-rated", checked: quick.rated && quick.signedIn, disabled: !quick.signedIn,
    "aria-describedby": "qp-rated-why", onchange: (e) => ((quick.rated = e.target.checked), render()),
  });
  const why = quick.signedIn
    ? "a rated table: everyone signed in, no bots, no hints"
    : "rated games are for signed-in players";
  box.append(h("div.form-row", h("label", { htmlFor: "qp-rated" }, "Rated"), rated, h("span.note", { id: "qp-rated-why" }, why)));
  if (!quick.rated) {
    box.append(h("div.form-row", h("label", "Fill with bots"),
      segmented(BOTS, quick.botsAfter, (s) => ((quick.botsAfter = s), render()), "Quick play: fill empty seats with bots after")));
  }
  const go = h("button.primary", { type: "button", id: "qp-start" }, `Find ${quick.players - 1 === 1 ? "an opponent" : "opponents"}`);
  // a refusal under the button that asked, as the new-game form's (issue 36: quick play's came as a
  // notice in a corner, away from the button)
  const refused = refusalLine(go);
  if (quick.said) {
    refused.textContent = quick.said;
    refused.hidden = false;
    quick.said = null;
  }
  go.addEventListener("click", async () => {
    go.disabled = true;
    showRefusal(refused, null);
    const body = { game: quick.game, players: quick.players, rated: quick.rated && quick.signedIn };
    if (!body.rated && quick.botsAfter !== null) body.bots_after = quick.botsAfter;
    try {
      const made = await api("/api/queue", { method: "POST", body });
      keep({ ticket: made.ticket, title: game.title });
      quick.answer = null;
      render();
      document.getElementById("qp-cancel").focus(); // the start button has gone: focus its opposite
      look();
    } catch (err) {
      showRefusal(refused, err);
      go.disabled = false;
    }
  });
  box.append(h("div.create-row", go), refused);
}

function windowText(answer) {
  return `±${answer.window_points} rating points`;
}

function botsText(answer) {
  const after = answer.queue.bots_after;
  if (after === null || after === undefined) return null;
  return answer.waited >= after ? "now" : `in ${seconds(after - answer.waited)}`;
}

/** A later look: only the figures change (the panel stays, and the keyboard focus in it). */
function showWait(answer) {
  const waited = document.getElementById("qp-waited");
  if (!waited) {
    const focused = document.activeElement && document.activeElement.id === "qp-cancel";
    render();
    if (focused) document.getElementById("qp-cancel").focus();
    return;
  }
  waited.textContent = seconds(answer.waited);
  document.getElementById("qp-window").textContent = windowText(answer);
  const bots = document.getElementById("qp-bots");
  if (bots) bots.textContent = botsText(answer);
}

function waiting(box) {
  const answer = quick.answer;
  const wanted = answer ? answer.queue : null;
  const what = wanted ? `${quick.ticket.title}, ${wanted.players} players${wanted.rated ? ", rated" : ""}` : quick.ticket.title;
  box.append(h("p.qp-status", { role: "status", id: "qp-status" },
    h("span.spinner", { "aria-hidden": "true" }), " ", `Looking for players: ${what}`));
  if (answer) {
    box.append(h("dl.qp-facts",
      h("div", h("dt", "Waiting"), h("dd", { id: "qp-waited" }, seconds(answer.waited))),
      h("div", h("dt", "Matching ratings within"), h("dd", { id: "qp-window" }, windowText(answer))),
      botsText(answer) ? h("div", h("dt", "Bots fill the table"), h("dd", { id: "qp-bots" }, botsText(answer))) : null));
    box.append(h("p.note", "The window widens the longer you wait. Keep this page open: you are taken to the table when it is ready."));
  }
  const cancel = h("button", { type: "button", id: "qp-cancel" }, "Cancel");
  cancel.addEventListener("click", async () => {
    cancel.disabled = true;
    stop();
    try {
      await api(`/api/queue/${encodeURIComponent(quick.ticket.ticket)}`, { method: "DELETE" });
    } catch (err) {
      if (err.code === "matched") return look(); // too late: the table is ready
    }
    keep(null);
    render();
    document.getElementById("qp-start")?.focus();
  });
  box.append(h("div.create-row", cancel));
}

function render() {
  const box = clear(document.getElementById("quick-form"));
  if (quick.ticket) waiting(box);
  else chooser(box);
}

function stop() {
  clearTimeout(quick.timer);
  quick.timer = null;
}

async function look() {
  stop();
  const held = quick.ticket;
  if (!held) return;
  let answer;
  try {
    answer = await api(`/api/queue/${encodeURIComponent(held.ticket)}`);
  } catch (err) {
    if (err.status === 404 || err.status === 400) {
      keep(null);
      render();
      return;
    }
    quick.timer = setTimeout(look, LOOK_EVERY * 3); // the server is busy or away: try again
    return;
  }
  if (quick.ticket !== held) return; // cancelled meanwhile
  quick.answer = answer;
  if (answer.status === "matched") return seated(held, answer);
  if (answer.status !== "waiting") {
    keep(null);
    quick.said = answer.status === "expired" ? "Your place in the queue has lapsed; start again." : "You left the queue.";
    render();
    return;
  }
  showWait(answer);
  quick.timer = setTimeout(look, LOOK_EVERY);
}

function seated(held, answer) {
  keep(null);
  if (answer.token) {
    remember(answer.game, { seat: answer.seat, token: answer.token, title: held.title, created: Date.now() });
  }
  location.href = `/g/${encodeURIComponent(answer.game)}`;
}

/** The quick play panel (in #quick-form) for the games of ``meta`` (GET /api/meta). */
export async function quickPlay(meta) {
  quick.meta = meta;
  quick.game = meta.games[0].id;
  // a guest (or an answer that did not come): unrated tables only
  quick.signedIn = Boolean(await whoAmI().catch(() => null));
  quick.ticket = saved();
  render();
  if (quick.ticket) look();
}
