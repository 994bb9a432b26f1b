"""Kept for `scrapyd-deploy`, which builds its egg with `setup.py bdist_egg`; metadata lives in pyproject.toml."""

from setuptools import setup

setup()
