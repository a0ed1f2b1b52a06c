// The table chat (issue 35; docs/server.md, "Table chat"): a panel in the sidebar (below the table on
// a phone, folded there, so it never covers the board), its messages from the frames (a snapshot's
// `chat`, then `{"type": "chat"}` frames), Enter sends. Every name and text goes in as text
// (textContent through ui.h): a message is never HTML. Muting is for yourself: kept on the account
// when signed in, in this browser otherwise. No chat at a table of fewer than two people.

import { api } from "./api.js";
import { whoAmI } from "./account.js";
import { keepRefusal, keptLine, refusalLine, showRefusal } from "./refusals.js";
import { clear, h, toast } from "./ui.js";

const MUTES = "candlebox.chatMutes"; // a guest's muted authors
const OPEN = "candlebox.chatOpen"; // the panel folded or not, as the player last left it
const MAX_TEXT = 500;
const narrow = window.matchMedia ? window.matchMedia("(max-width: 980px)") : { matches: false };

const chat = {
  gameId: null,
  token: () => null,
  frame: () => null,
  messages: [], // [{id, seat, name, text, at, author}], oldest first
  mutes: new Set(),
  signedIn: false,
  mine: new Set(), // authors of this browser's own messages (a spectator's key comes back with them)
  unread: 0,
  panel: null,
  sending: false,
};

/** Called once by the game page. */
export function start(gameId, token, frame) {
  chat.gameId = gameId;
  chat.token = token;
  chat.frame = frame;
  chat.mutes = new Set(guestMutes());
  // a guest keeps the browser's own list (not asked of the server: its 401 is a console error)
  whoAmI()
    .then((me) => me && api("/api/me/mutes"))
    .then((data) => {
      if (!data) return;
      chat.signedIn = true;
      chat.mutes = new Set(data.mutes);
      draw();
    })
    .catch(() => {});
}

function guestMutes() {
  try {
    const list = JSON.parse(localStorage.getItem(MUTES) || "[]");
    return Array.isArray(list) ? list.filter((a) => typeof a === "string") : [];
  } catch {
    return [];
  }
}

/** A snapshot: its chat (when it has one) is the whole chat. */
export function snapshot(frame) {
  if (Array.isArray(frame.chat)) chat.messages = frame.chat.slice();
  draw();
}

/** A `chat` frame: new messages, and the ids of those the operator hid. */
export function received(msg) {
  const hidden = new Set(msg.hidden || []);
  const known = new Set(chat.messages.map((m) => m.id));
  const added = (msg.chat || []).filter((m) => !known.has(m.id));
  chat.messages = chat.messages.filter((m) => !hidden.has(m.id)).concat(added);
  if (!isOpen()) chat.unread += added.filter((m) => !ownMessage(m) && !chat.mutes.has(m.author)).length;
  draw(added.length > 0);
}

function people(frame) {
  return frame.seats.filter((s) => s.kind === "human" || s.stands_in).length;
}

function ownMessage(m) {
  const frame = chat.frame();
  if (frame && frame.you !== null && m.seat === frame.you) return true;
  return m.seat === null && chat.mine.has(m.author);
}

// ----------------------------------------------------------------------------- the panel
function panel() {
  if (chat.panel) return chat.panel;
  const stored = localStorage.getItem(OPEN);
  const open = stored === null ? !narrow.matches : stored === "1";
  const input = h("input", {
    id: "chat-text", type: "text", maxLength: MAX_TEXT, autocomplete: "off", enterKeyHint: "send",
  });
  const button = h("button.primary", { type: "submit" }, "Send");
  const refused = refusalLine(button); // a refused message: said under the field, which keeps its text
  const form = h("form.chat-form", { onsubmit: (event) => (event.preventDefault(), send(input, refused)) },
    h("label.visually-hidden.chat-label", { htmlFor: "chat-text" }, "Message"),
    input,
    button,
    refused);
  // a button that folds the panel (not a <details>: the open panel is a column whose list gives
  // up height to the game log when the sidebar is short)
  const toggle = h("button.chat-toggle", {
    id: "chat-toggle", type: "button", "aria-expanded": String(open), "aria-controls": "chat-body",
    onclick: () => setOpen(toggle.getAttribute("aria-expanded") !== "true"),
  }, h("span.chat-title", "Table chat"), h("span.chat-unread", { hidden: true }));
  const body = h("div.chat-body", { id: "chat-body", hidden: !open },
    h("ol.chat-list", { tabindex: "0", "aria-label": "Chat messages", "aria-live": "polite" }),
    form);
  chat.panel = h("section.panel.chat-panel", { id: "chat-panel", "aria-label": "Table chat", class: open ? "open" : "" },
    h("h2.chat-head", toggle), body);
  chat.panel.hidden = true;
  const players = document.getElementById("players");
  const after = players ? players.closest(".panel") : null;
  if (after) after.after(chat.panel);
  else document.querySelector(".sidebar").append(chat.panel);
  return chat.panel;
}

