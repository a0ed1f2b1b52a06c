// The game page shell: connection, players, log, the list of legal actions and replays. The board
// itself is drawn by one module per game, js/games/<page>.js as the game's plug-in names it in
// /api/meta (js/games/generic.js for a game that has none yet). A module exports default {render(root, ctx), describe?(ctx), actionLabel?(action,
// ctx), decorate?(text, ctx), instruction?(ctx), css?}; see js/games/generic.js for the contract.

import { api, forget, joinLink, mySeat, remember } from "./api.js";
import { fieldErrors, showWho } from "./account.js";
import * as endscreen from "./endscreen.js";
import * as fairness from "./fairness.js";
import * as learn from "./learn.js";
import * as resign from "./resign.js";
import { readyForKeys } from "./keys.js";
import { botName, thinkingNote } from "./thinking.js";
import * as motion from "./motion.js";
import { instruction, markMoves } from "./moves.js";
import * as tooltips from "./tooltips.js";
import * as coach from "./hint.js";
import { clear, endMoveNotices, h, namedSeats, plural, seatWho, toast } from "./ui.js";
import * as words from "./words.js";
import { profileLink } from "./people.js";
import * as clock from "./clock.js";
import * as undo from "./undo.js";
import * as chat from "./chat.js";
import { keepRefusal, keptLine } from "./refusals.js";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const $ = (id) => document.getElementById(id);

const page = {
  meta: null, // /api/meta
  facts: {},
  module: null,
  held: null, // what the game's module holds the table on (its banner hook), or null
  frame: null, // the latest snapshot/update
  log: [], // [{entry, text}]
  token: null,
  seat: null,
  me: null, // the signed-in player (GET /api/me), or null: a guest
  socket: null,
  retry: 0,
  busy: false,
  refs: 0,
  replay: null, // {at, moves, frame} while replaying
  closed: false,
  refused: null, // the code of the last refusal of this socket (too many tabs), said once
  refusedRetry: null,
  keyboard: false, // the last input was a key (then focus moves bring the focused thing into view)
  inbox: Promise.resolve(), // messages are handled one after another, in order
};

// ----------------------------------------------------------------------------- start
async function start() {
  const mine = mySeat(gameId);
  if (mine && mine.token) {
    page.token = mine.token;
    page.seat = mine.seat;
  }
  // signed in, the session stands for the account's seat here too (another device: no seat link)
  showWho($("who")).then((me) => {
    page.me = me;
    if (me && page.frame) renderPlayers();
  });
  page.meta = await api("/api/meta").catch(() => ({ games: [], bots: [] }));
  const params = new URLSearchParams(location.search);
  const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
  if (invite) {
    const seat = Number(params.get("seat"));
    remember(gameId, { pendingInvite: { seat, invite } });
    history.replaceState(null, "", `${location.pathname}?seat=${seat}`); // keep the code out of view
  }
  followLog();
  learn.start(gameId); // rules inside the app: the rule bar and learn mode (learn.js)
  // words: the components' names for card faces, tooltips and log chips (issue 14)
  tooltips.install();
  words.load(gameId).then((ok) => {
    if (ok && page.frame) renderAll(true);
    document.body.dataset.words = ok ? "ready" : "missing"; // for tools and the browser tests
  });
  chat.start(gameId, () => page.token, () => page.frame); // the table chat (js/chat.js)
  connect();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible" || !$("link").classList.contains("refused")) return;
    clearTimeout(page.refusedRetry);
    connect();
  });
  $("all-actions").addEventListener("toggle", () => {
    localStorage.setItem("candlebox.listOpen", $("all-actions").open ? "1" : "0");
  });
  $("all-actions").open = localStorage.getItem("candlebox.listOpen") === "1";
}

async function loadModule(game) {
  if (page.module && page.module.id === game) return;
  // The game's plug-in names its board module (GameInfo.page); none: the generic board.
  const info = (page.meta.games || []).find((g) => g.id === game);
  const name = info ? info.page || "generic" : game;
  let mod;
  try {
    mod = (await import(`./games/${name}.js`)).default;
  } catch (err) {
    console.warn(`no page module ${name} for ${game}; using the generic board`, err);
    mod = (await import("./games/generic.js")).default;
  }
  if (mod.css && !document.querySelector(`link[data-game="${game}"]`)) {
    // wait for the board's stylesheets: a board drawn before them flashes bare, its targets the wrong
    // size (and a panel it shows later, such as 16 Candies' round result, is styled from its first paint)
    const loaded = [].concat(mod.css).map((href) => {
      const link = h("link", { rel: "stylesheet", href, dataset: { game } });
      const done = new Promise((ready) => {
        link.addEventListener("load", ready);
        link.addEventListener("error", ready);
        setTimeout(ready, 5000);
      });
      document.head.append(link);
      return done;
    });
    await Promise.all(loaded);
  }
  page.module = { id: game, ...mod };
  page.facts = info ? info.facts : {};
}

