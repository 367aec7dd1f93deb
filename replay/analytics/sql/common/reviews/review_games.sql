-- review_games: one row per reviewed game, as `replay reindex STORE --reviews` stores it
-- (_analytics/review_games.parquet; without it, this empty start): the game, kind, the review's
-- settings key, the events the game had when reviewed, where the review stopped (the seq of the
-- first audit finding, null: the whole game) and why, the decisions reviewed and the forced ones
-- (a single legal move: not reviewed). A game whose settings key and events are unchanged is not
-- reviewed again.
SELECT CAST(NULL AS STRING) AS game_id, CAST(NULL AS STRING) AS kind,
  CAST(NULL AS STRING) AS settings, CAST(NULL AS BIGINT) AS events,
  CAST(NULL AS INT) AS reviewed_to, CAST(NULL AS STRING) AS stop_reason,
  CAST(NULL AS INT) AS decisions, CAST(NULL AS INT) AS forced
WHERE 1 = 0
