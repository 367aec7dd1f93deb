-- reviews: one row per reviewed decision, as `replay reindex STORE --reviews` stores it
-- (_analytics/reviews.parquet; without it, this empty start: no rows, the same columns): the
-- game, kind, step (seq), seat, decision type, the move played, the best-rated move, the legal
-- moves, the expected loss of the move played against the best in the game's own unit (loss,
-- with its 95% interval loss_low..loss_high), the label (inaccuracy, mistake, blunder; only
-- where the interval's lower end reaches its threshold), the card's loss with all cards visible
-- (visible_loss: the all-cards-visible solver's, for plays with few cards left, else NULL), the
-- loss in payout against the move of the best expected payout with its 95% interval
-- (payout_loss, payout_loss_low..payout_loss_high; in the game's minor units, higher payouts
-- better; NULL where the seat is not paid: a game or table without stakes), whether the move
-- played is the policy's own choice (agrees), the move's expected cost beyond the policy's move
-- with its 95% interval (beyond_policy, beyond_policy_low..beyond_policy_high: 0 where it agrees,
-- below 0 where it did better; the same samples), the samples each
-- alternative was valued on (more where the review thought longer), the review's settings key
-- and every alternative valued (a JSON list: move, mean, low, high, payout (mean, low, high or
-- null), chosen, policy).
SELECT CAST(NULL AS STRING) AS game_id, CAST(NULL AS STRING) AS kind, CAST(NULL AS INT) AS seq,
  CAST(NULL AS INT) AS seat, CAST(NULL AS STRING) AS type, CAST(NULL AS STRING) AS played,
  CAST(NULL AS STRING) AS best, CAST(NULL AS INT) AS legal, CAST(NULL AS DOUBLE) AS loss,
  CAST(NULL AS DOUBLE) AS loss_low, CAST(NULL AS DOUBLE) AS loss_high,
  CAST(NULL AS STRING) AS label, CAST(NULL AS INT) AS visible_loss,
  CAST(NULL AS DOUBLE) AS payout_loss, CAST(NULL AS DOUBLE) AS payout_loss_low,
  CAST(NULL AS DOUBLE) AS payout_loss_high, CAST(NULL AS BOOLEAN) AS agrees,
  CAST(NULL AS DOUBLE) AS beyond_policy, CAST(NULL AS DOUBLE) AS beyond_policy_low,
  CAST(NULL AS DOUBLE) AS beyond_policy_high, CAST(NULL AS INT) AS samples,
  CAST(NULL AS STRING) AS settings,
  CAST(NULL AS STRING) AS alternatives
WHERE 1 = 0
