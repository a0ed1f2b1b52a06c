// Keyboard play on the board: each group of options of a decision (Buy / Sell, the bid stepper, the
// decision bar's actions, the hand's controls) is one Tab stop; the arrow keys move inside it, Enter
// presses; a part of the board that scrolls inside its frame (the map on a phone) takes the focus, so
// the arrow keys scroll it. The game modules draw plain elements; the shell does this after a render.

import { roving } from "./ui.js";

const GROUPS = [".cq-buttons", ".cq-stepper", ".cb-decision", ".sc-controls"];
const PANES = [".cb-map-box"]; // parts of a board that may scroll inside their frame

/** Everything the shell does to a freshly drawn board for keyboard players. */
export function readyForKeys(board) {
  groupOptions(board);
  reachPanes(board);
}

/** A pane that scrolls is a Tab stop (its arrow keys scroll it), named for screen readers. */
function reachPanes(board) {
  for (const pane of board.querySelectorAll(PANES.join(", "))) {
    const scrolls = pane.scrollWidth > pane.clientWidth + 1 || pane.scrollHeight > pane.clientHeight + 1;
    if (!scrolls) {
      if (pane.dataset.pane) (pane.removeAttribute("tabindex"), delete pane.dataset.pane);
      continue;
    }
    pane.tabIndex = 0;
    pane.dataset.pane = "scrolls";
    if (!pane.getAttribute("role")) pane.setAttribute("role", "region");
    if (!pane.hasAttribute("aria-label")) pane.setAttribute("aria-label", "Map (scrolls sideways)");
  }
}

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
