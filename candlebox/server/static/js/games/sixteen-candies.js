// 16 Candies on the table: your three cards (each with two halves; turn a card to choose which half is
// on top), the draw pile and the discard pile, the rivals' hands as card backs with their Health Pools,
// and the call. Clicks: the draw pile or the discard pile to draw, a card in your hand to discard it,
// the turn arrows on your cards then "Keep this way" to orient them, "I've got candy!" to call.

import { h, svg } from "../ui.js";
import { CSS as ROUND_CSS, roundPanel, roundShowing } from "./sixteen-candies-round.js";
import * as words from "../words.js";

const SHAPES = {
  G: `<circle cx="10" cy="11" r="6"/><circle cx="5.5" cy="5.5" r="2.6"/><circle cx="14.5" cy="5.5" r="2.6"/>`,
  C: `<rect x="3.5" y="4" width="13" height="13" rx="2.5"/><path d="M10 4v13M3.5 10.5h13" class="groove"/>`,
  K: `<path d="M10 2.5L17.5 17H2.5Z"/><path d="M5.2 12h9.6" class="groove"/>`,
  H: `<path d="M10 17S2.5 12 2.5 7.2A3.9 3.9 0 0 1 10 5.4a3.9 3.9 0 0 1 7.5 1.8C17.5 12 10 17 10 17Z"/>`,
};

function candyIcon(letter) {
  return svg(`<svg class="sc-icon c-${letter}" viewBox="0 0 20 20" aria-hidden="true">${SHAPES[letter] || ""}</svg>`);
}

function halfInfo(code) {
  if (code === "W") return { candy: "W", count: 3 };
  return { candy: code[0], count: Number(code.slice(1)) };
}

/** One half of a card: the candies drawn count times, and the count. */
function halfEl(ctx, code, cls) {
  const { candy, count } = halfInfo(code);
  // no title of its own: the card around it names itself and its two halves (tooltips.js)
  const el = h(`div.sc-half.${cls}.c-${candy}`, { "aria-label": candyName(ctx, candy, count) });
  const pen = penaltyMark(ctx, code);
  if (candy === "W") {
    el.append(h("span.sc-wild", "WILD"), h("span.sc-count", "3 of any"), pen);
    return el;
  }
  const icons = h("div.sc-icons");
  for (let i = 0; i < count; i++) icons.append(candyIcon(candy));
  el.append(h("span.sc-count", { role: "img", "aria-label": `${count} candies` }, `${count}`), icons, pen);
  return el;
}

/** A half's penalty where the rulebook prints it, the top-left corner ("the total number of Penalty
 * Candies denoted on the top left corner of their Cards"): a "−N" in a circle. On screen it was only
 * in tooltips, and a new player took the corner's candy count for it (issue 36). */
function penaltyMark(ctx, code) {
  const n = halfPenalty(ctx, code);
  const said = `penalty ${n}: candies lost if this half is on top in the lowest hand`;
  return h("span.sc-pen", { role: "img", "aria-label": said, title: said }, `−${n}`);
}

let penalties = null; // half code → its penalty, from the game's facts
function halfPenalty(ctx, code) {
  if (code === "W") return (ctx.facts.wild && ctx.facts.wild.penalty) ?? 2;
  if (!penalties) {
    penalties = new Map();
    for (const card of Object.values(ctx.facts.cards || {})) for (const half of card.halves || []) penalties.set(half.code, half.penalty);
  }
  const { count } = halfInfo(code);
  return penalties.get(code) ?? (count <= 2 ? 3 : count <= 4 ? 2 : 1); // the standard deck's rule
}

function candyName(ctx, candy, count) {
  if (candy === "W") return "Wild: three of the candy you need";
  const name = (ctx.facts.candies || {})[candy] || candy;
  return `${count} ${name}`;
}

function faceCard(ctx, top, bottom, opts = {}) {
  const card = h("div.sc-card", { class: opts.cls || "", dataset: opts.code ? { code: opts.code } : {} });
  card.append(halfEl(ctx, top, "top"), halfEl(ctx, bottom, "bottom"));
  return card;
}

function cardFromCode(ctx, code, cls) {
  if (code === "W") return faceCard(ctx, "W", "W", { cls, code });
  const [a, b] = code.split("-");
  return faceCard(ctx, a, b, { cls, code });
}

/** A revealed card with the half its owner kept on top shown on top. */
function revealed(ctx, code, top) {
  if (code === "W") return faceCard(ctx, "W", "W", { code });
  const [a, b] = code.split("-");
  return faceCard(ctx, top, top === a ? b : a, { code });
}

function backCard(cls = "") {
  return h("div.sc-card.back", { class: cls }, h("div.sc-back-mark", "16"));
}

