// Candle Quest on the table: the draw stack, the candle on the table, every seat's discard pile, your
// screen (your Menorah, your candles and shekels) and the rivals' screens, which show only how many
// candles are behind them. Legal actions are clicks on the board: the stack flips, a pile's top candle
// loots, a candle behind your screen is discarded or given; buy, sell, auction, bid and pay are
// buttons in the decision panel beside the table candle.

import { h, plural, seatWho, svg } from "../ui.js";
import * as words from "../words.js";

const COLOUR_CLASS = {
  Yellow: "yellow", Orange: "orange", Green: "green", White: "white",
  Red: "red", Blue: "blue", Purple: "purple", Silver: "silver",
};

function info(ctx, code) {
  return (ctx.facts.candles || {})[code] || null;
}

function kindClass(ctx, code) {
  const c = info(ctx, code);
  if (!c) return "unknown";
  if (c.kind === "dancing") return "dancing";
  if (c.kind === "unlit") return "unlit";
  return COLOUR_CLASS[c.colour] || "unknown";
}

/** A candle's name, from the game's words (GET /api/games/ID/components). */
function describeCandle(ctx, code) {
  return words.name(code);
}

const FLAME = `<path class="flame-outer" d="M12 1.5C16.5 7 17 10.5 12 14.2C7 10.5 7.5 7 12 1.5Z"/><path class="flame-inner" d="M12 6C14 9 14 11 12 12.8C10 11 10 9 12 6Z"/>`;

function candleSvg(kind) {
  const flame = kind === "unlit" ? `<path class="smoke" d="M12 13C10 10 14 8 12 4"/>` : FLAME;
  return svg(
    `<svg class="cq-candle" viewBox="0 0 24 44" aria-hidden="true">${flame}` +
      `<line class="wick" x1="12" y1="12.5" x2="12" y2="16"/>` +
      `<rect class="wax" x="7" y="15.5" width="10" height="25" rx="2"/>` +
      `<path class="drip" d="M7 19q2 3 3.2 0q1.2 4 2.4 0"/>` +
      `<rect class="holder" x="4" y="40" width="16" height="3" rx="1.2"/></svg>`,
  );
}

/** One candle as a card. opts: {size: "lg"|"md"|"sm", action, title, hot} */
function card(ctx, code, opts = {}) {
  const c = info(ctx, code) || { face: "?", sell: 0, kind: "lit" };
  const kind = kindClass(ctx, code);
  const action = opts.action && ctx.can(opts.action) ? opts.action : null;
  const target = action ? moveData(ctx, action) : {};
  const el = h(`div.cq-card.${opts.size || "md"}.k-${kind}`, {
    dataset: { code, ...target },
    class: action ? "clickable" : "",
    tabIndex: action ? 0 : undefined,
    role: action ? "button" : undefined,
    "aria-label": action ? `${opts.verb || action}: ${describeCandle(ctx, code)}` : undefined,
  });
  el.append(h("span.face", String(c.face)), candleSvg(c.kind));
  if (c.kind !== "unlit") el.append(h("span.sell", `◦${c.sell}`));
  if (opts.badge) el.append(h("span.badge", opts.badge));
  if (opts.title) el.dataset.tip = opts.title; // a note under the candle's words in its tooltip
  if (action) {
    const go = () => choose(ctx, action);
    el.addEventListener("click", go);
    el.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") (e.preventDefault(), go());
    });
  }
  return el;
}

function coins(n, label, cls = "") {
  return h(`div.cq-coins${cls}`, { title: n === null ? `${label}: hidden` : `${label}: ${plural(n, "shekel")}` }, h("span.coin", n === null ? "?" : String(n)), h("span.coin-label", label));
}

function lootCost(ctx, code) {
  const c = info(ctx, code);
  return c ? c.face + c.sell : null;
}

// ----------------------------------------------------------------------------- a loot paid in candles
// A loot dearer than your shekels is paid with candles from behind your screen, and once chosen it
// cannot be called off: the candle is off its pile and the rulebook gives no way to put it back (only
// a take-back undoes it). A newcomer who looted with too few shekels found themselves discarding
// their candles with no way back, so such a loot asks first, in the decision box, and says why.
let asking = null; // {action, view}: the loot asked about, for the frame (its view) it was asked in

