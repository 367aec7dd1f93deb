-- fairplay: one row per game x seat, as `replay reindex STORE --fairplay` stores it
-- (_analytics/fairplay.parquet; without it, this empty start; docs/review.md, "Fair play"):
-- the telling plays (every hand at most max_cards cards; the cards best with every hand visible
-- exclude the honest policy's card, and not every legal card is best), the hits (a best card
-- played), the sum over the telling plays of B / (L - 1) (B best cards of L legal) and of its
-- square, the seat's other decisions with a choice and those where it played the policy's card,
-- the settings key and the game's events when judged.
SELECT CAST(NULL AS STRING) AS game_id, CAST(NULL AS STRING) AS kind, CAST(NULL AS INT) AS seat,
  CAST(NULL AS INT) AS decisions, CAST(NULL AS INT) AS hits,
  CAST(NULL AS DOUBLE) AS share_sum, CAST(NULL AS DOUBLE) AS share_squares,
  CAST(NULL AS INT) AS agreed, CAST(NULL AS INT) AS other, CAST(NULL AS STRING) AS settings,
  CAST(NULL AS BIGINT) AS events
WHERE 1 = 0
