// The coach on the game page (issue 16): a Hint button while it is your turn, where hints are allowed
// (every other seat is a bot, or the table allowed hints when it was created), and a Review button on a
// finished game, which the server computes in the background while this shows its progress.
// game.js calls render(...) after every frame; this module owns its own panel, styled by css/coach.css
// (game.html loads it before the first paint).

import { api } from "./api.js";
import { keepRefusal, keptLine } from "./refusals.js";
import { clear, h, namedSeats as seatsNamed, svg, toast } from "./ui.js";
import { plain } from "./words.js";

// the engine's labels name a card and give its code, "Silver candle (value 6) (S6)": a player reads
// the name only, and a code alone says itself in words (issue 36's re-trial: "(B6)" unexplained)
const namedSeats = (frame, text) => seatsNamed(frame, plain(text));

const state = {
  panel: null,
  move: -1, // the move the hint shown is for
  hint: null,
  asking: false,
  review: null, // the last answer of /review
  polling: false,
  looked: "", // the game and seat whose review was looked for ("id:seat"), once the game is over
  looking: false, // that look is under way: the Review button waits for it
  nothing: null, // the server's reason there is nothing to review (no decision was made), in words
  ctx: null, // the last render's, for answers that arrive later
};

function panel() {
  if (state.panel && state.panel.isConnected) return state.panel;
  state.panel = h("section.panel.coach-panel", { hidden: true, "aria-live": "polite" });
  const actions = document.querySelector(".actions-panel");
  if (actions) actions.before(state.panel);
  return state.panel;
}

function allowed(frame) {
  if (frame.you === null || frame.you === undefined) return false;
  if (frame.game && frame.game.hints) return true;
  // as the server decides: every other seat a bot playing for nobody (a seat handed to a bot is
  // still its person's)
  return frame.seats.every((seat) => seat.seat === frame.you || (seat.kind === "bot" && !seat.stands_in));
}

const pct = (x) => `${Math.round(x * 100)}%`;

/** Whether two options' chances of winning are within what their tries can tell apart (twice the
 * standard error of the difference): a newcomer read "54% over 53%" as a verdict (issue 36). */
export function aboutAsGood(a, b) {
  if (!a.visits || !b.visits) return false;
  const spread = (o) => (Math.min(Math.max(o.win, 0), 1) * (1 - Math.min(Math.max(o.win, 0), 1))) / o.visits;
  const error = Math.sqrt(spread(a) + spread(b)) || 1 / Math.sqrt(Math.min(a.visits, b.visits));
  return Math.abs(a.win - b.win) <= 2 * error;
}

/** ctx: {gameId, token, frame, act, replaying} */
export function render(ctx) {
  state.ctx = ctx;
  const box = panel();
  const { frame } = ctx;
  renderStrip(ctx);
  if (ctx.replaying) {
    box.hidden = true;
    return;
  }
  if (frame.over) {
    renderReview(box, ctx);
    return;
  }
  const yourTurn = frame.legal.length > 0 && allowed(frame);
  box.hidden = !allowed(frame);
  if (box.hidden) return;
  if (state.move !== frame.move) state.hint = null; // a hint is for one position only
  clear(box);
  box.append(
    h(
      "div.coach-head",
      h("h2", "Coach"),
      h(
        "button.small.coach-ask",
        {
          disabled: !yourTurn || state.asking,
          title: "The search's best moves for you, with their chances of winning",
          onclick: () => ask(ctx),
        },
        state.asking ? "Thinking…" : "Hint",
      ),
    ),
  );
  if (frame.game && frame.game.hints) box.append(h("p.note", "Hints are allowed for every player at this table."));
  if (state.hint && frame.legal.length) {
    const list = h("ol.coach-list");
    const best = state.hint.options[0];
    for (const [i, option] of state.hint.options.slice(0, 3).entries()) {
      const even = i > 0 && aboutAsGood(option, best);
      list.append(
        h(
          "li",
          h(
            "span.coach-win",
            { title: `${option.visits} of the search's tries went this way` },
            pct(option.win),
            i === 0 ? h("span.coach-tries.coach-best", "best") : null,
            h("span.coach-tries", `${option.visits} ${option.visits === 1 ? "try" : "tries"}`),
          ),
          // "seat 0's pile" in the engine's words: the names the rest of the page uses ("your pile")
          h("span.coach-label", { title: `In the game's notation: ${option.action}` }, namedSeats(frame, option.label),
            even ? h("span.coach-even", { title: "The two chances differ by less than the search's estimates could be off by, from their tries" }, " — about as good as the best") : null),
          h("button.small.subtle", { onclick: () => ctx.act(option.action), title: "Play this" }, "Play"),
        ),
      );
    }
    // The search's choice is the move it tried most, not always the highest chance: a chance from
    // few tries is a rough guess (a playtester read the order as a mistake), so the note says so,
    // and the best shows its tries too.
    box.append(list, h("p.note", `Chances of winning as the search sees them, from what you can see (${state.hint.iterations} tries in all). The best move is the one the search tried most; a chance from few tries is rough.`));
  }
}

