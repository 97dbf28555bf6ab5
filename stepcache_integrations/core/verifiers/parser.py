"""Output parsers as verifiers: the answer passes if the parser accepts it.

Duck-typed on ``parse(text)``, so LangChain's ``BaseOutputParser`` (Pydantic, JSON, enum, ...)
and LlamaIndex's output parsers both work without the core importing either framework.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from stepcache_integrations.core.verifiers.base import Verdict, Verifier, VerifyContext

__all__ = ["OutputParserVerifier", "ParsesText"]


@runtime_checkable
class ParsesText(Protocol):
    """Anything with ``parse(text)`` that raises on text it does not accept."""

    def parse(self, text: str) -> Any: ...


class OutputParserVerifier(Verifier):
    """The whole answer must be accepted by ``parser.parse``.

    Example:
        >>> from langchain_core.output_parsers import JsonOutputParser
        >>> v = OutputParserVerifier(JsonOutputParser())
        >>> v.check_answer(VerifyContext("Give JSON"), "not json").failed
        True
    """

    def __init__(self, parser: ParsesText, name: str | None = None) -> None:
        if not isinstance(parser, ParsesText):
            raise ValueError(
                f"an output parser needs a parse(text) method, got {type(parser).__name__}"
            )
        self.parser = parser
        self.name = name or f"parser:{type(parser).__name__}"

    def checks_answer(self, request: str) -> bool:
        return True

    def check_answer(self, ctx: VerifyContext, answer: str) -> Verdict:
        try:
            self.parser.parse(answer)
        except Exception as error:
            message = str(error).splitlines()[0][:300] if str(error) else type(error).__name__
            return Verdict.fail(self.name, f"the output parser rejected the answer: {message}")
        return Verdict.ok(self.name)

    def repair_instruction(self, ctx: VerifyContext, answer: str, failure: Verdict) -> str | None:
        instructions = getattr(self.parser, "get_format_instructions", None)
        hint = ""
        if callable(instructions):
            try:
                hint = f"\n{instructions()}"
            except Exception:  # some parsers need arguments; the reason is enough then
                hint = ""
        return f"{failure.reason}. Reply with the corrected answer only.{hint}"
