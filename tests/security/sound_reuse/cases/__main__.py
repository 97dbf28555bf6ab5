"""Write the corpus: ``python -m tests.security.sound_reuse.cases``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.security.sound_reuse.cases.build import build
from tests.security.sound_reuse.oracle import BENIGN_FILE, CORPUS_DIR


def write(path: Path, rows: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))


def main() -> None:
    by_class, benign = build()
    CORPUS_DIR.mkdir(exist_ok=True)
    for old in CORPUS_DIR.glob("*.jsonl"):
        old.unlink()
    for cls, rows in by_class.items():
        write(CORPUS_DIR / f"{cls}.jsonl", rows)
        print(f"{cls}: {len(rows)}")
    write(BENIGN_FILE, benign)
    print(f"benign: {len(benign)}; attack cases: {sum(map(len, by_class.values()))}")


if __name__ == "__main__":
    main()
