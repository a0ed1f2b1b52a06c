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

/** Text with each code replaced by its name ("Taper flips Y4" -> "Taper flips Yellow candle (value 4)");
 * a code already followed by its name in brackets, or preceded by it, is left as the name alone. */
/** Whether the code at ``at`` in ``text`` already stands inside its whole name there ("Territory 6c
 * (region 6, Barracks)" in a label: named again, it read "Territory Territory 6c (region 6, Barracks)
 * (region 6, Barracks)", issue 36). */
function saysName(text, at, code) {
  const full = name(code);
  const inName = full.indexOf(code);
  return full !== code && inName >= 0 && text.slice(at - inName, at - inName + full.length) === full;
}

export function plain(str) {
  if (!pattern || !str) return str;
  return String(str)
    .replace(pattern, (code, _, at, whole) => (saysName(whole, at, code) ? code : `\u0000${code}\u0000`))
    .replace(/([^\u0000]*?)\s*\(\u0000([^\u0000]+)\u0000\)/g, (all, before, code) =>
      before.endsWith(name(code)) ? before : `${before} (${name(code)})`,
    )
    .replace(/\u0000([^\u0000]+)\u0000/g, (all, code) => name(code));
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
      if (index < last) continue; // inside a name already taken in (below)
      let before = data.slice(last, index);
      let end = index + code.length;
      // the chip shows the name: a name written beside its code ("Blue candle (value 7) (B7)", "B7
      // (Blue candle (value 7))") is said once, not twice
      const named = name(code);
      const start = index - named.indexOf(code);
      if (start >= last && saysName(data, index, code)) {
        // the code inside its whole name ("Territory 6c (region 6, Barracks)"): the name, one chip
        before = data.slice(last, start);
        end = start + named.length;
      } else if (before.endsWith(`${named} (`) && data[end] === ")") {
        before = before.slice(0, -named.length - 2);
        end += 1;
      } else if (data.startsWith(` (${named})`, end)) {
        end += named.length + 3;
      }
      out.append(before, chip(code));
      last = end;
    }
    out.append(data.slice(last));
    node.replaceWith(out);
  }
  return root;
}