function isOpen() {
  return panel().querySelector("#chat-toggle").getAttribute("aria-expanded") === "true";
}

function setOpen(open) {
  const box = panel();
  box.querySelector("#chat-toggle").setAttribute("aria-expanded", String(open));
  box.querySelector("#chat-body").hidden = !open;
  box.classList.toggle("open", open);
  localStorage.setItem(OPEN, open ? "1" : "0");
  if (open) {
    chat.unread = 0;
    draw(true);
  }
}

function draw(scroll = false) {
  const frame = chat.frame();
  const box = panel();
  // a learn table (one player and a bot), a bot-only table or a learn-mode page: no chat
  box.hidden = !frame || people(frame) < 2 || document.body.classList.contains("learning");
  if (box.hidden) return;
  // who reads what you write: said where you write it (the players never read the spectators)
  const spectator = frame.you === null;
  box.querySelector("#chat-text").placeholder = spectator ? "To spectators only…" : "To everyone here…";
  box.querySelector(".chat-label").textContent = spectator
    ? "Message to the spectators (the players do not read it)"
    : "Message to the players and spectators";
  const badge = box.querySelector(".chat-unread");
  badge.hidden = chat.unread === 0;
  badge.textContent = chat.unread ? `${chat.unread} new` : "";
  const list = box.querySelector(".chat-list");
  const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
  clear(list);
  if (!chat.messages.length) list.append(h("li.chat-empty.note", "No messages yet."));
  for (const m of chat.messages) list.append(line(m, frame));
  if (scroll || atEnd) list.scrollTop = list.scrollHeight;
}

function line(m, frame) {
  const who = m.seat === null ? `${m.name} (watching)` : m.name;
  const own = ownMessage(m);
  if (chat.mutes.has(m.author) && !own) {
    return h("li.chat-muted", { dataset: { id: m.id } },
      h("span.chat-name", who), " is muted ",
      h("button.link-button", { type: "button", onclick: () => mute(m.author, false) }, "Unmute"));
  }
  const time = new Date(m.at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const item = h("li.chat-message", { class: own ? "mine" : "", dataset: { id: m.id, seat: m.seat === null ? "" : m.seat } },
    h("span.chat-name", { class: m.seat === frame.you && m.seat !== null ? "me" : "" }, who),
    h("span.chat-text", m.text),
    h("span.chat-time", time));
  if (!own) {
    item.append(h("details.chat-menu",
      h("summary", { "aria-label": `More for ${who}'s message`, title: "Mute or report" }, "⋯"),
      h("div.chat-menu-items",
        h("button", { type: "button", onclick: () => mute(m.author, true) }, `Mute ${m.name}`),
        h("button", { type: "button", onclick: (event) => report(m, event.target) }, "Report"))));
    // a refused report, under the message it was about (the menu closes; the list is redrawn often)
    const refused = keptLine(`report:${m.id}`);
    if (refused) item.append(refused);
  }
  return item;
}

// ----------------------------------------------------------------------------- acting
async function send(input, refused) {
  const text = input.value.trim();
  if (!text || chat.sending) return;
  chat.sending = true;
  showRefusal(refused, null);
  try {
    const data = await api(`/api/games/${encodeURIComponent(chat.gameId)}/chat`, {
      method: "POST", body: { text }, token: chat.token(),
    });
    chat.mine.add(data.message.author);
    if (!chat.messages.some((m) => m.id === data.message.id)) chat.messages.push(data.message);
    input.value = "";
    draw(true);
  } catch (err) {
    showRefusal(refused, err);
  } finally {
    chat.sending = false;
    input.focus();
  }
}

async function mute(author, muted) {
  const before = new Set(chat.mutes);
  if (muted) chat.mutes.add(author);
  else chat.mutes.delete(author);
  if (!chat.signedIn) localStorage.setItem(MUTES, JSON.stringify([...chat.mutes]));
  draw();
  if (!chat.signedIn) return;
  try {
    const data = await api("/api/me/mutes", { method: "POST", body: { author, muted } });
    chat.mutes = new Set(data.mutes);
  } catch (err) {
    chat.mutes = before;
    toast(err.message, "error");
  }
  draw();
}

async function report(m, button) {
  button.disabled = true;
  keepRefusal(`report:${m.id}`, null);
  try {
    await api(`/api/games/${encodeURIComponent(chat.gameId)}/chat/${m.id}/report`, {
      method: "POST", body: {}, token: chat.token(),
    });
    toast(`Reported ${m.name}'s message to the server's operator.`);
  } catch (err) {
    keepRefusal(`report:${m.id}`, err);
  } finally {
    button.disabled = false;
  }
  const menu = button.closest("details");
  if (menu) menu.open = false;
  draw();
}