// On a phone the Coach panel sits far below the table: a strip under the banner asks for a hint and
// shows the search's choice with a Play button, in reach of the decision (a playtester scrolled a
// screen and a half between the bid buttons and the Hint button). CSS shows it on narrow screens only.
function renderStrip(ctx) {
  const strip = document.getElementById("coach-strip");
  if (!strip) return;
  const { frame } = ctx;
  clear(strip);
  // kept in place between your turns too (the button waits), so the table does not jump each turn
  strip.hidden = ctx.replaying || frame.over || !allowed(frame);
  if (strip.hidden) return;
  const yourTurn = frame.legal.length > 0;
  const tip = yourTurn && state.hint && state.move === frame.move ? state.hint : null;
  const best = tip && tip.options.find((o) => o.action === tip.best);
  if (!best) {
    strip.append(
      h(
        "button.small.coach-strip-ask",
        { disabled: state.asking || !yourTurn, onclick: () => ask(ctx) },
        state.asking ? "Thinking…" : "Hint",
      ),
      h("span.coach-strip-note", yourTurn ? "the coach's best move for you" : "the coach helps on your turn"),
    );
    return;
  }
  const said = namedSeats(frame, best.label);
  strip.append(
    // two lines at most (a 16 Candies hand's orientation runs to seven): the whole of it in its
    // title and under More
    h("span.coach-strip-label", { title: said }, h("b", `Hint (${pct(best.win)} to win): `), said), // the figure says what it is (issue 36)
    h("button.small", { onclick: () => ctx.act(best.action), title: "Play this" }, "Play"),
    h(
      "button.small.subtle",
      { onclick: () => panel().scrollIntoView({ behavior: "smooth", block: "start" }), title: "Every move the coach weighed" },
      "More",
    ),
  );
}

async function ask(ctx) {
  const move = ctx.frame.move;
  state.asking = true;
  render(ctx);
  const path = `/api/games/${encodeURIComponent(ctx.gameId)}/hint`;
  try {
    let tip;
    for (let tries = 0; ; tries++) {
      try {
        tip = await api(path, { method: "POST", token: ctx.token });
        break;
      } catch (error) {
        // asked a moment after the last hint (the server spaces a seat's searches by a second):
        // wait that moment here rather than refuse the player, who only asked about a new decision
        if (error.code !== "too-many-hints" || tries >= 3) throw error;
        await new Promise((done) => setTimeout(done, 1000));
        if (ctx.frame.move !== move) return; // the decision passed meanwhile
      }
    }
    state.hint = tip.move === move ? tip : null;
    state.move = tip.move;
  } catch (error) {
    toast(error.message, "error");
  } finally {
    state.asking = false;
    render(ctx);
  }
}

// ----------------------------------------------------------------------------- review
function reviewSeat(frame) {
  return frame.you === null || frame.you === undefined ? 0 : frame.you;
}