/** What a loot costs beyond your shekels: {cost, shekels, code} when you are short, else null. */
function shortLoot(ctx, action) {
  if (!action.startsWith("loot ") || ctx.you === null) return null;
  const pileTop = ctx.view.seats[Number(action.slice(5))].discard_pile.at(-1);
  const cost = lootCost(ctx, pileTop);
  const shekels = ctx.view.seats[ctx.you].shekels;
  return cost !== null && shekels < cost ? { cost, shekels, code: pileTop } : null;
}

function askFirst(ctx, action) {
  return shortLoot(ctx, action) !== null;
}

/** What an element that makes ``action`` carries: a move that asks first opens its question, so it
 * is data-choices (a click that opens a menu, js/moves.js), not data-action (a click that moves). */
function moveData(ctx, action) {
  return askFirst(ctx, action) ? { choices: action } : { action };
}

/** The move a click on the board makes: sent at once, or asked about first. */
function choose(ctx, action) {
  if (!askFirst(ctx, action)) {
    ctx.act(action);
    return;
  }
  asking = { action, view: ctx.view };
  ctx.redraw();
}

/** The loot being asked about now, or null (a move made since, or a new frame, ends the question). */
function asked(ctx) {
  if (!asking || asking.view !== ctx.view || !ctx.can(asking.action)) return null;
  return asking.action;
}

/** The question: what the loot costs, what pays for it, that it cannot be called off; Loot or not. */
function askLoot(ctx, box, action) {
  const short = shortLoot(ctx, action);
  const c = info(ctx, short.code);
  const seat = Number(action.slice(5));
  const from = seat === ctx.you ? "your" : `${ctx.name(seat)}'s`;
  box.append(
    h("h3", `Loot ${describeCandle(ctx, short.code)} from ${from} pile?`),
    h(
      "p.cq-ask-why",
      `It costs ${short.cost} (face value ${c.face} plus sell value ${c.sell}) and you have ` +
        `${plural(short.shekels, "shekel")}: you will pay with candles from behind your screen, at ` +
        "their face value, with no change. Once you loot, you cannot call it off: only a take-back undoes it.",
    ),
  );
  const back = () => ((asking = null), ctx.redraw());
  // the focus on the way back: Enter held down on the pile top must not loot as well
  box.append(
    h(
      "div.cq-buttons.cq-ask",
      h("button.primary", { onclick: () => ((asking = null), ctx.act(action)), dataset: { action } }, "Loot it, paying with candles"),
      h("button.cq-ask-back", { onclick: back, dataset: { focus: "" } }, "Don't loot"),
    ),
  );
}

// ----------------------------------------------------------------------------- piles and screens
function pile(ctx, seat, codes) {
  const box = h("div.cq-pile", { dataset: { seat: String(seat) } });
  box.dataset.tip = words.text("term:pile");
  if (!codes.length) {
    box.append(h("div.cq-slot", "empty pile"));
    return box;
  }
  const shown = codes.slice(-5);
  const fan = h("div.cq-fan");
  shown.forEach((code, i) => {
    const top = i === shown.length - 1;
    const loot = `loot ${seat}`;
    const cost = lootCost(ctx, code);
    const el = card(ctx, code, {
      size: "sm",
      action: top ? loot : null,
      verb: "Loot",
      // no title: the candle's own words say what looting it costs ("looting it costs 15" twice)
      badge: top && ctx.can(loot) ? `loot ${cost}` : null,
    });
    fan.append(el);
  });
  box.append(fan);
  if (codes.length > shown.length) box.append(h("span.cq-more", `+${codes.length - shown.length} below`));
  return box;
}

// What a seat the game waits on does outside the turn's own decisions, for the badge by its name:
// [said of you, said of a rival].
const DOING = {
  bid: ["your bid", "bidding"],
  pay: ["you pay", "paying"],
  "guard-short": ["your choice", "choosing"],
  give: ["you give", "giving"],
};

/** The badge by a seat's name. Gold on the seat the game waits on, saying what it does; the turn's
 * owner waiting on another seat (its auction, a guard's payment) keeps a plain "turn". A newcomer
 * bidding in a rival's auction read that rival's gold "turn" as the move being theirs. */
