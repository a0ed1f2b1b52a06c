// What just happened, shown on the board: the last move's components and places are marked
// (class "last-move": a blue bar under them, described as "last move" to screen readers), each bot
// move gets a brief notice in words, and cards that moved between two drawings of the board slide
// from where they were (new ones fade in). Nothing moves when the
// player asks for reduced motion (prefers-reduced-motion: reduce); the marks and notices stay.

import * as words from "./words.js";
import { toast } from "./ui.js";

const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };
const NOTICE_MS = 2600;
let before = null; // key -> rect of the last drawing's cards
let last = { codes: new Set(), places: new Set(), seats: new Set() };

const key = (el, seen) => {
  const base = `${el.dataset.code}@${el.closest("[data-seat]")?.dataset.seat ?? ""}`;
  const n = (seen.get(base) || 0) + 1;
  seen.set(base, n);
  return `${base}#${n}`;
};

// words that name something without being a piece on the table: a house's name in its panel's
// head, a term, a card's mark. They keep their place in their line of text: a house's name sliding
// on its own lay over the panel's "0 VP" (issue 36, a phone)
const WORDS_ONLY = /^(house|term|mark):/;

function cards(root) {
  const out = new Map();
  const seen = new Map();
  for (const el of root.querySelectorAll("[data-code]")) {
    if (el.classList.contains("code-chip") || WORDS_ONLY.test(el.dataset.code)) continue;
    out.set(key(el, seen), el);
  }
  return out;
}

// A card slides within its box (its seat's panel, or the board): by how far it moved inside that
// box, and only when the box kept its size. A box that grew or shrank laid its text out anew at once,
// and a card sliding from its old place lay over that text for the slide (issue 36: "Year I" over
// "candles" on a phone); a box that only moved took its cards with it.
const boxOf = (el, root) => el.closest("[data-seat]") || root;
const boxKey = (box) => box.dataset.seat ?? "";

/** Before the board is cleared: where each card is, and each box. */
export function remember(root) {
  if (reduced.matches || !root.firstChild) {
    before = null;
    return;
  }
  before = { cards: new Map(), boxes: new Map() };
  for (const [k, el] of cards(root)) {
    const box = boxOf(el, root);
    before.cards.set(k, el.getBoundingClientRect());
    if (!before.boxes.has(boxKey(box))) before.boxes.set(boxKey(box), box.getBoundingClientRect());
  }
}

/** After the board is drawn: mark the last move, and slide what moved (unless motion is reduced). */
export function settle(root) {
  markLast(root);
  if (!before || reduced.matches) return;
  const was = before;
  before = null;
  const boxes = new Map();
  for (const [k, el] of cards(root)) {
    const old = was.cards.get(k);
    if (!old) {
      el.classList.add("arrive");
      continue;
    }
    const box = boxOf(el, root);
    if (!boxes.has(boxKey(box))) boxes.set(boxKey(box), box.getBoundingClientRect());
    const [oldBox, newBox] = [was.boxes.get(boxKey(box)), boxes.get(boxKey(box))];
    if (!oldBox || Math.abs(oldBox.width - newBox.width) >= 2 || Math.abs(oldBox.height - newBox.height) >= 2) continue;
    const now = el.getBoundingClientRect();
    const dx = old.left - oldBox.left - (now.left - newBox.left);
    const dy = old.top - oldBox.top - (now.top - newBox.top);
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) continue;
    slide(el, dx, dy);
  }
}

// FLIP: the card starts where it was and glides to where it is. "sliding" marks it for exactly as long as
// its own animation runs: an Animation object ends (or is cancelled) once, where transition events
// bubble up from the card's buttons and reach a card redrawn mid-slide late, and a card unmarked
// mid-slide was still reaching past a phone's edge.
const SLIDE = { duration: 320, easing: "ease-out" };

function slide(el, dx, dy) {
  if (el.cbSlide) el.cbSlide.cancel();
  const motion = el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], SLIDE);
  el.cbSlide = motion;
  el.classList.add("sliding");
  const done = () => {
    if (el.cbSlide !== motion) return; // a newer slide of the same card owns the mark
    el.cbSlide = null;
    el.classList.remove("sliding");
  };
  motion.finished.then(done, done);
}

/** The log entries of the last move: what their fields name becomes "the last move" on the board.
 * The move ends with its turn's end: what the game does next by itself (a round's reveal and scoring,
 * a new deal, a year's war) is no part of it, and marking it outlined every card a round's result
 * shows (issue 36). */
export function lastMove(entries) {
  const codes = new Set();
  const places = new Set();
  const seats = new Set();
  for (const item of entries) {
    const entry = item.entry || item;
    if (typeof entry.seat === "number" && entry.seat >= 0) seats.add(entry.seat);
    if (entry.event === "end-turn") break; // its turn number names nothing on the board
    for (const [field, value] of Object.entries(entry)) {
      if (field === "event" || field === "seat") continue;
      for (const v of Array.isArray(value) ? value : [value]) {
        if (typeof v !== "string" && typeof v !== "number") continue;
        codes.add(String(v));
        places.add(String(v));
      }
    }
  }
  last = { codes, places, seats };
}

// A part of the board that shows no move (16 Candies' round result: every hand revealed) says so
// with data-last="none": nothing in it is marked as the last move.
const MARKED = ":not([data-last='none'] *)";

// The mark's words for screen readers: one hidden line, outside the board (redrawn at every move),
// that each marked element is described by.
const SAID = "last-move-said";

function said() {
  if (!document.getElementById(SAID)) {
    const line = document.createElement("span");
    line.id = SAID;
    line.className = "visually-hidden";
    line.textContent = "last move";
    document.body.append(line);
  }
  return SAID;
}

function markOne(el) {
  el.classList.add("last-move");
  const described = (el.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
  if (!described.includes(SAID)) el.setAttribute("aria-describedby", [...described, said()].join(" "));
}

/** Nothing marked as the last move under ``root`` any more (a game that is over offers nothing). */
export function unmarkLast(root) {
  for (const el of root.querySelectorAll(".last-move")) {
    el.classList.remove("last-move");
    const rest = (el.getAttribute("aria-describedby") || "").split(" ").filter((id) => id && id !== SAID);
    if (rest.length) el.setAttribute("aria-describedby", rest.join(" "));
    else el.removeAttribute("aria-describedby");
  }
}

function markLast(root) {
  for (const el of root.querySelectorAll(`[data-code]${MARKED}`)) {
    if (!el.classList.contains("code-chip") && last.codes.has(el.dataset.code)) markOne(el);
  }
  for (const el of root.querySelectorAll(`[data-place]${MARKED}`)) {
    if (last.places.has(el.dataset.place)) markOne(el);
  }
  for (const el of root.querySelectorAll(`[data-seat]${MARKED}`)) {
    if (last.seats.has(Number(el.dataset.seat))) el.classList.add("last-mover");
  }
}

/** A brief notice of a move ("Taper buys Red candle (value 5)") in the notices' region (ui.toast). */
export function notice(text) {
  toast(words.plain(text), "move", NOTICE_MS);
}
