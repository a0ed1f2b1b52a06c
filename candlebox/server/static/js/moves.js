// Clickable is visible (issue 36): at every decision whatever on the board makes a move wears one mark,
// the same in every game (base.css: a glowing gold ring and a pointer), and the banner says in one line
// what to click. A game's module says which element makes which move with data-action (one move),
// data-choices (several, "a|b": a menu opens) or data-step (a click that prepares a move, such as
// choosing a tactic card before playing it); the shell marks the ones that are legal now, so a module
// never styles its own targets and no game looks different. A click that advances the game without a
// move (data-dismiss: 16 Candies' "Next deal" under a round's result) wears the same mark while the
// game goes on: a new player took the one plain button for something else.

export const MARK = "can-move";

const TARGETS = "[data-action], [data-choices], [data-step], [data-dismiss]";

/** The moves an element makes: its data-action, or each of its data-choices. */
function movesOf(el) {
  if (el.dataset.choices) return el.dataset.choices.split("|");
  return el.dataset.action ? [el.dataset.action] : [];
}

/** Mark (or unmark) every target under ``root`` by whether it makes a legal move now; ``goesOn``:
 * the game is not over (a dismiss advances it only then). */
export function markMoves(root, legal, goesOn = true) {
  const can = new Set(legal);
  for (const el of root.querySelectorAll(TARGETS)) {
    const step = el.hasAttribute("data-step") && can.size > 0;
    const dismiss = el.hasAttribute("data-dismiss") && goesOn;
    const live = !el.disabled && (step || dismiss || movesOf(el).some((action) => can.has(action)));
    el.classList.toggle(MARK, live);
  }
}

/** The banner's one line of what to click: the module's own words (its instruction(ctx)), or, for a
 * module that has none, the marked buttons. Nothing when the seat has nothing to decide. ``held``:
 * the module holds the table on a panel of its own (its banner()), whose line is heldInstruction(ctx). */
export function instruction(module, ctx, held = false) {
  if (held) return module.heldInstruction ? module.heldInstruction(ctx) : ""; // the module's own panel
  if (!ctx.yourTurn || ctx.over || ctx.replaying) return "";
  const own = module.instruction ? module.instruction(ctx) : "";
  return own || "Click a glowing button to choose your move.";
}
