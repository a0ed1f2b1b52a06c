// Tooltips for everything the board shows: an element with data-code (a component code, named and
// explained from words.js) or data-tip (a line of its own) gets its name and effect text on hover and
// on keyboard focus; on a touch screen, on a tap of something a tap does not play (a rival's card,
// the table, a log chip: tap again or elsewhere to close), and on a long press of what a tap plays
// (the press then triggers no click). One
// tooltip element (role=tooltip) serves the page; the element it describes points at it with
// aria-describedby while it shows.

import * as words from "./words.js";
import { clear, h } from "./ui.js";

const LONG_PRESS = 480; // ms a finger rests on a card before its tooltip shows
const SLOP = 10; // px a finger may wander during a long press
let tip = null;
let current = null;
let press = null; // {timer, x, y, el} while a finger is down
let swallowClick = false;
let keyboard = false; // the last input was a key: focus then shows the focused thing's words
let pointer = null; // {x, y} of a mouse resting over the page (not a finger), for redraws under it
let by = null; // what showed the tooltip: "pointer" (a mouse or a long press) or "focus" (the keyboard)
let touched = false; // the last pointer down was a finger
// After a click or tap the words are done with: the move redraws the board and a panel may open where
// the card was (issue 36: a card's words stayed over "Pay 10 to loot…" and over the round result's
// names). Until the mouse moves again, nothing under the resting pointer shows its words by itself.
let quiet = false;
let clickedAt = null; // {x, y} of the click that made the page quiet
const STILL = 3; // px a mouse may drift after a click and still be resting
// What a tap plays or works: there a tap keeps its meaning and the words need a long press.
const ACTIONABLE = "button, a[href], input, select, textarea, label, [role=button], .clickable, [data-action], [data-choices]";

function element() {
  if (!tip) {
    tip = h("div.tooltip", { id: "tooltip", role: "tooltip", hidden: true });
    document.body.append(tip);
  }
  return tip;
}

const SOURCE = "[data-code], [data-tip]";

/** What an element's tooltip says: [title, text] (either may be empty), or null. */
export function contentOf(el) {
  const code = el.dataset.code;
  const entry = code ? words.lookup(code) : null;
  const extra = el.dataset.tip || "";
  if (entry) return [entry.name, entry.text + (extra ? ` ${extra}` : "")];
  if (extra) return ["", extra];
  return null;
}

export function show(el) {
  const content = contentOf(el);
  if (!content) return;
  const box = element();
  clear(box);
  if (content[0]) box.append(h("strong.tooltip-name", content[0]));
  if (content[1]) box.append(h("span.tooltip-text", content[1]));
  if (el.title) {
    // the browser's own tooltip would cover ours: keep its words in ours instead
    el.dataset.title = el.title;
    el.removeAttribute("title");
  }
  if (el.dataset.title && el.dataset.title !== content[0]) box.append(h("span.tooltip-note", el.dataset.title));
  if (current && current !== el) current.removeAttribute("aria-describedby");
  current = el;
  el.setAttribute("aria-describedby", "tooltip");
  box.hidden = false;
  place(box, el);
}

export function hide() {
  if (current) current.removeAttribute("aria-describedby");
  current = null;
  by = null;
  if (tip) tip.hidden = true;
}

// What a pointer may be on its way to: the tooltip never lies over one of these (issue 36: at a
// laptop's size a card's words lay over the "Next" button the mouse was heading for).
const CONTROLS = "button, summary, a[href], input, select, textarea, [role=button], .clickable, [data-action], [data-choices]";
const GAP = 8; // px between the tooltip and what it describes
const EDGE = 6; // px kept from the screen's edges
const STEP = 24; // px between the spots tried when none beside the element is free

/** Where the tooltip goes: beside the element (above, below, right, left, in that order) where it
 * covers neither the element nor any control; else the free spot nearest the element; else (a
 * screen full of controls) the spot covering the fewest. */