function turnBadge(ctx, seat, yours) {
  if (ctx.over || ctx.replaying) return null;
  const pending = ctx.view.pending || {};
  const doing = DOING[pending.decision];
  const whose = yours && ctx.botPlays ? "your bot's " : yours ? "your " : "";
  if ((pending.seats || []).includes(seat) && doing) {
    const [you, rival] = doing;
    return h("span.cq-turnmark", yours ? (ctx.botPlays ? `your bot: ${rival}` : you) : rival);
  }
  if (ctx.view.active !== seat) return null;
  return h(doing ? "span.cq-turnmark.waiting" : "span.cq-turnmark", `${whose}turn`);
}

function rivalArea(ctx, player) {
  const view = ctx.view;
  const seat = player.seat;
  const pending = view.pending || {};
  const acting = !ctx.over && (pending.seats || []).includes(seat);
  const area = h("div.cq-rival", { class: acting ? "acting" : "", dataset: { seat: String(seat) } });
  const seatInfo = ctx.seats[seat] || {};
  area.append(
    h(
      "div.cq-nameplate",
      h("span.cq-name", ctx.name(seat)),
      seatInfo.kind === "bot" ? h("span.cq-botmark", "bot") : null,
      turnBadge(ctx, seat, false),
    ),
  );
  const force = `force ${seat}`;
  const screen = h("div.cq-screen", {
    class: ctx.can(force) ? "clickable" : "",
    title: ctx.can(force) ? `Discard an Unlit candle to make ${ctx.name(seat)} give you a candle` : "Behind the screen",
    dataset: ctx.can(force) ? { action: force } : {},
    tabIndex: ctx.can(force) ? 0 : undefined,
    role: ctx.can(force) ? "button" : undefined,
    "aria-label": ctx.can(force) ? `Force ${ctx.name(seat)} to give you a candle` : undefined,
  });
  if (ctx.can(force)) {
    screen.addEventListener("click", () => ctx.act(force));
    screen.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), ctx.act(force)));
  }
  if (player.candles) {
    // the screens are lifted at the end: everything shows
    screen.classList.add("lifted");
    const row = h("div.cq-revealed", player.candles.map((code) => card(ctx, code, { size: "xs" })));
    screen.append(row, h("div.cq-screen-facts", `${player.colours}/8 colours · ${plural(player.shekels, "shekel")}`));
  } else {
    screen.append(
      h("div.cq-panel"), h("div.cq-panel.mid"), h("div.cq-panel"),
      h(
        "div.cq-screen-text",
        h("b", plural(player.candles_behind_screen, "candle")),
        h("span", "behind the screen"),
        h("span.hidden-coins", "shekels hidden"),
      ),
    );
  }
  area.append(screen, pile(ctx, seat, player.discard_pile));
  return area;
}

// ----------------------------------------------------------------------------- your screen
function menorah(ctx, player) {
  const colours = ctx.facts.colours || [];
  const best = {};
  const extras = [];
  for (const code of player.candles || []) {
    const c = info(ctx, code);
    if (!c) continue;
    if (c.kind === "lit") (best[c.colour] = best[c.colour] || []).push(code);
    else extras.push(code);
  }
  const pay = (code) => `discard ${code}`;
  const give = (code) => `give ${code}`;
  // a phone takes them from the decision's own row, beside the prompt (offer()): your screen is a
  // screen below it, so its candles there are shown, not offered a second time out of sight
  const actionFor = (code) => (NARROW.matches ? null : ctx.can(pay(code)) ? pay(code) : ctx.can(give(code)) ? give(code) : null);
  const verbFor = (action) => (action && action.startsWith("give") ? "Give" : "Discard");
  const slots = h("div.cq-menorah", { dataset: { code: "term:menorah" } });
  for (const colour of colours) {
    const held = (best[colour] || []).sort((a, b) => info(ctx, b).face - info(ctx, a).face);
    const slot = h(`div.cq-branch.k-${COLOUR_CLASS[colour]}`, { class: held.length ? "lit" : "", title: colour });
    if (held.length) {
      const stack = h("div.cq-branch-stack");
      for (const code of held) {
        const action = actionFor(code);
        stack.append(card(ctx, code, { size: "md", action, verb: verbFor(action) }));
      }
      slot.append(stack);
    } else {
      slot.append(h("div.cq-empty-slot", h("span", colour)));
    }
    slots.append(slot);
  }
  const wild = h("div.cq-extras");
  for (const code of extras) {
    const action = actionFor(code);
    wild.append(card(ctx, code, { size: "md", action, verb: verbFor(action) }));
  }
  return { slots, wild, extras };
}

