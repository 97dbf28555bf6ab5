"""Group the same-computation variants the cache did not serve, to work from the largest
group down (a reporting tool: the tests assert, this only reports).

``python -m tests.word_problems.templated.not_served [--wrapper W] [--show N] [--dump F]``:
per reason of the decision (quoted values and numbers elided) and, for a skip, the first
failing verdict (verifier and its detail, elided the same way), the count and the variant
kinds; then N examples per group (the variant, the failing step and the verdict's detail).
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter, defaultdict

from tests.word_problems.templated.build import SAME, load
from tests.word_problems.templated.harness import WRAPPERS, Outcome, run


def _shape(text: str, width: int = 140) -> str:
    shape = re.sub(r"'[^']*'", "'…'", text)
    shape = re.sub(r'"[^"]*"', '"…"', shape)
    shape = re.sub(r"\d+(?:[./]\d+)?", "N", shape)
    return shape[:width]


def first_failure(outcome: Outcome) -> dict[str, object] | None:
    for verdict in outcome.record.get("verdicts", []):
        if verdict.get("outcome") == "fail":
            return dict(verdict)
    return None


def group_key(outcome: Outcome) -> str:
    reason = _shape(str(outcome.record.get("reason", "")), 80)
    failed = first_failure(outcome)
    if failed is None:
        return f"{outcome.decision}: {reason}"
    detail = _shape(str(failed.get("reason", "")))
    return f"{outcome.decision}: {reason} | {failed.get('verifier')}: {detail}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--wrapper", default="langchain", choices=sorted(WRAPPERS))
    parser.add_argument("--show", type=int, default=3)
    parser.add_argument("--dump", help="write every not-served outcome as JSON lines here")
    args = parser.parse_args()
    outcomes = run(load(), args.wrapper)
    same = [o for o in outcomes if o.variant.group == SAME]
    missed = [o for o in same if not o.from_cache]
    print(f"{args.wrapper}: {len(same) - len(missed)} of {len(same)} same-computation served")
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in missed:
        groups[group_key(outcome)].append(outcome)
    for key, rows in sorted(groups.items(), key=lambda item: -len(item[1])):
        kinds = Counter(o.variant.kind for o in rows)
        print(f"{len(rows):5}  {key}")
        print(f"       kinds: {dict(kinds.most_common())}")
        for o in rows[: args.show]:
            failed = first_failure(o) or {}
            print(f"       - {o.variant.id}: step {failed.get('step')}: {failed.get('reason')}")
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as out:
            for o in missed:
                row = {
                    "id": o.variant.id,
                    "kind": o.variant.kind,
                    "prompt": o.variant.prompt,
                    "oracle": o.variant.oracle,
                    "record": o.record,
                }
                out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
