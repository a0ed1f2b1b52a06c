// "Your games" in the lobby: the games this browser holds a seat in (signed in: the account's, from
// the server, those waiting for you first and marked "your turn"), each with its result (or move),
// date and players, and what you may do with it: resume or replay; resign a game in progress (the
// game ends with your seat last, rulings EG-1); abandon one nobody else has joined; remove an ended
// one from the list; stop a table of bots only you created (its owner token). Resign, abandon and
// stop ask once more, in the card itself, before anything is sent.

import { api, forget, remember } from "./api.js";
import { keepRefusal, keptLine } from "./refusals.js";
import { h, toast } from "./ui.js";

const confirming = new Map(); // game id -> "resign" | "abandon" | "stop" (kept across the polls)
const QUESTION = {
  resign: ["Resign? The game ends now with you last.", "Yes, resign", "You resigned the game."],
  abandon: ["Abandon? The game is closed for good.", "Yes, abandon", "The game was abandoned."],
  stop: ["Stop the bots? The table ends now and nobody wins.", "Yes, stop", "The table was stopped."],
};
let focusWanted = null; // the game whose "Yes" (or, after Cancel, "Resign") takes the focus once drawn
const WHEN = { dateStyle: "medium", timeStyle: "short" };

function nameOf(game, seat) {
  return (game.seats[seat] || {}).name || `seat ${seat + 1}`;
}

/** A finished game's result in words, for the player in ``seat``. */
export function resultLine(game, seat) {
  const result = game.result || {};
  const winners = result.winners || [];
  if (result.stopped) return result.stopped === "time-limit" ? "stopped at its time limit" : "stopped";
  // a rated seat out of time (issue 35): stored as a time loss ("lost-on-time"), said so
  if (result.out_of_time !== undefined && result.out_of_time !== null) {
    return result.out_of_time === seat ? "you lost on time" : `${nameOf(game, result.out_of_time)} lost on time`;
  }
  if (result.resigned !== undefined && result.resigned !== null) {
    if (result.resigned === seat) return "you resigned";
    const names = winners.filter((w) => w !== seat).map((w) => nameOf(game, w));
    const won = winners.includes(seat) ? "you and " + names.join(", ") + " share the win" : `${names.join(" and ")} won`;
    return `${nameOf(game, result.resigned)} resigned · ${won}`;
  }
  if (!winners.length) return "finished · nobody won";
  if (winners.includes(seat)) return winners.length === 1 ? "finished · you won" : "finished · you shared the win";
  return `finished · ${winners.map((w) => nameOf(game, w)).join(" and ")} won`;
}

export function seatsLine(game) {
  return game.seats.map((s) => (s.kind === "bot" ? `${s.name}` : s.taken === false ? "open seat" : s.name)).join(" · ");
}

/** No other person holds a seat: the game may be abandoned (the server checks again). */
function alone(game, seat) {
  return game.seats.every((s) => s.seat === seat || s.kind === "bot" || !s.taken);
}

const GONE = {
  abandoned: "abandoned",
  closed: "closed: nobody moved for a long time",
};

/** Ask the server about your games on no list shown: live, ended (with its result) or gone. */
export async function lookUp(shown, known, ended) {
  await Promise.all(shown.filter((m) => !known.has(m.id) && !ended.has(m.id)).map(async (m) => {
    try {
      const info = await api(`/api/games/${encodeURIComponent(m.id)}`);
      const game = { ...info.game, seats: info.seats };
      if (info.game.status === "live") known.set(m.id, game);
      else ended.set(m.id, { ...game, finished_at: null });
    } catch (err) {
      m.gone = err.code; // closed, abandoned or deleted: shown as such
    }
  }));
}

async function leave(m, how, title, refresh) {
  keepRefusal(`leave:${m.id}`, null);
  try {
    const token = how === "stop" ? m.owner : m.token; // a bot table's owner token stops it
    await api(`/api/games/${encodeURIComponent(m.id)}/${how}`, { method: "POST", token });
    remember(m.id, { title }); // an abandoned game can no longer be asked its name
    toast(QUESTION[how][2]);
  } catch (err) {
    keepRefusal(`leave:${m.id}`, err); // in the card, under its buttons, until the next try
  }
  confirming.delete(m.id);
  refresh();
}

