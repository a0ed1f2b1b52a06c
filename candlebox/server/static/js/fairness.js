// Verifiable shuffles on the game page: the commitment every seat sees from the start, the seed and
// nonce revealed when the game is over, and the check of one against the other in this browser (Web
// Crypto SHA-256). The canonical text is the one candlebox/engine/fairness.py documents: the JSON
// object with sorted keys, no spaces, non-ASCII characters as \uXXXX, the seed as decimal text.

import { clear, h } from "./ui.js";

/** JSON with sorted keys, no spaces, and every character outside ASCII escaped, as Python writes it. */
export function canonicalJson(value) {
  if (value === null || typeof value !== "object") {
    return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${canonicalJson(k)}:${canonicalJson(value[k])}`).join(",")}}`;
}

export function canonicalText(game, fair) {
  return canonicalJson({
    scheme: fair.scheme,
    id: fair.id,
    game: game.game,
    variant: game.variant,
    players: game.players,
    options: game.options,
    seed: fair.seed,
    nonce: fair.nonce,
  });
}

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Whether the revealed seed and nonce open the commitment: {ok, message}. */
export async function check(game, fair) {
  if (!(window.crypto && crypto.subtle)) {
    return { ok: false, message: "This browser cannot hash here (Web Crypto needs https or localhost); use candlebox replay FILE --verify." };
  }
  if (fair.scheme !== "candlebox-commit/1") return { ok: false, message: `Unknown commitment scheme ${fair.scheme}.` };
  const hash = await sha256Hex(canonicalText(game, fair));
  if (hash === fair.commitment) {
    return { ok: true, message: "Yes: the revealed seed and nonce hash to the commitment shown since the start. The game was dealt from that seed (the download replays it: candlebox replay FILE --verify)." };
  }
  return { ok: false, message: `No: the revealed seed and nonce hash to ${hash.slice(0, 16)}…, not to the commitment shown since the start.` };
}

function fixedText(game) {
  return game.fixed.map((name) => (name === "seed" ? `the seed (${game.seed})` : `the ${name} option`)).join(", ");
}

/** The practice banner (above the board) and the fairness panel (in the sidebar). */
export function render(game, banner, box, gameId) {
  banner.hidden = !game.practice;
  clear(banner);
  if (game.practice) {
    banner.append(
      h("strong", "Practice game"),
      game.fixed.length
        ? ` · the host fixed ${fixedText(game)}; everyone at the table and every spectator sees this.`
        : " · marked as practice by the host.",
    );
  }
  clear(box);
  const fair = game.fairness;
  if (!fair) {
    box.append(h("p.note", "This game was created before verifiable shuffles."));
    return;
  }
  box.append(
    h("p.note", game.practice && game.fixed.includes("seed")
      ? "The host chose this game's seed. Commitment:"
      : "The server drew this game's seed in secret and committed to it before the first move:"),
    h("code.commitment", { id: "commitment", title: "SHA-256 commitment" }, fair.commitment),
  );
  if (fair.seed === undefined) {
    box.append(h("p.note", "The seed and nonce are revealed when the game is over."));
    return;
  }
  const result = h("p.fair-result", { id: "fair-result", role: "status" });
  const button = h("button.small", {
    type: "button",
    id: "fair-check",
    onclick: async () => {
      const outcome = await check(game, fair);
      result.textContent = outcome.message;
      result.className = `fair-result ${outcome.ok ? "ok" : "bad"}`;
    },
  }, "Check the shuffle");
  box.append(
    h("p.note", `Revealed: seed ${fair.seed}, nonce`),
    h("code.commitment", { id: "nonce" }, fair.nonce),
    h("div.fair-tools", button, h("a.button.small", { href: `/api/games/${encodeURIComponent(gameId)}/saved`, download: "" }, "Download the game")),
    result,
  );
}
