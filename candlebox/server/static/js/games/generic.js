// The board for a game without a page module of its own: the view's fields as tables, the legal
// actions as buttons. It shows how a game module works:
//
//   export default {
//     css: "/static/css/games/<id>.css",      // optional stylesheet (or a list), loaded once, before render
//     render(root, ctx) { ... },              // draw the board into root (called after every change)
//     describe(ctx) { return "Your turn…" },  // optional: the banner line
//     actionLabel(action, ctx) { ... },       // optional: a button label for the list of actions
//     decorate(text, ctx, entry) { ... },     // optional: a log line as DOM nodes
//     instruction(ctx) { return "Click…" },   // optional: the banner's one line of what to click
//   };
//
// Whatever makes a move carries data-action="<action>" (or data-choices="a|b" when a menu opens, or
// data-step when the click prepares a move); the shell marks the legal ones alike in every game
// (js/moves.js), so a module draws no highlight of its own.
//
// ctx: {view, legal, you, seats, names, name(seat), facts, game, over, result, replaying, yourTurn, botPlays,
//       act(action), can(action), toast(message), prompt, labelOf(action), plain(text)}: prompt and
//       labelOf are the engine's words for the decision and each legal action (docs/server.md). ctx.act(action) sends a move; only actions in
//       ctx.legal are ever sent. The view is what this seat may see (view(seat) on the server).

import { h } from "../ui.js";

function text(value) {
  if (value === null || value === undefined) return "—";
  if (Array.isArray(value)) return value.length ? value.map(text).join(" ") : "—";
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k.replaceAll("_", " ")} ${text(v)}`).join(", ");
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

const HEADER = new Set(["game", "variant", "players", "seat", "pending", "seats"]);

export default {
  render(root, ctx) {
    const view = ctx.view;
    const table = h("table.generic");
    for (const [key, value] of Object.entries(view)) {
      if (HEADER.has(key)) continue;
      table.append(h("tr", h("th", key.replaceAll("_", " ")), h("td", text(value))));
    }
    const seats = Array.isArray(view.seats) ? view.seats : [];
    const columns = [...new Set(seats.flatMap((s) => Object.keys(s)))];
    const seatTable = h(
      "table.generic",
      h("tr", columns.map((c) => h("th", c.replaceAll("_", " ")))),
      seats.map((s, i) => h("tr", { class: i === ctx.you ? "you" : "" }, columns.map((c) => h("td", text(s[c]))))),
    );
    const buttons = h(
      "div.generic-actions",
      ctx.legal.slice(0, 40).map((action) => h("button.action", { onclick: () => ctx.act(action), dataset: { action } }, ctx.labelOf(action) || action)),
    );
    root.append(h("div.generic-board", h("h3", "Table"), table, h("h3", "Seats"), seatTable, buttons));
  },
};
