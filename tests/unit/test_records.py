"""The record attached to every response: its dict form is complete and independent."""

from __future__ import annotations

import json
from dataclasses import asdict

from stepcache_integrations.core.records import StepCacheRecord


def a_record() -> StepCacheRecord:
    record = StepCacheRecord(decision="patch", namespace="ns", tenant="acme", similarity=0.93)
    record.latency_ms = {"lookup": 0.4, "verify": 1.2, "total": 2.0}
    record.verdicts = [
        {"verifier": "linear_equation", "outcome": "fail", "reason": "x = 4", "step": 2},
        {"verifier": "custom", "outcome": "pass", "reason": "", "step": None, "notes": ["a"]},
    ]
    record.patched_by = "solver"
    return record


def test_the_dict_has_every_field_with_its_value() -> None:
    record = a_record()
    data = record.to_dict()
    assert data == asdict(record)
    assert list(data) == list(asdict(record))  # the fields' order too
    assert json.loads(json.dumps(data)) == data


def test_changing_the_dict_changes_no_record() -> None:
    record = a_record()
    data = record.to_dict()
    data["latency_ms"]["total"] = 99.0
    data["verdicts"][0]["reason"] = "changed"
    data["verdicts"][1]["notes"].append("b")
    data["verdicts"].append({})
    assert record.latency_ms["total"] == 2.0
    assert record.verdicts[0]["reason"] == "x = 4"
    assert record.verdicts[1]["notes"] == ["a"]
    assert len(record.verdicts) == 2