function yourArea(ctx, player) {
  const area = h("div.cq-you", { dataset: { seat: String(player.seat) } });
  const { slots, wild, extras } = menorah(ctx, player);
  const facts = [`${player.colours}/8 colours`];
  if (player.candle_value !== undefined) facts.push(`candle value ${player.candle_value}`);
  area.append(
    h(
      "div.cq-you-head",
      h("span.cq-name", "Your screen"),
      h("span.cq-you-facts", facts.join(" · ")),
      turnBadge(ctx, player.seat, true),
    ),
  );
  const body = h("div.cq-you-body");
  body.append(h("div.cq-menorah-wrap", slots, extras.length ? wild : null));
  const side = h("div.cq-you-side");
  side.append(coins(player.shekels, "your shekels", ".mine"));
  if (!lootOwnHere(ctx)) side.append(h("div.cq-pile-label", "Your discard pile"), pile(ctx, player.seat, player.discard_pile));
  body.append(side);
  area.append(body);
  return area;
}

// ----------------------------------------------------------------------------- the middle of the table
function stackEl(ctx) {
  const view = ctx.view;
  const canFlip = ctx.can("flip");
  const stack = h("div.cq-stack", {
    class: canFlip ? "clickable" : "",
    title: canFlip ? "Flip the top candle" : `${view.stack} candles in the draw stack`,
    tabIndex: canFlip ? 0 : undefined,
    role: canFlip ? "button" : undefined,
    "aria-label": canFlip ? "Flip the top candle of the draw stack" : undefined,
    dataset: canFlip ? { action: "flip", code: "term:draw-stack" } : { code: "term:draw-stack" },
  });
  const layers = Math.min(5, Math.ceil(view.stack / 8));
  for (let i = 0; i < layers; i++) stack.append(h("div.cq-back", { class: `l${i}` }));
  if (!view.stack) stack.append(h("div.cq-slot", "empty"));
  stack.append(h("span.cq-stack-count", String(view.stack)));
  if (canFlip) {
    stack.append(h("span.cq-hint", "flip"));
    stack.addEventListener("click", () => ctx.act("flip"));
    stack.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), ctx.act("flip")));
  }
  return h("div.cq-stack-wrap", stack, h("div.cq-caption", "Draw stack"));
}

function numbers(ctx, verb) {
  return ctx.legal.filter((a) => a.startsWith(`${verb} `)).map((a) => Number(a.slice(verb.length + 1))).filter((n) => Number.isFinite(n));
}

/** A − N + stepper and a button that sends `${verb} ${N}`. */
function stepper(ctx, verb, label, amounts, start) {
  if (!amounts.length) return null;
  const min = Math.min(...amounts);
  const max = Math.max(...amounts);
  let value = Math.min(max, Math.max(min, start ?? min));
  const shown = h("output.cq-amount", String(value));
  const button = h("button.primary", { dataset: { action: `${verb} ${value}` } }, `${label} ${value}`);
  const set = (v) => {
    value = Math.min(max, Math.max(min, v));
    shown.textContent = String(value);
    button.textContent = `${label} ${value}`;
    button.dataset.action = `${verb} ${value}`; // the move it sends, for the shell's mark
  };
  button.addEventListener("click", () => ctx.act(`${verb} ${value}`));
  return h(
    "div.cq-stepper",
    h("button.icon", { onclick: () => set(value - 1), "aria-label": "less", title: "less" }, "−"),
    shown,
    h("button.icon", { onclick: () => set(value + 1), "aria-label": "more", title: "more" }, "+"),
    button,
  );
}

/** The candles behind your screen a decision takes (``verb CODE``), beside its prompt: on a phone your
 * screen is a screen or two below, and a loot dearer than your shekels showed no choice at all. */
