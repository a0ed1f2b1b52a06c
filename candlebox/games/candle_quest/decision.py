"""The pending decision: which kind of choice the game waits for (who decides is ``state.actor``)."""

from enum import IntEnum


class Phase(IntEnum):
    TURN = 0  # the active player starts a turn: flip, loot S, (junior) force S, or pass
    CHOOSE = 1  # a flipped Lit/Dancing candle on the table: buy, sell or auction N
    BID = 2  # an auction: the bidder bids N or passes
    PAY = 3  # paying for a loot or a guard: discard a candle, or pay the rest in shekels
    SHORT = 4  # a guard that cannot be paid: discard the highest candle or pay all shekels
    GIVE = 5  # (junior) the forced player gives a candle of their choice
    OVER = 6


# What the payment in progress is for.
FOR_LOOT = 0
FOR_GUARD = 1

NAMES = {
    Phase.TURN: "turn",
    Phase.CHOOSE: "buy-sell-auction",
    Phase.BID: "bid",
    Phase.PAY: "pay",
    Phase.SHORT: "guard-short",
    Phase.GIVE: "give",
}
