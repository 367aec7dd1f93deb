-- Hearts: the score is the final total; the lowest total takes first place.
SELECT game_id, seat, total AS score, CAST(rank() OVER (PARTITION BY game_id ORDER BY total)
  AS INT) AS place, CAST(NULL AS INT) AS payout, CAST(NULL AS INT) AS stake
FROM final_totals
WHERE kind = 'hearts'
