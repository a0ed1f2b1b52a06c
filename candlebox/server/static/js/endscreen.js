// The end of a game: the standings in rank order, each score broken down by where its points came
// from (the parts add up to the score), the winner and why, and Rematch / Replay / Lobby. Everything it
// says comes from the frame: `standings` (the engine's State.standings, in the game's own words) and
// `rematch` (an offer made by another player of this table). game.js calls render() after each frame.

import { api, joinLink, remember } from "./api.js";
import { refusalLine, refusalWords, showRefusal } from "./refusals.js";
import { clear, h } from "./ui.js";

let closed = false; // the player closed it to look at the board; a button brings it back
let asking = false;
// Rematch's refusal (the limit of games in play, a rate), under the buttons until it is asked again:
// it came as a notice in a corner (issue 36), and the end screen is drawn again with every frame
let refusal = null;

function holder() {
  let box = document.getElementById("endscreen");
  if (!box) {
    box = h("section.endscreen", { id: "endscreen", "aria-label": "Results" });
    const board = document.getElementById("board");
    board.parentNode.insertBefore(box, board);
  }
  return box; // styled by css/endscreen.css, which game.html loads before the first paint
}

/** opts: {gameId, token, replaying, label(seat), replay()} */
export function render(frame, opts) {
  const box = holder();
  clear(box);
  box.hidden = !frame || !frame.over || opts.replaying;
  if (box.hidden) return;
  if (closed) {
    box.classList.add("folded");
    box.append(h("button.small", { onclick: () => reopen(frame, opts) }, "Show the results"));
    return;
  }
  box.classList.remove("folded");
  const standings = frame.standings || fallback(frame);
  const won = (frame.result && frame.result.winners) || [];
  const mood = frame.you === null ? "" : won.includes(frame.you) ? "won" : "lost";
  box.dataset.mood = mood;
  const ask = frame.you !== null ? h("button.primary.rematch", { onclick: () => rematch(frame, opts) }, rematchLabel(frame)) : watchRematch(frame);
  const refused = frame.you !== null ? refusalLine(ask) : null;
  if (refused && refusal) {
    refused.textContent = refusalWords(refusal);
    refused.hidden = false;
  }
  const parts = [
    h(
      "header.end-head",
      h("h2", mood === "won" ? "You win!" : mood === "lost" ? "Game over — you lost" : "Game over"),
      h("button.icon.subtle.end-close", { onclick: () => close(frame, opts), title: "Close the results", "aria-label": "Close the results" }, "×"),
    ),
    h("p.end-summary", standings.summary),
    h("ol.standings", standings.rows.map((row) => standingRow(row, frame, opts, standings.points !== false))),
    offerLine(frame),
    h(
      "div.end-buttons",
      ask,
      h("button.replay-start", { onclick: () => opts.replay() }, "Watch the replay"),
      h("a.button.end-lobby", { href: "/" }, "Lobby"),
    ),
    refused,
  ];
  box.append(...parts.filter(Boolean));
}

function standingRow(row, frame, opts, points = true) {
  const you = row.seat === frame.you;
  // a race (Candle Quest's basic game): how far each got (the note) and how the winner won, no numbers
  const race = () => (row.parts.length ? h("ul.parts", row.parts.map((part) => h("li.part", h("span.part-source", part.source)))) : null);
  const parts = !points
    ? race()
    : row.parts.length
    ? h(
        "ul.parts",
        row.parts.map((part) =>
          h("li.part", { dataset: { points: String(part.points) } }, h("span.part-source", part.source), h("span.part-points", signed(part.points))),
        ),
        row.parts.length > 1 ? h("li.part-total", h("span.part-source", "Total"), h("span.part-points", number(row.score))) : null,
      )
    : h("p.no-parts", "No points scored");
  return h(
    `li.standing${row.winner ? ".winner" : ""}${you ? ".you" : ""}`,
    { dataset: { seat: String(row.seat), rank: String(row.rank), score: String(row.score) } },
    h("span.place", { title: `Place ${row.rank}` }, ordinal(row.rank)),
    h(
      "div.who",
      h("span.name", opts.label(row.seat)),
      row.winner ? h("span.crown", { title: "Winner" }, "★ winner") : null,
      row.note ? h("span.note", row.note) : null,
    ),
    points ? h("span.score", number(row.score)) : null,
    parts,
  );
}

function offerLine(frame) {
  const offer = frame.rematch;
  if (!offer || offer.mine) return null;
  if (frame.you === null) return h("p.offer", `${offer.by} started a rematch.`);
  return h("p.offer", `${offer.by} offers a rematch at the same table.`);
}

function rematchLabel(frame) {
  const offer = frame.rematch;
  if (!offer) return "Rematch";
  return offer.mine ? "Go to the rematch" : "Join the rematch";
}

function watchRematch(frame) {
  const offer = frame.rematch;
  return offer ? h("a.button.primary.rematch", { href: `/g/${encodeURIComponent(offer.id)}` }, "Watch the rematch") : null;
}

async function rematch(frame, opts) {
  if (asking) return;
  const offer = frame.rematch;
  if (offer && offer.mine) {
    location.href = `/g/${encodeURIComponent(offer.id)}`;
    return;
  }
  asking = true;
  refusal = null;
  try {
    const answer = await api(`/api/games/${encodeURIComponent(opts.gameId)}/rematch`, { method: "POST", token: opts.token });
    if (answer.token) {
      remember(answer.id, { seat: answer.seat, token: answer.token, title: frame.game.title, created: Date.now() });
      location.href = `/g/${encodeURIComponent(answer.id)}`;
    } else if (answer.invite) {
      location.href = joinLink(answer.id, answer.seat, answer.invite);
    } else {
      location.href = `/g/${encodeURIComponent(answer.id)}`;
    }
  } catch (err) {
    refusal = err;
    render(frame, opts);
    const line = document.querySelector("#endscreen .request-error");
    if (line) showRefusal(line, err);
  } finally {
    asking = false;
  }
}

function close(frame, opts) {
  closed = true;
  render(frame, opts);
}

function reopen(frame, opts) {
  closed = false;
  render(frame, opts);
}

function fallback(frame) {
  // A server without standings: the scores alone, best first.
  const scores = (frame.result && frame.result.scores) || [];
  const winners = (frame.result && frame.result.winners) || [];
  const order = scores.map((score, seat) => ({ seat, score })).sort((a, b) => b.score - a.score);
  const rows = [];
  order.forEach((row, i) => {
    const rank = i && order[i - 1].score === row.score ? rows[i - 1].rank : i + 1;
    rows.push({ ...row, rank, parts: [{ source: "Score", points: row.score }], winner: winners.includes(row.seat), note: "" });
  });
  return { summary: "", rows };
}

function number(points) {
  return Number.isInteger(points) ? String(points) : String(Math.round(points * 100) / 100);
}

function signed(points) {
  return points < 0 ? `−${number(-points)}` : number(points);
}

function ordinal(n) {
  const tail = n % 100 > 10 && n % 100 < 14 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${tail}`;
}
