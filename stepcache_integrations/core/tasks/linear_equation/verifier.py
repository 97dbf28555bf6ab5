"""Linear equations in one variable: check steps and answers, solve them.

Every equation in a step must agree with the request's equation: an equation in the variable
must have the same solution, an arithmetic one (``20 - 5 = 15``) must be true. Reading equations
from text, their arithmetic and the canonical solution live in
:mod:`~stepcache_integrations.core.tasks.linear_equation.equation`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from stepcache_integrations.core.steps import ParagraphSegmenter, Step, join_steps
from stepcache_integrations.core.tasks.linear_equation.after_value import (
    checks_after_value,
    lines_after_value,
)
from stepcache_integrations.core.tasks.linear_equation.asking import CachedEquation, stated_outside
from stepcache_integrations.core.tasks.linear_equation.equation import (
    MAX_SCAN_CHARS,
    LinearEquation,
    ScannedEquation,
    canonical_steps,
    format_number,
    parse_equation,
    scan_equations,
    solve_lines,
    step_words,
)
from stepcache_integrations.core.tasks.linear_equation.evidence import (
    final_statement,
    solution_as_answered,
)
from stepcache_integrations.core.tasks.linear_equation.numerals import (
    point_form,
    reading,
    reading_language,
    written_back,
)
from stepcache_integrations.core.tasks.linear_equation.rewrite import correct_answer
from stepcache_integrations.core.tasks.output_format import asks_for_json
from stepcache_integrations.core.text.quantities import quantity_at, read_number
from stepcache_integrations.core.verifiers.base import Verdict, Verifier, VerifyContext

__all__ = [
    "TASK",
    "LinearEquation",
    "LinearEquationVerifier",
    "canonical_steps",
    "format_number",
    "parse_equation",
]

TASK = "linear_equation"


# ---------------------------------------------------------------------------------------------
# Judging equations against the request
# ---------------------------------------------------------------------------------------------


def _is_rounding(exact: Fraction, literal: str | None) -> bool:
    """Whether the decimal ``literal`` is ``exact`` rounded to two or more decimals."""
    if literal is None or "." not in literal:
        return False
    places = len(literal) - literal.index(".") - 1
    if places < 2:
        return False
    try:
        written = Fraction(literal)
    except (ValueError, ZeroDivisionError):
        return False
    # Inclusive half unit: both neighbours of an exact tie count as a rounding.
    scale: int = 10**places
    return abs(exact - written) * 2 * scale <= 1


def _agrees(exact: Fraction, written: Fraction, literal: str | None) -> bool:
    return written == exact or _is_rounding(exact, literal)


def _judge(eq: ScannedEquation, target: LinearEquation) -> str | None:
    """``None`` when ``eq`` holds for the request; otherwise why it does not."""
    var = target.variable
    foreign = sorted(eq.names - {var})
    if foreign:
        return (
            f"'{eq.text}' is an equation in {', '.join(foreign)}, "
            f"but {target.text} is an equation in {var}"
        )
    a, b, c = eq.normal_form(var)
    if a == 0:
        lhs, rhs = eq.left.const, eq.right.const
        if _agrees(lhs, rhs, eq.right_literal) or _agrees(rhs, lhs, eq.left_literal):
            return None
        if eq.names:
            return f"'{eq.text}' has no solution for {var}"
        return f"'{eq.text}' is false: the left side is {format_number(lhs)}"
    solution = (c - b) / a
    literal = eq.right_literal if eq.left_var else eq.left_literal if eq.right_var else None
    if _agrees(target.solution, solution, literal):
        return None
    return (
        f"'{eq.text}' gives {var} = {format_number(solution)}, "
        f"but {target.text} gives {var} = {format_number(target.solution)}"
    )


# "the answer is <value>": what follows is read by the number reader.
_ANSWER_IS = re.compile(
    r"(?i)\b(?:answer|solution|result)[ \t]*(?:is|:|=)?[ \t]*(?:equal[ \t]+to[ \t]+)?"
)
# A value stated in prose is a number written in figures ("7", "-3.5", "7/2", "3 1/2",
# "1,200"): a word there ("x is twice y", "the answer is one of") states no value.
_STATED_FORMS = frozenset({"digits", "fraction", "mixed"})


def _stated_value(norm: str, at: int) -> tuple[Fraction, str | None, int] | None:
    """The value stated at offset ``at`` of ``norm`` as the number reader reads it, its
    literal when it is a plain decimal (for rounding), and where its text ends."""
    found = quantity_at(norm, at)
    if found is None or found.kind not in ("number", "fraction") or found.figures is None:
        return None
    if found.form not in _STATED_FORMS:
        return None
    start, end = found.figures
    literal = norm[start:end] if found.form == "digits" and not found.grouped else None
    if literal is not None and found.value < 0 and not literal.startswith("-"):
        literal = "-" + literal
    return found.value, literal, found.end


@dataclass(frozen=True)
class _Final:
    value: Fraction
    literal: str | None
    text: str
    start: int
    prose: bool  # "the answer is 5" rather than "x = 5"


def _final_value(
    norm: str, eqs: Sequence[ScannedEquation], var: str, prose: bool = True
) -> _Final | None:
    """The last statement of the variable's value: ``v = 5``, ``5 = v``, and with ``prose``
    also ``the answer is 5`` / ``v is 5``."""
    best: _Final | None = None
    for eq in eqs:
        if eq.left_var == var and not eq.right.names:
            candidate = _Final(eq.right.const, eq.right_literal, eq.text, eq.start, False)
        elif eq.right_var == var and not eq.left.names:
            candidate = _Final(eq.left.const, eq.left_literal, eq.text, eq.start, False)
        else:
            continue
        if best is None or candidate.start >= best.start:
            best = candidate
    if not prose:
        return best
    var_is = re.compile(
        rf"(?<!\w){re.escape(var)}[ \t]+(?:is|equals)[ \t]+(?:equal[ \t]+to[ \t]+)?"
    )
    for pattern in (_ANSWER_IS, var_is):
        for match in pattern.finditer(norm):
            parsed = _stated_value(norm, match.end())
            if parsed is None or (best is not None and match.start() < best.start):
                continue
            shown = " ".join(norm[match.start() : parsed[2]].split())
            best = _Final(parsed[0], parsed[1], shown, match.start(), True)
    return best


# Text that may follow the final "v = value" on the last line (punctuation, markdown).
_TRAILING = re.compile(r"[\s.*`$_!]*\Z")


def _ends_answer(norm: str, final: _Final, eqs: Sequence[ScannedEquation]) -> bool:
    """Whether ``final`` is on the last line and the last equation closes the answer."""
    body = norm.rstrip()
    last_line = body.rfind("\n") + 1
    if final.prose or final.start < last_line or not eqs:
        return False
    # The last equation may continue the final one ("x = 15/3 = 5").
    return _TRAILING.match(body, eqs[-1].end) is not None


# What the prompt says about the task: another output format, or not solving at all.
_NOT_SOLVING = re.compile(
    r"(?i)\b(?:do(?:es)?\s*n[o']?t|never|without|instead\s+of|rather\s+than)\s+"
    r"(?:\w+\s+){0,2}?solv"
)


def _asks_for_other_output(request: str) -> bool:
    """``True`` when the prompt asks not to solve, or to answer as JSON ("Record 3x + 5 = 20
    as JSON"); a negated mention ("instead of a JSON object, solve ...") does not count."""
    return bool(_NOT_SOLVING.search(request[:MAX_SCAN_CHARS])) or asks_for_json(request)


def _asks_for_final_line(request: str, var: str) -> bool:
    """Whether the prompt demands the answer's form, as in 'end with the line "x = <value>"'."""
    pattern = (
        rf"(?<!\w){re.escape(var)}[ \t]*=[ \t]*"
        r"(?:<[^<>\n]{0,40}>|\[[^\[\]\n]{0,40}\]|\{[^{}\n]{0,40}\}|\?|\.\.\.|\u2026|_{2,})"
    )
    return re.search(pattern, request[:MAX_SCAN_CHARS]) is not None


def _target(request: str) -> LinearEquation | None:
    """The equation to hold answers to, when the request asks for it to be solved."""
    eq = parse_equation(request)
    if eq is None or _asks_for_other_output(request):
        return None
    return eq


# ---------------------------------------------------------------------------------------------
# Step labels
# ---------------------------------------------------------------------------------------------

# Step labels a continuation should follow.
# Step numbering ("Step 2:", "2."): a label, not a number of the answer.
_STEP_LABEL = re.compile(r"^[ \t]*(?:[*_]{1,2})?step[ \t]+([0-9]{1,6})[ \t]*[:.)-]", re.I)
_LIST_LABEL = re.compile(r"^[ \t]*([0-9]{1,6})([.)])[ \t]")
_LABEL_SPAN = re.compile(
    r"^[ \t]*(?:(?:[*_]{1,2})?step[ \t]+[0-9]{1,6}[ \t]*[:.)-]|[0-9]{1,6}[.)][ \t])", re.I
)


def _numbering(prefix: Sequence[Step]) -> Callable[[int], str]:
    """How the next step is labelled, from the labels the prefix used."""
    for step in reversed(prefix):
        head = step.text[:200]
        if match := _STEP_LABEL.match(head):
            start = int(match.group(1)) + 1
            return lambda k: f"Step {start + k}: "
        if match := _LIST_LABEL.match(head):
            start, mark = int(match.group(1)) + 1, match.group(2)
            return lambda k: f"{start + k}{mark} "
    if not prefix:
        return lambda k: f"Step {k + 1}: "
    return lambda k: ""


def _separator(prefix: Sequence[Step]) -> str:
    for step in reversed(prefix):
        sep = step.separator
        if sep and not sep.strip() and "\n" in sep:
            return sep
    return "\n"


# ---------------------------------------------------------------------------------------------
# Whole-token substitution
# ---------------------------------------------------------------------------------------------


def _token_pattern(token: str) -> str:
    escaped = re.escape(token)
    number = read_number(token)
    if number is not None and number.form == "digits" and number.unit is None:
        # "5" must not touch 15, 5.5 or 0.5, but does change "5x" (a coefficient).
        return rf"(?<![\w.]){escaped}(?![0-9]|\.[0-9])"
    if len(token) == 1 and token.isalpha():
        # "x" changes in "3x" but not in "next", "x2" or "x_1"; nor does "s" in "let's", "t"
        # in "don't", "e" in "i.e." or "g" in "e.g.": a contraction or an abbreviation.
        return (
            rf"(?<![^\W\d])(?<!['\u2019])(?<![A-Za-z]\.){escaped}"
            rf"(?![\w'\u2019])(?!\.[A-Za-z])"
        )
    return rf"(?<!\w){escaped}(?!\w)"


# One-letter words of English: as a variable they cannot be told from the word in prose
# ("divide by a" / "a whole number").
_LETTER_WORDS = frozenset({"a", "A", "i", "I"})


def _reads_as_a_word(token: str, text: str) -> bool:
    """Whether renaming ``token`` in ``text`` could rewrite an English word: it is a one-letter
    word and stands alone outside the step's equations ("so a is 5", "a positive number")."""
    if token not in _LETTER_WORDS:
        return False
    norm, equations = scan_equations(text)
    cursor = 0
    prose: list[str] = []
    for eq in equations:
        prose.append(norm[cursor : eq.start])
        cursor = max(cursor, eq.end)
    prose.append(norm[cursor:])
    return re.search(_token_pattern(token), " ".join(prose)) is not None


def _substitute(text: str, substitutions: dict[str, str], skip_until: int) -> str:
    """Apply all substitutions at once (so ``x<->y`` swaps work), on whole tokens only."""
    spans: list[tuple[int, int, str]] = []
    for old, new in substitutions.items():
        if not old or old == new:
            continue
        for match in re.finditer(_token_pattern(old), text):
            if match.start() >= skip_until:
                spans.append((match.start(), match.end(), new))
    spans.sort(key=lambda span: (span[0], -(span[1] - span[0])))
    out: list[str] = []
    cursor = 0
    for start, end, new in spans:
        if start < cursor:
            continue  # overlaps a longer match already replaced
        out.append(text[cursor:start])
        out.append(new)
        cursor = end
    out.append(text[cursor:])
    return "".join(out)


def _valued(lines: list[str], target: LinearEquation, value: str) -> list[str] | None:
    """The solver's ``lines`` with the closing value written as ``value`` (the form the
    answer in hand writes it in: "x = 6.0" where it wrote "x = 5.0"); ``None`` when the last
    line does not close with the value."""
    if not lines:
        return None
    closing = f"{target.variable} = {format_number(target.solution)}."
    if not lines[-1].endswith(closing):
        return None
    head = lines[-1][: -len(closing)]
    return [*lines[:-1], f"{head}{target.variable} = {value}."]


def _in_marks_of(text: str, shown: str, target: LinearEquation) -> str:
    """``text`` (the family's own, with decimal points) in the decimal marks of ``shown`` (the
    model's answer or the steps before), else of the request's language."""
    form = point_form(shown, reading_language(shown, target.answer_language()))
    return written_back(text, form)


def _solved_from(prefix_text: str, target: LinearEquation, value: str) -> list[str] | None:
    """The solver's lines from the last equation of ``prefix_text`` to the value (written as
    ``value``); ``None`` when the prefix holds a wrong equation or the lines do not close
    with the value."""
    var = target.variable
    equations = scan_equations(reading(prefix_text, target.answer_language))[1]
    if any(_judge(eq, target) is not None for eq in equations):
        return None  # no continuation can make a wrong prefix right
    state = next(
        (eq for eq in reversed(equations) if eq.names and eq.normal_form(var)[0] != 0), None
    )
    if state is None:
        lines = canonical_steps(target)
    else:
        a, b, c = state.normal_form(var)
        language = target.answer_language()
        lines = solve_lines(a, b, c, var, state.text, target.solution, language)
    return _valued(lines, target, value)


# ---------------------------------------------------------------------------------------------
# The verifier
# ---------------------------------------------------------------------------------------------


class LinearEquationVerifier(Verifier):
    """Checks steps and answers against the linear equation in the request.

    Example:
        >>> v = LinearEquationVerifier()
        >>> ctx = VerifyContext("Solve for x: 3x + 5 = 20.")
        >>> v.check_step(ctx, Step("Subtract 5: 3x = 15."), 1, []).passed
        True
        >>> v.check_answer(ctx, "So x = 4.").reason
        'final answer x = 4 but 3x + 5 = 20 gives x = 5'
        >>> print(v.fallback(VerifyContext(ctx.request, answer="So x = 4.")))  # corrected
        So x = 5.
    """

    name = "linear"

    def applies_to(self, request: str) -> bool:
        """Whether ``request`` asks for a linear equation in one variable to be solved."""
        return isinstance(request, str) and _target(request) is not None

    def checks_answer(self, request: str) -> bool:
        return self.applies_to(request)

    def check_step(
        self, ctx: VerifyContext, step: Step, index: int, steps: Sequence[Step]
    ) -> Verdict:
        """Every equation in the step must hold; a step without one is not applicable."""
        target = _target(ctx.request)
        if target is None or not isinstance(step.text, str):
            return Verdict.not_applicable(self.name, index)
        equations = scan_equations(reading(step.text, target.answer_language))[1]
        if not equations:
            return Verdict.not_applicable(self.name, index)
        for eq in equations:
            reason = _judge(eq, target)
            if reason is not None:
                return Verdict.fail(self.name, reason, step=index)
        shown = "; ".join(eq.text for eq in equations[:3])
        return Verdict.ok(self.name, f"'{shown}' holds for {target.text}", step=index)

    def check_answer(self, ctx: VerifyContext, answer: str) -> Verdict:
        """The last stated value must be the solution and every equation must hold; when the
        prompt asks for a closing ``v = <value>`` line, the answer must end with it."""
        target = _target(ctx.request)
        if target is None:
            return Verdict.not_applicable(self.name)
        if not isinstance(answer, str):
            return Verdict.fail(self.name, "the answer is not text")
        var, exact = target.variable, target.solution
        expected = f"{var} = {format_number(exact)}"
        norm, equations = scan_equations(reading(answer, target.answer_language))
        strict = _asks_for_final_line(ctx.request, var)
        final = _final_value(norm, equations, var, prose=not strict)
        if final is None:
            return Verdict.fail(
                self.name,
                f"the answer never states a final value for {var} "
                f"(a line like '{var} = <value>'); {target.text} gives {expected}",
            )
        if not _agrees(exact, final.value, final.literal):
            return Verdict.fail(
                self.name, f"final answer {final.text} but {target.text} gives {expected}"
            )
        for eq in equations:
            reason = _judge(eq, target)
            if reason is not None:
                return Verdict.fail(self.name, f"wrong intermediate equation: {reason}")
        if strict and not _ends_answer(norm, final, equations):
            return Verdict.fail(
                self.name,
                f"the answer must end with the line '{var} = <value>' as the prompt asks; "
                f"the value is stated ({final.text}) but the answer goes on after it",
            )
        return Verdict.ok(self.name, f"{expected} solves {target.text}")

    def answer_key(self, request: str, answer: str, options: Mapping[str, Any]) -> Any:
        """The value the answer states for the unknown (an audit's answer key): the exact
        solution when the stated value agrees with it (a rounded ``x = 3.33`` for 10/3),
        else the value as stated; ``None`` when the answer states none.

        Example:
            >>> v = LinearEquationVerifier()
            >>> v.answer_key("Solve 3x + 5 = 20", "3x = 15\\nx = 5", {})
            Fraction(5, 1)
            >>> v.answer_key("Solve 3x + 5 = 20", "x = 6", {})
            Fraction(6, 1)
        """
        target = _target(request)
        if target is None or not isinstance(answer, str):
            return None
        norm, equations = scan_equations(reading(answer, target.answer_language))
        final = _final_value(norm, equations, target.variable)
        if final is None:
            return None
        if _agrees(target.solution, final.value, final.literal):
            return target.solution
        return final.value

    def repair_instruction(self, ctx: VerifyContext, answer: str, failure: Verdict) -> str | None:
        target = _target(ctx.request)
        if target is None:
            return None
        var = target.variable
        reason = failure.reason.rstrip(". ") if isinstance(failure, Verdict) else ""
        what = f": {reason}" if reason else ""
        return (
            f"Your solution of {target.text} is wrong{what}. "
            f"Solve {target.text} for {var} again, step by step, checking every equation, "
            f"and end with a final line of the form '{var} = <value>'."
        )

    def fallback(self, ctx: VerifyContext) -> str | None:
        """The model's own answer (``ctx.answer``) corrected (its values, in its layout), else
        the canonical solution with the value in the form that answer wrote it; only when that
        answer shows the value is what is asked and its form writes the solution exactly."""
        target = _target(ctx.request)
        answer = ctx.answer
        if target is None or not isinstance(answer, str):
            return None
        value = solution_as_answered(answer, target, target.solution)
        if value is None:
            return None  # a rounding, another form, another question: the model's to answer
        try:
            steps = [step.text + step.separator for step in ParagraphSegmenter().split(answer)]
        except Exception:
            steps = [answer]
        corrected = correct_answer(steps, target)
        if corrected is not None and corrected != answer:
            return corrected
        # The solver's steps end at the value: what the answer said after it comes along, or
        # the answer stays flagged.
        after = checks_after_value(answer, target, value)
        lines = _valued(canonical_steps(target), target, value)
        if lines is None or after is None:
            return None
        label = step_words(target.answer_language())["label"]
        text = "\n".join(label.format(k=k) + line for k, line in enumerate(lines, 1))
        return "\n".join([_in_marks_of(text, answer, target), *after])

    def continue_steps(self, ctx: VerifyContext, prefix: Sequence[Step]) -> str | None:
        """Canonical steps from the prefix's last equation to the value, in the prefix's
        numbering style and the value in the form the cached answer (``ctx.answer``, to
        ``ctx.cached_request``) wrote it; ``None`` when the prefix holds a wrong equation, or
        when that answer does not show that the value is what is asked in a form that writes
        the new solution exactly. The lines the cached answer wrote after its value (a check,
        a claim about it) follow, re-instantiated; ``None`` when one cannot be (the model
        writes the rest)."""
        target = _target(ctx.request)
        # The cached request's equation, read when its entry was stored.
        cached = CachedEquation.in_context(ctx, TASK) if ctx.cached_request else None
        answered = cached.equation if cached is not None else target
        if target is None or answered is None or not isinstance(ctx.answer, str):
            return None
        value = solution_as_answered(ctx.answer, answered, target.solution)
        if value is None:
            return None
        try:
            prefix_text = join_steps(prefix)
        except (TypeError, AttributeError):
            return None
        # What the cached answer wrote after its value (a check, a claim) comes along,
        # re-instantiated, or the model writes the rest.
        var = target.variable
        kept = (cached.stated if cached is not None else frozenset()) | stated_outside(ctx.request)
        covered = prefix_text.count("\n") + (0 if prefix_text.endswith("\n") else 1)
        shown = final_statement(reading(prefix_text, target.answer_language), var, target)
        states_value = shown is not None and shown.value == target.solution
        covered = covered if prefix_text else 0
        after = lines_after_value(ctx.answer, answered, target, kept, covered, value, states_value)
        if after is None:
            return None
        sep = _separator(prefix)
        lead = sep if prefix_text and not prefix_text.endswith("\n") else ""
        if after.reached and after.lines:
            # The prefix states the value: what failed after it is all there is to write.
            return lead + sep.join(after.lines)
        valued = _solved_from(prefix_text, target, value)
        if valued is None:
            return None
        label = _numbering(prefix)
        body = sep.join(f"{label(k)}{line}" for k, line in enumerate(valued))
        # The lines carried over are written in the cached answer's own marks already.
        return sep.join([lead + _in_marks_of(body, prefix_text, target), *after.lines])

    def adapt_step(self, ctx: VerifyContext, step: Step) -> Step | None:
        """Apply the prompt's 1:1 substitutions (renamed variable, changed constant) to whole
        tokens of the step; ``None`` when nothing changes."""
        diff = ctx.diff
        if diff is None or not diff.substitutions or not isinstance(step.text, str):
            return None
        subs = {
            str(old): str(new)
            for old, new in diff.substitutions.items()
            if isinstance(old, str) and isinstance(new, str)
        }
        if any(_reads_as_a_word(old, step.text) for old in subs):
            return None
        # Step labels ("Step 5:") are numbering, not constants of the problem.
        label = _LABEL_SPAN.match(step.text[:200])
        text = _substitute(step.text, subs, label.end() if label else 0)
        if text == step.text:
            return None
        return Step(text, step.separator)
