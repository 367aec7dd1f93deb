-- round_dealers: the seat that deals each round, for the kinds that have a dealer (each kind's
-- round_dealers.sql adds its rows).
SELECT CAST(NULL AS STRING) AS game_id, CAST(NULL AS INT) AS round, CAST(NULL AS INT) AS dealer
WHERE 1 = 0
