-- Fou!: the dealer event names the first dealer; the deal passes clockwise each round.
SELECT d.game_id, r.round, CAST((d.player + r.round - 1) % g.players AS INT) AS dealer
FROM events d
JOIN game_starts g ON g.game_id = d.game_id
JOIN (SELECT DISTINCT game_id, round FROM events WHERE kind = 'fou' AND type = 'deal') r
  ON r.game_id = d.game_id
WHERE d.kind = 'fou' AND d.type = 'dealer'
