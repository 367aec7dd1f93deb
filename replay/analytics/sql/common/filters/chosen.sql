-- chosen: the games the filters select (kind, seat count, start date from :since to :until
-- inclusive, and games in which :player held a seat); a null parameter selects every game.
SELECT g.game_id, g.gno, g.kind
FROM games g
WHERE (:kind IS NULL OR g.kind = :kind)
  AND (:players IS NULL OR g.players = :players)
  AND (:since IS NULL OR g.day >= :since)
  AND (:until IS NULL OR g.day <= :until)
  AND (:player IS NULL OR g.gno IN (SELECT s.gno FROM seats s WHERE s.player = :player))
