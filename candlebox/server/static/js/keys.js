// Keyboard play on the board: each group of options of a decision (Buy / Sell, the bid stepper, the
// decision bar's actions, the hand's controls) is one Tab stop; the arrow keys move inside it, Enter
// presses. The game modules draw plain buttons; the shell groups them after every render.

import { roving } from "./ui.js";

const GROUPS = [".cq-buttons", ".cq-stepper", ".cb-decision", ".sc-controls"];

/** Make every option group on the board one Tab stop; the decision's main button keeps it. */
export function groupOptions(board) {
  const selector = GROUPS.join(", ");
  for (const group of board.querySelectorAll(selector)) {
    if (group.parentElement && group.parentElement.closest(selector)) continue; // inside a group
    const buttons = [...group.querySelectorAll("button")].filter((b) => !b.disabled);
    if (buttons.length < 2) continue;
    if (!group.getAttribute("role")) group.setAttribute("role", "group");
    if (!group.hasAttribute("aria-label")) group.setAttribute("aria-label", "Choices");
    roving(group);
    const main = buttons.find((b) => b.matches("button.primary[data-action]"));
    if (main) for (const b of buttons) b.tabIndex = b === main ? 0 : -1;
  }
}
