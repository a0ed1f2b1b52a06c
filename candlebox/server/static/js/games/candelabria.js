// The Curse of Candelabria on the table: an SVG map of the regions and territories (drawn from the
// board's grid of cells, GET /api/games/ID/board; rulings CA-1) with every house's castle, candles and
// flames, Land Flames, temples, corrupted regions and curse models; the houses in turn order with their
// boards (resources, upgrades, tactic cards, your hand of candle cards), the Curse board, the Tactics
// board and the Upgrade board; in War, the battle with the secret choice of tactic cards.
//
// Clicks: a glowing territory or region on the map (several actions there: a small menu), a glowing
// piece (a candle to ignite, an enemy flame to destroy...), a card in your hand (deploy in a role or
// maneuver), a Tactics card, an Upgrade pile, a Curse; everything else the decision asks is a button
// in the bar under the banner, and the shell's list of all legal actions stays as the fallback.

import { h, seatWho } from "../ui.js";
import * as words from "../words.js";
import { markMoves } from "../moves.js";

const NS = "http://www.w3.org/2000/svg";
const CELL = 60;
const PS = 1.3; // the pieces' scale on the map

const HOUSE_COLOURS = {
  red: "#c8372d",
  yellow: "#e9b51c",
  blue: "#2f6fd6",
  green: "#25803c", // dark enough for white text at 4.5:1 (axe: house names on the 2-player choice)
  white: "#f3efe4",
};
const REGION_COLOURS = {
  violet: "#cdb8e6",
  gold: "#f0d98a",
  blue: "#b5cdf0",
  teal: "#a9ddd4",
  orange: "#f6c39a",
  white: "#f4efe2",
  brown: "#d6bf9f",
  red: "#eeb0a6",
  green: "#b9dea5",
  pink: "#f2bdd6",
};
const ROLE = { E: "Explorer", P: "Pilgrim", W: "Warrior", C: "Castle" };
const ICON_NAMES = { curse: "Curse", barracks: "Barracks", forge: "Forge", mine: "Mine", portal: "Portal", inn: "Inn" };
const TACTIC_ICONS = { V: "VP", I: "Ignite", X: "Extinguish", S: "Steal", T: "Draw tactic", D: "Destroy temple" };
const TEMPLE_FILL = { white: "#fbfaf5", grey: "#9a9a9a", black: "#2a2626", W: "#fbfaf5", G: "#9a9a9a", B: "#2a2626" };
const DECLINE = new Set(["done", "skip", "stay", "spare", "pass", "supply"]);

// ----------------------------------------------------------------------------- the map's data
const boards = new Map(); // game id -> {data} | {error} | {loading: promise}

function gameIdOf(ctx) {
  return (ctx.game && ctx.game.id) || decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
}

function boardFor(ctx) {
  const id = gameIdOf(ctx);
  const known = boards.get(id);
  if (known) return known;
  const entry = { loading: true };
  boards.set(id, entry);
  fetch(`/api/games/${encodeURIComponent(id)}/board`)
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))))
    .then((data) => {
      entry.loading = false;
      entry.data = geometry(data);
      ctx.redraw();
    })
    .catch((err) => {
      entry.loading = false;
      entry.error = String(err.message || err);
      ctx.redraw();
    });
  return entry;
}

/** Cells, territory and region outlines, anchors and bridges from the board's grid. */
function geometry(board) {
  const grid = board.sketch.map((row) => row.trim().split(/\s+/));
  const rows = grid.length;
  const cols = Math.max(...grid.map((r) => r.length));
  const regionOf = {};
  const iconOf = {};
  for (const reg of board.regions) for (const t of reg.territories) (regionOf[t.id] = reg.number), (iconOf[t.id] = t.icon);
  const cells = {}; // territory -> [[col, row]]
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const id = grid[y][x];
      if (!id || id === "~~") continue;
      (cells[id] = cells[id] || []).push([x, y]);
    }
  }
  const at = (x, y) => (y >= 0 && y < rows && x >= 0 && x < cols ? grid[y][x] : "~~");
  // edges: between a cell and its right / lower neighbour, or the map's edge
  const thin = [];
  const thick = [];
  const coast = [];
  for (let y = 0; y <= rows; y++) {
    for (let x = 0; x <= cols; x++) {
      for (const [dx, dy] of [[1, 0], [0, 1]]) {
        // the edge on the far side of cell (x, y) to (x+dx, y+dy)... walk edges of each cell instead
        const a = at(x, y);
        const b = at(x + dx, y + dy);
        if (x >= cols && dx === 1) continue;
        if (y >= rows && dy === 1) continue;
        if (a === b) continue;
        const seg = dx === 1
          ? [(x + 1) * CELL, y * CELL, (x + 1) * CELL, (y + 1) * CELL]
          : [x * CELL, (y + 1) * CELL, (x + 1) * CELL, (y + 1) * CELL];
        if (a === "~~" || b === "~~") coast.push(seg);
        else if (regionOf[a] !== regionOf[b]) thick.push(seg);
        else thin.push(seg);
      }
    }
  }
  // edges along the top and left of the map
  for (let x = 0; x < cols; x++) if (at(x, 0) !== "~~") coast.push([x * CELL, 0, (x + 1) * CELL, 0]);
  for (let y = 0; y < rows; y++) if (at(0, y) !== "~~") coast.push([0, y * CELL, 0, (y + 1) * CELL]);
  const anchor = {};
  for (const [id, list] of Object.entries(cells)) {
    const cx = list.reduce((s, c) => s + c[0] + 0.5, 0) / list.length;
    const cy = list.reduce((s, c) => s + c[1] + 0.5, 0) / list.length;
    // the territory's own cell nearest its centre (a bent territory's centre can lie outside it)
    let best = list[0];
    let bestD = Infinity;
    for (const c of list) {
      const d = (c[0] + 0.5 - cx) ** 2 + (c[1] + 0.5 - cy) ** 2;
      if (d < bestD) (best = c), (bestD = d);
    }
    const inside = bestD < 0.3;
    const xs = list.map((c) => c[0]);
    const ys = list.map((c) => c[1]);
    anchor[id] = {
      x: (inside ? cx : best[0] + 0.5) * CELL,
      y: (inside ? cy : best[1] + 0.5) * CELL,
      w: (Math.max(...xs) - Math.min(...xs) + 1) * CELL,
      cells: list,
    };
  }
  const regionCells = {};
  for (const [id, list] of Object.entries(cells)) for (const c of list) (regionCells[regionOf[id]] = regionCells[regionOf[id]] || []).push(c);
  const regionBadge = {};
  const anchorCells = new Set(Object.values(anchor).map((a) => `${Math.floor(a.x / CELL)},${Math.floor(a.y / CELL)}`));
  for (const [r, list] of Object.entries(regionCells)) {
    const sorted = [...list].sort((a, b) => a[1] + a[0] * 0.01 - (b[1] + b[0] * 0.01));
    const first = sorted.find((c) => !anchorCells.has(`${c[0]},${c[1]}`)) || sorted[0];
    regionBadge[r] = { x: first[0] * CELL + 15, y: first[1] * CELL + 15 };
  }
  const bridges = [];
  for (const [a, b] of board.bridges || []) {
    let best = null;
    for (const p of cells[a] || []) {
      for (const q of cells[b] || []) {
        const d = (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2;
        if (!best || d < best.d) best = { d, p, q };
      }
    }
    if (best) bridges.push({ a, b, x1: (best.p[0] + 0.5) * CELL, y1: (best.p[1] + 0.5) * CELL, x2: (best.q[0] + 0.5) * CELL, y2: (best.q[1] + 0.5) * CELL });
  }
  return { grid, rows, cols, cells, regionOf, iconOf, thin, thick, coast, anchor, regionBadge, bridges, colours: Object.fromEntries(board.regions.map((r) => [r.number, r.colour])) };
}

// ----------------------------------------------------------------------------- small helpers
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

function houseColour(ctx, code) {
  const info = (ctx.facts.houses || {})[code];
  return HOUSE_COLOURS[(info && info.colour) || ""] || "#888";
}

/** Dark ink on a light house colour (white, yellow), light ink on the others. */
function houseInk(ctx, code) {
  const info = (ctx.facts.houses || {})[code];
  return info && (info.colour === "white" || info.colour === "yellow") ? "#2b2118" : "#fff";
}

function seatOfHouse(ctx, code) {
  const seat = ctx.view.seats.find((p) => p.house === code);
  return seat ? seat.seat : null;
}

function houseLabel(ctx, code) {
  const seat = seatOfHouse(ctx, code);
  const info = (ctx.facts.houses || {})[code];
  const name = info ? info.name : code;
  return seat === null ? name : `${name} (${ctx.name(seat)})`;
}

