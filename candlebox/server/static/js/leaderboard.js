// A game's leaderboard (/leaderboard/GAME?page=N; issue 34): established ratings best first, a page
// at a time, with the bot levels on the same scale for reference.

import { api } from "./api.js";
import { boardLink, levelsTable, profileLink } from "./people.js";
import { clear, h, plural } from "./ui.js";

const $ = (id) => document.getElementById(id);

function table(board) {
  if (!board.players.length) {
    return h("p.empty", board.page > 1 ? "No players on this page." : "Nobody has an established rating in this game yet.");
  }
  return h("div.scroll", h("table.ratings.board",
    h("thead", h("tr", h("th.num", { scope: "col" }, "#"), h("th", { scope: "col" }, "Player"), h("th.num", { scope: "col" }, "Rating"),
      h("th.num", { scope: "col" }, "Rated games"), h("th.num", { scope: "col" }, "Won"))),
    h("tbody", board.players.map((p) => h("tr",
      h("td.num", String(p.rank)),
      h("th", { scope: "row" }, h("a", { href: profileLink(p.name) }, p.name)),
      h("td.num", String(p.rating)),
      h("td.num", String(p.rated_games)),
      h("td.num", String(p.won)))))));
}

function pager(board) {
  if (board.pages <= 1) return null;
  const nav = h("nav.pager", { "aria-label": "Pages" });
  if (board.page > 1) nav.append(h("a.button.small", { href: boardLink(board.game, board.page - 1), rel: "prev" }, "Previous"));
  nav.append(h("span", `Page ${board.page} of ${board.pages}`));
  if (board.page < board.pages) nav.append(h("a.button.small", { href: boardLink(board.game, board.page + 1), rel: "next" }, "Next"));
  return nav;
}

async function gameLinks(current) {
  try {
    const meta = await api("/api/meta");
    clear($("boards")).append(h("ul", meta.games.map((g) => h("li",
      h("a", { href: boardLink(g.id), "aria-current": g.id === current ? "page" : undefined }, g.title)))));
  } catch {
    // the links are a convenience: the board itself still shows
  }
}

async function start() {
  const game = decodeURIComponent(location.pathname.split("/").pop() || "");
  const page = new URLSearchParams(location.search).get("page") || "1";
  const main = $("board");
  gameLinks(game);
  try {
    const board = await api(`/api/leaderboard/${encodeURIComponent(game)}?page=${encodeURIComponent(page)}`);
    document.title = `${board.title} leaderboard · Candlebox`;
    $("title").textContent = `${board.title} leaderboard`;
    const waiting = board.provisional_players
      ? ` ${plural(board.provisional_players, "player")} with fewer than 10 rated games ${board.provisional_players === 1 ? "is" : "are"} not listed yet.`
      : "";
    clear(main).append(
      h("section.panel",
        h("h2", "Players"),
        table(board),
        pager(board),
        h("p.note", `Ratings start at 1500 and rise as a player wins and as the rating grows surer.${waiting}`)),
      h("section.panel", h("h2", "Bots for reference"), levelsTable(board.levels),
        // few games among the bots put the Beginner above the Easy bot in one game, which confused a
        // new player (issue 36): the note says where the numbers come from and how rough they are
        h("p.note", "The bot levels rated on the players' scale from games the bots played against each other only, as many as the last column says: from so few games a rating is rough (off by a few hundred points), so a weaker level can show above a stronger one.")),
    );
  } catch (err) {
    clear(main).append(h("section.panel", h("p", { role: "alert" }, err.message)));
  }
  main.setAttribute("aria-busy", "false");
}

start();
