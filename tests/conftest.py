"""Shared fixtures: the compiled profiles and the project's folders."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from mjspec.runtime.profile import Profile
from mjspec.app.registry import load_profile, profile_ids

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"

settings.register_profile("ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("slow", max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")


def all_profiles() -> list[Profile]:
    return [load_profile(pid) for pid in profile_ids()]


@pytest.fixture(params=profile_ids())
def profile(request: pytest.FixtureRequest) -> Profile:
    return load_profile(request.param)
