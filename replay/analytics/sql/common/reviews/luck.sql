-- luck: one row per game x scoring unit (a Hearts hand, a Hiifuu or Fou! round, a Hez2 game) x
-- seat, as `replay reindex STORE --luck` stores it (_analytics/luck.parquet; without it, this
-- empty start): the seat's result in the game's own measure, the result minus the table's mean
-- in the unit (relative), the luck of the unit's deals and draws (the expected change of the
-- relative result they brought, in the same measure and sign), the luck-adjusted result
-- (relative - luck), the chance blocks valued, the settings key and the game's events when
-- computed (docs/review.md, "Luck").
SELECT CAST(NULL AS STRING) AS game_id, CAST(NULL AS STRING) AS kind, CAST(NULL AS INT) AS unit,
  CAST(NULL AS INT) AS seat, CAST(NULL AS INT) AS players, CAST(NULL AS DOUBLE) AS result,
  CAST(NULL AS DOUBLE) AS relative, CAST(NULL AS DOUBLE) AS luck,
  CAST(NULL AS DOUBLE) AS adjusted, CAST(NULL AS INT) AS blocks,
  CAST(NULL AS STRING) AS settings, CAST(NULL AS BIGINT) AS events
WHERE 1 = 0
