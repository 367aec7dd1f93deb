-- title: How often the lead holds
-- chart: rate
-- section: Seats and the deal
-- For the kinds with tricks, per led suit or colour: tricks (opportunities) and tricks won by
-- their leader (hits).
SELECT t.kind, t.led, count(*) AS opportunities,
  sum(CASE WHEN t.lead_held THEN 1 ELSE 0 END) AS hits
FROM tricks t
JOIN chosen c ON c.gno = t.gno
GROUP BY t.kind, t.led
ORDER BY t.kind, t.led