// ----------------------------------------------------------------------------- the socket
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(gameId)}`);
  page.socket = socket;
  setLink("connecting");
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify(page.token ? { type: "hello", token: page.token } : { type: "hello" }));
  });
  socket.addEventListener("message", (event) => {
    const msg = JSON.parse(event.data);
    page.inbox = page.inbox
      .then(() => receive(msg))
      .catch((err) => {
        console.error(err);
        // a board that could not be drawn (its module or stylesheet refused on the way) says so
        if (msg.type === "snapshot" && !page.frame) showBroken();
      });
  });
  socket.addEventListener("close", (event) => {
    if (page.socket !== socket) return;
    page.busy = false;
    if (event.code === 4403 && page.token) {
      toast("This browser's seat credential was refused; you are watching as a spectator.", "error");
      forget(gameId);
      page.token = null;
      page.seat = null;
    } else if (event.code === 4404) {
      setLink("gone");
      showMissing();
      return;
    } else if (event.code === 4429) {
      // refused: too many sockets from this seat or address (its error frame said which). Retrying
      // at the usual pace would only be refused again; try now and then, and at once when this tab
      // is looked at again (the player may have closed another tab).
      setLink("refused");
      page.refusedRetry = setTimeout(connect, 30000);
      return;
    }
    setLink("offline");
    const wait = Math.min(5000, 300 * 2 ** page.retry++);
    setTimeout(connect, wait);
  });
}

function send(message) {
  if (page.socket && page.socket.readyState === WebSocket.OPEN) {
    page.socket.send(JSON.stringify(message));
    return true;
  }
  return false;
}

function setLink(status) {
  const link = $("link");
  link.className = `link-status ${status}`;
  link.textContent = {
    connecting: "connecting…",
    live: "live",
    offline: "reconnecting…",
    refused: "too many tabs open",
    gone: "not found",
    replaying: "replay",
  }[status];
}

async function receive(msg) {
  if (msg.type === "snapshot") {
    page.retry = 0;
    page.refused = null;
    setLink("live");
    await loadModule(msg.game.game);
    page.frame = seen(msg, msg.legal);
    page.log = msg.log;
    page.busy = false;
    motion.lastMove(msg.log.slice(-2)); // words: the move that led here
    renderAll(true);
    if (await learn.ready(msg)) renderLog(page.log, true); // learn mode: the log with its reasons
    chat.snapshot(msg);
  } else if (msg.type === "chat") {
    if (page.frame) chat.received(msg);
  } else if (msg.type === "update") {
    if (!page.frame) return;
    if (msg.log_from !== page.log.length) {
      send({ type: "snapshot" }); // we missed something: start again from a snapshot
      return;
    }
    page.frame = seen({ ...page.frame, ...msg }, msg.legal);
    page.log = page.log.concat(msg.log);
    page.busy = false;
    if (msg.log.length) motion.lastMove(msg.log); // words: what just happened
    renderAll(false, msg.log);
    noticeBots(msg.log);
  } else if (msg.type === "seats") {
    if (!page.frame) return;
    const was = page.frame.botPlays;
    page.frame = seen({ ...page.frame, seats: msg.seats }, page.frame.sent);
    renderPlayers();
    // the seat handed to a bot or taken back: what is clickable changes with it
    if (was !== page.frame.botPlays) renderAll(false, []);
    else renderBanner();
  } else if (msg.type === "ack") {
    page.busy = false;
  } else if (msg.type === "error") {
    page.busy = false;
    // stale: the game moved on first; duplicate: a resent move already applied (the update shows it)
    // a refused socket is told why once, not again at every retry
    const repeated = msg.error.startsWith("too-many-") && msg.error === page.refused;
    if (msg.error.startsWith("too-many-")) page.refused = msg.error;
    if (msg.error !== "stale" && msg.error !== "duplicate" && !repeated) toast(msg.message, "error");
    if (msg.error === "illegal" || msg.error === "malformed-action") learn.refused(msg.message, page.frame);
    renderBoard();
  }
  // every seat's clock (issue 35): snapshots and updates carry them, and "seats" and "clocks" frames
  if (page.frame && msg.clocks) {
    page.frame = { ...page.frame, clock: msg.clock, clocks: msg.clocks };
    clock.show($("clocks"), page.frame, gameId, page.token);
  }
}

// A bot playing this browser's seat (handed over with "Let a bot play for me", at a timeout or as a
// stand-in for an absent player) makes its moves: the server still sends the seat's legal actions,
// but none is the player's to click until they take the seat back. ``sent`` keeps the server's list
// for the moment they do (a "seats" frame says so, with no new legal actions).
function seen(frame, sent) {
  const seat = frame.you !== null && frame.seats ? frame.seats[frame.you] : null;
  const botPlays = Boolean(seat && seat.kind === "bot" && !frame.over);
  return { ...frame, sent, legal: botPlays ? [] : sent, botPlays };
}

// ----------------------------------------------------------------------------- acting
function act(action) {
  if (page.busy || page.replay || !page.frame) return;
  if (!page.frame.legal.includes(action) && page.frame.you === null) {
    toast(`${action} is not legal now`, "error");
    return;
  } // a seat's refused move goes to the server, which answers in the engine's words (learn.refused)
  page.busy = true;
  const sent = send({ type: "move", action, expect: page.frame.move, ref: `m${++page.refs}` });
  if (!sent) {
    page.busy = false;
    toast("Not connected; reconnecting…", "error");
  }
  document.body.classList.add("busy");
  setTimeout(() => document.body.classList.remove("busy"), 150);
}

// ----------------------------------------------------------------------------- context for modules
function names() {
  const seats = (page.frame && page.frame.seats) || [];
  return seats.map((s) => s.name);
}

function context(frame) {
  const you = frame.you;
  const yourTurn = you !== null && frame.legal.length > 0 && !page.replay;
  return {
    view: frame.view,
    legal: page.replay ? [] : frame.legal,
    you,
    seats: frame.seats,
    names: names(),
    // in a replay "You" would read "You's turn": the seat's own name reads better there; while a bot
    // plays the seat, the moves made for it are the bot's ("Your bot's turn", "Your bot flipped …")
    name: (seat) => (seat === you && !page.replay ? (frame.botPlays ? "Your bot" : "You") : (frame.seats[seat] || {}).name || `Seat ${seat}`),
    botPlays: Boolean(frame.botPlays) && !page.replay, // a bot plays this seat for its player
    label: (seat) => ((frame.seats[seat] || {}).name || `Seat ${seat}`) + (seat === you ? " (you)" : ""),
    facts: page.facts,
    log: page.replay ? frame.log : page.log, // [{entry, text}] as this seat saw it (16 Candies' round panel)
    prompt: frame.prompt || "", // the pending decision in the game's words
    game: frame.game,
    over: frame.over,
    result: frame.result,
    replaying: Boolean(page.replay),
    yourTurn,
    busy: page.busy,
    act,
    redraw: () => (renderBoard(), renderBanner(), renderLearn()),
    // words: the pending decision and each legal action in words, from the server's frame
    prompt: page.replay ? "" : named(frame.prompt || ""),
    labelOf: (action) => labelOf(frame, action),
    plain: (text) => words.plain(named(text)),
    can: (action) => !page.replay && frame.legal.includes(action),
    toast,
  };
}

function currentFrame() {
  return page.replay ? page.replay.frame : page.frame;
}

// ----------------------------------------------------------------------------- rendering
function renderAll(full, added) {
  const frame = page.frame;
  const game = frame.game;
  document.body.dataset.move = String(frame.move); // for people's tools and the browser tests
  document.body.dataset.over = String(frame.over);
  document.title = `${game.title} · Candlebox`;
  $("title").textContent = game.title;
  const bits = [game.variant, `${game.players} players`];
  if (game.rated) bits.push("rated");
  if (frame.you !== null) bits.push(`you are ${frame.seats[frame.you].name}`);
  else bits.push("watching");
  $("subtitle").textContent = bits.join(" · ");
  renderBoard();
  renderBanner();
  renderLearn();
  renderPlayers();
  renderActions();
  if (full || frame.over) fairness.render(game, $("practice"), $("fairness"), gameId);
  if (!page.replay) renderLog(full ? page.log : added, full);
  renderReplayBar();
  // the coach panel: hints and the post-game review (js/hint.js)
  // a review's "See the table then": the replay, brought into view (on a phone the review is a
  // screen or two below the table)
  const replay = (at) => {
    replayTo(at);
    document.querySelector(".table-area").scrollIntoView({ behavior: "smooth", block: "start" });
  };
  coach.render({ gameId, token: page.token, frame, act, replaying: Boolean(page.replay), replay });
  renderEnd();
  undo.render(frame, { gameId, token: page.token, replaying: Boolean(page.replay) }); // take-backs
}

// The end screen (js/endscreen.js): standings with breakdowns, the winner and why, Rematch / Replay / Lobby.
function renderEnd() {
  const opts = { gameId, token: page.token, replaying: Boolean(page.replay), replay: () => replayTo(0) };
  endscreen.render(page.frame, { ...opts, label: context(page.frame).label });
  if (page.frame && page.frame.over && !page.replay) endMoveNotices(); // the end screen tells them now
}

function renderBoard() {
  const frame = currentFrame();
  if (!frame || !page.module) return;
  const board = $("board");
  board.classList.toggle("busy", page.busy);
  const active = document.activeElement;
  const hadFocus = !active || active === document.body || board.contains(active);
  const was = board.contains(active) ? placeOf(board, active) : null;
  // the module reads what the player did to the old board (a swipe whose scroll event has not
  // fired yet: a busy browser handles the next frame first) while it is still in the page
  if (page.module.leave) page.module.leave(board);
  motion.remember(board); // words: where the cards were, to slide them
  clear(board);
  try {
    page.module.render(board, context(frame));
  } catch (err) {
    console.error(err);
    board.append(h("p.problem", `The board could not be drawn (${err.message}); use the list of actions.`));
  }
  markMoves(board, context(frame).legal, !frame.over); // one mark on whatever makes a move, in every game
  readyForKeys(board);
  words.chipify(board); // words: any code left bare names itself on hover
  motion.settle(board);
  // the game is over: nothing on the table offers itself any more, not even the last move's mark
  // (a newcomer read its old dashed ring on the discard pile as "click here" once the game had ended)
  if (frame.over && !page.replay) motion.unmarkLast(board);
  tooltips.refresh();
  if (hadFocus && !focusDecision(board) && was) refocus(board, was);
}

// Where the focused element sits on the board, to find its twin after a redraw: a redraw with nothing
// for this seat to decide (a bot's move, say) keeps a keyboard player's place instead of dropping the
// focus to the page.
function placeOf(board, el) {
  const selector = el.dataset.code ? `[data-code="${CSS.escape(el.dataset.code)}"]` : el.tagName.toLowerCase();
  return { selector, index: [...board.querySelectorAll(selector)].indexOf(el) };
}

function refocus(board, was) {
  const twin = board.querySelectorAll(was.selector)[was.index];
  if (twin && twin.tabIndex >= 0) twin.focus({ preventScroll: true });
}

// After every move the focus goes to the next thing to decide (a glowing target or the decision's
// first button), not back to the page: a keyboard player goes on with Enter, or Tab to the next one.
const DECISION = [
  "[data-focus]",
  "button.primary[data-action]:not(:disabled)",
  "[data-action]:not(:disabled)",
  "[data-choices]",
  "button.primary:not(:disabled)",
];

function focusDecision(board) {
  if (page.replay || !page.frame || page.frame.over || !page.frame.legal.length) return false;
  for (const selector of DECISION) {
    const target = board.querySelector(selector);
    if (target) {
      target.focus({ preventScroll: !page.keyboard });
      return true;
    }
  }
  return false;
}

/** The rule bar and learn mode's panel, after the banner (whose ``page.held`` it reads). */
function renderLearn() {
  learn.render(currentFrame(), { token: page.token, act, replaying: Boolean(page.replay), held: page.held });
}

function renderBanner() {
  const frame = currentFrame();
  if (!frame) return;
  const ctx = context(frame);
  const banner = $("banner");
  clear(banner);
  let text;
  let mood = "wait";
  if (frame.over) {
    const winners = (frame.result && frame.result.winners) || [];
    text = winners.length
      ? `Game over: ${winners.map(ctx.name).join(" and ")} ${winners.length === 1 && winners[0] !== frame.you ? "wins" : "win"}!`
      : "Game over: nobody wins.";
    // a table of bots only, stopped by its creator or its time limit: the server's words say which
    if (frame.result && frame.result.stopped) text = `Game over: ${frame.result.message}.`;
    // a rated seat out of time (issue 35): the banner says so, not merely who won
    const late = frame.result ? frame.result.out_of_time : null;
    if (late !== null && late !== undefined) text = `Game over: ${late === frame.you ? "you" : ctx.name(late)} ran out of time. ${text.replace(/^Game over: /, "")}`;
    // ended by a seat that resigned (or ran out of time at a rated table): who, first (rulings EG-1)
    const left = frame.result ? frame.result.resigned : null;
    if (typeof left === "number") {
      const why = frame.result.out_of_time === left ? "ran out of time" : "resigned";
      const verb = winners.length === 1 && winners[0] !== frame.you ? "wins" : "win";
      text = `Game over: ${ctx.name(left)} ${why}, so ${winners.map(ctx.name).join(" and ")} ${verb}.`;
    }
    mood = winners.includes(frame.you) ? "won" : "over";
  } else if ((ctx.yourTurn && ctx.prompt) || (page.module.describe && page.module.describe(ctx)) || ctx.prompt) {
    // words: the engine's prompt for the seat to act; a module's describe() only for the others
    text = (ctx.yourTurn && ctx.prompt) || (page.module.describe && page.module.describe(ctx)) || ctx.prompt;
    mood = ctx.yourTurn ? "turn" : "wait";
  } else {
    const seats = (frame.view.pending && frame.view.pending.seats) || [];
    text = ctx.yourTurn ? "Your turn." : `Waiting for ${seats.map(ctx.name).join(", ")}…`;
    mood = ctx.yourTurn ? "turn" : "wait";
  }
  // a module may hold the table on something of its own first (16 Candies: a round's result)
  const held = !frame.over && !page.replay && page.module.banner ? page.module.banner(ctx) : null;
  page.held = held; // learn mode explains the decision only once the table shows it (learn.js)
  if (held) {
    text = held;
    mood = "wait";
  }
  const waitingFor = (frame.view.pending && frame.view.pending.seats) || [];
  const empty = frame.seats.filter((s) => waitingFor.includes(s.seat) && s.kind === "human" && !s.taken);
  if (!frame.over && !page.replay && empty.length) {
    // nobody sits there yet: say so rather than "Player 2 is taking a turn…"
    text = `Waiting for ${empty.map((s) => s.name).join(" and ")} to join: send the join link (Players, on the right).`;
    mood = "wait";
  }
  // the seat handed to a bot: it is the bot's to play, and nothing is for the player to click
  const standIn = !frame.over && !page.replay && frame.botPlays;
  if (standIn) {
    text = `A bot is playing for you (${botName(frame.seats[frame.you])}).`;
    mood = "wait";
  }
  if (page.replay) {
    text = `Replay · move ${page.replay.at} of ${page.replay.moves}` + (frame.over ? ` · ${text}` : "");
    mood = "replay";
  }
  banner.className = `banner ${mood}`;
  banner.append(words.chipify(h("span.banner-text", text)));
  // what to click, in one line (moves.js), under the decision in the game's words
  const how = empty.length || standIn ? "" : instruction(page.module, ctx, Boolean(held));
  if (how) banner.append(h("span.banner-how", how));
  if (standIn) banner.append(takeBackLine(frame.you));
  const thinking = empty.length ? null : thinkingNote(frame, page.replay);
  if (thinking) banner.append(thinking);
}

/** Under "A bot is playing for you": how to play again, with the button that does it. */
function takeBackLine(seat) {
  return h(
    "span.banner-how.banner-take-back",
    "To play your own moves again: ",
    ...withRefusal(h("button.small", { type: "button", onclick: () => takeBack(seat, "back-banner") }, "Take my seat back"), `back-banner:${seat}`),
  );
}

/** ``button`` and the line of its refusal (kept under ``key`` across the redraws of its panel). */
function withRefusal(button, key) {
  return [button, keptLine(key, button)];
}

// What the players' tools ask the server for a seat (its refusal's key): take it, hand it to a bot,
// take it back. A refusal whose button is gone (the seat taken meanwhile) is still shown in its row.
const SEAT_ASKS = ["claim", "bot", "back"];

function renderPlayers() {
  // an invitation being typed keeps the focus, its text and its refusal across the redraw
  const typing = document.activeElement && document.activeElement.closest(".invite-friend") ? document.activeElement.id : null;
  const kept = [...document.querySelectorAll(".invite-friend")].map((f) => [f.dataset.seat, f]);
  drawPlayers();
  for (const [seat, old] of kept) {
    const form = document.querySelector(`.invite-friend[data-seat="${seat}"]`);
    if (!form) continue;
    const fresh = [...form.querySelectorAll(".field-error")];
    [...old.querySelectorAll(".field-error")].forEach((line, i) => {
      if (!fresh[i]) return;
      fresh[i].textContent = line.textContent;
      fresh[i].hidden = line.hidden;
    });
    const input = form.querySelector("input");
    for (const name of ["aria-invalid", "aria-describedby"]) {
      const value = old.querySelector("input").getAttribute(name);
      if (value) input.setAttribute(name, value);
    }
  }
  if (typing && document.getElementById(typing)) document.getElementById(typing).focus();
}

function drawPlayers() {
  const frame = page.frame;
  const box = clear($("players"));
  const you = frame.you;
  const mine = mySeat(gameId) || {};
  const pendingSeats = (frame.view.pending && frame.view.pending.seats) || [];
  let invited = null;
  for (const seat of frame.seats) {
    const row = h("div.player", { class: seat.seat === you ? "you" : "" });
    row.classList.toggle("to-act", pendingSeats.includes(seat.seat) && !frame.over);
    const dot = h("span.presence", {
      class: seat.kind === "bot" ? "bot" : seat.connected ? "on" : "off",
      title: seat.kind === "bot" ? "a bot" : seat.connected ? "connected" : "not connected",
    });
    const label = seat.seat === you ? `${seat.name} (you)` : seat.name;
    // a signed-in player's name leads to their profile (issue 34)
    const named = seat.account ? h("a", { href: profileLink(seat.name), title: `${seat.name}'s profile` }, label) : label;
    row.append(dot, h("span.player-name", named));
    if (seat.kind === "bot") {
      row.append(h("span.tag", botName(seat)));
    } else if (!seat.taken) {
      row.append(h("span.tag.open", "open seat"));
    }
    // every hint the coach gave is on the table's record, for everyone to see
    if (seat.hints) {
      row.append(h("span.tag.hints", { title: "Hints the coach gave this seat" }, `${seat.hints} ${seat.hints === 1 ? "hint" : "hints"}`));
    }
    box.append(row);
    const tools = h("div.player-tools");
    const drawn = new Set(); // the asks whose button is drawn (SEAT_ASKS)
    if (!frame.over) {
      if (!seat.taken && you === null) {
        const invite = mine.pendingInvite && mine.pendingInvite.seat === seat.seat ? mine.pendingInvite.invite : null;
        if (invite) invited = seat.seat;
        else if (frame.game.public) tools.append(joinForm(seat.seat, null));
        drawn.add("claim");
      }
      if (!seat.taken && mine.invites && mine.invites[seat.seat] !== undefined) {
        const link = joinLink(gameId, seat.seat, mine.invites[seat.seat]);
        const button = h("button.small", { title: link }, "Copy join link");
        button.addEventListener("click", () => copy(link, button));
        tools.append(button);
      }
      if (!seat.taken && seat.kind === "human" && you !== null && page.me) tools.append(inviteFriend(seat.seat));
      if (you !== null && seat.kind === "human") {
        const away = seat.away !== null && seat.away >= frame.game.zombie_after;
        if (seat.seat === you) {
          tools.append(...withRefusal(h("button.small.subtle", { onclick: () => toBot(seat.seat) }, "Let a bot play for me"), `bot:${seat.seat}`));
          drawn.add("bot");
          tools.append(...resign.controls({ gameId, token: page.token, redraw: renderPlayers }));
        } else if (!seat.taken || (away && !seat.connected)) {
          tools.append(...withRefusal(h("button.small", { onclick: () => toBot(seat.seat) }, "Hand this seat to a bot"), `bot:${seat.seat}`));
          drawn.add("bot");
        }
      }
      if (seat.kind === "bot" && seat.seat === (page.seat ?? you) && (page.token || page.me)) {
        tools.append(...withRefusal(h("button.small", { onclick: () => takeBack(seat.seat, "back") }, "Take my seat back"), `back:${seat.seat}`));
        drawn.add("back");
      }
    }
    for (const ask of SEAT_ASKS.filter((a) => !drawn.has(a))) {
      const line = keptLine(`${ask}:${seat.seat}`);
      if (line) tools.append(line);
    }
    if (tools.childNodes.length) box.append(tools);
  }
  renderInvite(invited, mine);
  if (you === null && !frame.over && invited === null) {
    box.append(h("p.note", "You are watching. Hidden cards stay hidden from spectators."));
  }
}

