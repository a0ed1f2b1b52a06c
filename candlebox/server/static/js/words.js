// The words of a game's components (GET /api/games/ID/components: candlebox.components of the game's
// configuration), fetched once per page. Every card face, tooltip and log chip names a code from here,
// so no page keeps its own copy of the words.

import { api } from "./api.js";
import { h } from "./ui.js";

const table = new Map(); // code -> {name, text}
let loading = null;
let pattern = null; // the bare codes (not "kind:code" keys) as one expression, longest first

/** Fetch the game's words once; resolves true when they are there (false: the page goes on without). */
export function load(gameId) {
  if (!loading) {
    loading = api(`/api/games/${encodeURIComponent(gameId)}/components`)
      .then((data) => {
        for (const [code, entry] of Object.entries(data || {})) table.set(code, entry);
        const bare = [...table.keys()].filter((c) => !c.includes(":")).sort((a, b) => b.length - a.length);
        const escaped = bare.map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
        // a code is a whole token: not inside a longer run of letters, digits, "-" or "!"
        pattern = escaped.length ? new RegExp(`(?<![A-Za-z0-9!-])(${escaped.join("|")})(?![A-Za-z0-9!-])`, "g") : null;
        return true;
      })
      .catch((err) => {
        console.warn("no component words", err);
        return false;
      });
  }
  return loading;
}

export const ready = () => table.size > 0;
/** {name, text} of a code (or a "kind:code" key), or null. */
export const lookup = (code) => (code === null || code === undefined ? null : table.get(String(code)) || null);
export const name = (code) => (lookup(code) || { name: String(code) }).name;
export const text = (code) => (lookup(code) || { text: "" }).text;
export const codes = () => [...table.keys()];

/** The code tokens of a piece of text, in order: [{code, index}]. */
export function findCodes(str) {
  if (!pattern || !str) return [];
  return [...String(str).matchAll(pattern)].map((m) => ({ code: m[1], index: m.index }));
}

/** Where the name of the code found at index stands in the text: the name written around its code
 * ("Territory 3c (region 3, Forge)" holds "3c"; "Cinis Clan candle C2" holds "C2"), a code beside its
 * name in brackets ("Blue candle (value 7) (B7)", "B7 (Blue candle (value 7))"), or the code alone.
 * [start, end]: the span the name replaces, so a name is said once, never expanded again inside
 * itself (issue 36: "Deploy Cinis Clan candle Cinis Clan candle C2"). */
function spanOf(data, index, code) {
  const named = name(code);
  const end = index + code.length;
  for (let at = named.indexOf(code); at >= 0; at = named.indexOf(code, at + 1)) {
    const start = index - at;
    if (start >= 0 && data.startsWith(named, start)) return [start, start + named.length];
  }
  if (data.slice(0, index).endsWith(`${named} (`) && data[end] === ")") return [index - named.length - 2, end + 1];
  if (data.startsWith(` (${named})`, end)) return [index, end + named.length + 3];
  return [index, end];
}

/** Text with each code replaced by its name ("Taper flips Y4" -> "Taper flips Yellow candle (value 4)"),
 * each name said once (spanOf). */
export function plain(str) {
  if (!pattern || !str) return str;
  const data = String(str);
  let out = "";
  let last = 0;
  for (const { code, index } of findCodes(data)) {
    const [start, end] = spanOf(data, index, code);
    if (start < last) continue; // inside a name already taken in
    out += data.slice(last, start) + name(code);
    last = end;
  }
  return out + data.slice(last);
}

/** A chip for one code: its name (a player reads words, never a code such as "1I1X"), its text on
 * hover, focus and long-press (tooltips.js). */
export function chip(code, shown = name(code)) {
  const label = shown === name(code) ? shown : `${shown}: ${name(code)}`;
  return h("span.code-chip", { dataset: { code }, tabIndex: 0, "aria-label": label }, shown);
}

/** Wrap every bare code in the text nodes under root in a chip of its name (skipping ones already
 * inside an element that names its code, form fields, and SVG drawings, where an HTML chip would not
 * show). */
export function chipify(root) {
  if (!pattern || !root) return root;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) =>
      node.parentElement && node.parentElement.closest("[data-code], button, input, textarea, select, option, svg")
        ? NodeFilter.FILTER_REJECT
        : NodeFilter.FILTER_ACCEPT,
  });
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  for (const node of nodes) {
    const found = findCodes(node.data);
    if (!found.length) continue;
    const out = document.createDocumentFragment();
    const data = node.data;
    let last = 0;
    for (const { code, index } of found) {
      // the chip shows the name: a name written around or beside its code is said once (spanOf)
      const [start, end] = spanOf(data, index, code);
      if (start < last) continue; // inside a name already taken in
      // punctuation right after the chip stays on its line: a chip is one box, and a line could
      // break after it, leaving a lone "." below (issue 36, a Candelabria log line)
      const tail = /^[.,;:!?)]+/.exec(data.slice(end));
      const made = chip(code);
      out.append(data.slice(last, start), tail ? h("span.chip-tail", made, tail[0]) : made);
      last = end + (tail ? tail[0].length : 0);
    }
    out.append(data.slice(last));
    node.replaceWith(out);
  }
  return root;
}