function tacticParts(code) {
  let rest = code || "";
  let house = null;
  const m = /^([A-Z])-(.*)$/.exec(rest);
  if (m) (house = m[1]), (rest = m[2]);
  const noCancel = rest.endsWith("!");
  if (noCancel) rest = rest.slice(0, -1);
  const effects = [...rest.matchAll(/(\d)([A-Z])/g)].map((x) => ({ n: Number(x[1]), icon: x[2] }));
  return { house, noCancel, effects };
}

function tacticCard(ctx, code, opts = {}) {
  const { house, noCancel, effects } = tacticParts(code);
  const card = h("div.cb-tactic", { class: opts.cls || "", dataset: { code } });
  if (house) {
    card.classList.add("house");
    card.style.setProperty("--hc", houseColour(ctx, house));
  }
  for (const e of effects) card.append(h(`span.cb-eff.e-${e.icon}`, h("b", String(e.n)), h("i", TACTIC_ICONS[e.icon] || e.icon)));
  if (noCancel) card.append(h("span.cb-nocancel", { dataset: { code: "mark:⊘" }, "aria-label": words.name("mark:⊘") }, "⊘"));
  return card;
}

function candleCard(ctx, code, opts = {}) {
  const info = (ctx.facts.candles || {})[code] || {};
  const houseCode = /^[A-Z]\d$/.test(code) ? code[0] : null;
  const card = h("div.cb-candle-card", { class: opts.cls || "", dataset: { code } });
  if (houseCode) card.style.setProperty("--hc", houseColour(ctx, houseCode));
  else card.classList.add("advanced");
  card.append(
    h("span.cb-cc-code", code),
    h("span.cb-cc-candle", h("span.cb-cc-flame"), h("span.cb-cc-wax")),
    h("span.cb-cc-meta", `${info.cost ?? "?"} wax · Y${info.year ?? "?"}`),
  );
  return card;
}

/** Mark an element that makes one of these moves: one move plays at a click, several open a menu, and
 * so does one when `menu` is set (a hand's card: the banner says its menu opens, and a card with one
 * legal use discarded at the first tap surprised a player, issue 36). */
function mark(el, ctx, actions, label, menu = false) {
  const list = actions.filter((a) => ctx.can(a));
  if (!list.length) return el;
  el.classList.add("clickable");
  el.tabIndex = 0;
  el.setAttribute("role", "button");
  const atOnce = list.length === 1 && !menu;
  if (atOnce) {
    el.dataset.action = list[0];
    el.setAttribute("aria-label", label ? label(list[0]) : list[0]);
  } else {
    el.dataset.choices = list.join("|");
    el.setAttribute("aria-label", list.length === 1 ? "1 choice: a menu opens" : `${list.length} choices`);
  }
  const go = (event) => {
    event.stopPropagation();
    if (atOnce) ctx.act(list[0]);
    else openMenu(event, ctx, list, label);
  };
  el.addEventListener("click", go);
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") (e.preventDefault(), go(e));
  });
  return el;
}

function openMenu(event, ctx, list, label) {
  closeMenu();
  const root = document.querySelector(".cb-board");
  if (!root) return;
  const box = root.getBoundingClientRect();
  const x = (event.clientX || box.left + box.width / 2) - box.left;
  const y = (event.clientY || box.top + 80) - box.top;
  const menu = h("div.cb-menu", { role: "menu" });
  menu.style.left = `${Math.max(4, Math.min(x, box.width - 230))}px`;
  menu.style.top = `${y + 8}px`;
  for (const action of list) {
    menu.append(
      h("button.action", { dataset: { action }, role: "menuitem", onclick: (e) => (e.stopPropagation(), closeMenu(), ctx.act(action)) }, label ? label(action) : actionLabel(action, ctx)),
    );
  }
  menu.append(h("button.small.subtle", { onclick: (e) => (e.stopPropagation(), closeMenu()) }, "Cancel"));
  // the arrow keys move through the choices, Escape closes the menu and gives focus back
  const opener = event.currentTarget;
  menu.addEventListener("keydown", (e) => {
    const items = [...menu.querySelectorAll("button")];
    const at = items.indexOf(document.activeElement);
    const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[e.key];
    if (step) {
      e.preventDefault();
      items[(at + step + items.length) % items.length].focus();
    } else if (e.key === "Escape") {
      closeMenu();
      if (opener && opener.focus) opener.focus();
    }
  });
  root.append(menu);
  markMoves(menu, ctx.legal); // its choices wear the shell's mark like everything else that moves
  menu.querySelector("button").focus();
}

function closeMenu() {
  for (const m of document.querySelectorAll(".cb-menu")) m.remove();
}

// ----------------------------------------------------------------------------- labels
/** A legal action in words: the engine's label from the frame (no page keeps its own copy). */
function actionLabel(action, ctx) {
  return (ctx.labelOf && ctx.labelOf(action)) || action;
}

function topOf(ctx, pile) {
  const p = (ctx.view.upgrade_piles || [])[pile - 1];
  return p && p.top ? ` (${p.top})` : "";
}

// ----------------------------------------------------------------------------- the map
function pieceTokens(ctx, t, models, pend) {
  const tokens = [];
  const me = ctx.you === null ? null : ctx.view.seats[ctx.you];
  const myHouse = me ? me.house : null;
  const here = pend && pend.territory === t.territory;
  if (t.castle) {
    const acts = t.castle === myHouse ? [`relocate C`] : [];
    tokens.push({ kind: "castle", house: t.castle, w: 26 * PS, acts, title: `Castle of ${houseLabel(ctx, t.castle)}` });
  }
  for (const c of t.candles || []) {
    const [house, role] = c.candle.split("-");
    const acts = [];
    if (house === myHouse) acts.push(`ignite ${role}`, `relocate ${role}`);
    acts.push(`recast ${c.candle}`, `lift ${c.candle}`);
    if (here) acts.push(`destroy ${c.candle}`, `push ${c.candle}`, `extinguish ${c.candle}`);
    tokens.push({ kind: "candle", house, role, flames: c.flames, w: 17 * PS, acts, title: `${ROLE[role]} of ${houseLabel(ctx, house)}: ${c.flames} flame${c.flames === 1 ? "" : "s"}` });
  }
  for (const m of models) tokens.push({ kind: "curse", house: m.owner, curse: m.curse, w: 20 * PS, acts: [], title: m.owner ? `Curse ${m.curse}, held by ${houseLabel(ctx, m.owner)}` : `Curse ${m.curse}` });
  for (const house of t.land_flames || []) {
    const acts = here ? [`destroy ${house}`, `extinguish ${house}`] : [];
    tokens.push({ kind: "land", house, w: 13 * PS, acts, title: `Land Flame of ${houseLabel(ctx, house)}` });
  }
  return tokens;
}

// The words entry of what a map piece is (a curse's standee is named by its tip alone).
const PIECE_ROLE = { castle: () => "role:C", candle: (tok) => `role:${tok.role}`, land: () => "role:land" };

function drawToken(ctx, tok, x, y) {
  const colour = houseColour(ctx, tok.house);
  // its words in the page's tooltip, as a card's or a territory's (an SVG title showed nothing, issue
  // 36): what the piece is (its role's entry) and whose it is
  const g = s("g", { class: `cb-piece ${tok.kind}`, transform: `translate(${x},${y}) scale(${PS})`, role: "img", "aria-label": tok.title });
  const role = PIECE_ROLE[tok.kind] ? PIECE_ROLE[tok.kind](tok) : null;
  if (role && words.lookup(role)) g.dataset.code = role;
  g.dataset.tip = `${tok.title}.`;
  const outline = tok.house && (ctx.facts.houses || {})[tok.house] && ctx.facts.houses[tok.house].colour === "white" ? "#6b6354" : "#2a1a0e";
  if (tok.kind === "castle") {
    g.append(
      s("path", { d: "M-11 9V-4h4v-5h4v5h6v-5h4v5h4V9Z", fill: colour, stroke: outline, "stroke-width": 1.4 }),
      s("rect", { x: -2.5, y: 2, width: 5, height: 7, fill: "rgba(0,0,0,0.45)" }),
    );
  } else if (tok.kind === "candle") {
    g.append(
      s("rect", { x: -5, y: -6, width: 10, height: 17, rx: 2, fill: colour, stroke: outline, "stroke-width": 1.3 }),
      s("text", { x: 0, y: 7, class: "cb-role", fill: tok.house === "L" || tok.house === "R" ? "#2a1a0e" : "#fff" }, tok.role),
    );
    // the flames on the candle
    const n = tok.flames;
    if (n > 0) {
      g.append(s("path", { d: "M0 -19c4 4 5 7 3 10a3.4 3.4 0 0 1-6 0c-2-3 0-6 3-10Z", class: "cb-flame" }));
      if (n > 1) g.append(s("text", { x: 7, y: -10, class: "cb-flame-n" }, `${n}`));
    } else {
      g.append(s("line", { x1: 0, y1: -6, x2: 0, y2: -10, stroke: "#333", "stroke-width": 1.2 }));
    }
  } else if (tok.kind === "land") {
    g.append(s("path", { d: "M0 -8c5 5 6 8 4 11a4.5 4.5 0 0 1-8 0c-2-3 0-6 4-11Z", fill: colour, stroke: outline, "stroke-width": 1.2 }));
  } else if (tok.kind === "curse") {
    g.append(
      s("circle", { r: 9, fill: "#3b1d4d", stroke: colour, "stroke-width": 3 }),
      s("text", { y: 4, class: "cb-curse-n" }, `${tok.curse}`),
    );
  }
  const acts = tok.acts.filter((a) => ctx.can(a));
  if (acts.length) {
    // the glow shows it takes a tap, but reaches over its neighbours: the tap goes to the piece's
    // own slot in its row (a cell as wide as the piece, side by side with the next one's)
    const slot = s("rect", { x: -tok.w / PS / 2, y: -13 / PS, width: tok.w / PS, height: 26 / PS, class: "cb-piece-slot" });
    g.insertBefore(s("circle", { r: 14, class: "cb-piece-glow" }), g.firstChild.nextSibling);
    g.insertBefore(slot, g.firstChild.nextSibling);
    markSvg(g, ctx, acts);
  }
  return g;
}

