-- seat_results: a seat's result in a game, per game kind (each kind's seat_results.sql adds its
-- rows): score (final total, or net winnings), place (1 = best; ties share a place), payout and
-- stake (minor units, where the game has stakes).
SELECT CAST(NULL AS STRING) AS game_id, CAST(NULL AS INT) AS seat, CAST(NULL AS INT) AS score,
  CAST(NULL AS INT) AS place, CAST(NULL AS INT) AS payout, CAST(NULL AS INT) AS stake
WHERE 1 = 0