/** Opened from a join link: the invitation is the first thing on the page, above the table. */
function renderInvite(seat, mine) {
  let card = $("invite");
  if (seat === null) {
    if (card) card.remove();
    return;
  }
  if (!card) {
    card = h("section.invite-card", { id: "invite", "aria-labelledby": "invite-title" });
    $("banner").after(card);
  }
  clear(card);
  const host = page.frame.seats.find((s) => s.taken && s.kind === "human");
  card.append(
    h("h2", { id: "invite-title" }, `You are invited to play ${page.frame.game.title}`),
    h("p", `${host ? `${host.name} keeps seat ${seat + 1} for you. ` : ""}Choose a name and take the seat.`),
    joinForm(seat, mine.pendingInvite.invite),
  );
}

function joinForm(seat, invite) {
  const input = h("input.name-input", {
    type: "text",
    maxLength: 40,
    placeholder: "Your name",
    value: localStorage.getItem("candlebox.name") || "",
    "aria-label": "Your name",
  });
  const button = h("button.primary.small", { type: "submit" }, `Take this seat`);
  const key = `claim:${seat}`;
  return h(
    "form.join",
    {
      onsubmit: async (event) => {
        event.preventDefault();
        button.disabled = true;
        const name = input.value.trim();
        if (name) localStorage.setItem("candlebox.name", name);
        keepRefusal(key, null);
        try {
          const result = await api(`/api/games/${encodeURIComponent(gameId)}/seats/${seat}/claim`, {
            method: "POST",
            body: { name: name || undefined, invite: invite || undefined },
          });
          remember(gameId, { seat, token: result.token, title: page.frame.game.title, pendingInvite: null });
          page.token = result.token;
          page.seat = seat;
          page.socket.close();
        } catch (err) {
          keepRefusal(key, err); // under the button, and in the seat's row if the seat is gone
          renderPlayers();
        }
      },
    },
    input,
    button,
    keptLine(key, button),
  );
}

