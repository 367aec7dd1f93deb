"""Shared test settings: a Hypothesis profile without deadlines (the machine is shared)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "replay",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("replay")
