-- Hez2: one round, dealt by the seat game_start names as dealer.
SELECT game_id, 1 AS round, TRY_CAST(get_json_object(data, '$.dealer') AS INT) AS dealer
FROM game_starts
WHERE kind = 'hez2'
