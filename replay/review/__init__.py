"""The review of recorded games: the cost of every decision under hidden information
(``replay review``, docs/review.md).

:mod:`replay.review.rollout` plays a state on to the end of its scoring unit with a policy;
:mod:`replay.review.engine` values each decision's alternatives on sampled deals of what its
seat could not see; :mod:`replay.review.stats` gives every figure its interval;
:mod:`replay.review.report` writes a review for people and for programs.
"""

#: Deals of the hidden cards per decision when none is given.
DEFAULT_SAMPLES = 64
#: The most alternatives valued at one decision (a Hearts pass has 286, a Hiifuu discard
#: hundreds): beyond it the move played, the policy's and a seeded draw of the others.
DEFAULT_ALTERNATIVES = 12
#: The policy a review plays on with when none is named.
DEFAULT_POLICY = "heuristic"
#: Rollouts to the end of the game per finding when none is given (``--impact``).
DEFAULT_IMPACT_SAMPLES = 200
