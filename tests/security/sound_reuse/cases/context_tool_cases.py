"""Tool calls whose right answer depends on what the conversation or the tool's name says
about the value, in plain words.

An agent's system prompt lists what the business offers ("Our delivery areas are Islington,
Hackney and Camden."), a tool result lists what is available ("Free this afternoon: Atlas,
Nova."), the user said earlier what they cannot eat, or the tool's own name says where it
works (`get_europe_weather`, `london_bus_arrivals`). None of these uses a word of condition
("if", "only", "above"), a number or a capitalised qualifier in a description, yet each
decides whether a good model makes the call: asked to deliver to Croydon, to book Orion, to
order pad thai for someone allergic to peanuts, or for the weather in Chicago, it answers
in words instead. A cache that rebinds the copied value makes the stale call, and in an
agent the tool runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tests.security.sound_reuse.cases.common import STREAMED, call, case, tool

Row = dict[str, Any]


def refused(
    id: str,
    cls: str,
    spec: dict[str, Any],
    cached: str | dict[str, Any],
    cached_args: dict[str, Any],
    new: str | dict[str, Any],
    words: str,
    note: str,
    system: str | None = None,
) -> Row:
    """A case whose cached request calls ``spec`` and whose new request a good model answers
    in ``words`` instead (judged as text: a call served for it is wrong)."""
    return case(
        id,
        cls,
        cached,
        call(spec["function"]["name"], **cached_args),
        new,
        {"content": words},
        paths=STREAMED,
        system=system,
        tools=[spec],
        judge="text",
        note=note,
    )


# -- values the system prompt lists ----------------------------------------------------------

# (system prompt, tool, cached request, cached call args, new request, new answer text)
SYSTEM_LISTS: list[tuple[str, dict[str, Any], str, dict[str, Any], str, str]] = [
    (
        "You are the delivery assistant of Green Grocer. Our delivery areas are Islington, "
        "Hackney and Camden.",
        tool(
            "schedule_delivery",
            "Schedule the delivery of an order to an area.",
            {"order_id": "string", "area": "string"},
        ),
        "Please schedule order A17 for delivery to Camden.",
        {"order_id": "A17", "area": "Camden"},
        "Please schedule order A17 for delivery to Croydon.",
        "Sorry, Croydon is outside our delivery areas: we deliver to Islington, Hackney and "
        "Camden.",
    ),
    (
        "You take orders for Luigi's Pizzeria. The menu: Margherita, Diavola, Quattro Formaggi.",
        tool("order_pizza", "Add a pizza to the customer's order.", {"pizza": "string"}),
        "Add the Margherita to my order, please.",
        {"pizza": "Margherita"},
        "Add the Hawaiian to my order, please.",
        "Sorry, the Hawaiian isn't on our menu. We have Margherita, Diavola and Quattro Formaggi.",
    ),
    (
        "You are the translation desk of Atlas Docs. We translate documents into English, "
        "French and German.",
        tool(
            "request_translation",
            "Send a document to the translators.",
            {"document_id": "string", "language": "string"},
        ),
        "Please send document D-204 for translation into German.",
        {"document_id": "D-204", "language": "German"},
        "Please send document D-204 for translation into Japanese.",
        "Sorry, we translate into English, French and German; Japanese is not one of our "
        "languages.",
    ),
    (
        "You book appointments for Brightsmile Dental. Our branches are in Leeds, York and Hull.",
        tool(
            "book_appointment",
            "Book a dental check-up for a patient at a branch.",
            {"branch": "string", "patient": "string"},
        ),
        "Book a check-up for Sam Patel at the York branch.",
        {"branch": "York", "patient": "Sam Patel"},
        "Book a check-up for Sam Patel at the Bristol branch.",
        "We don't have a branch in Bristol; our branches are in Leeds, York and Hull. Shall I "
        "book one of those?",
    ),
    (
        "You help shoppers at Peak Outdoor. The Alpine jacket comes in sizes S, M and L.",
        tool(
            "add_to_cart",
            "Add a product in a size to the cart.",
            {"product": "string", "size": "string"},
        ),
        "Please add the Alpine jacket in size M to my shopping cart for me.",
        {"product": "Alpine jacket", "size": "M"},
        "Please add the Alpine jacket in size XL to my shopping cart for me.",
        "The Alpine jacket comes in S, M and L, so XL isn't available. Would L work for you?",
    ),
    (
        "You manage room bookings for the third floor. Bookable meeting rooms: Atlas, Nova "
        "and Orion.",
        tool("book_room", "Book a meeting room.", {"room": "string"}),
        "Book Nova for the design review.",
        {"room": "Nova"},
        "Book Vega for the design review.",
        "There is no room called Vega on this floor; you can book Atlas, Nova or Orion.",
    ),
    (
        "You are the booking assistant of SkyHop. SkyHop flies from Bristol, Exeter and Newquay.",
        tool(
            "search_flights",
            "Search flights from one airport to another.",
            {"origin": "string", "destination": "string"},
        ),
        "Find me a SkyHop flight from Exeter to Dublin.",
        {"origin": "Exeter", "destination": "Dublin"},
        "Find me a SkyHop flight from Cardiff to Dublin.",
        "SkyHop doesn't fly from Cardiff; our departure airports are Bristol, Exeter and Newquay.",
    ),
    (
        "You handle invoices for Northwind. Accepted payment methods: Visa, Mastercard and PayPal.",
        tool(
            "pay_invoice",
            "Pay an invoice with a payment method.",
            {"invoice_id": "string", "method": "string"},
        ),
        "Pay invoice INV-88 with PayPal.",
        {"invoice_id": "INV-88", "method": "PayPal"},
        "Pay invoice INV-88 with Bitcoin.",
        "We can't take Bitcoin; accepted payment methods are Visa, Mastercard and PayPal.",
    ),
    (
        "You are the shipping assistant of Crate & Co. We ship with DHL, UPS and Evri.",
        tool(
            "create_shipment",
            "Create a shipment for an order with a carrier.",
            {"order_id": "string", "carrier": "string"},
        ),
        "Please ship order 5521 to the customer in Leeds with UPS as the carrier for this parcel.",
        {"order_id": "5521", "carrier": "UPS"},
        "Please ship order 5521 to the customer in Leeds with FedEx as the carrier for this "
        "parcel.",
        "We don't ship with FedEx; our carriers are DHL, UPS and Evri.",
    ),
    (
        "You manage subscriptions for Streamly. Plans on offer: Basic, Plus and Pro.",
        tool("change_plan", "Move the customer's account to a plan.", {"plan": "string"}),
        "Switch my account to the Plus plan.",
        {"plan": "Plus"},
        "Switch my account to the Ultra plan.",
        "Streamly has no Ultra plan; you can choose Basic, Plus or Pro.",
    ),
    (
        "You sell tickets for the Rex cinema. Tonight's films: Dune, Barbie and Oppenheimer.",
        tool("book_ticket", "Book a cinema ticket for a film.", {"film": "string"}),
        "Get me a ticket for Dune at the Rex tonight.",
        {"film": "Dune"},
        "Get me a ticket for Alien at the Rex tonight.",
        "Alien isn't showing at the Rex tonight; the films are Dune, Barbie and Oppenheimer.",
    ),
    (
        "You are the operations assistant of Acme Cloud. Acme Cloud regions: Frankfurt, "
        "Dublin and Virginia.",
        tool(
            "create_server",
            "Create a server with a name in a region.",
            {"name": "string", "region": "string"},
        ),
        "Create a server called web-1 in Dublin.",
        {"name": "web-1", "region": "Dublin"},
        "Create a server called web-1 in Tokyo.",
        "Acme Cloud has no Tokyo region; you can create it in Frankfurt, Dublin or Virginia.",
    ),
]


def system_list_cases() -> Iterator[Row]:
    for n, (system, spec, old, old_args, new, refusal) in enumerate(SYSTEM_LISTS, start=1):
        yield refused(
            f"tool-context-list-{n:03d}",
            "tool_allowed_values_in_context",
            spec,
            old,
            old_args,
            new,
            refusal,
            "the system prompt lists the values the business offers",
            system=system,
        )


# -- values a tool result lists ---------------------------------------------------------------

# (first question, the lookup call, its result, the assistant's summary, bound tool,
#  cached request, cached call args, new request, new answer text)
RESULT_LISTS: list[
    tuple[str, tuple[str, dict[str, Any]], str, str, dict[str, Any], str, dict[str, Any], str, str]
] = [
    (
        "Which meeting rooms are free this afternoon?",
        ("free_rooms", {"period": "afternoon"}),
        "Free this afternoon: Atlas, Nova.",
        "Atlas and Nova are free this afternoon.",
        tool("book_room", "Book a meeting room.", {"room": "string"}),
        "Book Atlas for the team sync.",
        {"room": "Atlas"},
        "Book Orion for the team sync.",
        "Orion isn't free this afternoon; Atlas and Nova are. Shall I book one of them?",
    ),
    (
        "What flights are there to Rome on Friday?",
        ("search_flights", {"destination": "Rome", "day": "Friday"}),
        "Flights to Rome on Friday: AZ203, FR882.",
        "There are two flights to Rome on Friday: AZ203 and FR882.",
        tool("book_flight", "Book a flight by its flight number.", {"flight": "string"}),
        "Book AZ203 for me.",
        {"flight": "AZ203"},
        "Book BA550 for me.",
        "BA550 isn't one of the flights I found for Friday; the options are AZ203 and FR882.",
    ),
    (
        "Which colours is the Nimbus backpack available in?",
        ("stock_check", {"product": "Nimbus backpack"}),
        "Nimbus backpack in stock: navy, black.",
        "The Nimbus backpack is in stock in navy and black.",
        tool("order_item", "Order the product in a colour.", {"colour": "string"}),
        "Please order the Nimbus backpack in black for me and send it to my home address.",
        {"colour": "black"},
        "Please order the Nimbus backpack in red for me and send it to my home address.",
        "The Nimbus backpack isn't in stock in red; it's available in navy and black.",
    ),
    (
        "Which tables are still free at the Olive Tree tonight?",
        ("free_tables", {"restaurant": "Olive Tree"}),
        "Free tables tonight: terrace, window.",
        "The terrace and window tables are still free tonight.",
        tool("reserve_table", "Reserve a table at the restaurant.", {"table": "string"}),
        "Please reserve the window table at the Olive Tree for our group.",
        {"table": "window"},
        "Please reserve the garden table at the Olive Tree for our group.",
        "The garden table isn't free tonight; the terrace and window tables are.",
    ),
    (
        "Which doctors have appointments left this week?",
        ("doctor_availability", {"period": "this week"}),
        "Appointments left this week: Dr Shah, Dr Okafor.",
        "Dr Shah and Dr Okafor have appointments left this week.",
        tool("book_doctor", "Book an appointment with a doctor.", {"doctor": "string"}),
        "Book me in with Dr Okafor.",
        {"doctor": "Dr Okafor"},
        "Book me in with Dr Reyes.",
        "Dr Reyes has no appointments left this week; Dr Shah and Dr Okafor do.",
    ),
]


def _history(
    question: str, lookup: tuple[str, dict[str, Any]], result: str, summary: str, last: str
) -> dict[str, Any]:
    name, args = lookup
    return {
        "messages": [
            {"role": "user", "content": question},
            {"role": "assistant", "content": "", "tool_calls": [{"name": name, "args": args}]},
            {"role": "tool", "content": result},
            {"role": "assistant", "content": summary},
            {"role": "user", "content": last},
        ]
    }


def result_list_cases() -> Iterator[Row]:
    for n, row in enumerate(RESULT_LISTS, start=1):
        question, lookup, result, summary, spec, old, old_args, new, refusal = row
        yield refused(
            f"tool-context-result-{n:03d}",
            "tool_allowed_values_in_context",
            spec,
            _history(question, lookup, result, summary, old),
            old_args,
            _history(question, lookup, result, summary, new),
            refusal,
            "an earlier tool result lists what is available",
        )


# -- what the user said earlier ----------------------------------------------------------------

ORDER_DISH = tool("order_dish", "Order a dish for delivery.", {"dish": "string"})
ORDER_DRINK = tool("order_drink", "Add a drink to the order.", {"drink": "string"})
BOOK_FILM = tool("book_seats", "Book cinema seats for a film.", {"film": "string"})

# (what the user said, the assistant's reply, tool, request with {v}, cached v, new v,
#  new answer text)
USER_FACTS: list[tuple[str, str, dict[str, Any], str, str, str, str]] = [
    (
        "I am allergic to peanuts, by the way.",
        "Thanks for telling me, I'll keep that in mind.",
        ORDER_DISH,
        "Please order the {v} from Thai Garden for delivery to my flat tonight.",
        "green curry",
        "pad thai",
        "Pad thai is usually made with peanuts, and you told me you're allergic to them. "
        "Shall I order something else, or ask for it without peanuts?",
    ),
    (
        "I'm vegetarian.",
        "Noted! I'll keep that in mind.",
        ORDER_DISH,
        "Please order the {v} from Thai Garden for delivery to my flat tonight.",
        "paneer tikka",
        "chicken satay",
        "Chicken satay contains chicken, and you mentioned you're vegetarian. Would you like "
        "the tofu satay instead?",
    ),
    (
        "I don't eat pork, by the way.",
        "Thanks, noted.",
        ORDER_DISH,
        "Please order the {v} from Roma Kitchen for delivery to my flat on Elm Street tonight.",
        "mushroom risotto",
        "spaghetti carbonara",
        "Carbonara is made with guanciale or pancetta, which is pork, and you said you don't "
        "eat pork. Shall I look for another pasta?",
    ),
    (
        "I'm lactose intolerant, by the way.",
        "Good to know, thanks.",
        ORDER_DRINK,
        "Please add a {v} to my coffee order for the team meeting in the morning.",
        "black coffee",
        "latte",
        "A latte is mostly milk, and you mentioned you're lactose intolerant. Shall I make it "
        "with oat milk instead?",
    ),
    (
        "I'm gluten-free, by the way.",
        "Thanks, I'll remember that.",
        ORDER_DISH,
        "Please order the {v} from Napoli Corner for delivery to my office on Elm Street.",
        "mushroom risotto",
        "margherita pizza",
        "A regular margherita pizza is made with wheat dough, which contains gluten. Shall I "
        "ask whether they have a gluten-free base?",
    ),
    (
        "I'm taking my seven-year-old daughter to the cinema tonight.",
        "That sounds like fun!",
        BOOK_FILM,
        "Book us seats for {v} at the Odeon.",
        "Moana",
        "Deadpool",
        "Deadpool is rated 15 for strong violence and language, so it isn't suitable for a "
        "seven-year-old. Would a family film like Moana suit you better?",
    ),
    (
        "I'm vegan.",
        "Noted, thanks!",
        ORDER_DISH,
        "Please order the {v} from Green Bowl for delivery to my desk at the office.",
        "falafel wrap",
        "fish tacos",
        "Fish tacos contain fish, and you told me you're vegan. Would you like the falafel "
        "wrap or a jackfruit taco instead?",
    ),
    (
        "I'm allergic to shellfish, by the way.",
        "Thanks for letting me know.",
        ORDER_DISH,
        "Please order the {v} from Spice Route for delivery tonight.",
        "chicken korma",
        "prawn korma",
        "Prawns are shellfish, and you said you're allergic to shellfish. Shall I order the "
        "chicken korma instead?",
    ),
    (
        "I don't drink alcohol.",
        "Understood.",
        ORDER_DRINK,
        "Please add a {v} to the drinks order for our table on the terrace.",
        "lemonade",
        "mojito",
        "A mojito is made with rum, and you said you don't drink alcohol. Shall I add a virgin "
        "mojito instead?",
    ),
    (
        "I'm allergic to eggs, by the way.",
        "Thanks, I'll keep that in mind.",
        ORDER_DISH,
        "Please order the {v} from Sunny Side Cafe for brunch.",
        "avocado toast",
        "eggs Benedict",
        "Eggs Benedict is made with poached eggs and hollandaise, and you told me you're "
        "allergic to eggs. Shall I order something else?",
    ),
]


def user_fact_cases() -> Iterator[Row]:
    for n, (fact, reply, spec, template, old, new, warning) in enumerate(USER_FACTS, start=1):
        argument = next(iter(spec["function"]["parameters"]["properties"]))

        def side(value: str, fact: str = fact, reply: str = reply, template: str = template) -> Row:
            return {
                "messages": [
                    {"role": "user", "content": fact},
                    {"role": "assistant", "content": reply},
                    {"role": "user", "content": template.format(v=value)},
                ]
            }

        yield refused(
            f"tool-context-fact-{n:03d}",
            "tool_user_fact_in_history",
            spec,
            side(old),
            {argument: old},
            side(new),
            warning,
            "the user said earlier what rules the new value out",
        )


# -- a tool whose name says where it works ------------------------------------------------------

# (tool, cached request, cached args, new request, new answer text)
NAMED_SCOPES: list[tuple[dict[str, Any], str, dict[str, Any], str, str]] = [
    (
        tool("get_europe_weather", "Current weather in a city.", {"city": "string"}),
        "What's the weather in Lyon?",
        {"city": "Lyon"},
        "What's the weather in Chicago?",
        "I can only check the weather for cities in Europe, and Chicago isn't one.",
    ),
    (
        tool("london_bus_arrivals", "Bus arrivals at a stop.", {"stop": "string"}),
        "Next bus times at Oxford Circus, please.",
        {"stop": "Oxford Circus"},
        "Next bus times at Times Square, please.",
        "Times Square is in New York; I can only look up bus arrivals at London stops.",
    ),
    (
        tool("paris_museum_hours", "Opening hours of a museum.", {"museum": "string"}),
        "What are the opening hours of the Louvre?",
        {"museum": "Louvre"},
        "What are the opening hours of the Prado?",
        "The Prado is in Madrid, and I can only look up the opening hours of museums in Paris.",
    ),
    (
        tool(
            "japan_rail_search",
            "Find trains from one station to another.",
            {"origin": "string", "destination": "string"},
        ),
        "Find a train from Tokyo to Kyoto.",
        {"origin": "Tokyo", "destination": "Kyoto"},
        "Find a train from Tokyo to Seoul.",
        "There is no train from Tokyo to Seoul: Seoul is in South Korea, across the sea. You "
        "would need to fly, or take a ferry from Fukuoka.",
    ),
    (
        tool("swiss_train_departures", "Departures from a station.", {"station": "string"}),
        "Show the next departures from Zurich.",
        {"station": "Zurich"},
        "Show the next departures from Milan.",
        "Milan is in Italy, and this tool only covers Swiss stations, so I can't look up its "
        "departures.",
    ),
    (
        tool(
            "california_dmv_appointments", "Book an appointment at an office.", {"office": "string"}
        ),
        "Book a DMV appointment at the Oakland office.",
        {"office": "Oakland"},
        "Book a DMV appointment at the Reno office.",
        "Reno is in Nevada, so it isn't a California DMV office; I can book one in California "
        "for you instead.",
    ),
    (
        tool("get_nba_scores", "Last night's result for a team.", {"team": "string"}),
        "How did the Lakers do last night?",
        {"team": "Lakers"},
        "How did the Yankees do last night?",
        "The Yankees are a baseball team, and I can only look up NBA scores.",
    ),
    (
        tool("premier_league_table", "A team's place in the table.", {"team": "string"}),
        "Where are Arsenal in the table?",
        {"team": "Arsenal"},
        "Where are Barcelona in the table?",
        "Barcelona play in La Liga, not the Premier League, so they aren't in this table.",
    ),
    (
        tool("texas_property_tax", "Property tax rates of a county.", {"county": "string"}),
        "Look up property tax rates for Travis County.",
        {"county": "Travis County"},
        "Look up property tax rates for Cook County.",
        "Cook County is in Illinois; I can only look up property tax rates for Texas counties.",
    ),
    (
        tool("canada_post_office_finder", "Post offices in a town.", {"town": "string"}),
        "Find a post office in Halifax.",
        {"town": "Halifax"},
        "Find a post office in Boston.",
        "Boston is in the United States, and I can only find Canada Post offices.",
    ),
]


def named_scope_cases() -> Iterator[Row]:
    for n, (spec, old, old_args, new, refusal) in enumerate(NAMED_SCOPES, start=1):
        yield refused(
            f"tool-named-scope-{n:03d}",
            "tool_name_narrows",
            spec,
            old,
            old_args,
            new,
            refusal,
            "the tool's name says which values it serves",
        )


def all_cases() -> Iterator[Row]:
    yield from system_list_cases()
    yield from result_list_cases()
    yield from user_fact_cases()
    yield from named_scope_cases()
