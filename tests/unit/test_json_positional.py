"""Booleans traced by their place in a list of values that follows the object's keys."""

from __future__ import annotations

from stepcache_integrations.core.tasks.json_object.tracing import retarget, trace
from stepcache_integrations.core.text import compare


def _traced(request: str, obj: dict[str, object]) -> dict[tuple[str | int, ...], str]:
    return {slot.path: request[slot.span[0] : slot.span[1]] for slot in trace(request, obj)}


def test_a_yes_after_the_key_list_is_the_boolean_at_its_place() -> None:
    request = "Return JSON with keys product, price and in_stock: Desk lamp, 24.99, yes"
    obj = {"product": "Desk lamp", "price": 24.99, "in_stock": True}
    assert _traced(request, obj)[("in_stock",)] == "yes"


def test_in_portuguese_with_a_decimal_comma() -> None:
    request = "Retorne um JSON com as chaves produto, preco e em_estoque: Cadeira, 349,90, sim"
    obj = {"produto": "Cadeira", "preco": 349.9, "em_estoque": True}
    assert _traced(request, obj)[("em_estoque",)] == "sim"
    new = request.replace("sim", "não")
    result = retarget(request, new, compare(request, new).edits, obj)
    assert not isinstance(result, str), result
    assert result.obj == {"produto": "Cadeira", "preco": 349.9, "em_estoque": False}


def test_two_booleans_each_at_its_own_place() -> None:
    request = "json with fields id, active, admin -> 7781, no, yes"
    obj = {"id": 7781, "active": False, "admin": True}
    traced = _traced(request, obj)
    assert (traced[("active",)], traced[("admin",)]) == ("no", "yes")


def test_no_place_when_the_values_do_not_match_the_keys_in_number() -> None:
    request = "Return JSON with keys product, price and in_stock: Desk lamp, 24.99, 3 left, yes"
    obj = {"product": "Desk lamp", "price": 24.99, "in_stock": True}
    assert ("in_stock",) not in _traced(request, obj)


def test_no_place_when_the_request_names_the_keys_in_another_order() -> None:
    request = "Return JSON with keys in_stock, product and price: yes, Desk lamp, 24.99"
    obj = {"product": "Desk lamp", "price": 24.99, "in_stock": True}
    assert ("in_stock",) not in _traced(request, obj)


def test_a_yes_at_another_keys_place_is_not_this_boolean() -> None:
    request = "Return JSON with keys name, premium and trial_expired: Anna, no, soon"
    obj = {"name": "Anna", "premium": True, "trial_expired": False}
    assert ("trial_expired",) not in _traced(request, obj)
