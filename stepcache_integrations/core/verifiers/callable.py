"""Plain functions as verifiers: ``(request, text) -> bool | Verdict``."""

from __future__ import annotations

from collections.abc import Callable

from stepcache_integrations.core.verifiers.base import Verdict, Verifier, VerifyContext

__all__ = ["CallableVerifier"]

CheckFunction = Callable[[str, str], "bool | Verdict"]


class CallableVerifier(Verifier):
    """Wraps a function that checks the whole answer.

    The function gets the new request and the answer text and returns ``True`` / ``False`` or
    a :class:`Verdict`. An exception inside it counts as a failure (with the error as reason):
    when unsure, regenerate.

    Example:
        >>> v = CallableVerifier(lambda request, answer: answer.endswith("."), name="period")
        >>> v.check_answer(VerifyContext("Say hi"), "hi").failed
        True
    """

    def __init__(self, function: CheckFunction, name: str | None = None) -> None:
        if not callable(function):
            raise ValueError(f"CallableVerifier needs a callable, got {type(function).__name__}")
        self.function = function
        self.name = name or str(getattr(function, "__name__", "callable"))

    def checks_answer(self, request: str) -> bool:
        return True

    def check_answer(self, ctx: VerifyContext, answer: str) -> Verdict:
        try:
            result = self.function(ctx.request, answer)
        except Exception as error:  # a broken check must not let an answer through
            return Verdict.fail(self.name, f"check raised {type(error).__name__}: {error}")
        if isinstance(result, Verdict):
            return result
        if result:
            return Verdict.ok(self.name)
        return Verdict.fail(self.name, "rejected by the check function")
