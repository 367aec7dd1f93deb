"""The data model every part shares: card codes and bit sets (:mod:`.cards`, :mod:`.packed`),
the event row (:mod:`.events`) and its fast column decoding (:mod:`.decode`, :mod:`.cells`),
the game specs (:mod:`.specs`) with their card faces (:mod:`.faces`) and event fields
(:mod:`.fields`), the rule book (:mod:`.rulebook`) and a broken rule (:mod:`.violation`).
It imports no game, no storage and no screen."""
