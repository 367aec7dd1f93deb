"""The sample corpus of ``sample_logs/`` (``make samples``): a club's season of the four games
(:mod:`.season`), the disputed logs (:mod:`.disputes`) and the command that writes them
(:mod:`.samples`)."""