function clickable(el, ctx, action, label) {
  if (!action || !ctx.can(action)) return el;
  el.classList.add("clickable");
  el.dataset.action = action;
  el.tabIndex = 0;
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", label || action);
  el.addEventListener("click", () => ctx.act(action));
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") (e.preventDefault(), ctx.act(action));
  });
  return el;
}

function pool(ctx, n, big) {
  return h("div.sc-pool", { class: big ? "big" : "", title: `Health Pool: ${n} candies`, dataset: { code: "term:pool" } }, h("span.sc-jar", String(n)), h("span.sc-pool-label", "pool"));
}

/** What a hand scores with these tops: the most of one candy (a Wild adds 3 of the best), and the
 * sum of the top halves' penalties. */
function score(ctx, tops) {
  const counts = {};
  let wilds = 0;
  let penalty = 0;
  for (const code of tops) {
    const { candy, count } = halfInfo(code);
    if (candy === "W") {
      wilds += 1;
      penalty += (ctx.facts.wild && ctx.facts.wild.penalty) || 2;
      continue;
    }
    counts[candy] = (counts[candy] || 0) + count;
    penalty += halfPenalty(ctx, code);
  }
  let best = null;
  for (const [candy, n] of Object.entries(counts)) if (best === null || n > counts[best]) best = candy;
  const value = (best ? counts[best] : 0) + 3 * wilds;
  return { value, candy: best, penalty };
}

// The orientation the player is arranging, kept between redraws until it is sent.
const draft = { key: "", flipped: [] };

function yourHand(ctx, me) {
  const pending = ctx.view.pending || {};
  const mine = ctx.yourTurn;
  const orienting = mine && (pending.decision === "orient" || pending.decision === "rotate");
  const hand = me.hand || [];
  // The key holds each card's orientation as the server has it: once a "top" move is applied the
  // server's new tops come back, and the local turns (already sent) must not be applied again.
  const key = `${ctx.view.round}:${ctx.view.turn}:${hand.map((c) => `${c.card}/${c.top}`).join(",")}`;
  if (draft.key !== key) {
    draft.key = key;
    draft.flipped = hand.map(() => false);
  }
  const tops = hand.map((c, i) => (draft.flipped[i] ? c.bottom : c.top));
  // the card just drawn is the last of four (either pile): marked "new" alike, not only one taken
  // from the discard pile, which the server names (issue 36)
  const fresh = mine && pending.decision === "discard" && hand.length === 4 ? 3 : -1;
  const area = h("div.sc-you");
  const row = h("div.sc-hand");
  hand.forEach((c, i) => {
    const top = tops[i];
    const bottom = draft.flipped[i] ? c.top : c.bottom;
    const wrap = h("div.sc-slot");
    const card = faceCard(ctx, top, bottom, { code: c.card, cls: "big" });
    if (pending.decision === "discard" && mine) clickable(card, ctx, `discard ${c.card}`, ctx.labelOf(`discard ${c.card}`) || `Discard ${words.name(c.card)}`);
    if (pending.taken === c.card || i === fresh) wrap.append(h("span.sc-new", "new"));
    wrap.append(card);
    if (orienting && c.card !== "W") {
      wrap.append(
        h("button.small.sc-turn", {
          title: "Turn this card around",
          dataset: { step: "turn" }, // prepares the move "Keep this way" sends (marked alike, moves.js)
          "aria-label": `Turn ${words.name(c.card)} around`,
          onclick: () => {
            draft.flipped[i] = !draft.flipped[i];
            ctx.redraw();
          },
        }, "↻ turn"),
      );
    }
    row.append(wrap);
  });
  area.append(row);
  const info = hand.length === 3 ? score(ctx, tops) : null;
  const side = h("div.sc-you-side", pool(ctx, me.pool, true));
  if (info) {
    // one candy in the singular, as its half's words say it ("1 Gummy Bear")
    const one = info.value === 1 && info.candy ? words.lookup(`${info.candy}1`) : null;
    const name = one ? one.name.replace(/^1 /, "") : info.candy ? (ctx.facts.candies || {})[info.candy] : "";
    side.append(h("div.sc-score", h("b", String(info.value)), h("span", name ? ` ${name}` : ""), h("div.sc-penalty", `penalty if lowest: ${info.penalty}`)));
  }
  area.append(side);
  const controls = h("div.sc-controls");
  if (orienting) {
    const action = `top ${tops.join(" ")}`;
    const ok = ctx.can(action);
    controls.append(
      h("button.primary", { disabled: !ok, dataset: ok ? { action } : {}, onclick: () => ok && ctx.act(action) },
        pending.decision === "orient" ? "Pick up this way" : "Keep this way"),
    );
  }
  if (mine && pending.decision === "call") {
    controls.append(clickable(h("button.primary.sc-call", "I've got candy!"), ctx, "call", "Call: I've got candy!"));
    controls.append(clickable(h("button", "End my turn"), ctx, "end", "End the turn"));
  }
  if (mine && ctx.can("skip")) controls.append(clickable(h("button", "Skip the draw"), ctx, "skip"));
  return h("div.sc-you-wrap", h("div.sc-you-head", h("span.sc-name", "Your hand"), mine ? h("span.sc-turnmark", "your turn") : null), area, controls);
}