function offer(ctx, verb, said) {
  const row = h("div.cq-offer");
  for (const action of ctx.legal.filter((a) => a.startsWith(`${verb} `))) {
    row.append(card(ctx, action.slice(verb.length + 1), { size: "sm", action, verb: said }));
  }
  return row;
}

/** The banner's line for a flipped candle: only the buttons there are (a new player with 4 shekels
 * read "Click Buy or Sell" over a lone Sell; the prompt above it says why Buy is missing). */
function chooseInstruction(can) {
  const ways = [];
  if (can("buy")) ways.push("Buy");
  if (can("sell")) ways.push("Sell");
  if (can("auction")) ways.push("Auction at the opening bid you set");
  return `Click ${ways.length > 2 ? `${ways.slice(0, -1).join(", ")}, or ${ways.at(-1)}` : ways.join(" or ")}.`;
}

/** A loot in the turn's row, in its label's words (which say what pays the rest when you are short:
 * candle_quest/text.py), asking first when you are short. */
function lootButton(ctx, loot) {
  return h("button", { onclick: () => choose(ctx, loot), dataset: moveData(ctx, loot) }, ctx.labelOf(loot) || loot);
}

function decision(ctx) {
  const view = ctx.view;
  const pending = view.pending || {};
  const yours = ctx.yourTurn;
  const box = h("div.cq-decision");
  const table = view.table;
  const c = table ? info(ctx, table) : null;
  const who = (pending.seats || []).map(ctx.name).join(", ");
  const you = ctx.you !== null ? view.seats[ctx.you] : null;
  // a game ended early (a resignation, a time loss) keeps its last pending decision in the state:
  // nobody is to play it ("You's turn: Flip or loot…" once showed under the end screen)
  if (ctx.over) return box;
  switch (pending.decision) {
    case "turn": {
      if (yours && asked(ctx)) {
        askLoot(ctx, box, asked(ctx));
      } else if (yours) {
        box.append(h("h3", pending.bonus_turn ? "Your bonus turn" : "Your turn"));
        const row = h("div.cq-buttons");
        if (ctx.can("flip")) row.append(h("button.primary", { onclick: () => ctx.act("flip"), dataset: { action: "flip" } }, ctx.labelOf("flip") || "Flip"));
        // each loot the prompt offers as a button too, in words with its price (the glowing pile
        // tops do the same, but a newcomer reading the prompt looks for its choices here)
        for (const seat of view.seats.map((s) => s.seat)) {
          const loot = `loot ${seat}`;
          if (ctx.can(loot)) row.append(lootButton(ctx, loot));
        }
        if (ctx.can("pass")) row.append(h("button", { onclick: () => ctx.act("pass"), dataset: { action: "pass" } }, ctx.labelOf("pass") || "Pass"));
        box.append(row);
      } else {
        box.append(h("h3", `${who}'s ${pending.bonus_turn ? "bonus turn" : "turn"}`), h("p.muted", "Flip or loot…"));
      }
      break;
    }
    case "buy-sell-auction": {
      box.append(h("h3", `${yours ? "You" : who} flipped ${describeCandle(ctx, table)}`));
      if (yours) {
        const row = h("div.cq-buttons");
        if (ctx.can("buy")) row.append(h("button.primary", { onclick: () => ctx.act("buy"), dataset: { action: "buy" } }, ctx.labelOf("buy") || `Buy for ${c.face}`));
        if (ctx.can("sell")) row.append(h("button", { onclick: () => ctx.act("sell"), dataset: { action: "sell" } }, ctx.labelOf("sell") || `Sell for ${c.sell}`));
        box.append(row);
        const bids = numbers(ctx, "auction");
        if (bids.length) {
          box.append(h("p.muted", "or auction it, opening with a bid:"), stepper(ctx, "auction", "Auction at", bids, Math.max(1, Math.floor(c.face / 2))));
        }
      } else {
        box.append(h("p.muted", "Buy, sell or auction?"));
      }
      break;
    }
    case "bid": {
      const high = pending.high_bid;
      box.append(h("h3", `Auction: ${describeCandle(ctx, table)}`));
      box.append(
        h("div.cq-auction",
          h("span", "High bid"),
          h("span.coin.big", String(high)),
          h("span", `by ${ctx.name(pending.high_bidder)}`),
        ),
        h("p.muted", `Auctioneer: ${ctx.name(pending.auctioneer)} · ${yours ? "your bid" : `${who} to bid`}`),
      );
      if (yours) {
        const bids = numbers(ctx, "bid");
        const row = h("div.cq-buttons");
        if (bids.length) row.append(stepper(ctx, "bid", "Bid", bids, Math.min(...bids)));
        if (ctx.can("pass")) row.append(h("button", { onclick: () => ctx.act("pass"), dataset: { action: "pass" } }, ctx.labelOf("pass") || "Pass"));
        box.append(row);
        if (!bids.length) box.append(h("p.muted", "You cannot outbid: pass."));
      }
      break;
    }
    case "pay": {
      const purpose = pending.paying_for === "guard" ? `guard against ${describeCandle(ctx, table)}` : `loot ${describeCandle(ctx, table)}`;
      box.append(h("h3", yours ? `Pay ${pending.due} to ${purpose}` : `${who} pays to ${purpose}`));
      box.append(h("div.cq-auction", h("span", "Still owed"), h("span.coin.big", String(pending.due))));
      if (yours) {
        const pays = ctx.legal.filter((a) => a.startsWith("pay "));
        box.append(h("p.muted", pays.length
          ? "Click a candle to pay with it (face value, no change), or pay in shekels:"
          : "You have too few shekels: click candles to pay with them (face value, no change):"));
        box.append(offer(ctx, "discard", "Pay with"));
        const row = h("div.cq-buttons");
        for (const a of pays) row.append(h("button.primary", { onclick: () => ctx.act(a), dataset: { action: a } }, ctx.labelOf(a) || `Pay ${a.slice(4)} shekels`));
        box.append(row);
      }
      break;
    }
    case "guard-short": {
      box.append(h("h3", `${yours ? "You cannot" : `${who} cannot`} pay for ${describeCandle(ctx, table)}`));
      if (yours) {
        box.append(h("p.muted", "Lose your highest candle (click it) or all your shekels."), offer(ctx, "discard", "Lose"));
        const row = h("div.cq-buttons");
        for (const a of ctx.legal.filter((x) => x.startsWith("pay "))) row.append(h("button.primary", { onclick: () => ctx.act(a), dataset: { action: a } }, ctx.labelOf(a) || `Lose all ${a.slice(4)} shekels`));
        box.append(row);
      }
      break;
    }
    case "give": {
      box.append(h("h3", yours ? `Give ${ctx.name(pending.to)} a candle` : `${who} gives ${ctx.name(pending.to)} a candle`));
      if (yours) box.append(h("p.muted", "Click the candle you give away."), offer(ctx, "give", "Give"));
      break;
    }
    default:
      if (ctx.over) {
        box.append(h("h3", "Game over"));
        const reasons = { menorah: "A Menorah is complete.", "max-turns": "The turn limit was reached.", stalled: "Nobody could do anything." };
        box.append(h("p", reasons[view.end_reason] || ""));
        if (Array.isArray(view.scores) && view.variant === "advanced") {
          const ranked = [...view.seats].sort((a, b) => view.scores[b.seat] - view.scores[a.seat]); // best first
          box.append(h("ol.cq-scores", ranked.map((p) => h("li", `${ctx.name(p.seat)}: ${view.scores[p.seat]}`))));
        }
      }
  }
  if (you && !ctx.over && pending.decision !== "turn") {
    box.append(h("p.cq-purse", `You have ${plural(you.shekels, "shekel")}.`));
  }
  return box;
}

