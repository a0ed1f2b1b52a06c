// Small DOM helpers shared by the lobby, the game shell and the game modules.

/** h("div.card.red", {onclick, title}, child, "text", [children]) -> an element. */
export function h(spec, attrs, ...children) {
  const [tag, ...classes] = spec.split(".");
  const el = document.createElement(tag || "div");
  if (classes.length) el.className = classes.join(" ");
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className += (el.className ? " " : "") + value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "text") el.textContent = value;
    else if (key in el && key !== "list" && key !== "form") el[key] = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An SVG element from markup we write ourselves (never from data). */
export function svg(markup) {
  const holder = document.createElement("div");
  holder.innerHTML = markup.trim();
  return holder.firstElementChild;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

// Notices: short messages (a refused move, a copied link, a bot's move) in one region of their own.
// The game page keeps that region (#notices) in the layout's flow (the head of the sidebar, or a
// line above the table on a narrow screen), where it covers nothing. Notices queue there: at most
// two at once (one on a narrow screen, where a second would push the table down), each for
// NOTICE_MS (shorter while others wait), newest last; an error goes before the moves waiting. A
// page without that region (the lobby) shows them at the bottom of the screen, taking no taps.
const NOTICE_MS = 4200;
const HURRIED_MS = 1600;
const narrow = window.matchMedia ? window.matchMedia("(max-width: 980px)") : { matches: false };
const NOTICES_WAITING = 6;
const waiting = [];

function noticeRegion() {
  const region = document.getElementById("notices");
  if (region) return region;
  let box = document.querySelector(".toasts");
  if (!box) {
    box = h("div.toasts", { role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  return box;
}

const shownAtOnce = () => (narrow.matches ? 1 : 2);

// On a narrow screen a fading notice keeps its place in the flow until it is gone: the next one waits
// for it, or the two together push the table down (the board left the first screen in learn mode).
const onShow = (region) => region.querySelectorAll(narrow.matches ? ".notice" : ".notice:not(.fade)").length;

function showNext(region) {
  while (waiting.length && onShow(region) < shownAtOnce()) {
    const { message, kind, ms } = waiting.shift();
    // a long one is cut to the strip's two lines on a phone (base.css): its whole text on hover or tap
    const note = h(`div.notice.toast.${kind}`, { title: typeof message === "string" ? message : null }, message);
    region.append(note);
    setTimeout(() => retire(note, region), waiting.length ? Math.min(ms, HURRIED_MS) : ms);
  }
}

/** A notice fades, then leaves its place to the next one waiting. */
function retire(note, region) {
  if (note.classList.contains("fade")) return;
  note.classList.add("fade");
  setTimeout(() => (note.remove(), showNext(region)), 600);
}

// Once a game's end screen shows, its moves are told there: the notices of bots' moves waiting or on
// show go, and no more come (issue 36's re-trial: "Taper auctions…" went on under the end screen).
let movesDone = false;

/** The game is over: drop the bots' moves' notices, waiting or shown, and any to come. */
export function endMoveNotices() {
  movesDone = true;
  for (let i = waiting.length - 1; i >= 0; i--) if (waiting[i].kind === "move") waiting.splice(i, 1);
  const region = noticeRegion();
  for (const note of region.querySelectorAll(".notice.move")) retire(note, region);
}

/** A short message in the notices' region: kind "info", "error" or "move" (a bot's move). */
export function toast(message, kind = "info", ms = NOTICE_MS) {
  if (kind === "move" && movesDone) return;
  const region = noticeRegion();
  const item = { message, kind, ms };
  if (kind === "error") waiting.unshift(item);
  else waiting.push(item);
  while (waiting.length > NOTICES_WAITING) {
    const stale = waiting.findIndex((w) => w.kind !== "error"); // the oldest move waiting
    waiting.splice(stale >= 0 ? stale : waiting.length - 1, 1);
  }
  if (kind === "error") {
    // an error is shown at once: the oldest notice on show gives it its place
    const shown = region.querySelectorAll(".notice:not(.fade)");
    if (shown.length && onShow(region) >= shownAtOnce()) retire(shown[0], region);
  }
  showNext(region);
}

export function plural(n, word, many = word + "s") {
  return `${n} ${n === 1 ? word : many}`;
}

/** A group of buttons as one tab stop: the chosen one (or the first) takes Tab, the arrow keys move
 * between them (a roving tabindex), Enter or Space presses. */
export function roving(group, selector = "button") {
  const items = () => [...group.querySelectorAll(selector)].filter((el) => !el.disabled);
  const all = items();
  const current = all.find((el) => el.getAttribute("aria-pressed") === "true" || el.classList.contains("chosen")) || all[0];
  for (const el of all) el.tabIndex = el === current ? 0 : -1;
  group.addEventListener("keydown", (event) => {
    const list = items();
    const at = list.indexOf(document.activeElement);
    if (at < 0) return;
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    let next = null;
    if (step) next = list[(at + step + list.length) % list.length];
    else if (event.key === "Home") next = list[0];
    else if (event.key === "End") next = list[list.length - 1];
    if (!next) return;
    event.preventDefault();
    event.stopPropagation();
    for (const el of list) el.tabIndex = el === next ? 0 : -1;
    next.focus();
  });
  return group;
}

/** A seat named in a sentence: its player's name, "(you)" after yours; "seat 2's" of your own seat
 * reads "your" ("Wick loots D9 from your pile", not "from Ada (you)'s pile"). */
export function seatWho(ctx, seat, possessive = false, first = false) {
  const me = seat === ctx.you;
  const text = possessive && me ? (first ? "Your" : "your") : ctx.label(seat) + (possessive ? "'s" : "");
  return h("b.who", { class: me ? "me" : "" }, text);
}

/** "seat 2" in a sentence from the server becomes the player's name in this frame; "seat 0's" of
 * your own seat reads "your" ("Your" first), as in the log (seatWho). */
export function namedSeats(frame, text) {
  const seats = (frame && frame.seats) || [];
  const you = frame ? frame.you : null;
  return String(text || "").replace(/\bseat (\d+)\b('s)?/gi, (all, n, mine, at) => {
    if (mine && Number(n) === you) return at === 0 ? "Your" : "your";
    const name = (seats[Number(n)] || {}).name;
    return name ? name + (mine || "") : all;
  });
}
