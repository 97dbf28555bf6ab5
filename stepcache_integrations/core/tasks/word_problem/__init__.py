"""Multi-step arithmetic word problems: recognise, verify, and re-instantiate for new quantities."""

from stepcache_integrations.core.tasks.word_problem.family import WordProblemFamily
from stepcache_integrations.core.tasks.word_problem.verifier import WordProblemVerifier

__all__ = ["WordProblemFamily", "WordProblemVerifier"]
