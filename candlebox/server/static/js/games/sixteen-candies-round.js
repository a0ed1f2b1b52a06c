// 16 Candies: the result of the round just scored, before the next deal is shown — each hand revealed
// (its top halves, what it makes, its penalty), the call (who called and whether it held), each
// player's gain or penalty and the pools after it. Built from the round's log entries (reveal, score,
// call, instant-win, out), with the server's own sentences as the detail; a player dismisses it
// ("Next deal"), a spectator of bots sees it for a few seconds.

import { h } from "../ui.js";
import { lookup } from "../words.js";

// its stylesheet: loaded with the board's (sixteen-candies.js's css), before the board is drawn
export const CSS = "/static/css/games/sixteen-candies-round.css";
const KEY = "candlebox.sc-round."; // + game id: the last round result dismissed (this tab)
const SPECTATOR_SECONDS = 5;
let timer = null;

/** A hand's worth in words, "9 Chocolate"; one in the singular as its half's own words say it
 * ("1 Gummy Bear", the half G1's name), never "1 Gummy Bears". */
function counted(value, candy, candies) {
  const one = value === 1 ? lookup(`${candy}1`) : null;
  return one ? one.name : `${value} ${candies[candy] || candy || ""}`;
}

/** The last scored round in the log: {round, caller, instant, rows: [{seat, reveal, score, out,
 * before}]}; ``before``: the seat's pool before the round (its last score, else ``startPool``), so
 * what it really paid or gained shows: a pool pays what it has (rulings SC-17), and a capped pool
 * gains up to its cap (SC-16). */
export function lastRound(log, startPool = null) {
  let end = -1;
  for (let i = log.length - 1; i >= 0; i--) {
    if (log[i].entry.event === "score") {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  let start = end;
  while (start > 0 && ["score", "reveal", "instant-win"].includes(log[start - 1].entry.event)) start--;
  const rows = new Map();
  const row = (seat) => rows.get(seat) || rows.set(seat, { seat }).get(seat);
  const instant = [];
  for (let i = start; i <= end; i++) {
    const { entry, text } = log[i];
    if (entry.event === "reveal") Object.assign(row(entry.seat), { reveal: entry, revealText: text });
    if (entry.event === "score") Object.assign(row(entry.seat), { score: entry, scoreText: text });
    if (entry.event === "instant-win") instant.push(entry.seat);
  }
  for (let i = end + 1; i < log.length && log[i].entry.event === "out"; i++) row(log[i].entry.seat).out = true;
  let round = 0;
  let caller = null;
  for (let i = start - 1; i >= 0; i--) {
    const e = log[i].entry;
    if (e.event === "call" && caller === null) caller = e.seat;
    if (e.event === "round") {
      round = e.round;
      break;
    }
  }
  const scored = [...rows.values()].filter((r) => r.score);
  for (const r of scored) {
    r.before = startPool;
    for (let i = start - 1; i >= 0; i--) {
      const e = log[i].entry;
      if (e.event === "score" && e.seat === r.seat) {
        r.before = e.pool;
        break;
      }
    }
  }
  return { round, caller, instant, rows: scored };
}

function dismissed(gameId) {
  return Number(sessionStorage.getItem(KEY + gameId) || 0);
}

function dismiss(ctx, round) {
  clearTimeout(timer);
  timer = null;
  sessionStorage.setItem(KEY + ctx.game.id, String(round));
  ctx.redraw();
}

/** The last scored round while its result is on show, or null (none scored yet, dismissed, or a
 * replay). */
function showing(ctx) {
  if (ctx.replaying || !ctx.log) return null;
  const result = lastRound(ctx.log, (ctx.game.options || {}).pool ?? null);
  return result && result.round > dismissed(ctx.game.id) ? result : null;
}

/** The round whose result shows now (the panel below is up), or null. */
export function roundShowing(ctx) {
  const result = showing(ctx);
  return result ? result.round : null;
}

/** The panel for the round to show now, or null. */
export function roundPanel(ctx, drawHand) {
  const result = showing(ctx);
  if (!result) return null;
  const candies = ctx.facts.candies || {};
  const callerRow = result.rows.find((r) => r.seat === result.caller);
  // the hands it shows are the round's end, not the last move: none of them is marked as that move
  const panel = h("section.sc-round", { "aria-label": `Round ${result.round} result`, dataset: { round: String(result.round), last: "none" } });
  panel.append(h("h3", `Round ${result.round}: the hands are shown`));
  if (result.instant.length) {
    panel.append(h("p.sc-round-call", `${result.instant.map(ctx.name).join(" and ")} won the round instantly.`));
  }
  if (callerRow) {
    const held = callerRow.score.due > 0;
    panel.append(
      h(
        `p.sc-round-call.${held ? "held" : "failed"}`,
        `${ctx.name(result.caller)} called “I've got candy!” — `,
        h("b", held ? "the call held" : "the call failed"),
        ` (${rankWords(callerRow.score.rank)}).`,
      ),
    );
  } else if (!result.instant.length) {
    panel.append(h("p.sc-round-call", "Nobody called."));
  }
  const table = h("ol.sc-round-rows");
  for (const r of result.rows) {
    const { reveal, score } = r;
    const due = score.due;
    // what the pool really changed by; the amount due beside it when the pool could not take it all
    const paid = r.before === null || r.before === undefined ? due : score.pool - r.before;
    const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0");
    const change = paid === due ? signed(due) : `${signed(paid)} of ${Math.abs(due)}`;
    const tags = [];
    if (r.seat === result.caller) tags.push(h("span.sc-tag.caller", "called"));
    if (result.instant.includes(r.seat)) tags.push(h("span.sc-tag.instant", "instant win"));
    if (r.out) tags.push(h("span.sc-tag.out", "out of candy"));
    table.append(
      h(
        `li.sc-round-row${r.seat === ctx.you ? ".me" : ""}`,
        { dataset: { seat: String(r.seat), due: String(due), paid: String(paid), pool: String(score.pool) } },
        h("div.sc-round-who", h("b", ctx.label(r.seat)), ...tags),
        reveal ? drawHand(reveal) : null,
        reveal
          ? h(
              "div.sc-round-hand-value",
              {}, // no tooltip: the server's reveal line spelt the hand in codes ("G4 K5 H5"), drawn beside it
              `${counted(reveal.value, reveal.candy, candies)} · penalty ${reveal.penalty} · ${rankWords(score.rank)}`,
            )
          : null,
        h("div.sc-round-change", { class: due > 0 ? "gain" : due < 0 ? "loss" : "", title: r.scoreText || "" }, h("span.sc-round-due", change), h("span.sc-round-pool", `→ ${score.pool} in the pool`)),
      ),
    );
  }
  panel.append(table);
  const next = h("button.primary.sc-round-next", { dataset: { dismiss: "round" }, onclick: () => dismiss(ctx, result.round) }, ctx.over ? "See the board" : "Next deal");
  panel.append(h("div.sc-round-foot", next));
  if (ctx.you === null && !ctx.over) {
    panel.append(h("p.muted", `The next deal shows in ${SPECTATOR_SECONDS} seconds.`));
    clearTimeout(timer);
    timer = setTimeout(() => dismiss(ctx, result.round), SPECTATOR_SECONDS * 1000);
  }
  return panel;
}

function rankWords(rank) {
  return { highest: "highest hand", middle: "middle hand", lowest: "lowest hand", "all-tied": "every hand equal" }[rank] || String(rank);
}
