-- Hiifuu: the score is the final total; the highest total takes first place.
SELECT game_id, seat, total AS score, CAST(rank() OVER (PARTITION BY game_id ORDER BY total DESC)
  AS INT) AS place, CAST(NULL AS INT) AS payout, CAST(NULL AS INT) AS stake
FROM final_totals
WHERE kind = 'hiifuu'
