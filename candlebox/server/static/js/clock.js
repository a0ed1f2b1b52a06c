// Clocks (issue 35; docs/server.md, "Clocks"): each seat's clock above the table, counted down here
// between frames from the server's figure (the server keeps the time; this only draws it), low time
// marked, a turn-based clock in days and hours ("2 d 4 h left"); a seat out of time shows the other
// players a button to hand it to its bot. And the lobby's choice of a clock for a new table.

import { api } from "./api.js";
import { clear, h, toast } from "./ui.js";

const LOW_SHARE = 0.1; // a clock with less than this share of its time left is marked low
const LOW_SECONDS = 20; // … or a realtime clock under this many seconds

const shown = {
  box: null,
  frame: null,
  at: 0, // performance.now() when the frame's figures were received
  timer: null,
  key: "", // what the strip's structure shows (rebuilt only when it changes: focus stays put)
  gameId: null,
  token: null,
};

/** After every frame: draw the clocks of ``frame`` (a game without a clock: nothing). */
export function show(box, frame, gameId, token) {
  Object.assign(shown, { box, frame, at: performance.now(), gameId, token });
  const clocks = frame.clocks || [];
  box.hidden = !frame.clock || !clocks.length;
  if (box.hidden) {
    stop();
    return;
  }
  const key = JSON.stringify([frame.clock, frame.you, frame.over, clocks.map((c) => [c.running, c.out_of_time]), frame.seats.map((s) => [s.name, s.kind])]);
  if (key !== shown.key) {
    shown.key = key;
    build();
  }
  tick();
  const running = clocks.some((c) => c.running) && !frame.over;
  if (running && shown.timer === null) shown.timer = setInterval(tick, 250);
  if (!running) stop();
}

function stop() {
  if (shown.timer !== null) clearInterval(shown.timer);
  shown.timer = null;
}

function build() {
  const { frame, box } = shown;
  clear(box);
  const turnBased = frame.clock.mode === "turn-based";
  box.append(h("span.clock-kind", { title: describe(frame.clock) }, turnBased ? `${span(frame.clock.per_move)} a move` : "Clocks"));
  for (const clock of frame.clocks) {
    const seat = frame.seats[clock.seat] || { name: `Seat ${clock.seat + 1}`, kind: "human" };
    const mine = clock.seat === frame.you;
    const item = h("div.clock", {
      class: [clock.running ? "running" : "", clock.out_of_time ? "out" : "", mine ? "mine" : ""].filter(Boolean).join(" "),
      dataset: { seat: String(clock.seat) },
    });
    const name = h("span.clock-name", mine ? `${seat.name} (you)` : seat.name);
    const time = h("span.clock-time", { dataset: { seat: String(clock.seat) } });
    item.append(name, time);
    // out of time: the others (never the seat itself, nor a spectator) may hand it to its bot
    if (clock.out_of_time && frame.you !== null && !mine && !frame.over) {
      const label = frame.game && frame.game.rated ? "Claim the win on time" : "Hand to its bot";
      const button = h("button.small", { type: "button", title: `${seat.name} is out of time` }, label);
      button.addEventListener("click", () => timeOut(clock.seat, button));
      item.append(button);
    }
    box.append(item);
  }
}

/** The time left of each clock now: the server's figure less the time since it was received. */
function tick() {
  const { frame, box } = shown;
  if (!frame || !box) return;
  const gone = (performance.now() - shown.at) / 1000;
  for (const clock of frame.clocks) {
    const left = clock.running && !frame.over ? Math.max(0, clock.remaining - gone) : clock.remaining;
    const time = box.querySelector(`.clock-time[data-seat="${clock.seat}"]`);
    if (!time) continue;
    // a turn-based clock that waits shows the time its seat's next move will have, not "left"
    const days = clock.running ? `${span(left)} left` : span(left);
    const text = clock.out_of_time || left <= 0 ? "out of time" : frame.clock.mode === "turn-based" ? days : digits(left);
    if (time.textContent !== text) time.textContent = text;
    time.parentElement.classList.toggle("low", !clock.out_of_time && low(frame.clock, left));
  }
}

function low(config, left) {
  const whole = config.mode === "turn-based" ? config.per_move : config.initial;
  return left < whole * LOW_SHARE || (config.mode === "realtime" && left < LOW_SECONDS);
}

/** Realtime: "4:05", "1:02:09". */
export function digits(seconds) {
  const whole = Math.ceil(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = String(whole % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
}

/** Turn-based: "2 d 4 h", "3 h 5 min", "12 min", "40 s". */
export function span(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  const days = Math.floor(whole / 86400);
  const hours = Math.floor((whole % 86400) / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  if (days) return hours ? `${days} d ${hours} h` : `${days} d`;
  if (hours) return minutes ? `${hours} h ${minutes} min` : `${hours} h`;
  if (minutes) return `${minutes} min`;
  return `${whole} s`;
}

function describe(config) {
  if (config.mode === "turn-based") return `Turn-based: ${span(config.per_move)} for each move`;
  const plus = config.increment ? ` + ${config.increment} s a move` : "";
  return `Realtime: ${span(config.initial)} each${plus}`;
}

async function timeOut(seat, button) {
  button.disabled = true;
  try {
    const done = await api(`/api/games/${encodeURIComponent(shown.gameId)}/seats/${seat}/timeout`, { method: "POST", token: shown.token });
    toast(done.status === "lost-on-time" ? "The seat lost on time; the game is over." : "A bot plays that seat now.");
  } catch (err) {
    toast(err.message, "error");
    button.disabled = false;
  }
}

// ----------------------------------------------------------------------------- the lobby's choice
// none by default (friends, learning); the server checks the limits and names what is wrong
export const CHOICES = [
  ["", "No clock", null],
  ["rt-5", "Realtime · 5 min + 5 s", { mode: "realtime", initial: 300, increment: 5 }],
  ["rt-15", "Realtime · 15 min + 10 s", { mode: "realtime", initial: 900, increment: 10 }],
  ["rt-60", "Realtime · 1 h", { mode: "realtime", initial: 3600, increment: 0 }],
  ["tb-12", "Turn-based · 12 h a move", { mode: "turn-based", per_move: 12 * 3600 }],
  ["tb-24", "Turn-based · 24 h a move", { mode: "turn-based", per_move: 24 * 3600 }],
  ["tb-72", "Turn-based · 72 h a move", { mode: "turn-based", per_move: 72 * 3600 }],
];

/** The clock a choice stands for (null: none). */
export function clockOf(choice) {
  const found = CHOICES.find(([value]) => value === choice);
  return found ? found[2] : null;
}

/** The lobby form's row: a select, compact on a phone. */
export function clockRow(current, onchange) {
  const select = h("select", { id: "clock", onchange: (e) => onchange(e.target.value) },
    CHOICES.map(([value, label]) => h("option", { value, selected: value === current }, label)));
  return h("div.form-row", h("label", { htmlFor: "clock" }, "Clock"), select,
    h("span.note", "a seat out of time may be handed to its bot by the others"));
}
