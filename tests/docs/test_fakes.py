"""The documentation's stand-in models decide from the request, not from one page's sentence."""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool
from llama_index.core.llms import ChatMessage
from llama_index.core.prompts import PromptTemplate
from llama_index.core.tools import FunctionTool
from pydantic import BaseModel

from tests.docs.fakes import DocsChatModel, DocsLlamaLLM, ToolSpec, names_in, tool_call

FLIGHT = ToolSpec(
    "book_flight",
    {
        "properties": {"destination": {"type": "string"}, "seats": {"type": "integer"}},
        "required": ["destination", "seats"],
    },
)
WEATHER = ToolSpec(
    "get_weather", {"properties": {"city": {"type": "string"}}, "required": ["city"]}
)


class Book(BaseModel):
    title: str
    year: int


@tool
def get_weather(city: str) -> str:
    """The current weather in a city."""
    return f"{city}: 9 C and fog"


def test_names_are_proper_nouns_not_question_words() -> None:
    assert names_in("What's the weather in New York? Tell Grace Hopper.") == [
        "New York",
        "Grace Hopper",
    ]


def test_the_mentioned_tool_is_called_with_values_from_the_question() -> None:
    tools = [WEATHER, FLIGHT]
    assert tool_call("Book a flight to Lisbon for 3 seats.", tools, required=False) == (
        "book_flight",
        {"destination": "Lisbon", "seats": 3},
    )
    assert tool_call("How is the weather in Oslo?", tools, required=False) == (
        "get_weather",
        {"city": "Oslo"},
    )


def test_no_call_when_no_tool_fits_or_a_value_is_missing() -> None:
    assert tool_call("Tell me a joke.", [WEATHER, FLIGHT], required=False) is None
    assert tool_call("Book a flight to Lisbon.", [FLIGHT], required=True) is None  # no seats


def test_langchain_stand_in_calls_the_tool_then_answers_from_its_result() -> None:
    model = DocsChatModel().bind_tools([get_weather])
    call = model.invoke([HumanMessage("What's the weather in Oslo?")])
    assert isinstance(call, AIMessage)
    assert [(c["name"], c["args"]) for c in call.tool_calls] == [("get_weather", {"city": "Oslo"})]
    result = ToolMessage(
        "Oslo: 9 C and fog", tool_call_id=call.tool_calls[0]["id"], name="get_weather"
    )
    answer = model.invoke([HumanMessage("What's the weather in Oslo?"), call, result])
    assert not answer.tool_calls
    assert "Oslo: 9 C and fog" in answer.text


def test_structured_output_comes_from_the_text_in_both_frameworks() -> None:
    text = "Dune was published in 1965."
    assert DocsChatModel().with_structured_output(Book).invoke(text) == Book(
        title="Dune", year=1965
    )
    llm = DocsLlamaLLM()
    prompt = PromptTemplate("Extract the book: {text}")
    assert llm.structured_predict(Book, prompt, text=text) == Book(title="Dune", year=1965)


def test_llama_index_stand_in_calls_the_tool_and_answers_from_its_result() -> None:
    def get_weather(city: str) -> str:
        """The current weather in a city."""
        return f"{city}: 9 C and fog"

    llm = DocsLlamaLLM()
    response = llm.predict_and_call(
        [FunctionTool.from_defaults(fn=get_weather)],
        chat_history=[ChatMessage(role="user", content="What's the weather in Oslo?")],
    )
    assert response.response == "Oslo: 9 C and fog"
    assert len(llm.calls) == 1
    result = ChatMessage(
        role="tool", content=response.response, additional_kwargs={"name": "get_weather"}
    )
    question = ChatMessage(role="user", content="What's the weather in Oslo?")
    answer = llm.chat([question, result])
    assert not llm.get_tool_calls_from_response(answer, error_on_no_tool_call=False)
    assert "Oslo: 9 C and fog" in (answer.message.content or "")
