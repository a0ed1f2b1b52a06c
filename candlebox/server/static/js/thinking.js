// While a bot decides, the banner shows a spinner with its name, level and time budget (the most
// its decision takes: the bot's own thinking time or the table's bot delay, from the server's frame).

import { h } from "./ui.js";

// The opponent levels by the names the server sends (each game's own ladder, weakest first).
export const LEVELS = { beginner: "Beginner bot", easy: "Easy bot", medium: "Medium bot", hard: "Hard bot" };

/** A bot seat's name for players: its level ("Hard bot"), else the bot's own name. */
export function botName(seat) {
  return LEVELS[seat.level] || `${seat.bot} bot`;
}

/** How long the wait may last: "up to 8 s", or "just a moment" under a second. */
function howLong(value) {
  if (value < 1) return "just a moment";
  const shown = Math.round(value * 10) / 10;
  return `up to ${shown} s`;
}

/** The bots the game waits for now (none once it is over or while replaying). */
export function thinkingBots(frame, replaying) {
  if (!frame || frame.over || replaying) return [];
  const waiting = (frame.view.pending && frame.view.pending.seats) || [];
  return frame.seats.filter((s) => s.kind === "bot" && waiting.includes(s.seat));
}

/** The spinner line for the banner, or null when no bot is thinking. */
export function thinkingNote(frame, replaying) {
  const bots = thinkingBots(frame, replaying);
  if (!bots.length) return null;
  const who = bots.map((s) => {
    return `${s.name} (${botName(s)})`;
  }).join(", ");
  const budget = Math.max(...bots.map((s) => s.budget || 0));
  return h("span.thinking", { dataset: { budget: String(budget) } },
    h("span.spinner", { "aria-hidden": "true" }),
    h("span.thinking-text", `${who} ${bots.length === 1 ? "is" : "are"} thinking… ${howLong(budget)}`));
}