function middle(ctx) {
  const view = ctx.view;
  const mid = h("div.cq-middle");
  mid.append(stackEl(ctx));
  const spot = h("div.cq-table-spot");
  if (view.table) {
    spot.append(card(ctx, view.table, { size: "lg" }));
  } else {
    spot.append(h("div.cq-slot.lg", "table"));
  }
  if (view.set_aside && view.set_aside.length) {
    spot.append(h("div.cq-aside", h("span", "set aside:"), view.set_aside.map((code) => card(ctx, code, { size: "xs" }))));
  }
  mid.append(h("div.cq-table-wrap", spot, h("div.cq-caption", view.table ? describeCandle(ctx, view.table) : "On the table")));
  mid.append(decision(ctx));
  const bank = h(
    "div.cq-bank",
    words.lookup("term:bank") ? Object.assign(coins(view.bank, "bank"), { title: "" }) : coins(view.bank, "bank"),
    h("div.cq-caption", `${view.removed.length} out of the game`),
    h("div.cq-caption", view.over ? `${view.turn} turns` : `turn ${view.turn + 1}`),
  );
  if (!lootOwnHere(ctx)) {
    mid.append(bank);
    return mid;
  }
  const own = h("div.cq-own-pile", pile(ctx, ctx.you, view.seats[ctx.you].discard_pile), h("div.cq-caption", "Your discard pile"));
  mid.append(h("div.cq-middle-side", bank, own));
  return mid;
}