function markSvg(el, ctx, acts) {
  el.classList.add("clickable");
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  if (acts.length === 1) el.dataset.action = acts[0];
  else el.dataset.choices = acts.join("|");
  el.setAttribute("aria-label", acts.map((a) => actionLabel(a, ctx)).join(" / "));
  const go = (event) => {
    event.stopPropagation();
    if (acts.length === 1) ctx.act(acts[0]);
    else openMenu(event, ctx, acts);
  };
  el.addEventListener("click", go);
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") (e.preventDefault(), go(e));
  });
}

const ICON_PATHS = {
  curse: `<circle cx="10" cy="9" r="6.5"/><circle cx="7.6" cy="8.5" r="1.6" class="hole"/><circle cx="12.4" cy="8.5" r="1.6" class="hole"/><path d="M7 15h6v3H7z"/>`,
  barracks: `<path d="M4 3l12 12M16 3L4 15" class="line"/><path d="M3 14l3 3M17 14l-3 3" class="line"/>`,
  forge: `<path d="M3 7h11c0 2 1.5 3 3.5 3v1.5H13l-1 3h2.5v2.5h-9V14H8l-1-3H4.5C3.5 11 3 9 3 7Z"/>`,
  mine: `<path d="M3 8c3-4.5 11-4.5 14 0" class="line"/><path d="M10 5.5L10 18" class="line"/>`,
  portal: `<ellipse cx="10" cy="10" rx="5.2" ry="7.6" class="line"/><ellipse cx="10" cy="10" rx="2.2" ry="4" />`,
  inn: `<path d="M3 9.5L10 3l7 6.5V17H3Z"/><path d="M8 17v-4.5h4V17" class="hole"/>`,
};

function iconGlyph(icon, x, y, size) {
  const g = s("g", { class: `cb-icon i-${icon}`, transform: `translate(${x - size / 2},${y - size / 2}) scale(${size / 20})` });
  // our own constant markup, never data
  const tmp = document.createElementNS(NS, "g");
  tmp.innerHTML = ICON_PATHS[icon] || "";
  for (const child of [...tmp.childNodes]) g.append(child);
  return g;
}

function territoryActions(ctx, name) {
  const out = [];
  for (const a of ctx.legal) {
    const p = a.split(" ");
    const last = p[p.length - 1];
    if (last !== name) continue;
    if (["at", "move", "extra", "to", "ignite", "extinguish", "shift"].includes(p[0])) out.push(a);
  }
  return out;
}

/** Each territory's pieces laid out in rows about its anchor: {territory: [{tok, x, y}]}. */
function placePieces(ctx, geo, pend) {
  const view = ctx.view;
  const models = {};
  for (const m of view.curse_models || []) (models[m.territory] = models[m.territory] || []).push(m);
  const placed = {};
  for (const t of view.territories) {
    placed[t.territory] = [];
    const a = geo.anchor[t.territory];
    if (!a) continue;
    const tokens = pieceTokens(ctx, t, models[t.territory] || [], pend);
    if (!tokens.length) continue;
    const maxW = Math.max(58, a.w - 8);
    const rows = [];
    let row = [];
    let width = 0;
    for (const tok of tokens) {
      if (row.length && width + tok.w > maxW) (rows.push(row), (row = []), (width = 0));
      row.push(tok);
      width += tok.w;
    }
    rows.push(row);
    rows.forEach((r, ri) => {
      const total = r.reduce((sum, tok) => sum + tok.w, 0);
      let x = a.x - total / 2;
      const y = a.y + 9 + ri * 26 - (rows.length - 1) * 9;
      for (const tok of r) {
        placed[t.territory].push({ tok, x: x + tok.w / 2, y });
        x += tok.w;
      }
    });
  }
  return placed;
}

function regionActions(ctx, region) {
  return ctx.legal.filter((a) => {
    const p = a.split(" ");
    return (p[0] === "temple" && p[2] === String(region)) || (p[0] === "raze" && p[1] === String(region));
  });
}

