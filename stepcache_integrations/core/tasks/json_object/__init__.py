"""JSON objects: required keys, fixed values, closed key lists, schemas; edits, partial patches."""

from stepcache_integrations.core.tasks.json_object.family import JsonObjectFamily
from stepcache_integrations.core.tasks.json_object.verifier import JsonVerifier

__all__ = ["JsonObjectFamily", "JsonVerifier"]