function actions(m, live, done, refresh) {
  const id = encodeURIComponent(m.id);
  const title = (live || done || {}).title || m.title || "this game";
  const asking = confirming.get(m.id);
  if (live && asking) {
    const [question, answer] = QUESTION[asking];
    const yes = h("button.small.danger", { type: "button", dataset: { confirm: asking }, onclick: () => leave(m, asking, title, refresh) },
      answer);
    const cancel = () => {
      confirming.delete(m.id);
      focusWanted = m.id;
      refresh();
    };
    focus(m.id, yes);
    return [h("span.gc-confirm", { role: "status" }, question), yes, h("button.small", { type: "button", onclick: cancel }, "Cancel")];
  }
  const out = [];
  if (live || done || !GONE[m.gone]) {
    const held = m.token || m.account; // a seat link kept here, or a seat of the signed-in account
    out.push(h("a.button.small.primary", { href: `/g/${id}` }, live ? (held ? "Resume" : "Watch") : done ? "Replay" : "Open"));
  }
  if (live) {
    const ask = (how) => () => {
      confirming.set(m.id, how);
      focusWanted = m.id;
      refresh();
    };
    if (!m.token && !m.account) { // a table of bots only: you hold no seat, only the way to stop it
      const stop = h("button.small", { type: "button", dataset: { leave: "stop" }, onclick: ask("stop"), "aria-label": `Stop ${title}` }, "Stop");
      focus(m.id, stop);
      out.push(stop);
      return out;
    }
    const resign = h("button.small", { type: "button", dataset: { leave: "resign" }, onclick: ask("resign"), "aria-label": `Resign ${title}` }, "Resign");
    focus(m.id, resign);
    out.push(resign);
    if (alone(live, m.seat)) {
      out.push(h("button.small", { type: "button", dataset: { leave: "abandon" }, onclick: ask("abandon"), "aria-label": `Abandon ${title}` }, "Abandon"));
    }
  } else if (!m.account) { // the account's games are the server's list: nothing to remove here
    out.push(h("button.small.subtle", { type: "button", onclick: () => (forget(m.id), refresh()), "aria-label": `Remove ${title} from your games` }, "Remove"));
  }
  return out;
}

/** Keyboard users keep their place: the button that replaces the one pressed takes the focus. */
function focus(id, button) {
  if (focusWanted !== id) return;
  focusWanted = null;
  setTimeout(() => button.focus());
}

/** One card of "Your games". */
export function mineCard(m, live, done, refresh) {
  const game = live || done;
  const stamp = done && done.finished_at ? done.finished_at * 1000 : m.created || m.saved || Date.now();
  const when = new Date(stamp).toLocaleString([], WHEN);
  let state = "no longer on this server";
  if (live) state = `in play · move ${live.moves}`;
  else if (done) state = resultLine(done, m.seat);
  else if (GONE[m.gone]) state = GONE[m.gone];
  const lines = [h("span.gc-seats.gc-state", `${state} · ${when}`)];
  if (game) lines.push(h("span.gc-seats", seatsLine(game)));
  const turn = live && m.yourTurn ? h("span.gc-turn", "your turn") : null;
  const buttons = actions(m, live, done, refresh);
  // the refusal of a Resign, Abandon or Stop: the game may have ended meanwhile, its buttons gone
  const asker = buttons.find((b) => b.dataset && (b.dataset.leave || b.dataset.confirm)) || null;
  return h("div.game-card", { dataset: { game: m.id, state: live ? "live" : done ? "over" : m.gone || "gone", ...(turn ? { turn: "yours" } : {}) } },
    h("span.gc-title", game ? `${game.title} · ${game.variant}` : m.title || "Game", turn),
    lines,
    h("div.gc-actions", buttons),
    keptLine(`leave:${m.id}`, asker));
}
