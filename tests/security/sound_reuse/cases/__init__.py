"""The builders of the sound-reuse corpus: hand-written facts, word problems, tools and
request pairs, one module per group of classes. ``python -m
tests.security.sound_reuse.cases`` writes ``corpus/*.jsonl`` and ``benign.jsonl``; the tests
read only the JSONL files."""
