"""The review of recorded games: the cost of every decision under hidden information
(``replay review``, docs/review.md).

:mod:`replay.review.rollout` plays a state on to the end of its scoring unit with a policy;
:mod:`replay.review.engine` values each decision's alternatives on sampled deals of what its
seat could not see; :mod:`replay.review.stats` gives every figure its interval;
:mod:`replay.review.report` writes a review for people and for programs.
"""