function place(box, el) {
  const r = el.getBoundingClientRect();
  const w = box.offsetWidth;
  const hgt = box.offsetHeight;
  const vw = document.documentElement.clientWidth;
  const vh = document.documentElement.clientHeight;
  const keep = [r, ...controlRects(el)];
  const clampX = (x) => Math.max(EDGE, Math.min(x, vw - w - EDGE));
  const clampY = (y) => Math.max(EDGE, Math.min(y, vh - hgt - EDGE));
  const midX = clampX(r.left + r.width / 2 - w / 2);
  const midY = clampY(r.top + r.height / 2 - hgt / 2);
  const beside = [
    [midX, r.top - hgt - GAP],
    [midX, r.bottom + GAP],
    [r.right + GAP, midY],
    [r.left - w - GAP, midY],
  ].filter(([x, y]) => x >= EDGE && y >= EDGE && x + w <= vw - EDGE && y + hgt <= vh - EDGE);
  const covered = ([x, y]) => keep.filter((k) => x < k.right && k.left < x + w && y < k.bottom && k.top < y + hgt).length;
  let spot = beside.find((at) => covered(at) === 0);
  if (!spot) {
    const spots = [];
    for (let y = EDGE; y <= vh - hgt - EDGE; y += STEP) for (let x = EDGE; x <= vw - w - EDGE; x += STEP) spots.push([x, y]);
    if (!spots.length) spots.push([clampX(midX), clampY(r.top - hgt - GAP)]);
    const far = ([x, y]) => Math.hypot(x + w / 2 - (r.left + r.width / 2), y + hgt / 2 - (r.top + r.height / 2));
    let best = Infinity;
    for (const at of spots) {
      const score = covered(at) * 1e6 + far(at); // fewest covered first, then the nearest
      if (score < best) [best, spot] = [score, at];
    }
  }
  box.style.left = `${Math.round(spot[0])}px`;
  box.style.top = `${Math.round(spot[1])}px`;
}

/** The boxes of the controls on screen, but the element itself and what holds it or it holds. */
function controlRects(el) {
  const vw = document.documentElement.clientWidth;
  const vh = document.documentElement.clientHeight;
  const out = [];
  for (const c of document.querySelectorAll(CONTROLS)) {
    if (c === el || c.contains(el) || el.contains(c) || c.closest("#tooltip")) continue;
    const b = c.getBoundingClientRect();
    if (b.width && b.height && b.bottom > 0 && b.right > 0 && b.top < vh && b.left < vw) out.push(b);
  }
  return out;
}

function sourceOf(target) {
  return target instanceof Element ? target.closest(SOURCE) : null;
}

function cancelPress() {
  if (press) clearTimeout(press.timer);
  press = null;
}