function drawMap(ctx, geo) {
  const view = ctx.view;
  const W = geo.cols * CELL;
  const H = geo.rows * CELL;
  const map = s("svg", { viewBox: `-8 -8 ${W + 16} ${H + 16}`, class: "cb-map", role: "img", "aria-label": "The map of Candelabria" });
  map.append(
    s("defs", {},
      s("pattern", { id: "cb-waves", width: 24, height: 12, patternUnits: "userSpaceOnUse" },
        s("rect", { width: 24, height: 12, fill: "#6fa3c7" }),
        s("path", { d: "M0 8q6-5 12 0t12 0", fill: "none", stroke: "#9cc5e0", "stroke-width": 1.5 })),
      s("pattern", { id: "cb-corrupt", width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        s("rect", { width: 10, height: 10, fill: "rgba(60,10,70,0.18)" }),
        s("line", { x1: 0, y1: 0, x2: 0, y2: 10, stroke: "rgba(70,20,90,0.45)", "stroke-width": 3 })),
    ),
  );
  map.append(s("rect", { x: -8, y: -8, width: W + 16, height: H + 16, fill: "url(#cb-waves)", rx: 10 }));
  const regions = Object.fromEntries(view.regions.map((r) => [r.region, r]));
  const pend = view.pending || {};
  const focusRegion = pend.region ?? null;
  const battleRegion = view.battle && view.battle.length && pend.region !== undefined ? pend.region : null;
  // cells
  const cellLayer = s("g", { class: "cb-cells" });
  for (const [id, list] of Object.entries(geo.cells)) {
    const region = geo.regionOf[id];
    const fill = REGION_COLOURS[geo.colours[region]] || "#ddd";
    for (const [x, y] of list) cellLayer.append(s("rect", { x: x * CELL, y: y * CELL, width: CELL + 0.5, height: CELL + 0.5, fill }));
  }
  map.append(cellLayer);
  // corrupted regions
  for (const [id, list] of Object.entries(geo.cells)) {
    const r = regions[geo.regionOf[id]];
    if (r && r.corrupted) for (const [x, y] of list) map.append(s("rect", { x: x * CELL, y: y * CELL, width: CELL + 0.5, height: CELL + 0.5, fill: "url(#cb-corrupt)", "pointer-events": "none" }));
  }
  // where the pieces go, first: a territory's tap spot must not lie under a piece (a neighbour's
  // row can reach over a border), or the spot a player is told to press takes no tap
  const placed = placePieces(ctx, geo, pend);
  const busy = Object.values(placed).flat().map(({ tok, x, y }) => ({ x0: x - tok.w / 2, x1: x + tok.w / 2, y0: y - 20 * PS, y1: y + 11 * PS }));
  // and a region's badge where it takes a tap (a temple to build, a region to raze)
  for (const r of view.regions) {
    const at = geo.regionBadge[r.region];
    if (at && regionActions(ctx, r.region).length) busy.push({ x0: at.x - 20, x1: at.x + 20 + 15 * r.temples.length, y0: at.y - 20, y1: at.y + 20 });
  }
  // territory targets (under the pieces)
  const targets = s("g", { class: "cb-targets" });
  for (const t of view.territories) {
    const acts = territoryActions(ctx, t.territory);
    const list = geo.cells[t.territory] || [];
    const g = s("g", { class: "cb-terr", "data-territory": t.territory, "data-place": t.territory });
    // words: the territory's own entry (its kind, borders and bridges); failing that, its kind's
    if (words.lookup(t.territory)) g.dataset.code = t.territory;
    else {
      if (t.icon && words.lookup(`icon:${t.icon}`)) g.dataset.code = `icon:${t.icon}`;
      g.dataset.tip = `Territory ${t.territory}, region ${t.region}.`;
    }
    for (const [x, y] of list) g.append(s("rect", { x: x * CELL, y: y * CELL, width: CELL, height: CELL, class: "cb-cell" }));
    if (pend.territory === t.territory) g.classList.add("focus");
    if (acts.length && list.length) {
      // A territory is not convex: the middle of its box can lie in a neighbour. The target is a
      // spot on its most central cell (big enough for a finger); a click anywhere on it still counts.
      const mx = list.reduce((a, [x]) => a + x, 0) / list.length;
      const my = list.reduce((a, [, y]) => a + y, 0) / list.length;
      const r = Math.min(16, CELL / 2);
      const near = [...list].sort((p, q) => Math.hypot(p[0] - mx, p[1] - my) - Math.hypot(q[0] - mx, q[1] - my));
      const free = ([x, y]) => {
        const px = (x + 0.5) * CELL, py = (y + 0.5) * CELL;
        return !busy.some((b) => px + r > b.x0 && px - r < b.x1 && py + r > b.y0 && py - r < b.y1);
      };
      const [cx, cy] = near.find(free) || near[0];
      const spot = s("circle", { cx: (cx + 0.5) * CELL, cy: (cy + 0.5) * CELL, r, class: "cb-terr-spot" });
      g.append(spot);
      markSvg(spot, ctx, acts);
      g.classList.add("clickable");
      g.addEventListener("click", (e) => {
        if (e.target !== spot) spot.dispatchEvent(new MouseEvent("click", { clientX: e.clientX, clientY: e.clientY }));
      });
    }
    targets.append(g);
  }
  map.append(targets);
  // borders
  const line = (seg, cls) => s("line", { x1: seg[0], y1: seg[1], x2: seg[2], y2: seg[3], class: cls });
  map.append(s("g", { class: "cb-borders", "pointer-events": "none" }, geo.thin.map((seg) => line(seg, "thin")), geo.thick.map((seg) => line(seg, "thick")), geo.coast.map((seg) => line(seg, "coast"))));
  // bridges
  for (const b of geo.bridges) {
    map.append(
      s("g", { class: "cb-bridge", "pointer-events": "none" },
        s("line", { x1: b.x1, y1: b.y1, x2: b.x2, y2: b.y2, class: "deck" }),
        s("line", { x1: b.x1, y1: b.y1, x2: b.x2, y2: b.y2, class: "planks" }),
        s("title", {}, `bridge ${b.a}–${b.b}`)),
    );
  }
  // region badges: number, temples, corrupted
  for (const r of view.regions) {
    const at = geo.regionBadge[r.region];
    if (!at) continue;
    const acts = regionActions(ctx, r.region);
    const g = s("g", { class: "cb-region", transform: `translate(${at.x},${at.y})` }, s("title", {}, `Region ${r.region}${r.corrupted ? " (corrupted)" : ""}${r.temples.length ? `, temple: ${r.temples.join(" / ")}` : ""}`));
    if (r.region === battleRegion || (focusRegion !== null && r.region === focusRegion)) g.append(s("circle", { r: 17, class: "cb-region-focus" }));
    g.append(s("circle", { r: 12, class: r.corrupted ? "badge corrupted" : "badge" }), s("text", { y: 4.5, class: "cb-region-n" }, `${r.region}`));
    r.temples.forEach((colour, i) => {
      const fill = TEMPLE_FILL[colour] || "#ccc";
      g.append(
        s("g", { transform: `translate(${21 + i * 15},0)`, class: "cb-temple" },
          s("path", { d: "M-7 -3L0 -9L7 -3Z", fill, stroke: "#3a2a1a", "stroke-width": 1.2 }),
          s("rect", { x: -6, y: -3, width: 12, height: 9, fill, stroke: "#3a2a1a", "stroke-width": 1.2 }),
          s("path", { d: "M-3 -2v7M0 -2v7M3 -2v7", stroke: colour === "black" ? "#bbb" : "#3a2a1a", "stroke-width": 1 }),
          s("rect", { x: -8, y: 6, width: 16, height: 2.5, fill, stroke: "#3a2a1a", "stroke-width": 1 })),
      );
    });
    if (acts.length) {
      g.prepend(s("circle", { r: 20, class: "cb-piece-glow" }));
      markSvg(g, ctx, acts);
    } else {
      g.setAttribute("pointer-events", "none");
    }
    map.append(g);
  }
  // icons, names and pieces
  for (const t of view.territories) {
    const a = geo.anchor[t.territory];
    if (!a) continue;
    const underTarget = territoryActions(ctx, t.territory).length > 0;
    const hasPieces = placed[t.territory].length > 0;
    const iy = hasPieces ? a.y - 17 : a.y - 4;
    const label = s("g", { class: "cb-label", "pointer-events": "none" });
    // the id drawn here is named by its territory's entry (and so left alone by words.chipify)
    if (words.lookup(t.territory)) label.dataset.code = t.territory;
    const target = territoryActions(ctx, t.territory).length > 0;
    if (target) label.append(s("circle", { cx: a.x - 9, cy: iy, r: 14, class: "cb-target-ring" }));
    label.append(s("circle", { cx: a.x - 9, cy: iy, r: 9.5, class: `cb-icon-disc i-${t.icon}` }), iconGlyph(t.icon, a.x - 9, iy, 13));
    label.append(s("text", { x: a.x + 3, y: iy + 4, class: "cb-terr-name" }, t.territory));
    if (!hasPieces) label.append(s("text", { x: a.x, y: iy + 22, class: "cb-terr-icon-name" }, ICON_NAMES[t.icon] || t.icon));
    map.append(label);
    if (!hasPieces) continue;
    for (const { tok, x, y } of placed[t.territory]) {
      const piece = drawToken(ctx, tok, x, y);
      if (underTarget && !piece.classList.contains("clickable")) piece.setAttribute("pointer-events", "none");
      map.append(piece);
    }
  }
  return map;
}

// ----------------------------------------------------------------------------- panels
function resource(label, value, cls, title) {
  return h(`span.cb-res.${cls}`, { title: title || label }, h("b", String(value)), h("i", label));
}

function houseBoard(ctx, p, opts = {}) {
  const view = ctx.view;
  const colour = houseColour(ctx, p.house);
  const pend = view.pending || {};
  const acting = !ctx.over && (pend.seats || []).includes(p.seat);
  const box = h("div.cb-house", { class: `${p.seat === ctx.you ? "you" : ""} ${acting ? "acting" : ""}`, dataset: { seat: String(p.seat) } });
  box.style.setProperty("--hc", colour);
  box.style.setProperty("--hc-ink", houseInk(ctx, p.house));
  const pos = view.order.indexOf(p.seat) + 1;
  const head = h("div.cb-house-head",
    h("span.cb-order", { title: "turn order" }, String(pos)),
    h("span.cb-house-name", h("b", ctx.name(p.seat)), h("small", { dataset: { code: `house:${p.house}` } }, p.name)),
    h("span.cb-vp", { title: "Victory Points" }, h("b", String(p.vp)), " VP"));
  box.append(head);
  const steal = [`steal ${p.house} gold`, `steal ${p.house} wax`];
  const res = h("div.cb-res-row",
    mark(resource("gold", p.gold, "gold"), ctx, [steal[0]], (a) => actionLabel(a, ctx)),
    mark(resource("wax", p.wax, "wax"), ctx, [steal[1]], (a) => actionLabel(a, ctx)),
    // whole words: a newcomer read "land fl." and "held" as nothing (issue 36)
    resource("land flames", p.land_flames, "lf", "Land Flames in the supply"),
    resource("candle flames", p.candle_flames, "cf", "Candle flames in the supply"),
    resource("cards", p.hand ? p.hand.length : p.hand_size, "hand", "candle cards in hand"),
    resource("territories", (p.territories || []).length, "terr", `territories with a Land Flame: ${(p.territories || []).join(" ") || "none"}`));
  box.append(res);
  // each deployed card with its role in words ("E:S3" was read as nothing, issue 36)
  const deployed = (p.deployed || []).map((card, i) => (card ? `${card} (${ROLE["EPW"[i]]})` : null)).filter(Boolean);
  const lines = h("div.cb-house-lines");
  if (p.house) lines.append(powersLine(ctx, p.house));
  if (deployed.length) lines.append(h("div.cb-deployed", h("span.muted", "candles "), deployed.join(", ")));
  if ((p.upgrades || []).length) lines.append(h("div", h("span.muted", "upgrades "), p.upgrades.map((u) => h("span.cb-upg-chip", { dataset: { code: u }, tabIndex: 0 }, words.name(u)))));
  if (!opts.full && (p.tactics || []).length) lines.append(h("div", h("span.muted", "tactics "), `${p.tactics.length} card${p.tactics.length === 1 ? "" : "s"}`));
  if (!opts.full && p.known_hand && p.known_hand.length) lines.append(h("div.cb-known", h("span.muted", "candle cards you know they hold: "), p.known_hand.join(", ")));
  if (lines.childNodes.length) box.append(lines);
  if (opts.full) box.append(yourCards(ctx, p));
  if (ctx.over && p.hand && p.seat !== ctx.you) box.append(h("div.cb-house-lines", h("span.muted", "hand "), p.hand.join(" ")));
  return box;
}

/** A house's three powers, one per Year, each naming itself on hover (the one awake now marked). */
function powersLine(ctx, house) {
  const line = h("div.cb-powers", h("span.muted", "powers "));
  for (const year of [1, 2, 3]) {
    const code = `power:${house}${year}`;
    if (!words.lookup(code)) continue;
    const awake = (ctx.view.year || 1) >= year;
    line.append(h("span.cb-power", { class: awake ? "awake" : "", dataset: { code }, tabIndex: 0, "aria-label": words.name(code) }, `Year ${"I".repeat(year)}`));
  }
  return line;
}

function yourCards(ctx, p) {
  const wrap = h("div.cb-yours");
  const pend = ctx.view.pending || {};
  const hand = h("div.cb-hand");
  for (const code of p.hand || []) {
    const card = candleCard(ctx, code);
    const uses = [`deploy ${code} E`, `deploy ${code} P`, `deploy ${code} W`, `maneuver ${code}`];
    mark(card, ctx, [...uses, `return ${code}`], (a) => actionLabel(a, ctx), uses.some((a) => ctx.can(a)));
    hand.append(card);
  }
  if (!(p.hand || []).length) hand.append(h("span.muted", "no candle cards"));
  wrap.append(h("div.cb-sub", "Your hand"), hand);
  if (pend.decision === "keep" && pend.cards) {
    const keep = h("div.cb-hand.keep");
    for (const code of pend.cards) keep.append(mark(candleCard(ctx, code), ctx, [`keep ${code}`], (a) => actionLabel(a, ctx)));
    wrap.append(h("div.cb-sub", "Drawn: keep one"), keep);
  }
  const tactics = h("div.cb-tactics-row");
  for (const code of p.tactics || []) tactics.append(tacticCard(ctx, code, { cls: "small" }));
  if (!(p.tactics || []).length) tactics.append(h("span.muted", "no tactic cards"));
  wrap.append(h("div.cb-sub", `Your tactic cards (${(p.tactics || []).length})`), tactics);
  return wrap;
}

function curseBoard(ctx) {
  const view = ctx.view;
  const box = h("div.cb-panel.cb-curses", h("h3", "Curse board", h("small", ` · deck ${view.curse_deck}`)));
  const row = h("div.cb-curse-row");
  view.curses.forEach((c, i) => {
    const el = h("div.cb-curse", { dataset: words.lookup(`curse:${c.region}`) ? { code: `curse:${c.region}` } : {}, title: words.lookup(`curse:${c.region}`) ? null : `Curse of region ${c.region}: ${c.effect}` },
      h("div.cb-curse-head", h("span.cb-curse-place", String(i + 1)), h("span", `region ${c.region}`)),
      h("div.cb-curse-effect", c.effect.replaceAll("-", " ")));
    const flames = h("div.cb-curse-flames");
    for (const [house, n] of Object.entries(c.flames || {})) {
      const f = h("span.cb-fl", { title: `${houseLabel(ctx, house)}: ${n}` }, String(n));
      f.style.setProperty("--hc", houseColour(ctx, house));
      f.style.setProperty("--hc-ink", houseInk(ctx, house));
      flames.append(f);
    }
    if (!flames.childNodes.length) flames.append(h("span.muted", "no flames"));
    el.append(flames);
    mark(el, ctx, [`curse ${i + 1}`], (a) => actionLabel(a, ctx));
    row.append(el);
  });
  if (!view.curses.length) row.append(h("span.muted", "no curses on the board"));
  box.append(row);
  return box;
}

function tacticsBoard(ctx) {
  const view = ctx.view;
  const box = h("div.cb-panel.cb-tboard", h("h3", "Tactics board", h("small", ` · deck ${view.tactics_deck}`)));
  const row = h("div.cb-tactics-row");
  for (const code of view.tactics_board) row.append(mark(tacticCard(ctx, code, { cls: "small" }), ctx, [`take ${code}`], (a) => actionLabel(a, ctx)));
  box.append(row);
  return box;
}

function upgradeBoard(ctx) {
  const view = ctx.view;
  const box = h("div.cb-panel.cb-uboard", h("h3", "Upgrade board"));
  const row = h("div.cb-upg-row");
  view.upgrade_piles.forEach((p, i) => {
    const info = p.top ? (ctx.facts.upgrades || {})[p.top] || {} : {};
    const el = h("div.cb-upg", { class: p.top ? `y${info.year || 1}` : "empty", dataset: p.top ? { code: p.top, tip: `Pile ${i + 1}, ${p.size} left.` } : {}, title: p.top ? null : "empty" },
      h("span.cb-upg-pile", String(i + 1)),
      h("span.cb-upg-code", p.top ? words.name(p.top) : "—"),
      h("span.cb-upg-meta", p.top ? `Y${info.year} · ${info.year} gold · ${p.size} left` : "empty"));
    mark(el, ctx, [`upgrade ${i + 1}`], (a) => actionLabel(a, ctx));
    row.append(el);
  });
  box.append(row);
  const temples = view.temples_left || {};
  box.append(h("div.cb-supply",
    h("span", "Temples left: ", Object.entries(temples).map(([c, n]) => h("span.cb-temple-chip", { class: c }, `${n} ${c}`))),
    h("span", ` · reserve ${view.reserve.gold} gold, ${view.reserve.wax} wax · Advanced deck ${view.advanced_deck}`)));
  return box;
}

function finalPanel(ctx) {
  const view = ctx.view;
  const scores = view.scores || view.seats.map((p) => p.vp);
  // a game a seat resigned: that seat last and the others first, whatever the VP (rulings EG-1)
  const left = ctx.result && typeof ctx.result.resigned === "number" ? ctx.result.resigned : null;
  const winners = left === null ? view.winners || [] : ctx.result.winners || [];
  const ranking = view.seats.map((p) => p.seat).sort((a, b) => (a === left) - (b === left) || scores[b] - scores[a]);
  const place = (seat) => (left === null ? ranking.indexOf(seat) + 1 : seat === left ? ranking.length : 1);
  const why = left !== null ? ` · ${ctx.name(left)} resigned` : view.truncated ? " · stopped at the turn limit: the most VP wins" : "";
  const box = h("div.cb-panel.cb-final", h("h3", "Game over", h("small", why)));
  const list = h("ol.cb-ranking");
  for (const seat of ranking) {
    const p = view.seats[seat];
    const house = p.name ? h("span.muted", ` ${p.name}`) : null; // no house chosen yet: none named
    const li = h("li", { class: winners.includes(seat) ? "winner" : "" }, h("span.cb-order", String(place(seat))), h("b", ctx.name(seat)), house, h("span.cb-vp", h("b", String(scores[seat])), " VP"));
    li.style.setProperty("--hc", houseColour(ctx, p.house));
    li.style.setProperty("--hc-ink", houseInk(ctx, p.house));
    list.append(li);
  }
  box.append(list);
  return box;
}

// ----------------------------------------------------------------------------- war
const draft = { key: "", slots: [null, null] };

function battlePanel(ctx) {
  const view = ctx.view;
  const pend = view.pending || {};
  const fighting = view.battle || [];
  if (!fighting.length && !(view.battles_left || []).length) return null;
  const region = pend.region ?? null;
  const box = h("div.cb-panel.cb-battle");
  box.append(h("h3", "War", region !== null ? ` — the battle for region ${region}` : "", (view.battles_left || []).length ? h("small", ` · battles left: ${view.battles_left.join(", ")}`) : null));
  const row = h("div.cb-fighters");
  for (const seat of fighting) {
    const p = view.seats[seat];
    const f = h("div.cb-fighter", { dataset: { seat: String(seat) } });
    f.style.setProperty("--hc", houseColour(ctx, p.house));
    f.append(h("div.cb-fighter-name", ctx.name(seat)));
    const slots = h("div.cb-slots");
    if (p.secret) {
      p.secret.forEach((c) => slots.append(c ? tacticCard(ctx, c, { cls: "small mine" }) : h("div.cb-slot-empty", "—")));
      f.append(h("div.cb-status.ok", "your choice (secret)"));
    } else if (p.played) {
      p.played.forEach((c) => slots.append(c && c !== "resolved" ? tacticCard(ctx, c, { cls: "small" }) : h("div.cb-slot-empty", c === "resolved" ? "resolved" : "—")));
      f.append(h("div.cb-status", "revealed"));
    } else if (p.chosen) {
      slots.append(h("div.cb-back"), h("div.cb-back"));
      f.append(h("div.cb-status.ok", "chose"));
    } else {
      f.append(h("div.cb-status.wait", pend.decision === "secret" ? "choosing…" : ""));
    }
    f.prepend(slots);
    row.append(f);
  }
  box.append(row);
  if (pend.decision === "secret" && ctx.can("play - -")) box.append(secretChooser(ctx));
  if (pend.decision === "cancel") {
    const acts = ctx.legal.filter((a) => a.startsWith("cancel "));
    if (acts.length) {
      const list = h("div.cb-cancels");
      for (const a of acts) list.append(h("button.action", { dataset: { action: a }, onclick: () => ctx.act(a) }, cancelLabel(ctx, a)));
      box.append(h("div.cb-sub", "Cancel an opponent's card that shares an icon with yours"), list);
    }
  }
  return box;
}

function cancelLabel(ctx, action) {
  return actionLabel(action, ctx);
}

function secretChooser(ctx) {
  const me = ctx.view.seats[ctx.you];
  const key = `${ctx.view.year}:${(ctx.view.pending || {}).region}:${(me.tactics || []).join(",")}`;
  if (draft.key !== key) (draft.key = key), (draft.slots = [null, null]);
  const counts = {};
  for (const c of me.tactics || []) counts[c] = (counts[c] || 0) + 1;
  const used = {};
  for (const c of draft.slots) if (c) used[c] = (used[c] || 0) + 1;
  const box = h("div.cb-secret");
  box.append(h("div.cb-sub", "Your secret choice: click up to two tactic cards for your War Board (the others only see that you chose)"));
  const slots = h("div.cb-war-board");
  draft.slots.forEach((c, i) => {
    const slot = h("div.cb-war-slot", { title: "click to empty", dataset: c ? { step: "empty" } : {} }, h("span.cb-slot-n", `slot ${i + 1}`), c ? tacticCard(ctx, c, { cls: "small" }) : h("div.cb-slot-empty", "uncovered"));
    slot.addEventListener("click", () => ((draft.slots[i] = null), ctx.redraw()));
    slots.append(slot);
  });
  const action = `play ${draft.slots[0] || "-"} ${draft.slots[1] || "-"}`;
  const ok = ctx.can(action);
  slots.append(h("button.primary.cb-play", { disabled: !ok, dataset: ok ? { action } : {}, onclick: () => ok && ctx.act(action) }, draft.slots[0] || draft.slots[1] ? "Play these, face down" : "Play no cards"));
  box.append(slots);
  const pick = h("div.cb-tactics-row");
  for (const [code, n] of Object.entries(counts)) {
    const left = n - (used[code] || 0);
    const card = tacticCard(ctx, code, { cls: left > 0 ? "pickable" : "used" });
    if (n > 1) card.append(h("span.cb-count", `×${left}`));
    if (left > 0) {
      card.classList.add("clickable");
      card.dataset.step = "tactic"; // prepares the move "Play these" sends (marked alike, moves.js)
      card.tabIndex = 0;
      card.addEventListener("click", () => {
        const i = draft.slots[0] === null ? 0 : draft.slots[1] === null ? 1 : -1;
        if (i >= 0) (draft.slots[i] = code), ctx.redraw();
      });
    }
    pick.append(card);
  }
  box.append(pick);
  return box;
}

// ----------------------------------------------------------------------------- the decision bar
function decisionBar(ctx, covered) {
  if (!ctx.legal.length) return null;
  const rest = ctx.legal.filter((a) => !covered.has(a));
  const declines = rest.filter((a) => DECLINE.has(a.split(" ")[0]));
  const others = rest.filter((a) => !DECLINE.has(a.split(" ")[0]));
  const bar = h("div.cb-decision");
  const pend = ctx.view.pending || {};
  if (pend.decision === "secret") return null;
  if (pend.decision === "pick") {
    // two-player: nothing is dealt until both have chosen (the view shows only the map and the choices)
    bar.append(h("div.cb-status", "The pieces, cards and tiles are dealt once both players have chosen."));
    bar.append(houseChoice(ctx, others.filter((a) => a.startsWith("house "))));
  }
  const plain = others.filter((a) => !(pend.decision === "pick" && a.startsWith("house ")));
  const shown = plain.slice(0, 14);
  for (const a of shown) bar.append(h("button.action", { dataset: { action: a }, onclick: () => ctx.act(a) }, actionLabel(a, ctx)));
  if (plain.length > shown.length) bar.append(h("span.muted", `…and ${plain.length - shown.length} more in “All legal actions”`));
  for (const a of declines) bar.append(h("button.action.decline", { dataset: { action: a }, onclick: () => ctx.act(a) }, actionLabel(a, ctx)));
  // what the moves do, under their buttons: above them, a curse move's three paragraphs pushed its
  // buttons below a laptop's first screen (issue 36)
  const explained = explain(ctx, pend, others);
  if (explained) bar.append(explained);
  return bar.childNodes.length ? bar : null;
}

/** The 2-player house choice: each house with its three powers, Year by Year, in the game's words. */
function houseChoice(ctx, actions) {
  const grid = h("div.cb-house-choice");
  for (const action of actions) {
    const code = action.split(" ")[1];
    const card = h("div.cb-choice-card");
    card.style.setProperty("--hc", houseColour(ctx, code));
    card.style.setProperty("--hc-ink", houseInk(ctx, code));
    card.append(h("h4", { dataset: { code: `house:${code}` } }, words.name(`house:${code}`)));
    const powers = h("ol.cb-choice-powers");
    for (const year of [1, 2, 3]) {
      const key = `power:${code}${year}`;
      if (words.lookup(key)) powers.append(h("li", h("b", `Year ${"I".repeat(year)}: `), words.text(key)));
    }
    card.append(powers, h("button.primary.action", { dataset: { action }, onclick: () => ctx.act(action) }, actionLabel(action, ctx)));
    grid.append(card);
  }
  return grid;
}

/** What a curse move or a Decay card does, said where it is asked (the game's words). */
function explain(ctx, pend, actions) {
  const lines = [];
  if (pend.decision === "haunt") {
    const curses = [...new Set(actions.filter((a) => a.startsWith("haunt ")).map((a) => a.split(" ")[1]))];
    for (const n of curses) {
      const model = (ctx.view.curse_models || []).find((m) => String(m.curse) === n);
      const card = (ctx.view.curses || [])[Number(n) - 1];
      const key = card ? `curse:${card.region}` : null;
      const entry = key ? words.lookup(key) : null;
      lines.push(`Curse ${n}${model ? ` stands on ${model.territory}` : ""}: you move it to a neighbouring territory (the glowing buttons above).` + (entry ? ` ${entry.text}` : ""));
    }
  }
  const decay = pend.decay && pend.decay.card;
  if (decay) {
    lines.push(`${words.name(decay)}: ${words.text(decay)}`);
    const me = ctx.you === null ? null : ctx.view.seats[ctx.you];
    for (const a of actions.filter((x) => /^decay \d+$/.test(x))) {
      const key = me ? `war-board:${me.house}${a.split(" ")[1]}` : null;
      if (key && words.lookup(key)) lines.push(`${words.name(key)} — covered, it stops: ${words.text(key)}`);
    }
  }
  if (!lines.length) return null;
  return h("div.cb-explain", lines.map((line) => h("p", line)));
}

/** The Missions Expansion on the board: the public missions and your private one, in words, with the
 * places taken (the progress the rules make countable: one place a Year for a Yearly mission, three
 * for a Ranking one). */
function missionsPanel(ctx) {
  const m = ctx.view.missions;
  if (!m || !((m.public || []).length || Object.values(m.private || {}).some(Boolean))) return null;
  const box = h("div.cb-panel.cb-missions", h("h3", "Missions", h("small", ` · ${m.box} left in the box`)));
  const me = ctx.you === null ? null : ctx.view.seats[ctx.you];
  const row = (card, whose) => {
    const taken = card.places.filter((p) => p && p !== "blocked").length;
    const open = card.places.filter((p) => p === null).length;
    const item = h("div.cb-mission", { class: card.type, dataset: { code: card.mission } });
    item.append(
      h("div.cb-mission-head", h("b", words.name(card.mission)), h("small", ` · ${whose} · ${card.type === "yearly" ? "Yearly" : "Ranking"}`)),
      h("div.cb-mission-text", words.text(card.mission) || card.text),
    );
    const places = h("div.cb-mission-places", h("span.muted", `${taken} of ${card.places.length - card.places.filter((p) => p === "blocked").length} taken: `));
    card.places.forEach((p, i) => {
      const label = card.type === "yearly" ? "this Year" : ["1st", "2nd", "3rd"][i] || `${i + 1}th`;
      const chip = h("span.cb-place", { class: p === null ? "free" : p === "blocked" ? "blocked" : "taken" });
      if (p && p !== "blocked") {
        chip.style.setProperty("--hc", houseColour(ctx, p));
        chip.style.setProperty("--hc-ink", houseInk(ctx, p));
        chip.append(`${label}: ${houseLabel(ctx, p)}`);
      } else chip.append(`${label}: ${p === "blocked" ? "blocked" : "open"}`);
      places.append(chip);
    });
    if (!open && card.type === "ranking") places.append(h("span.muted", " (complete)"));
    item.append(places);
    return item;
  };
  for (const card of m.public || []) box.append(row(card, "public"));
  for (const [house, card] of Object.entries(m.private || {})) {
    if (card) box.append(row(card, me && me.house === house ? "your private mission" : `${houseLabel(ctx, house)}'s private mission`));
  }
  return box;
}

function coveredActions(root) {
  const out = new Set();
  for (const el of root.querySelectorAll("[data-action]")) out.add(el.dataset.action);
  for (const el of root.querySelectorAll("[data-choices]")) for (const a of el.dataset.choices.split("|")) out.add(a);
  return out;
}

function orderStrip(ctx) {
  const view = ctx.view;
  const strip = h("div.cb-order-strip");
  strip.append(h("span.cb-year", `Year ${view.year}`), h("span.cb-season", { class: view.season }, { kindling: "Kindling", war: "War", over: "Game over" }[view.season] || view.season));
  strip.append(h("span.cb-turn", `turn ${view.turn}${view.max_turns < 1000 ? ` of ${view.max_turns}` : ""}`));
  strip.append(h("span.cb-legend", h("span.cb-legend-hatch"), "corrupted region", h("span.cb-legend-bridge"), "bridge"));
  return strip;
}

// ----------------------------------------------------------------------------- the log in words
function who(ctx, seat, possessive = false, first = false) {
  const p = ctx.view.seats[seat];
  const b = seatWho(ctx, seat, possessive, first); // "your" for your own seat's possession
  if (p) b.style.setProperty("--hc", houseColour(ctx, p.house));
  return b;
}

// where the player left the map scrolled (a phone pans it sideways), kept across redraws
let mapScroll = 0;
let keepSwipe = () => {}; // the drawn map's: takes its scroll as the player's when it is one

// a choice on the map, as markSvg makes it (the shell's mark comes after the module's render)
const TARGET = ".clickable[data-action], .clickable[data-choices]";

/** The map frame scrolled to ``left``, or, when a choice is out of view there, to show them all
 * (where the frame holds their span), else the first. */
function panTo(box, left) {
  box.scrollLeft = left;
  const targets = [...box.querySelectorAll(TARGET)];
  if (!targets.length) return;
  const frame = box.getBoundingClientRect();
  const rects = targets.map((el) => el.getBoundingClientRect());
  if (rects.every((r) => r.left >= frame.left && r.right <= frame.right)) return;
  const from = Math.min(...rects.map((r) => r.left));
  const to = Math.max(...rects.map((r) => r.right));
  if (to - from <= box.clientWidth) box.scrollLeft += (from + to) / 2 - (frame.left + frame.width / 2);
  else if (!rects.some((r) => r.right > frame.left && r.left < frame.right)) {
    box.scrollLeft += rects[0].left + rects[0].width / 2 - (frame.left + frame.width / 2);
  }
}

// The map scaled to the room the first screen leaves under it, down to a floor where it stays
// readable: at 1280x800 a territory to click at the map's foot lay below the fold (issue 36). A
// phone's map keeps a size a finger can use and pans sideways instead (candelabria.css), unless
// it holds the decision's targets: see fitPhoneMap.
const MAP_FLOOR = 300; // px
const PANNING = window.matchMedia("(max-width: 700px)");

function fitMap(map) {
  if (!map || !map.isConnected) return;
  if (PANNING.matches) {
    map.style.maxHeight = "";
    fitPhoneMap(map);
    return;
  }
  // a phone's fitted width goes once the screen is wide (a phone turned, a window widened): the map
  // kept it at 1280 px, a third of its frame
  map.style.width = "";
  map.style.minWidth = "";
  const area = map.closest(".table-area");
  const top = map.getBoundingClientRect().top + (area ? area.scrollTop : 0) + window.scrollY;
  const below = map.closest(".cb-map-box").getBoundingClientRect().bottom - map.getBoundingClientRect().bottom;
  const room = window.innerHeight - top - below - 16; // the frame's foot and the table's padding
  map.style.maxHeight = `${Math.max(MAP_FLOOR, Math.floor(room))}px`;
}

// A phone's map while the decision's targets are on it (issue 36): it comes just under the decision
// bar (candelabria.css), and from its finger-sized width it shrinks only as far as it must for every
// target to lie across its frame (a learner's "ignite" offered territories from edge to edge) and
// above the first screen's foot (the lowest ones lay at 810-913 of 844), never narrower than the
// frame itself (its territories then about 33 px a cell, each all a target); panTo then shows them.
function fitPhoneMap(map) {
  map.style.width = "";
  map.style.minWidth = "";
  const box = map.closest(".cb-map-box");
  const targets = [...map.querySelectorAll(TARGET)];
  if (!targets.length || !box) return;
  const pad = parseFloat(getComputedStyle(box).paddingLeft) || 0;
  const inner = box.clientWidth - 2 * pad;
  const whole = map.getBoundingClientRect();
  if (!whole.width || whole.width <= inner) return;
  const rects = targets.map((el) => el.getBoundingClientRect());
  const from = (Math.min(...rects.map((r) => r.left)) - whole.left) / whole.width;
  const to = (Math.max(...rects.map((r) => r.right)) - whole.left) / whole.width;
  const low = (Math.max(...rects.map((r) => r.bottom)) - whole.top) / whole.height;
  const area = map.closest(".table-area");
  const top = whole.top + (area ? area.scrollTop : 0) + window.scrollY;
  const room = window.innerHeight - top - 8; // a margin above the screen's foot
  const across = (inner - 8) / Math.max(to - from, 0.01);
  const down = (room / Math.max(low, 0.01)) * (whole.width / whole.height);
  const width = Math.max(inner, Math.min(whole.width, across, down));
  if (width >= whole.width - 1) return;
  map.style.width = `${Math.floor(width)}px`;
  map.style.minWidth = "0";
}

window.addEventListener("resize", () => fitMap(document.querySelector("#board .cb-map")));

// ----------------------------------------------------------------------------- the module
export default {
  css: "/static/css/games/candelabria.css",

  render(root, ctx) {
    const view = ctx.view;
    const board = h("div.cb-board");
    board.addEventListener("click", (e) => {
      if (!e.target.closest(".cb-menu")) closeMenu();
    });
    const entry = boardFor(ctx);
    const left = h("div.cb-left");
    left.append(orderStrip(ctx));
    const mapBox = h("div.cb-map-box");
    if (entry.data) mapBox.append(drawMap(ctx, entry.data));
    else if (entry.error) mapBox.append(h("p.problem", `The map could not be loaded (${entry.error}).`));
    else mapBox.append(h("div.cb-loading", "Unrolling the map…"));
    // on a phone the map keeps a size a finger can use and pans inside its frame: say so where it
    // does not fit (a playtester never found regions 7 and 8 beyond the right edge)
    const pan = h("p.cb-map-pan", { hidden: true }, "The map is wider than your screen: swipe it sideways to see every region.");
    left.append(pan, mapBox);
    // (a frame taken off the page reports a last scroll to 0: that one is not the player's; nor is
    // the 0 of a map fitted to the frame for a decision, which the next wide map pans back from)
    // nor a scroll the browser made because the map's width changed under it (a refit): a swipe
    // leaves the width as it was at the last fit
    let fitted = -1;
    const swiped = () => mapBox.isConnected && mapBox.scrollWidth === fitted && mapBox.scrollWidth > mapBox.clientWidth + 1;
    const keep = () => swiped() && (mapScroll = mapBox.scrollLeft);
    mapBox.addEventListener("scroll", keep, { passive: true });
    keepSwipe = keep; // also just before the next drawing (leave): its scroll event may not have fired
    const battle = battlePanel(ctx);
    const right = h("div.cb-right");
    if (battle) right.append(battle);
    const me = ctx.you === null ? null : view.seats[ctx.you];
    if (me) right.append(houseBoard(ctx, me, { full: true }));
    const rivals = h("div.cb-rivals");
    for (const seat of view.order) if (seat !== ctx.you) rivals.append(houseBoard(ctx, view.seats[seat]));
    right.append(rivals);
    left.append(h("div.cb-lower", curseBoard(ctx), tacticsBoard(ctx)), upgradeBoard(ctx));
    const missions = missionsPanel(ctx);
    if (missions) right.append(missions);
    if (ctx.over) right.prepend(finalPanel(ctx));
    board.append(h("div.cb-top", left, right));
    root.append(board);
    // what the board offers no click for goes in a bar under the map
    const bar = decisionBar(ctx, coveredActions(board));
    if (bar) left.insertBefore(bar, mapBox);
    // Every move redraws the board, and a new frame starts scrolled to the left: the map stays where
    // the player swiped it, and a decision whose choices on the map are all out of view scrolls the
    // first of them into view (a playtester swiped back to region 8 after each move to find them).
    // Now, before the page measures where the cards moved (motion.js), so nothing slides for it.
    const map = mapBox.querySelector(".cb-map");
    const wide = () => mapBox.isConnected && mapBox.scrollWidth > mapBox.clientWidth + 1;
    if (map && map.isConnected && PANNING.matches) fitPhoneMap(map);
    if (wide()) panTo(mapBox, mapScroll);
    fitted = mapBox.scrollWidth;
    // once the banner and the rule bar above are drawn for this frame too
    // (to the player's swipe, not the frame's own scroll: a frame laid out only now, on a busy
    // machine, still stood at the left edge and the swipe was lost)
    const refit = () => {
      fitMap(map);
      if (wide()) panTo(mapBox, mapScroll);
      fitted = mapBox.scrollWidth;
      pan.hidden = !wide();
    };
    requestAnimationFrame(refit);
    // and on a phone once the frame is laid out or resized (a board drawn before it is in the page
    // was measured as nothing: its map kept its full width and its targets beyond the frame)
    if (PANNING.matches && map && typeof ResizeObserver === "function") {
      // (in the next frame: a size changed inside the observer's own call is an error of its loop)
      const laid = new ResizeObserver(() => (mapBox.isConnected ? requestAnimationFrame(refit) : laid.disconnect()));
      laid.observe(mapBox);
    }
  },

  /** Before the board is drawn anew: a swipe of the map not yet heard (its scroll event comes at
   * the browser's next rendering step, which a busy one reached only after the next frame's
   * drawing, and the swipe was lost) is kept now, while the old map is still in the page. */
  leave() {
    keepSwipe();
  },

  /** The banner for the seats others wait on (the seat to act reads the engine's prompt instead). */
  describe(ctx) {
    const pend = ctx.view.pending || {};
    const names = (pend.seats || []).map(ctx.name).join(", ");
    if (ctx.yourTurn) return null;
    if (pend.decision === "secret") return `War for region ${pend.region}: ${names} choosing in secret…`;
    return `${names || "Someone"} ${waitingWords(pend.decision)}…`;
  },


  actionLabel,

  instruction,

  /** The server's sentence (the game's own words), with each seat as its player in the house colour. */
  decorate(text, ctx) {
    const out = document.createDocumentFragment();
    let last = 0;
    // a house's letter ("house R", "(R)") becomes its name from the game's words
    for (const match of text.matchAll(/\bseats? (\d+)\b('s)?|\bhouse ([A-Z])\b|\(([A-Z])\)/gi)) {
      const letter = match[3] || match[4];
      out.append(text.slice(last, match.index));
      if (letter === undefined) out.append(who(ctx, Number(match[1]), Boolean(match[2]), match.index === 0));
      else if (words.lookup(`house:${letter}`)) {
        const named = h("span.cb-house-word", { dataset: { code: `house:${letter}` } }, words.name(`house:${letter}`));
        out.append(...(match[4] ? ["(", named, ")"] : [named]));
      } else out.append(match[0]);
      last = match.index + match[0].length;
    }
    out.append(text.slice(last));
    return out;
  },
};

// ----------------------------------------------------------------------------- what to click
// Where the board puts each kind of move (mark() and markSvg() above), and the banner's words for it;
// a card or a territory with several moves opens a menu of them, and the line says so.
const PLACES = {
  hand: "a glowing candle card in your hand to deploy it or discard it to maneuver",
  return: "a glowing candle card in your hand to put it under the Advanced deck",
  keep: "the glowing drawn card you keep",
  territory: "a glowing territory on the map",
  piece: "a glowing piece on the map",
  region: "a glowing region number on the map",
  curse: "a glowing curse on the Curse board",
  take: "a glowing tactic card on the Tactics board",
  upgrade: "a glowing Upgrade pile",
  steal: "an opponent's glowing gold or wax",
  button: "a glowing button above the map",
};
const MENUS = {
  hand: "a card in your hand: a menu opens", // one line on a phone; the cards glow
  territory: "a glowing territory on the map, then choose in its menu",
};
// A phone's banner is narrow: its line in fewer words, two lines at most (issue 36: "Click a glowing
// territory on the map, then choose in its menu, or a glowing button above the map." took four);
// the glow shows where, and the bar's buttons may be above or under the map there (candelabria.css).
const PHONE_PLACES = {
  hand: "a glowing card in your hand",
  return: "a glowing card in your hand",
  keep: "the drawn card you keep",
  territory: "a glowing territory",
  piece: "a glowing piece",
  region: "a glowing region number",
  curse: "a glowing curse",
  take: "a glowing tactic card",
  upgrade: "a glowing Upgrade pile",
  steal: "a rival's glowing gold or wax",
  button: "a glowing button",
};
const PHONE_MENUS = { hand: "a card in your hand: a menu opens", territory: "a glowing territory: a menu opens" };
const NARROW = window.matchMedia("(max-width: 700px)");

const ON_TERRITORY = new Set(["at", "move", "extra", "to", "ignite", "extinguish", "shift"]);
const ON_PIECE = new Set(["relocate", "recast", "lift", "destroy", "push", "ignite", "extinguish"]);
const OWN_PLACE = { deploy: "hand", maneuver: "hand", return: "return", keep: "keep", curse: "curse", take: "take", upgrade: "upgrade", steal: "steal", temple: "region", raze: "region" };

function placeOf(action, territories) {
  const [verb, ...args] = action.split(" ");
  if (OWN_PLACE[verb]) return OWN_PLACE[verb];
  if (ON_TERRITORY.has(verb) && territories.has(args[args.length - 1])) return "territory";
  if (ON_PIECE.has(verb)) return "piece";
  return "button";
}

/** Whether a menu opens there: a hand's card always, a territory holding several of these moves. */
function opensMenu(place, actions) {
  if (place === "hand") return true; // a card to deploy or maneuver always opens its menu (mark)
  const keys = actions.map((a) => (place === "hand" ? a.split(" ")[1] : a.split(" ").pop()));
  return new Set(keys).size < keys.length;
}

/** The banner's one line of what to click: each place that holds a move, and whether a menu opens. */
function instruction(ctx) {
  const pend = ctx.view.pending || {};
  const narrow = NARROW.matches;
  if (pend.decision === "secret") {
    return narrow ? "Click up to two glowing tactic cards, then “Play these, face down”." : "Click up to two of your glowing tactic cards, then “Play these, face down” (or play none).";
  }
  if (pend.decision === "pick") return "Click the button of the house you play.";
  const territories = new Set((ctx.view.territories || []).map((t) => t.territory));
  const byPlace = new Map();
  for (const action of ctx.legal) {
    const place = placeOf(action, territories);
    if (!byPlace.has(place)) byPlace.set(place, []);
    byPlace.get(place).push(action);
  }
  const phrases = Object.keys(PLACES)
    .filter((place) => byPlace.has(place))
    .map((place) => {
      const menu = MENUS[place] && opensMenu(place, byPlace.get(place));
      return (narrow ? (menu ? PHONE_MENUS : PHONE_PLACES) : menu ? MENUS : PLACES)[place];
    });
  return `Click ${phrases.join(", or ")}.`;
}

function waitingWords(d) {
  return {
    turn: "is taking a turn",
    move: "is maneuvering",
    cancel: "may cancel a tactic card",
    forge: "is at the Forge",
    flame: "is placing an extinguished Land Flame",
  }[d] || "is deciding";
}
