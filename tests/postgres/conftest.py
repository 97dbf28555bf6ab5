"""Postgres fixtures: a real server per session, a fresh schema per test."""

from tests.postgres.fixtures import postgres_url, schema

__all__ = ["postgres_url", "schema"]