function rival(ctx, p) {
  const view = ctx.view;
  const acting = !ctx.over && ((view.pending || {}).seats || []).includes(p.seat);
  const box = h("div.sc-rival", { class: `${acting ? "acting" : ""} ${p.out ? "out" : ""}`, dataset: { seat: String(p.seat) } });
  const head = h("div.sc-nameplate", h("span.sc-name", ctx.name(p.seat)));
  if ((ctx.seats[p.seat] || {}).kind === "bot") head.append(h("span.sc-badge", "bot"));
  if (view.marker === p.seat) head.append(h("span.sc-badge.marker", "first player"));
  if (view.caller === p.seat) head.append(h("span.sc-badge.called", "called!"));
  if (p.out) head.append(h("span.sc-badge.out", "out"));
  box.append(head);
  const cards = h("div.sc-rival-cards");
  if (p.hand) {
    for (const c of p.hand) cards.append(faceCard(ctx, c.top, c.bottom, { cls: "small" }));
  } else {
    const known = [...(p.known || [])];
    for (let i = 0; i < p.cards; i++) {
      const code = known.length && i >= p.cards - known.length ? known.shift() : null;
      cards.append(code ? cardFromCode(ctx, code, "small known") : backCard("small"));
    }
  }
  box.append(h("div.sc-rival-body", cards, pool(ctx, p.pool)));
  if (p.known && p.known.length && !p.hand) box.append(h("div.sc-known", `known: took ${p.known.join(", ")} from the discard pile`));
  return box;
}

function middle(ctx) {
  const view = ctx.view;
  const mid = h("div.sc-middle");
  const pile = h("div.sc-draw", { title: `${view.draw_pile} cards in the draw pile` });
  const layers = Math.min(4, Math.ceil(view.draw_pile / 8));
  for (let i = 0; i < Math.max(1, layers); i++) pile.append(backCard(`l${i}`));
  pile.append(h("span.sc-pile-count", String(view.draw_pile)));
  clickable(pile, ctx, "draw pile", "Draw from the draw pile");
  if (ctx.can("draw pile")) pile.append(h("span.sc-hint", "draw"));
  mid.append(h("div.sc-stack-wrap", pile, h("div.sc-caption", "Draw pile")));
  const discard = h("div.sc-discard");
  const shown = view.discard_pile.slice(-4);
  shown.forEach((code, i) => {
    const card = cardFromCode(ctx, code, i === shown.length - 1 ? "top-card" : "under");
    if (i === shown.length - 1) {
      clickable(card, ctx, "draw discard", ctx.labelOf("draw discard") || `Take ${words.name(code)} from the discard pile`);
      if (ctx.can("draw discard")) card.append(h("span.sc-hint", "take"));
    }
    discard.append(card);
  });
  if (!shown.length) discard.append(h("div.sc-empty", "empty"));
  mid.append(h("div.sc-stack-wrap", discard, h("div.sc-caption", `Discard pile (${view.discard_pile.length})`)));
  const info = h("div.sc-info");
  info.append(h("h3", `Round ${view.round}`));
  if (view.caller !== null && view.caller !== undefined) {
    info.append(h("p.sc-callout", `${ctx.name(view.caller)} called "I've got candy!"`));
    const left = finalTurns(view);
    if (left.length) info.append(h("p.muted.sc-final", `Final turns: ${left.map((seat, i) => (i === 0 && seat === (view.pending || {}).seats?.[0] ? `${ctx.name(seat)} (now)` : ctx.name(seat))).join(", then ")}; then the hands are shown.`));
  } else {
    info.append(h("p.muted", "Match the most candies of one kind on your top halves, then call."));
  }
  if (ctx.over && Array.isArray(view.scores)) {
    const ranked = [...view.seats].sort((a, b) => b.pool - a.pool); // best first
    info.append(h("ol.sc-scores", ranked.map((p) => h("li", `${ctx.name(p.seat)}: ${p.pool} in the pool`))));
  }
  mid.append(info);
  return mid;
}

/** The final turns still to be taken after a call, the one being taken now first: the server's
 * ``final_turns`` holds only the seats after it ("Final turns: Wick" showed while you took yours). */
function finalTurns(view) {
  const queue = view.final_turns || [];
  const pending = view.pending || {};
  const now = pending.final_turn ? (pending.seats || []).filter((seat) => !queue.includes(seat)) : [];
  return [...now, ...queue];
}