/** "Invite a friend": a player's name, invited into this open seat (it waits in their "Your games"). */
const inviteDrafts = new Map(); // seat -> the name being typed (kept across the players' redraws)

function inviteFriend(seat) {
  const id = `invite-name-${seat}`;
  const input = h("input", { id, type: "text", maxLength: 100, autocomplete: "off", placeholder: "Friend's name", value: inviteDrafts.get(seat) || "",
    "aria-label": `Invite a friend to seat ${seat + 1}: their name`, oninput: (e) => inviteDrafts.set(seat, e.target.value) });
  const button = h("button.small", { type: "submit" }, "Invite a friend");
  const form = h("form.invite-friend", { noValidate: true, dataset: { seat } }, input, button);
  const errors = fieldErrors(form, { name: input });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    errors.clear();
    button.disabled = true;
    try {
      const done = await api(`/api/games/${encodeURIComponent(gameId)}/seats/${seat}/invite`, {
        method: "POST",
        token: page.token,
        body: { name: input.value },
      });
      inviteDrafts.delete(seat);
      input.value = "";
      toast(`${done.invited} is invited to seat ${seat + 1}.`);
    } catch (err) {
      errors.show(err);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

async function toBot(seat) {
  keepRefusal(`bot:${seat}`, null);
  try {
    await api(`/api/games/${encodeURIComponent(gameId)}/seats/${seat}/bot`, {
      method: "POST",
      token: page.token,
      body: { bot: "heuristic", strength: 1.0 },
    });
    toast(seat === page.seat ? "A bot plays for you now; you can take your seat back." : "A bot plays that seat now.");
  } catch (err) {
    refusedBeside(`bot:${seat}`, err);
  }
}

/** Take the seat back from its bot; ``place``: the button's (the banner's, or the players'). */
async function takeBack(seat, place) {
  keepRefusal(`${place}:${seat}`, null);
  try {
    await api(`/api/games/${encodeURIComponent(gameId)}/seats/${seat}/human`, { method: "POST", token: page.token });
    toast("Your seat is yours again.");
  } catch (err) {
    refusedBeside(`${place}:${seat}`, err);
  }
}

/** A refusal of the players' tools or the banner's button: kept and drawn beside its button. */
function refusedBeside(key, err) {
  keepRefusal(key, err);
  renderPlayers();
  renderBanner();
}

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = "Copied ✓";
    setTimeout(() => (button.textContent = "Copy join link"), 2500);
    toast("Join link copied. Send it to the friend who takes that seat.");
  } catch {
    // no clipboard (an insecure page, a refused permission): show the link, selected, to copy by hand
    const field = h("input.join-link", { type: "text", readOnly: true, value: text, "aria-label": "Join link" });
    button.replaceWith(field);
    field.focus();
    field.select();
    toast("Copy the join link from the box and send it to your friend.");
  }
}