function renderReview(box, ctx) {
  const { frame } = ctx;
  const seat = reviewSeat(frame);
  lookUp(ctx, seat);
  box.hidden = false;
  clear(box);
  if (state.nothing) {
    // a player who made no move is offered no review of nothing (the server refuses one too)
    box.append(h("div.coach-head", h("h2", "Review")), h("p.note.coach-nothing", state.nothing));
    return;
  }
  const answer = state.review;
  const running = answer && answer.status === "running";
  // waiting for a slot: its place in the queue (1: next); under way: decisions done of all
  const waiting = running && answer.queued;
  const place = waiting && answer.position ? ` (number ${answer.position} in the queue)` : "";
  const start = answer && answer.status === "done"
    ? null
    : h(
        "button.small.coach-review",
        { disabled: running || state.looking, onclick: () => startReview(ctx, seat), title: "How each of your decisions compares with the search's" },
        waiting ? "Waiting for the coach…" : running ? `Reviewing… ${answer.done} / ${answer.total}` : "Review my game",
      );
  const cancel = running ? h("button.small.subtle.coach-cancel", { onclick: () => cancelReview(ctx, seat), title: "Stop this review" }, "Cancel") : null;
  // a refused Start or Cancel: under the two buttons, until the next try
  box.append(h("div.coach-head", h("h2", "Review"), start, cancel));
  const refused = keptLine(REFUSED, cancel || start);
  if (refused) box.append(refused);
  if (running) {
    box.append(
      h("progress.coach-progress", { max: answer.total || 1, value: answer.done }),
      h("p.note.coach-queue", waiting ? `Waiting for the coach${place}: other players' reviews come first.` : `${answer.done} of ${answer.total} decisions weighed.`),
    );
  }
  if (answer && answer.status === "done") box.append(summary(answer, frame, ctx));
  if (!answer) box.append(h("p.note", `Each decision of ${frame.seats[seat].name} weighed by the search.`));
}

// The chance of winning at each decision as a line (the search's estimate with its best move), the
// marked decisions as dots: where the game turned, at a glance. Numbers only, written here. A chance
// from fewer tries than ``few`` is no figure (chance() below): the line leaves it out, broken there,
// and a faint dashed upright marks the decision, at no height (issue 36: points from one or two
// tries were drawn as if they were figures).
const MARKS = ["blunder", "mistake", "inaccuracy"];

const fewTried = (d, few) => Boolean(d.best_visits) && d.best_visits < few;

function trendLine(decisions, few) {
  const width = 300;
  const height = 90;
  const pad = 7;
  const x = (i) => pad + (decisions.length > 1 ? (i * (width - 2 * pad)) / (decisions.length - 1) : (width - 2 * pad) / 2);
  const y = (p) => pad + (1 - Math.min(1, Math.max(0, Number(p) || 0))) * (height - 2 * pad);
  const at = (i) => `${x(i).toFixed(1)},${y(decisions[i].before).toFixed(1)}`;
  // the runs of decisions with a figure, each its own line (one alone: a dot)
  const runs = [];
  decisions.forEach((d, i) => {
    if (fewTried(d, few)) runs.push([]);
    else (runs.length ? runs[runs.length - 1] : runs[runs.push([]) - 1]).push(i);
  });
  const lines = runs
    .filter((run) => run.length)
    .map((run) =>
      run.length > 1
        ? `<polyline points="${run.map(at).join(" ")}"/>`
        : `<circle class="point" cx="${x(run[0]).toFixed(1)}" cy="${y(decisions[run[0]].before).toFixed(1)}" r="2.5"/>`,
    )
    .join("");
  // markup from our own words only: never a string from the data
  const rings = decisions
    .map((d, i) =>
      fewTried(d, few)
        ? `<line class="few" x1="${x(i).toFixed(1)}" x2="${x(i).toFixed(1)}" y1="${pad}" y2="${height - pad}"><title>Move ${Number(d.move)}: too few tries to tell</title></line>`
        : "",
    )
    .join("");
  const dots = decisions
    .map((d, i) =>
      MARKS.includes(d.mark) && !fewTried(d, few)
        ? `<circle class="${d.mark}" cx="${x(i).toFixed(1)}" cy="${y(d.before).toFixed(1)}" r="6"><title>Move ${Number(d.move)}: ${d.mark}</title></circle>`
        : "",
    )
    .join("");
  return svg(
    `<svg class="coach-trend-line" viewBox="0 0 ${width} ${height}" role="img">` +
      `<line class="even" x1="0" x2="${width}" y1="${y(0.5)}" y2="${y(0.5)}"/>` +
      `${lines}${rings}${dots}</svg>`,
  );
}

