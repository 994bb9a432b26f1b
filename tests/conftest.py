"""Shared fixtures. pytest-twisted installs the asyncio reactor (see pyproject addopts)."""

from __future__ import annotations