// The fallback: every legal action as a button; long runs of "verb N" become a number and a button.
function renderActions() {
  const frame = currentFrame();
  const box = clear($("actions"));
  const legal = page.replay ? [] : frame.legal;
  $("action-count").textContent = legal.length ? `(${legal.length})` : "";
  if (!legal.length) {
    const note = frame.you === null ? "Spectators only watch." : frame.botPlays ? "A bot is playing for you." : "Nothing to do right now.";
    box.append(h("p.note", note));
    return;
  }
  const ctx = context(frame);
  const groups = new Map();
  for (const action of legal) {
    const match = /^(\S+) (\d+)$/.exec(action);
    if (match) {
      if (!groups.has(match[1])) groups.set(match[1], []);
      groups.get(match[1]).push(Number(match[2]));
    } else {
      groups.set(action, null);
    }
  }
  for (const [verb, numbers] of groups) {
    if (numbers === null || numbers.length <= 6) {
      for (const action of numbers === null ? [verb] : numbers.map((n) => `${verb} ${n}`)) {
        const label = ctx.labelOf(action) || (page.module.actionLabel ? page.module.actionLabel(action, ctx) : action);
        box.append(h("button.action", { onclick: () => act(action), dataset: { action }, title: `In the game's notation: ${action}` }, label));
      }
    } else {
      const input = h("input", {
        type: "number",
        min: Math.min(...numbers),
        max: Math.max(...numbers),
        value: Math.min(...numbers),
        "aria-label": `${verb} amount`,
      });
      box.append(
        h(
          "form.action-number",
          { onsubmit: (e) => (e.preventDefault(), act(`${verb} ${input.value}`)) },
          h("button.action", { type: "submit" }, verb),
          input,
          h("span.note", `${Math.min(...numbers)}–${Math.max(...numbers)}`),
        ),
      );
    }
  }
}