/** Listen on the whole document once (the board is redrawn after every move; listeners stay). */
export function install() {
  if (install.done) return;
  install.done = true;
  document.addEventListener("pointerover", (e) => {
    if (e.pointerType === "touch") return;
    pointer = { x: e.clientX, y: e.clientY };
    wake(e);
    if (quiet) return; // the board redrawn under a mouse resting since its click
    const el = sourceOf(e.target);
    if (el && el !== current) show(el), (by = "pointer");
  });
  document.addEventListener("pointerout", (e) => {
    if (!e.relatedTarget) pointer = null; // the mouse left the window
    if (e.pointerType === "touch" || !current) return;
    const to = e.relatedTarget instanceof Element ? e.relatedTarget.closest(SOURCE) : null;
    if (to !== current && !current.contains(e.relatedTarget)) hide();
  });
  document.addEventListener("focusin", (e) => {
    const el = sourceOf(e.target);
    // keyboard focus only: the page also moves focus to the next decision after every click,
    // and a tooltip popping up there each time would cover the board; nor does such a move take
    // away the words a resting mouse asked for
    if (el && el === e.target && keyboard) show(el), (by = "focus");
    else if (by === "focus") hide();
  });
  document.addEventListener("focusout", () => by === "focus" && hide());
  document.addEventListener("keydown", (e) => {
    keyboard = true;
    if (e.key === "Escape" && current) hide();
  });
  document.addEventListener("pointerdown", (e) => {
    keyboard = false;
    swallowClick = false;
    touched = e.pointerType === "touch";
    if (!touched) return;
    const el = sourceOf(e.target);
    if (current && el !== current) hide();
    if (!el || !contentOf(el)) return;
    cancelPress();
    press = {
      x: e.clientX,
      y: e.clientY,
      timer: setTimeout(() => {
        press = null;
        swallowClick = true; // the long press asked for words, not for a move
        show(el);
        by = "pointer";
      }, LONG_PRESS),
    };
  });
  document.addEventListener("pointermove", (e) => {
    if (e.pointerType !== "touch") {
      pointer = { x: e.clientX, y: e.clientY };
      // the mouse moves on after its click: the words of what it is over show again
      if (wake(e)) {
        const el = underMouse();
        if (el && el !== current) show(el), (by = "pointer");
      }
    }
    if (press && Math.hypot(e.clientX - press.x, e.clientY - press.y) > SLOP) cancelPress();
  });
  document.addEventListener("pointerup", cancelPress);
  document.addEventListener("pointercancel", cancelPress);
  // capture: the click that ends a long press never reaches the board's own handlers
  let shownBefore = null; // what showed words when the click came (a second tap closes them)
  document.addEventListener(
    "click",
    (e) => {
      if (swallowClick) {
        swallowClick = false;
        e.preventDefault();
        e.stopPropagation();
        return;
      }
      // a click or tap does something (plays, opens, closes): the words it was under go
      shownBefore = current;
      if (current) hide();
      quiet = true;
      // a key's or a script's click has no place of its own: the mouse rests where it last was
      clickedAt = e.detail ? { x: e.clientX, y: e.clientY } : pointer;
    },
    true,
  );
  // a tap on words that play nothing shows them (a second tap closes them): a finger has no hover
  document.addEventListener("click", (e) => {
    if (!touched || !(e.target instanceof Element) || e.target.closest(ACTIONABLE)) return;
    const el = sourceOf(e.target);
    if (!el || el === shownBefore) return;
    show(el), (by = "pointer");
  });
  document.addEventListener("contextmenu", (e) => {
    if (sourceOf(e.target) && (press || swallowClick)) e.preventDefault();
  });
  // A scroll (the page's, or the table area's own) moves the cards under a resting mouse: once it
  // has moved them, the words follow what is under the mouse now, and a focused card's words follow
  // the card. Hiding them instead lost the words of a card the mouse had just reached, when the
  // scroll's event came after the mouse's (a scroll into view, then the hover).
  window.addEventListener("scroll", () => current && requestAnimationFrame(afterScroll), {
    passive: true,
    capture: true,
  });
}

/** A mouse moved away from where it clicked ends the quiet after the click; true if it just did. */
function wake(e) {
  if (!quiet) return false;
  if (clickedAt && Math.hypot(e.clientX - clickedAt.x, e.clientY - clickedAt.y) <= STILL) return false;
  quiet = false;
  return true;
}

function afterScroll() {
  if (!current) return;
  if (by === "focus") return place(element(), current);
  const el = underMouse();
  if (el === current) return place(element(), current);
  hide(); // a finger's long press (no resting mouse), or the mouse is over something else now
  if (el && !quiet) show(el), (by = "pointer");
}

/** After the board is redrawn: a tooltip of an element that is gone goes too, and a mouse resting
 * on the redrawn card (a bot moved meanwhile) gets the new card's words without having to move. */
export function refresh() {
  if (!current || current.isConnected) return;
  const hovered = by === "pointer" && pointer && !quiet;
  hide();
  if (!hovered) return;
  const el = underMouse();
  if (el) show(el), (by = "pointer");
}

/** What has words under a resting mouse (not a finger), or null. */
function underMouse() {
  return pointer ? sourceOf(document.elementFromPoint(pointer.x, pointer.y)) : null;
}