// A phone (issue 36): your discard pile lies under your screen, a screen below the turn's other
// choices; while you may loot it, it sits in the middle of the table beside the bank instead.
const NARROW = window.matchMedia("(max-width: 700px)");
let redraw = null; // the last drawing's, to draw again where the pile belongs once the width changes
NARROW.addEventListener("change", () => redraw && redraw());

function lootOwnHere(ctx) {
  return NARROW.matches && ctx.you !== null && ctx.can(`loot ${ctx.you}`);
}

// ----------------------------------------------------------------------------- the module
export default {
  css: "/static/css/games/candle-quest.css",

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
    redraw = ctx.redraw;
    // the game over with its results above the table: the table closes up (candle-quest.css)
    const ended = ctx.over && !ctx.replaying ? " over" : "";
    const board = h("div.cq-board", { class: `players-${n}${ended}` });
    board.append(h("div.cq-rivals", order.map((seat) => rivalArea(ctx, view.seats[seat]))));
    board.append(middle(ctx));
    if (you !== null) board.append(yourArea(ctx, view.seats[you]));
    root.append(board);
  },

  // the banner and the list of actions use the engine's prompt and labels (the frame's words)

  /** The banner's one line of what to click (the glowing things are the shell's mark, moves.js). */
  instruction(ctx) {
    const can = (verb) => ctx.legal.some((a) => a === verb || a.startsWith(`${verb} `));
    switch ((ctx.view.pending || {}).decision) {
      case "turn": {
        if (asked(ctx)) return "Click Loot it to pay with candles, or Don't loot to choose again.";
        const ways = [];
        if (can("flip")) ways.push("the glowing draw stack to flip");
        if (can("loot")) ways.push("a glowing pile top to loot it");
        if (can("force")) ways.push("a glowing screen to make that player give you a candle");
        if (!ways.length) return "Click Pass: you can neither flip nor loot.";
        return `Click ${ways.join(", or ")}.`;
      }
      case "buy-sell-auction":
        return chooseInstruction(can);
      case "bid":
        return can("bid") ? "Click Bid (− and + set the amount) or Pass." : "Click Pass: you cannot outbid.";
      case "pay":
        return can("pay")
          ? "Click a glowing candle to pay with it, or the Pay button for shekels."
          : "Click glowing candles to pay with them: your shekels are too few.";
      case "guard-short":
        return "Click your glowing candle to lose it, or the button to lose your shekels.";
      case "give":
        return "Click the glowing candle you give away.";
      default:
        return "";
    }
  },

  decorate(text, ctx) {
    const out = document.createDocumentFragment();
    const pattern = /\bseats? (\d+)\b('s)?|\b([A-Z]\d{1,2})\b/g;
    let last = 0;
    for (const match of text.matchAll(pattern)) {
      out.append(text.slice(last, match.index));
      if (match[1] !== undefined) {
        out.append(seatWho(ctx, Number(match[1]), Boolean(match[2]), match.index === 0));
      } else if (info(ctx, match[3])) {
        // the candle's name, not its code ("Y4"): a player reads words
        const named = describeCandle(ctx, match[3]);
        out.append(h(`span.cq-chip.k-${kindClass(ctx, match[3])}`, { dataset: { code: match[3] }, tabIndex: 0, "aria-label": named }, named));
      } else {
        out.append(match[0]);
      }
      last = match.index + match[0].length;
    }
    out.append(text.slice(last));
    return out;
  },
};

