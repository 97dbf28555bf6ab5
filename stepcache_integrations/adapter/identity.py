"""Which settings of a wrapped model belong in the namespace, the same way for every framework.

Two models share cache entries only when they would give the same answers. So every setting
that selects another model or server is part of the namespace: the model name and generation
parameters, and the *endpoint*: base URL, organization or project, deployment, API version,
region, default headers and default query parameters (an OpenAI-compatible server behind
another URL, another fine-tune behind the same model name, an Azure deployment). Never part of
it:

- **credentials**: API keys, tokens, passwords, secrets, authorization and cookie headers, and
  any value of a secret type. Rotating a key must not empty the cache, and a secret must never
  be hashed into an identifier that records and logs show;
- **transport settings** that change how an answer travels, never what it says: timeouts,
  retries, HTTP clients and sessions, proxies, streaming, batch sizes, callbacks;
- anything that is not plain data (a repr with a memory address would split namespaces).

Field names are read as words ("openai_api_base" is openai, api, base; "X-Api-Key" is x, api,
key), so a new provider's fields are judged by the same rules.

Example:
    >>> settings({"api_base": "http://localhost:8000/v1", "api_key": "sk-1", "timeout": 30,
    ...           "default_headers": {"X-Route": "eu", "Authorization": "Bearer t"}})
    {'api_base': 'http://localhost:8000/v1', 'default_headers': {'X-Route': 'eu'}}
    >>> endpoint({"openai_api_base": "http://h/v1/", "temperature": 0.2, "openai_api_key": "k"})
    {'openai_api_base': 'http://h/v1'}
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

__all__ = [
    "CREDENTIAL_WORDS",
    "ENDPOINT_WORDS",
    "TRANSPORT_WORDS",
    "client_base_url",
    "endpoint",
    "endpoint_of",
    "settings",
]

# A field or header whose name has one of these words holds a credential.
CREDENTIAL_WORDS = frozenset(
    {
        "key", "apikey", "token", "secret", "password", "passwd", "credential",
        "credentials", "auth", "authorization", "cookie", "bearer", "signature",
    }
)  # fmt: skip

# A field whose name has one of these words changes how an answer travels, not what it says.
TRANSPORT_WORDS = frozenset(
    {
        "timeout", "timeouts", "retries", "retry", "client", "clients", "session", "sessions",
        "http", "socket", "proxy", "proxies", "callback", "callbacks", "stream", "streaming",
        "batch", "concurrency", "pool", "limiter", "verbose",
    }
)  # fmt: skip

# A field whose name has one of these words names where a request goes (read from the
# configuration of models whose identifying parameters leave the endpoint out).
ENDPOINT_WORDS = frozenset(
    {
        "base", "url", "uri", "endpoint", "host", "hostname", "port", "server", "organization",
        "org", "project", "deployment", "engine", "version", "region", "location", "zone",
        "account", "workspace", "instance", "provider", "repo", "path", "file", "type",
        "headers", "header", "query",
    }
)  # fmt: skip

_WORD_BREAK = re.compile(r"[^a-z0-9]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@functools.lru_cache(maxsize=4096)
def _words(name: str) -> frozenset[str]:
    """The words of a field or header name: ``apiKey``, ``api_key``, ``X-Api-Key``."""
    return frozenset(word for word in _WORD_BREAK.split(_CAMEL.sub("_", name).lower()) if word)


def _secret(value: Any) -> bool:
    return callable(getattr(value, "get_secret_value", None))


_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


@functools.lru_cache(maxsize=256)
def _clean_url(url: str) -> str:
    """A URL without credentials (``user:password@``, ``?api-key=...``) or a final "/"."""
    try:
        parts = urlsplit(url)
        query = [
            (name, value)
            for name, value in parse_qsl(parts.query, keep_blank_values=True)
            if not _words(name) & CREDENTIAL_WORDS
        ]
        host = parts.netloc.rpartition("@")[2]
        cleaned = parts._replace(netloc=host, path=parts.path.rstrip("/"), query=urlencode(query))
        return urlunsplit(cleaned)
    except ValueError:  # not a URL after all: kept as it is
        return url


_DROP = object()  # what _plain returns for a value that is not plain data


def _plain(value: Any) -> Any:
    """``value`` as plain data with credentials taken out of nested mappings (a secret is a
    scalar under a credential's name: ``{"api-key": "..."}``), or ``_DROP`` when it is not
    plain data."""
    if _secret(value):
        return _DROP
    if isinstance(value, str) and _URL.match(value):
        return _clean_url(value)
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, set | frozenset):
        items = [_plain(item) for item in value]
        if any(item is _DROP for item in items):
            return _DROP
        return sorted(items, key=repr)
    if isinstance(value, list | tuple):
        items = [_plain(item) for item in value]
        return _DROP if any(item is _DROP for item in items) else items
    if isinstance(value, Mapping):
        kept: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                return _DROP
            if _words(key) & CREDENTIAL_WORDS and not isinstance(item, Mapping | list | tuple):
                continue
            plain = _plain(item)
            if plain is _DROP:
                return _DROP
            kept[key] = plain
        return kept
    return _DROP


def settings(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of a model's configuration that belong in the namespace: plain data, no
    credential, no transport setting (see the module docstring).

    Example:
        >>> settings({"model": "m", "max_tokens": 64, "max_retries": 3, "password": "p"})
        {'model': 'm', 'max_tokens': 64}
    """
    kept: dict[str, Any] = {}
    for name, value in fields.items():
        words = _words(name)
        if words & CREDENTIAL_WORDS or words & TRANSPORT_WORDS:
            continue
        plain = _plain(value)
        if plain is not _DROP:
            kept[name] = plain
    return kept


def endpoint(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of a model's configuration that name where its requests go (their names
    have an endpoint word: base URL, organization, deployment, API version, headers, ...),
    set (not ``None`` or empty), as :func:`settings` keeps them (URLs without credentials
    or a final "/").

    Example:
        >>> endpoint({"azure_endpoint": "https://a.example.com", "deployment_name": "gpt",
        ...           "openai_api_version": "2024-02-01", "default_query": None, "n": 2})
        ... # doctest: +NORMALIZE_WHITESPACE
        {'azure_endpoint': 'https://a.example.com', 'deployment_name': 'gpt',
         'openai_api_version': '2024-02-01'}
    """
    named = {name: value for name, value in fields.items() if _words(name) & ENDPOINT_WORDS}
    return {
        name: value
        for name, value in settings(named).items()
        if value is not None and value not in ("", {}, [])  # unset, or nothing but secrets
    }


@dataclass(frozen=True)
class _Layout:
    """What a model class declares: its endpoint fields and its client attributes (looking a
    missing attribute up on a Pydantic model costs an exception per request)."""

    endpoint_fields: tuple[str, ...]
    clients: tuple[str, ...]


_LAYOUTS: dict[type, _Layout] = {}


def _layout(model_type: type) -> _Layout:
    found = _LAYOUTS.get(model_type)
    if found is None:
        fields = getattr(model_type, "model_fields", None)
        declared: Mapping[str, Any] = fields if isinstance(fields, Mapping) else {}
        found = _Layout(
            tuple(name for name in declared if _words(name) & ENDPOINT_WORDS),
            tuple(
                name
                for name in ("root_client", "client")
                if name in declared or hasattr(model_type, name)
            ),
        )
        _LAYOUTS[model_type] = found  # one per class: classes are few
    return found


def client_base_url(model: object) -> str | None:
    """The base URL a model's client really sends to, where the model exposes its client
    (``ChatOpenAI.root_client.base_url``: it also sees the ``OPENAI_BASE_URL`` environment
    variable), without credentials or a final "/"; else ``None``.

    Example:
        >>> class Client:
        ...     base_url = "http://localhost:8000/v1/"
        >>> class Model:
        ...     root_client = Client()
        >>> client_base_url(Model())
        'http://localhost:8000/v1'
    """
    for attribute in _layout(type(model)).clients:
        url = getattr(getattr(model, attribute, None), "base_url", None)
        if url is not None and not _secret(url):
            return _clean_url(str(url))
    return None


def endpoint_of(model: object) -> dict[str, Any]:
    """Where a (Pydantic) model object sends its requests: its configuration fields with an
    endpoint word in their name (:func:`endpoint`), and the base URL its client really uses
    (:func:`client_base_url`, as ``"client_base_url"``). Empty for a model that names none.

    Example:
        >>> from pydantic import BaseModel
        >>> class Hosted(BaseModel):
        ...     model_name: str = "m"
        ...     base_url: str | None = None
        ...     api_key: str = "sk-1"
        >>> endpoint_of(Hosted(base_url="http://localhost:8000/v1/"))
        {'base_url': 'http://localhost:8000/v1'}
        >>> endpoint_of(Hosted())
        {}
    """
    names = _layout(type(model)).endpoint_fields
    found = endpoint({name: getattr(model, name, None) for name in names})
    url = client_base_url(model)
    if url is not None:
        found["client_base_url"] = url
    return found
