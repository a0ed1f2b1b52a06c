// The signed-in player's notices, in every page's header (issue 35): a bell with the unread count,
// opening a list of them (each a link to its game) with "Mark all read" and "Notify me"; the page
// title starts "(2) Your turn" while two games wait for the player. Asked again every POLL_MS
// while the page is shown, and when it is shown again (GET /api/me/notices).
//
// "Notify me" asks the browser's permission (only on that click, never on load), then subscribes
// this browser to Web Push through the service worker (/sw.js) when the browser can; a browser
// that allowed notifications but has no push subscription gets a Notification from this page for
// each new notice while it is open.

import { api } from "./api.js";
import { clear, h, svg } from "./ui.js";

const POLL_MS = 20000;
const PREFIX = /^\(\d+\) Your turn · /;
const SHOWN = "candlebox.noticeShown"; // the newest notice this browser showed as a Notification
const BELL = `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
  <path fill="currentColor" d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3a1.5 1.5 0 0 0-3 0v1.16A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z"/>
</svg>`;

let yourTurn = 0;
let parts = null; // the bell's elements once drawn
let pushing = false; // this browser has a push subscription: the service worker shows notices

/** Draw the bell into the header's account box (signed in) and keep it and the title current. */
export function startBell(box) {
  if (!box) return;
  if (parts) {
    if (!box.contains(parts.wrap)) box.append(parts.wrap); // the box was drawn again
    return;
  }
  const count = h("span.bell-count", { hidden: true });
  const button = h("button.bell", { type: "button", "aria-expanded": "false", "aria-controls": "bell-panel", "aria-label": "Notices", onclick: () => toggle() },
    svg(BELL), count);
  const list = h("ul.bell-list");
  const status = h("p.bell-status", { role: "status", "aria-live": "polite" });
  const markAll = h("button.small", { type: "button", dataset: { action: "mark-read" }, onclick: markAllRead }, "Mark all read");
  const notify = h("button.small", { type: "button", dataset: { action: "notify-me" }, hidden: !("Notification" in window), onclick: notifyMe }, "Notify me");
  const panel = h("div.bell-panel", { id: "bell-panel", role: "region", "aria-labelledby": "bell-title", hidden: true },
    h("h2.bell-title", { id: "bell-title" }, "Notices"),
    list,
    h("div.bell-actions", markAll, notify),
    status);
  const wrap = h("div.bell-wrap", button, panel);
  parts = { wrap, button, count, list, status, panel, markAll, notify };
  box.append(wrap); // after the account link, which stays the header's first stop
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !panel.hidden) {
      toggle(false);
      button.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (!panel.hidden && !event.target.closest(".bell-wrap")) toggle(false);
  });
  watchTitle();
  refresh();
  setInterval(() => document.visibilityState === "visible" && refresh(), POLL_MS);
  document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && refresh());
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.getRegistration("/").then(async (reg) => {
      pushing = Boolean(reg && reg.pushManager && (await reg.pushManager.getSubscription()));
    }).catch(() => {});
  }
}

function toggle(open = parts.panel.hidden) {
  parts.panel.hidden = !open;
  parts.button.setAttribute("aria-expanded", String(open));
  if (open) refresh();
}

/** Ask the server again: the unread count, the list, and in how many games it is your turn. */
export async function refresh() {
  if (!parts) return;
  let answer;
  try {
    answer = await api("/api/me/notices");
  } catch {
    return; // signed out meanwhile, or the server away: the bell stays as it was
  }
  yourTurn = answer.your_turn;
  applyTitle();
  const { count, button, list, markAll } = parts;
  count.hidden = answer.unread === 0;
  count.textContent = String(answer.unread);
  button.setAttribute("aria-label", answer.unread ? `Notices, ${answer.unread} unread` : "Notices");
  button.dataset.unread = String(answer.unread);
  markAll.disabled = answer.unread === 0;
  clear(list);
  if (!answer.notices.length) list.append(h("li.bell-empty", "Nothing new. When a game waits for your move, it shows here."));
  for (const notice of answer.notices) {
    const when = new Date(notice.at * 1000).toLocaleString([], { dateStyle: "short", timeStyle: "short" });
    const open = async (event) => {
      event.preventDefault();
      const { href } = event.currentTarget; // gone once the event is over
      if (!notice.read) await api("/api/me/notices/read", { method: "POST", body: { ids: [notice.id] } }).catch(() => {});
      location.assign(href);
    };
    list.append(h("li", { class: notice.read ? "read" : "unread", dataset: { notice: notice.id } },
      h("a", { href: `/g/${encodeURIComponent(notice.game_id)}`, onclick: open },
        notice.read ? null : h("span.visually-hidden", "New: "), notice.text),
      h("span.bell-when", when)));
  }
  showNew(answer.notices);
}

async function markAllRead() {
  try {
    await api("/api/me/notices/read", { method: "POST", body: { all: true } });
    parts.status.textContent = "All notices marked read.";
  } catch (err) {
    parts.status.textContent = err.message;
  }
  await refresh();
  parts.button.focus();
}

// ----------------------------------------------------------------------------- the title
function applyTitle() {
  const base = document.title.replace(PREFIX, "");
  const wanted = yourTurn > 0 ? `(${yourTurn}) Your turn · ${base}` : base;
  if (document.title !== wanted) document.title = wanted;
}

/** Pages set their own title as they learn it: the prefix goes back on each time. */
function watchTitle() {
  let title = document.querySelector("title");
  if (!title) {
    title = h("title", document.title);
    document.head.append(title);
  }
  new MutationObserver(applyTitle).observe(title, { childList: true, characterData: true, subtree: true });
}

// ----------------------------------------------------------------------------- notifications
function showNew(notices) {
  if (!("Notification" in window) || Notification.permission !== "granted" || pushing) return;
  const newest = Math.max(0, ...notices.map((n) => n.id));
  const shown = Number(localStorage.getItem(SHOWN) || 0);
  localStorage.setItem(SHOWN, String(Math.max(newest, shown)));
  if (!shown) return; // the first look in this browser: what was already there is not news
  for (const notice of notices.filter((n) => !n.read && n.id > shown)) {
    const note = new Notification("Candlebox", { body: notice.text, tag: notice.game_id });
    note.onclick = () => {
      window.focus();
      location.assign(`/g/${encodeURIComponent(notice.game_id)}`);
    };
  }
}

async function notifyMe() {
  const { status } = parts;
  const allowed = await Notification.requestPermission();
  if (allowed !== "granted") {
    status.textContent = "Notifications are not allowed in this browser; the bell still counts your turns.";
    return;
  }
  localStorage.setItem(SHOWN, localStorage.getItem(SHOWN) || "1");
  try {
    pushing = await subscribePush();
  } catch (err) {
    pushing = false;
    status.textContent = `Notifications shown while this site is open (push: ${err.message}).`;
    return;
  }
  status.textContent = pushing ? "This browser will be told when it is your turn, even with the site closed." : "Notifications shown while this site is open.";
}

/** Subscribe this browser to Web Push (POST /api/me/push); false where the browser cannot. */
async function subscribePush() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) return false;
  const chosen = await api("/api/me/notices/preferences");
  if (!chosen.push_key) return false;
  const reg = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  await navigator.serviceWorker.ready;
  const sub = (await reg.pushManager.getSubscription()) ||
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(chosen.push_key) }));
  const { endpoint, keys } = sub.toJSON();
  await api("/api/me/push", { method: "POST", body: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } } });
  if (!chosen.push) await api("/api/me/notices/preferences", { method: "POST", body: { push: true } });
  return true;
}

function bytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}
