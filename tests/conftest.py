"""Shared test configuration."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "cardtable", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("cardtable")
