// A player's profile (/u/NAME; issue 34): ratings and record per game, recent public games, and the
// bot levels on the same scale for reference.

import { refusalText, showWho } from "./account.js";
import { api } from "./api.js";
import { boardLink, day, levelsTable, ratingText, seatNames } from "./people.js";
import { clear, h, plural } from "./ui.js";

const $ = (id) => document.getElementById(id);

function ratingsPanel(player) {
  if (!player.ratings.length) {
    return h("section.panel", h("h2", "Ratings"), h("p.empty", `${player.name} has not finished a game yet.`));
  }
  const rows = player.ratings.map((r) => h("tr", { dataset: { game: r.game } },
    h("th", { scope: "row" }, h("a", { href: boardLink(r.game) }, r.title)),
    h("td.num", r.rated_games ? ratingText(r) : "–"),
    h("td.num", String(r.rated_games)),
    h("td.num", String(r.played)),
    h("td.num", String(r.won))));
  return h("section.panel",
    h("h2", "Ratings"),
    h("div.scroll", h("table.ratings",
      h("thead", h("tr", h("th", { scope: "col" }, "Game"), h("th.num", { scope: "col" }, "Rating"),
        h("th.num", { scope: "col" }, "Rated games"), h("th.num", { scope: "col" }, "Played"), h("th.num", { scope: "col" }, "Won"))),
      h("tbody", rows))),
    h("p.note", "A rating is a cautious estimate: it starts at 1500, wins raise it, losses lower it, and it rises as it grows surer. “?”: provisional, fewer than 10 rated games."));
}

/** How the game ended for the profile's player: a time loss or resignation is said as such. */
function ending(g) {
  const who = (seat) => (seat === g.seat ? "" : `${(g.seats[seat] || {}).name || `seat ${seat + 1}`} `);
  if (g.out_of_time !== null && g.out_of_time !== undefined) {
    return g.out_of_time === g.seat ? "lost on time" : `won: ${who(g.out_of_time)}ran out of time`;
  }
  if (g.resigned !== null && g.resigned !== undefined && g.resigned === g.seat) return "resigned";
  return g.won ? "won" : "did not win";
}

function recentPanel(player) {
  const items = player.recent.map((g) => h("li.game-card", { dataset: { game: g.id } },
    h("span.gc-title", `${g.title} · ${g.variant}`, g.rated ? h("span.gc-rated", "rated") : null),
    h("span.gc-seats", seatNames(g)),
    h("span.gc-when", `${day(g.finished_at)} · ${ending(g)}`),
    h("span.gc-actions", h("a.button.small", { href: `/g/${encodeURIComponent(g.id)}` }, "Replay"))));
  return h("section.panel",
    h("h2", "Recent games"),
    items.length ? h("ul.game-list.plain", items) : h("p.empty", "No public games finished yet."));
}

function referencePanel(player) {
  const games = player.ratings.filter((r) => (player.levels[r.game] || []).length);
  if (!games.length) return null;
  return h("section.panel",
    h("h2", "The bots on this scale"),
    games.map((r) => h("div.reference", h("h3", r.title), levelsTable(player.levels[r.game]))));
}

/** Follow or unfollow the player, for a signed-in visitor other than the player themself. */
async function followControl(box, player, me) {
  if (!me || me.name === player.name) return;
  const { follows } = await api("/api/me/follows");
  let following = follows.some((f) => f.name === player.name);
  const status = h("span.follow-status", { role: "status" });
  const button = h("button.small", { type: "button", id: "follow-button" });
  const show = () => {
    button.textContent = following ? "Following" : "Follow";
    button.setAttribute("aria-pressed", String(following));
  };
  button.addEventListener("click", async () => {
    status.textContent = "";
    try {
      if (following) await api(`/api/me/follows/${encodeURIComponent(player.name)}`, { method: "DELETE" });
      else await api("/api/me/follows", { method: "POST", body: { name: player.name } });
      following = !following;
      show();
    } catch (err) {
      status.textContent = refusalText(err);
    }
  });
  show();
  clear(box).append(button, status);
}

async function start() {
  const name = decodeURIComponent(location.pathname.split("/").pop() || "");
  const main = $("profile");
  const me = await showWho($("who-box"));
  try {
    const player = await api(`/api/players/${encodeURIComponent(name)}`);
    document.title = `${player.name} · Candlebox`;
    $("who").textContent = player.name;
    const played = player.ratings.reduce((n, r) => n + r.played, 0);
    $("since").textContent = `Member since ${day(player.member_since)} · ${plural(played, "game")} finished`;
    clear(main).append(ratingsPanel(player), recentPanel(player));
    await followControl($("follow"), player, me);
    const reference = referencePanel(player);
    if (reference) main.append(reference);
  } catch (err) {
    $("who").textContent = err.status === 404 ? "No such player" : "Player";
    clear(main).append(h("section.panel", h("p", { role: "alert" }, err.message)));
  }
  main.setAttribute("aria-busy", "false");
}

start();