// The log follows its newest entry unless the player scrolls up to read older ones: told by the
// direction of their scroll, not by where the log stands when entries come. Measured then (or in
// the scroll's own event), a log made shorter by the panels a game's end adds beside it (the review,
// the fair shuffle) was no longer at its foot, and at 1920x1080 it stopped at turn 4 of a game that
// went on to turn 8.
let logFollows = true;
let logTop = 0; // the log's scroll at its last scroll event or move to its foot

function logToFoot(list) {
  list.scrollTop = list.scrollHeight;
  logTop = list.scrollTop;
}

/** The player's scroll of the log since the last look: also called before the log moves itself, as
 * a scroll's event comes only at the next frame and entries may come first. */
function logScrolled(list) {
  if (list.scrollHeight - list.scrollTop - list.clientHeight < 40) logFollows = true;
  else if (list.scrollTop < logTop - 1) logFollows = false;
  logTop = list.scrollTop;
}

function followLog() {
  const list = $("log");
  list.addEventListener("scroll", () => logScrolled(list), { passive: true });
  // a log made shorter or taller keeps its foot in view while it follows (no scroll event comes)
  if (typeof ResizeObserver === "function") {
    new ResizeObserver(() => {
      logScrolled(list);
      if (logFollows) logToFoot(list);
    }).observe(list);
  }
}