// A chance as the review shows it: "about" the figure and how many tries it is from; none for a move
// the search never tried (not "0%": a newcomer read that as a certain loss), and words instead of a
// figure where the tries are too few to tell (the server's few_tries, the tries a mark needs: "0%"
// from two tries was noise a new player took for a verdict). A review stored before the tries were
// kept (best_visits 0) shows the figure alone.
const FEW_TRIES = 10; // analysis.MARK_TRIES, for an answer that does not say it

function chance(d, win, tries, few = FEW_TRIES) {
  if (!d.best_visits) return pct(win);
  if (!tries) return "not tried by the search";
  if (tries < few) return `too few tries to tell, only ${tries} ${tries === 1 ? "try" : "tries"}`;
  return `about ${pct(win)}, from ${tries} tries`;
}

function whose(frame, seat) {
  return seat === frame.you ? "your" : `${frame.seats[seat].name}'s`;
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// At a decision of many moves the search weighs the one played against the few that rules of thumb
// pick first (analysis.weighed: tries spread over twenty moves gave none a chance), so "Better:" is
// the best of those: said once, with how many decisions it was. None in a review stored before.
function narrowedNote(decisions, who) {
  const narrowed = decisions.filter((d) => d.weighed && d.legal > d.weighed);
  if (!narrowed.length) return [];
  const others = Math.max(...narrowed.map((d) => d.weighed - 1));
  const many = narrowed.length === decisions.length ? "At each of these decisions" : `At ${narrowed.length} of these decisions`;
  return [h("p.note.coach-weighed", `${many}, with many moves to choose from, the search weighed ${who} move against the ${["one", "two", "three", "four"][others - 1] || others} that sound rules of thumb pick first, so that each got enough tries to give a chance.`)];
}

function summary(answer, frame, ctx) {
  const decisions = answer.review.decisions;
  const counts = MARKS.map((mark) => {
    const n = decisions.filter((d) => d.mark === mark).length;
    return `${n} ${n === 1 ? mark : mark === "inaccuracy" ? "inaccuracies" : mark + "s"}`;
  });
  const agreed = decisions.filter((d) => d.chosen === d.best).length;
  const out = h(
    "div",
    h(
      "p.coach-score",
      `${decisions.length} ${decisions.length === 1 ? "decision" : "decisions"} · ${agreed} played as the search would · ${counts.join(", ")}`,
    ),
  );
  out.append(...narrowedNote(decisions, whose(frame, answer.review.seat)));
  const stoodIn = answer.review.stood_in || 0;
  if (stoodIn) {
    out.append(h("p.note", `${stoodIn} ${stoodIn === 1 ? "decision" : "decisions"} made by a bot playing for you ${stoodIn === 1 ? "is" : "are"} left out.`));
  }
  // the costliest decisions, as the server chose them (analysis.worst: the marked ones, or, where the
  // game slipped away by small losses none big enough to mark, those that cost anything)
  const few = answer.few_tries || FEW_TRIES;
  const who = whose(frame, answer.review.seat);
  const byMove = new Map(decisions.map((d) => [d.move, d]));
  const shown = (answer.worst || []).map((move) => byMove.get(move)).filter(Boolean);
  const marked = shown.filter((d) => d.mark);
  if (decisions.length > 1) {
    const first = decisions[0];
    const last = decisions[decisions.length - 1];
    const trend = `${capital(who)} chance of winning, as the search saw it. At the first of these decisions: ${chance(first, first.before, first.best_visits, few)}; at the last: ${chance(last, last.before, last.best_visits, few)}`;
    const line = trendLine(decisions, few);
    line.setAttribute("aria-label", trend); // set, not written into the markup: a name is the player's
    out.append(line, h("p.note.coach-trend", `${trend} (the dotted line: an even chance).`));
    const unsure = decisions.filter((d) => fewTried(d, few)).length;
    if (unsure) {
      const those = unsure === 1 ? "a decision" : `${unsure} decisions`;
      out.append(h("p.note.coach-legend", `Dashed uprights: ${those} the search tried fewer than ${few} times, too few to give a chance, so the line has a gap there.`));
    }
  }
  const list = h("ol.coach-list.coach-marks");
  for (const d of shown) {
    list.append(
      h(
        "li",
        d.mark ? h(`span.coach-mark.${d.mark}`, d.mark) : null,
        h(
          "span.coach-label",
          namedSeats(frame, `Move ${d.move}: ${d.chosen_label} — ${who} chance of winning after it: ${chance(d, d.after, d.chosen_visits, few)}. Better: ${d.best_label} (${chance(d, d.before, d.best_visits, few)}). `),
          // the table as it was when you decided: the replay after the moves before it
          ctx.replay
            ? h(
                "button.coach-goto",
                { onclick: () => ctx.replay(d.move - 1), title: `The replay after move ${d.move - 1}, when you chose move ${d.move}` },
                "See the table then",
              )
            : null,
        ),
      ),
    );
  }
  const meaning = h("p.note.coach-meaning", `Each percentage is ${who} chance of winning after that move, as the search estimated it by playing the game on from there many times (each a try): 0% means every try from there was lost. It is an estimate from a short search, and a game can still turn; from fewer than ${few} tries it is too rough to give a figure at all.`);
  if (marked.length) out.append(list, meaning);
  else if (shown.length) {
    out.append(h("p.note", "Nothing the search can call a mistake with confidence (a loss of 5 points of the chance of winning or more, beyond what its estimates could be off by, each move tried 10 times or more). What cost the most:"), list, meaning);
  } else out.append(h("p.note", "Nothing the search would call a mistake."));
  return out;
}

// The refusals that mean there is nothing of the seat's to review: said in place of the button.
// Any other refusal of Start or Cancel is kept under REFUSED (refusals.js) and said under them.
const REFUSED = "review";
const NOTHING = new Set(["no-decisions", "stood-in"]);

function nothingWords(error, frame, seat) {
  if (error.code !== "no-decisions") return error.message;
  return seat === frame.you
    ? "Nothing to review: you made no decision in this game before it ended."
    : `Nothing to review: ${frame.seats[seat].name} made no decision in this game before it ended.`;
}

/** Once the game is over: the seat's review as the server has it (stored, under way, not asked for,
 * or nothing to review), so that a review of nothing is never offered and a stored one shows. */
async function lookUp(ctx, seat) {
  const key = `${ctx.gameId}:${seat}`;
  if (state.looked === key) return;
  state.looked = key;
  state.looking = true;
  try {
    state.review = await api(`/api/games/${encodeURIComponent(ctx.gameId)}/review?seat=${seat}`);
  } catch (error) {
    if (NOTHING.has(error.code)) state.nothing = nothingWords(error, ctx.frame, seat);
  } finally {
    state.looking = false;
  }
  render(state.ctx || ctx);
  if (state.review && state.review.status === "running") follow(seat);
}

async function startReview(ctx, seat) {
  const path = `/api/games/${encodeURIComponent(ctx.gameId)}/review`;
  keepRefusal(REFUSED, null);
  try {
    state.review = await api(path, { method: "POST", body: { seat }, token: ctx.token });
  } catch (error) {
    if (NOTHING.has(error.code)) state.nothing = nothingWords(error, ctx.frame, seat);
    else keepRefusal(REFUSED, error);
    render(state.ctx || ctx);
    return;
  }
  render(ctx);
  follow(seat);
}

/** Ask for the review's progress every second until it is done (or cancelled). */
async function follow(seat) {
  if (state.polling) return;
  state.polling = true;
  try {
    while (state.review && state.review.status === "running") {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if (!state.review) break; // cancelled meanwhile
      state.review = await api(`/api/games/${encodeURIComponent(state.ctx.gameId)}/review?seat=${seat}`);
      render(state.ctx);
    }
  } catch (error) {
    if (state.review) toast(error.message, "error");
  } finally {
    state.polling = false;
  }
}

async function cancelReview(ctx, seat) {
  const path = `/api/games/${encodeURIComponent(ctx.gameId)}/review?seat=${seat}`;
  keepRefusal(REFUSED, null);
  try {
    await api(path, { method: "DELETE", token: ctx.token });
  } catch (error) {
    if (error.code !== "no-review") {
      keepRefusal(REFUSED, error);
      render(state.ctx || ctx);
      return;
    }
  }
  state.review = null; // the Review button again
  render(ctx);
}
