"""Run the corpus on every path and print what the cache served, per class and path.

``python -m tests.security.sound_reuse.baseline [CLASS ...] [--path PATH] [--show N]``:
the wrong answers served per class and path, how many cached requests were stored (a case
whose first answer was not cached cannot be reused, so it tests nothing), and up to N
example failures per class. The pytest tests assert; this only reports.
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict

from tests.security.sound_reuse.oracle import PATHS, load_corpus
from tests.security.sound_reuse.paths import run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("classes", nargs="*")
    parser.add_argument("--path", action="append")
    parser.add_argument("--show", type=int, default=3)
    args = parser.parse_args()
    cases = [c for c in load_corpus() if not args.classes or c.cls in args.classes]
    paths = args.path or list(PATHS)
    wrong: dict[tuple[str, str], list[str]] = defaultdict(list)
    runs: Counter[tuple[str, str]] = Counter()
    decisions: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    unstored: dict[tuple[str, str], list[str]] = defaultdict(list)
    for case in cases:
        for path in paths:
            if path not in case.paths:
                continue
            runs[case.cls, path] += 1
            served = run(case, path)
            first = [s for s in served if s.side == "cached"]
            if first and not first[0].stored:
                unstored[case.cls, path].append(case.id)
            new = [s for s in served if s.side == "new"]
            if new:
                decisions[case.cls, path][new[0].decision] += 1
            bad = [s for s in served if s.wrong]
            if bad:
                wrong[case.cls, path].append(bad[0].line())
    classes = sorted({c.cls for c in cases})
    print(f"{'class':34} " + " ".join(f"{p:>16}" for p in paths))
    for cls in classes:
        cells = []
        for path in paths:
            total = runs[cls, path]
            cells.append(f"{len(wrong[cls, path])}/{total}" if total else "-")
        print(f"{cls:34} " + " ".join(f"{c:>16}" for c in cells))
    print()
    for cls in classes:
        for path in paths:
            if runs[cls, path]:
                print(
                    f"{cls} {path} decisions of the new request: {dict(decisions[cls, path])}; "
                    f"first answer not stored: {unstored[cls, path]}"
                )
    for cls in classes:
        for path in paths:
            for line in wrong[cls, path][: args.show]:
                print("WRONG", line[:600])


if __name__ == "__main__":
    main()