function renderLog(entries, full) {
  const list = $("log");
  const frame = currentFrame();
  const ctx = context(frame);
  logScrolled(list);
  if (full) clear(list);
  for (const item of entries) {
    const li = h("li", { class: `ev-${item.entry.event}` });
    if (page.module.decorate) li.append(page.module.decorate(item.text, ctx, item.entry));
    else li.append(decorateSeats(item.text, ctx));
    learn.annotate(li, item, frame);
    words.chipify(li); // words: codes name themselves on hover
    list.append(li);
  }
  if (full) logFollows = true;
  if (logFollows) logToFoot(list);
}

/** "seat 2" in a log line becomes the player's name. */
export function decorateSeats(text, ctx) {
  const out = document.createDocumentFragment();
  let last = 0;
  for (const match of text.matchAll(/\bseats? (\d+)\b('s)?/gi)) {
    out.append(text.slice(last, match.index));
    out.append(seatWho(ctx, Number(match[1]), Boolean(match[2]), match.index === 0));
    last = match.index + match[0].length;
  }
  out.append(text.slice(last));
  return out;
}

// ----------------------------------------------------------------------------- words (issue 14)
/** "seat 2" in a sentence from the server becomes the player's name (ui.namedSeats). */
function named(text) {
  return namedSeats(page.frame, text);
}

/** The server's label of a legal action (the frame's labels are in the order of its legal actions),
 * its codes as words ("Buy Red candle (value 7) (R7)" reads "Buy Red candle (value 7)"). */
function labelOf(frame, action) {
  const at = (frame.legal || []).indexOf(action);
  return at >= 0 && frame.labels ? words.plain(named(frame.labels[at] || "")) : "";
}

/** A brief notice for each move a bot made ("Taper buys Red candle (value 5)"). */
function noticeBots(entries) {
  const seats = (page.frame && page.frame.seats) || [];
  for (const item of entries) {
    const seat = item.entry.seat;
    // a bot playing this browser's seat is noticed too: its player sees what it did for them
    if (typeof seat !== "number" || !seats[seat] || seats[seat].kind !== "bot") continue;
    if (item.entry.event === "end-turn") continue; // the turn's end is no move of its own
    motion.notice(named(item.text));
  }
}

// ----------------------------------------------------------------------------- replays
function renderReplayBar() {
  const bar = $("replay");
  const frame = page.frame;
  if (!frame.over) {
    bar.hidden = true;
    return;
  }
  bar.hidden = false;
  clear(bar);
  const moves = frame.game.moves;
  const at = page.replay ? page.replay.at : moves;
  const go = (n) => replayTo(Math.max(0, Math.min(moves, n)));
  const step = (d) => () => go(replayAt() + d); // from the last move asked for: fast clicks add up
  const slider = h("input.replay-slider", {
    type: "range",
    min: 0,
    max: moves,
    value: at,
    "aria-label": "Move",
    onchange: (e) => go(Number(e.target.value)),
  });
  bar.append(
    h("span.replay-label", "Replay"),
    h("button.icon", { onclick: () => go(0), title: "Start", "aria-label": "Start" }, "◀◀"),
    h("button.icon", { onclick: step(-1), title: "Previous move", "aria-label": "Previous move" }, "◀"),
    slider,
    h("button.icon", { onclick: step(1), title: "Next move", "aria-label": "Next move" }, "▶"),
    h("button.icon", { onclick: () => go(moves), title: "End", "aria-label": "End" }, "▶▶"),
    h("span.replay-at", `move ${at} / ${moves}`),
    keptLine("replay", slider),
  );
}

// The move the replay was last asked to show (the one on screen may still be loading): two quick
// "Next move" clicks go two moves on, and an answer that a newer request overtook is dropped.
const asked = { at: null, ticket: 0 };

function replayAt() {
  if (asked.at !== null) return asked.at;
  return page.replay ? page.replay.at : page.frame.game.moves;
}

async function replayTo(at) {
  const moves = page.frame.game.moves;
  asked.at = at;
  const ticket = ++asked.ticket;
  keepRefusal("replay", null);
  try {
    const frame = await api(`/api/games/${encodeURIComponent(gameId)}/replay?at=${at}`, { token: page.token });
    if (ticket !== asked.ticket) return;
    page.replay = at === moves ? null : { at, moves, frame };
    if (page.replay) setLink("replaying");
    else if (page.socket && page.socket.readyState === WebSocket.OPEN) setLink("live");
    renderBoard();
    renderBanner();
    renderActions();
    renderLog(page.replay ? frame.log : page.log, true);
    renderReplayBar();
    renderEnd();
  } catch (err) {
    if (ticket !== asked.ticket) return;
    asked.at = null; // what is on screen is where the replay stands
    keepRefusal("replay", err); // in the replay bar, under its buttons
    renderReplayBar();
  }
}

/** The board could not be drawn (its module or stylesheet was refused on the way): say so where the
 * table would be, with a way to try again, instead of a blank table. */
function showBroken() {
  const board = clear($("board"));
  $("title").textContent = "The table could not be drawn";
  const again = h("button", { type: "button" }, "Reload");
  again.addEventListener("click", () => location.reload());
  board.append(h("div.missing", h("p", "The table could not be drawn: the connection dropped part of the page."), again));
}

function showMissing() {
  const board = clear($("board"));
  $("title").textContent = "No such game";
  board.append(h("div.missing", h("p", "There is no game at this address."), h("a.button", { href: "/" }, "Back to the lobby")));
}

document.addEventListener("keydown", (event) => {
  if (["Tab", "Enter", " ", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(event.key)) page.keyboard = true;
});
document.addEventListener("pointerdown", () => (page.keyboard = false));

document.addEventListener("keydown", (event) => {
  if (!page.frame || !page.frame.over || event.target.closest("input, textarea")) return;
  const at = replayAt();
  if (event.key === "ArrowLeft") replayTo(Math.max(0, at - 1));
  if (event.key === "ArrowRight") replayTo(Math.min(page.frame.game.moves, at + 1));
});

start();
