-- title: Hez2: places by seat
-- chart: heatmap
-- section: Seats and the deal
-- Per seat count, seat and place (1 = first out): how many games the seat finished in that place.
SELECT h.players, h.seat, h.place, count(*) AS games
FROM hez2_seats h
JOIN chosen_seats s ON s.gno = h.gno AND s.seat = h.seat
GROUP BY h.players, h.seat, h.place
ORDER BY h.players, h.seat, h.place