// ----------------------------------------------------------------------------- the log in words
function who(ctx, seat) {
  return h("b.who", { class: seat === ctx.you ? "me" : "" }, ctx.label(seat));
}

// Each half as its candy's shape in its colour and the count, not the code's letter: "G5 C2" told a
// newcomer nothing without a tooltip (issue 36). The chip's name says the candies in words.
function chip(code) {
  if (!code) return "a card";
  const halves = code === "W" ? ["W"] : code.split("-");
  const half = (part) => (part === "W" ? h("span.c-W", "Wild") : h(`span.c-${part[0]}`, candyIcon(part[0]), part.slice(1)));
  return h("span.sc-chip", { dataset: { code }, tabIndex: 0, "aria-label": words.name(code) }, halves.map(half));
}

// A card's code in a sentence from the server: a two-half card ("K5-H2"), one half ("C5") or the Wild.
const CARD_CODE = /\b(?:[A-Z]\d-[A-Z]\d|[A-Z]\d|W)\b/g;

/** The server's sentence (the game's own words: no copy of them here), each seat a name and each card
 * a coloured chip that names itself on hover. */
function sentence(ctx, text) {
  const out = document.createDocumentFragment();
  let last = 0;
  for (const match of text.matchAll(/\bseats? (\d+)\b/gi)) {
    out.append(withChips(text.slice(last, match.index)), who(ctx, Number(match[1])));
    last = match.index + match[0].length;
  }
  out.append(withChips(text.slice(last)));
  return out;
}

function withChips(text) {
  const out = document.createDocumentFragment();
  let last = 0;
  for (const match of text.matchAll(CARD_CODE)) {
    if (words.ready() && !words.lookup(match[0])) continue; // a capital and a digit that are no card
    out.append(text.slice(last, match.index), chip(match[0]));
    last = match.index + match[0].length;
  }
  out.append(text.slice(last));
  return out;
}

/** The banner's one line of what to click (the glowing things are the shell's mark, moves.js). */
function instruction(ctx) {
  const pending = ctx.view.pending || {};
  switch (pending.decision) {
    case "orient":
    case "rotate":
      return `Click ↻ turn on cards, then “${pending.decision === "orient" ? "Pick up this way" : "Keep this way"}”.`;
    case "draw": {
      // one line on a phone: the glow shows which card of the discard pile
      const from = [];
      if (ctx.can("draw pile")) from.push("the draw pile");
      if (ctx.can("draw discard")) from.push("the discard pile");
      return `Click ${from.join(" or ")}${ctx.can("skip") ? ", or Skip the draw" : ""}.`;
    }
    case "discard":
      return "Click the glowing card you discard.";
    case "call":
      return "Click “I've got candy!” to call, or “End my turn”.";
    default:
      return "";
  }
}

export default {
  instruction,

  // the round's result panel's sheet too: loaded before the board is drawn, never after it shows
  css: ["/static/css/games/sixteen-candies.css", ROUND_CSS],

  /** While a round's result is up, the banner speaks of it, not of the next deal's decision (which the
   * table shows once the player goes on: a new player read "Pick up your new hand" over the result). */
  banner(ctx) {
    if (ctx.over) return null;
    const round = roundShowing(ctx);
    if (round === null) return null;
    return ctx.you === null ? `Round ${round} is over: the hands are shown.` : `Round ${round} is over: see how the hands scored.`;
  },

  /** Under that banner, what to click, as at every decision: the glowing "Next deal". */
  heldInstruction(ctx) {
    return ctx.you === null ? "" : "Click “Next deal” to see the next hands.";
  },

  render(root, ctx) {
    const view = ctx.view;
    const n = view.players;
    const you = ctx.you;
    const order = [];
    for (let i = 1; i <= n; i++) {
      const seat = ((you ?? -1) + i + n) % n;
      if (seat !== you) order.push(seat);
    }
    if (you === null) order.sort((a, b) => a - b);
    // A round just scored: its result first, the next deal once it is dismissed (sixteen-candies-round.js).
    const result = roundPanel(ctx, (reveal) => h("div.sc-round-hand", reveal.cards.map((code, i) => revealed(ctx, code, reveal.tops[i]))));
    if (result) return void root.append(h("div.sc-board.sc-board-round", result));
    const board = h("div.sc-board");
    board.append(h("div.sc-rivals", order.map((seat) => rival(ctx, view.seats[seat]))));
    board.append(middle(ctx));
    if (you !== null) board.append(yourHand(ctx, view.seats[you]));
    root.append(board);
  },

  // the banner and the list of actions use the engine's prompt and labels (the frame's words)

  decorate(text, ctx) {
    return sentence(ctx, text);
  },
};


