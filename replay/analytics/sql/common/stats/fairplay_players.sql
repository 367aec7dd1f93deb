-- title: Fair-play signal per player
-- section: Players
-- needs: fairplay
-- Per game kind and player, over the games `replay reindex STORE --fairplay` judged: the
-- telling plays (decisions, the sample size) and how often the player played the card best with
-- every hand visible (best_played, rate), against an honest seat of the same agreement with the policy
-- (its share of the player's other decisions): the hits expected, the z-score, and flagged
-- (past_threshold) where z >= 3.09 (one-sided p < 0.001 in the normal approximation; `replay fairplay` gives the
-- exact p-value). A signal for an arbiter to look further, never proof.
WITH per_player AS (
  SELECT f.kind, s.player, count(DISTINCT f.game_id) AS games, sum(f.decisions) AS decisions,
    sum(f.hits) AS hits, sum(f.share_sum) AS share_sum, sum(f.share_squares) AS share_squares,
    CASE WHEN sum(f.other) > 0 THEN CAST(sum(f.agreed) AS DOUBLE) / sum(f.other) ELSE 0 END
      AS agreement
  FROM fairplay f
  JOIN seats s ON s.game_id = f.game_id AND s.seat = f.seat
  JOIN chosen_seats c ON c.gno = s.gno AND c.seat = s.seat
  GROUP BY f.kind, s.player
),
tested AS (
  SELECT *, (1 - agreement) * share_sum AS expected,
    (1 - agreement) * share_sum - (1 - agreement) * (1 - agreement) * share_squares AS spread
  FROM per_player
)
SELECT kind, player, games, decisions, hits AS best_played,
  CASE WHEN decisions > 0 THEN CAST(hits AS DOUBLE) / decisions END AS rate, agreement,
  expected,
  CASE WHEN spread > 0 THEN (hits - expected) / sqrt(spread) END AS z,
  coalesce(spread > 0 AND (hits - expected) / sqrt(spread) >= 3.09, false)
    OR (spread <= 0 AND hits > expected) AS past_threshold
FROM tested
ORDER BY kind, player
