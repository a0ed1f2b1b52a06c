// Players' names, ratings and the bot levels shown for reference (issue 34): shared by the profile
// page, the leaderboards, the lobby and the game page.

import { h } from "./ui.js";
import { LEVELS } from "./thinking.js";

export function profileLink(name) {
  return `/u/${encodeURIComponent(name)}`;
}

export function boardLink(game, page = 1) {
  return `/leaderboard/${encodeURIComponent(game)}${page > 1 ? `?page=${page}` : ""}`;
}

/** A table's seats in a sentence: a signed-in player's name links to their profile. */
export function seatNames(game) {
  const out = [];
  game.seats.forEach((s, i) => {
    if (i) out.push(" · ");
    if (s.kind !== "bot" && s.taken === false) out.push("open seat");
    else if (s.account) out.push(h("a", { href: profileLink(s.name) }, s.name));
    else out.push(s.name);
  });
  return out;
}

/** A rating as shown: the number, with "?" and a note while it is provisional. */
export function ratingText(record) {
  if (!record.provisional) return h("span.rating", String(record.rating));
  return h("span.rating.provisional", { title: "provisional: fewer than 10 rated games" },
    String(record.rating), h("abbr", { title: "provisional" }, "?"));
}

/** The bot levels measured on the players' scale (bench/bot_ratings.py), for reference. */
export function levelsTable(levels) {
  if (!levels || !levels.length) return h("p.note", "The bots have not been measured on this scale yet.");
  return h("table.ratings.levels",
    h("caption.hidden-caption", "Bots, for reference"),
    h("thead", h("tr", h("th", { scope: "col" }, "Bot level"), h("th.num", { scope: "col" }, "Rating"), h("th.num", { scope: "col" }, "Games measured"))),
    h("tbody", levels.map((l) => h("tr", h("th", { scope: "row" }, LEVELS[l.level] || l.level), h("td.num", String(l.rating)), h("td.num", String(l.games))))));
}

/** A date from a Unix time in seconds: "6 Dec 2026". */
export function day(seconds) {
  return new Date(seconds * 1000).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric" });
}
