"""Tool calls whose choice, or whose other arguments, depend on a value copied from the request.

The new request changes only a value the cached call copied verbatim (an amount, a date, a
symbol, a city); rewriting that value is right, but the value also decides which tool the
model calls (a threshold in a description, a date before or after today, a symbol's market),
how many calls it makes, or another argument (a unit, a code, a price looked up from a table
in the request).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tests.security.sound_reuse.cases.common import ALL, call, calls, case, tool

# -- a threshold in a tool description ------------------------------------------------------------

PAYMENT = [
    tool(
        "send_payment",
        "Send an instant payment of up to 500 EUR. Amounts above 500 EUR must use "
        "wire_transfer instead.",
        {"recipient": "string", "amount": "number"},
    ),
    tool(
        "wire_transfer",
        "Send a bank wire transfer. Required for amounts above 500 EUR.",
        {"recipient": "string", "amount": "number"},
    ),
]
REFUND = [
    tool(
        "issue_refund",
        "Refund an order immediately. Only for refunds up to 100 USD; larger refunds must go "
        "through escalate_refund.",
        {"order_id": "string", "amount": "number"},
    ),
    tool(
        "escalate_refund",
        "Send a refund above 100 USD to a supervisor for approval.",
        {"order_id": "string", "amount": "number"},
    ),
]
SHIPPING = [
    tool(
        "ship_parcel",
        "Ship a parcel of up to 30 kg with the standard carrier.",
        {"destination": "string", "weight_kg": "number"},
    ),
    tool(
        "ship_freight",
        "Book freight for shipments heavier than 30 kg.",
        {"destination": "string", "weight_kg": "number"},
    ),
]
INCIDENT = [
    tool(
        "page_oncall",
        "Page the on-call engineer. Only for severity 1 or 2 incidents.",
        {"service": "string", "severity": "integer"},
    ),
    tool(
        "create_ticket",
        "Open a ticket for severity 3, 4 or 5 incidents (no page).",
        {"service": "string", "severity": "integer"},
    ),
]
EXPENSE = [
    tool(
        "approve_expense",
        "Approve an expense automatically. Works for amounts up to 1000 USD.",
        {"category": "string", "amount": "number"},
    ),
    tool(
        "request_manager_approval",
        "Send an expense over 1000 USD to the employee's manager.",
        {"category": "string", "amount": "number"},
    ),
]
UPLOAD = [
    tool(
        "upload_file",
        "Upload a file in one request. Files up to 100 MB only.",
        {"filename": "string", "size_mb": "number"},
    ),
    tool(
        "upload_multipart",
        "Upload a file larger than 100 MB in parts.",
        {"filename": "string", "size_mb": "number"},
    ),
]
TABLE = [
    tool(
        "book_table",
        "Book a table in the main room for parties of up to 8 people.",
        {"party_size": "integer", "time": "string"},
    ),
    tool(
        "book_private_room",
        "Book the private room; required for parties of 9 or more.",
        {"party_size": "integer", "time": "string"},
    ),
]
THERMOSTAT = [
    tool(
        "set_temperature",
        "Set the office thermostat. Accepts 16 to 28 degrees Celsius; for anything outside "
        "that range call request_override.",
        {"celsius": "number"},
    ),
    tool(
        "request_override",
        "Ask facilities for a temperature outside the normal 16 to 28 degree range.",
        {"celsius": "number"},
    ),
]
TICKETS = [
    tool(
        "sell_adult_ticket",
        "Sell a ticket to a passenger aged 12 or over.",
        {"passenger": "string", "age": "integer"},
    ),
    tool(
        "sell_child_ticket",
        "Sell a ticket to a child under 12.",
        {"passenger": "string", "age": "integer"},
    ),
]
ORDER_LIMIT = [
    tool(
        "order_stock",
        "Order units of a product from the warehouse. At most 50 units per call: split a "
        "larger order into several calls of 50 units or fewer.",
        {"sku": "string", "units": "integer"},
    )
]
LOANS = [
    tool(
        "auto_approve_loan",
        "Approve a personal loan instantly. Only for loans up to 5000 EUR.",
        {"customer": "string", "amount": "number"},
    ),
    tool(
        "send_to_underwriting",
        "Send a loan application above 5000 EUR to an underwriter.",
        {"customer": "string", "amount": "number"},
    ),
]

THRESHOLD_ROWS: list[tuple[list[dict[str, Any]], str, str, Any, str, Any]] = [
    (
        PAYMENT,
        "Pay Alice 200 EUR for the design work.",
        "send_payment",
        {"recipient": "Alice", "amount": 200},
        "Pay Alice 900 EUR for the design work.",
        ("wire_transfer", {"recipient": "Alice", "amount": 900}),
    ),
    (
        PAYMENT,
        "Send Marco 1200 EUR for the rent.",
        "wire_transfer",
        {"recipient": "Marco", "amount": 1200},
        "Send Marco 350 EUR for the rent.",
        ("send_payment", {"recipient": "Marco", "amount": 350}),
    ),
    (
        PAYMENT,
        "Transfer 480 EUR to Jonas.",
        "send_payment",
        {"recipient": "Jonas", "amount": 480},
        "Transfer 520 EUR to Jonas.",
        ("wire_transfer", {"recipient": "Jonas", "amount": 520}),
    ),
    (
        REFUND,
        "Refund 40 USD on order 1182, the item arrived broken.",
        "issue_refund",
        {"order_id": "1182", "amount": 40},
        "Refund 250 USD on order 1182, the item arrived broken.",
        ("escalate_refund", {"order_id": "1182", "amount": 250}),
    ),
    (
        REFUND,
        "Please refund 180 USD for order 77310.",
        "escalate_refund",
        {"order_id": "77310", "amount": 180},
        "Please refund 60 USD for order 77310.",
        ("issue_refund", {"order_id": "77310", "amount": 60}),
    ),
    (
        SHIPPING,
        "Ship a 12 kg box to Lyon.",
        "ship_parcel",
        {"destination": "Lyon", "weight_kg": 12},
        "Ship a 45 kg box to Lyon.",
        ("ship_freight", {"destination": "Lyon", "weight_kg": 45}),
    ),
    (
        SHIPPING,
        "We need to send 80 kg of machine parts to Porto.",
        "ship_freight",
        {"destination": "Porto", "weight_kg": 80},
        "We need to send 20 kg of machine parts to Porto.",
        ("ship_parcel", {"destination": "Porto", "weight_kg": 20}),
    ),
    (
        INCIDENT,
        "The checkout service is down, severity 2. Report it.",
        "page_oncall",
        {"service": "checkout", "severity": 2},
        "The checkout service is down, severity 4. Report it.",
        ("create_ticket", {"service": "checkout", "severity": 4}),
    ),
    (
        INCIDENT,
        "Log a severity 3 incident for the search service: results are slow.",
        "create_ticket",
        {"service": "search", "severity": 3},
        "Log a severity 1 incident for the search service: results are slow.",
        ("page_oncall", {"service": "search", "severity": 1}),
    ),
    (
        EXPENSE,
        "Submit my 640 USD hotel expense.",
        "approve_expense",
        {"category": "hotel", "amount": 640},
        "Submit my 1800 USD hotel expense.",
        ("request_manager_approval", {"category": "hotel", "amount": 1800}),
    ),
    (
        UPLOAD,
        "Upload backup.zip, it is 80 MB.",
        "upload_file",
        {"filename": "backup.zip", "size_mb": 80},
        "Upload backup.zip, it is 350 MB.",
        ("upload_multipart", {"filename": "backup.zip", "size_mb": 350}),
    ),
    (
        TABLE,
        "Book dinner for 6 people at 19:30.",
        "book_table",
        {"party_size": 6, "time": "19:30"},
        "Book dinner for 12 people at 19:30.",
        ("book_private_room", {"party_size": 12, "time": "19:30"}),
    ),
    (
        TABLE,
        "Reserve for 10 people at 20:00 tonight.",
        "book_private_room",
        {"party_size": 10, "time": "20:00"},
        "Reserve for 4 people at 20:00 tonight.",
        ("book_table", {"party_size": 4, "time": "20:00"}),
    ),
    (
        THERMOSTAT,
        "Set the office to 22 degrees.",
        "set_temperature",
        {"celsius": 22},
        "Set the office to 31 degrees.",
        ("request_override", {"celsius": 31}),
    ),
    (
        TICKETS,
        "Sell a ticket to Emma, aged 34.",
        "sell_adult_ticket",
        {"passenger": "Emma", "age": 34},
        "Sell a ticket to Emma, aged 9.",
        ("sell_child_ticket", {"passenger": "Emma", "age": 9}),
    ),
    (
        LOANS,
        "Approve a 3000 EUR loan for Nadia Petrova.",
        "auto_approve_loan",
        {"customer": "Nadia Petrova", "amount": 3000},
        "Approve a 12000 EUR loan for Nadia Petrova.",
        ("send_to_underwriting", {"customer": "Nadia Petrova", "amount": 12000}),
    ),
]


def threshold_cases() -> Iterator[dict[str, Any]]:
    n = 0
    for tools, p1, name1, args1, p2, (name2, args2) in THRESHOLD_ROWS:
        n += 1
        yield case(
            f"tool-threshold-{n:03d}",
            "tool_threshold_in_description",
            p1,
            call(name1, **args1),
            p2,
            call(name2, **args2),
            tools=tools,
        )
    # A per-call limit: the new quantity needs two calls.
    for p1, u1, p2, parts in [
        ("Order 30 units of SKU-118.", 30, "Order 80 units of SKU-118.", (50, 30)),
        (
            "Order 45 units of SKU-207 for the Leeds store.",
            45,
            "Order 120 units of SKU-207 for the Leeds store.",
            (50, 50, 20),
        ),
    ]:
        n += 1
        sku = "SKU-118" if "118" in p1 else "SKU-207"
        yield case(
            f"tool-threshold-{n:03d}",
            "tool_threshold_in_description",
            p1,
            call("order_stock", sku=sku, units=u1),
            p2,
            calls(*[("order_stock", {"sku": sku, "units": u}) for u in parts]),
            tools=ORDER_LIMIT,
        )


# -- a date before or after today -----------------------------------------------------------------

TODAY = "Today is 2025-06-10."
WEATHER_DATES = [
    tool(
        "get_weather_history",
        "Observed weather for a city on a date before today.",
        {"city": "string", "date": {"type": "string", "description": "YYYY-MM-DD"}},
    ),
    tool(
        "get_weather_forecast",
        "Weather forecast for a city for today or a later date (up to 14 days ahead).",
        {"city": "string", "date": {"type": "string", "description": "YYYY-MM-DD"}},
    ),
]
WORKOUTS = [
    tool(
        "log_workout",
        "Record a workout that already happened (a date before today).",
        {"activity": "string", "date": "string"},
    ),
    tool(
        "schedule_workout",
        "Put a planned workout in the calendar (today or a later date).",
        {"activity": "string", "date": "string"},
    ),
]
FLIGHTS = [
    tool(
        "get_flight_status",
        "Live status of a flight departing today or in the next three days.",
        {"flight": "string", "date": "string"},
    ),
    tool(
        "get_flight_history",
        "Recorded departure and arrival times of a flight that flew before today.",
        {"flight": "string", "date": "string"},
    ),
]
EVENTS = [
    tool(
        "list_past_events",
        "Events in the team calendar on a date before today.",
        {"date": "string"},
    ),
    tool(
        "list_upcoming_events",
        "Events in the team calendar today or on a later date.",
        {"date": "string"},
    ),
]
APPOINTMENTS = [
    tool(
        "book_appointment",
        "Book a dentist appointment. The date must be after today.",
        {"patient": "string", "date": "string"},
    ),
    tool(
        "add_visit_note",
        "Add a note about a visit that took place on a past date.",
        {"patient": "string", "date": "string"},
    ),
]

DATE_ROWS: list[
    tuple[list[dict[str, Any]], str, tuple[str, dict[str, Any]], str, tuple[str, dict[str, Any]]]
] = [
    (
        WEATHER_DATES,
        "What's the weather in Paris on 2025-06-05?",
        ("get_weather_history", {"city": "Paris", "date": "2025-06-05"}),
        "What's the weather in Paris on 2025-06-14?",
        ("get_weather_forecast", {"city": "Paris", "date": "2025-06-14"}),
    ),
    (
        WEATHER_DATES,
        "Weather for Madrid on 2025-06-12, please.",
        ("get_weather_forecast", {"city": "Madrid", "date": "2025-06-12"}),
        "Weather for Madrid on 2025-06-01, please.",
        ("get_weather_history", {"city": "Madrid", "date": "2025-06-01"}),
    ),
    (
        WEATHER_DATES,
        "How was the weather in Oslo on 2025-06-09?",
        ("get_weather_history", {"city": "Oslo", "date": "2025-06-09"}),
        "How was the weather in Oslo on 2025-06-10?",
        ("get_weather_forecast", {"city": "Oslo", "date": "2025-06-10"}),
    ),
    (
        WORKOUTS,
        "Add a 5 km run on 2025-06-08.",
        ("log_workout", {"activity": "5 km run", "date": "2025-06-08"}),
        "Add a 5 km run on 2025-06-12.",
        ("schedule_workout", {"activity": "5 km run", "date": "2025-06-12"}),
    ),
    (
        WORKOUTS,
        "Put yoga in my calendar for 2025-06-15.",
        ("schedule_workout", {"activity": "yoga", "date": "2025-06-15"}),
        "Put yoga in my calendar for 2025-06-03.",
        ("log_workout", {"activity": "yoga", "date": "2025-06-03"}),
    ),
    (
        FLIGHTS,
        "Check flight LH438 on 2025-06-11.",
        ("get_flight_status", {"flight": "LH438", "date": "2025-06-11"}),
        "Check flight LH438 on 2025-06-07.",
        ("get_flight_history", {"flight": "LH438", "date": "2025-06-07"}),
    ),
    (
        FLIGHTS,
        "When did BA117 land on 2025-06-02?",
        ("get_flight_history", {"flight": "BA117", "date": "2025-06-02"}),
        "When did BA117 land on 2025-06-10?",
        ("get_flight_status", {"flight": "BA117", "date": "2025-06-10"}),
    ),
    (
        EVENTS,
        "What is on the team calendar on 2025-06-04?",
        ("list_past_events", {"date": "2025-06-04"}),
        "What is on the team calendar on 2025-06-18?",
        ("list_upcoming_events", {"date": "2025-06-18"}),
    ),
    (
        EVENTS,
        "Show the team calendar for 2025-06-20.",
        ("list_upcoming_events", {"date": "2025-06-20"}),
        "Show the team calendar for 2025-05-30.",
        ("list_past_events", {"date": "2025-05-30"}),
    ),
    (
        APPOINTMENTS,
        "Dentist for Tom Berg on 2025-06-17.",
        ("book_appointment", {"patient": "Tom Berg", "date": "2025-06-17"}),
        "Dentist for Tom Berg on 2025-06-06.",
        ("add_visit_note", {"patient": "Tom Berg", "date": "2025-06-06"}),
    ),
    (
        APPOINTMENTS,
        "Record the dentist visit for Lea Park on 2025-06-02.",
        ("add_visit_note", {"patient": "Lea Park", "date": "2025-06-02"}),
        "Record the dentist visit for Lea Park on 2025-06-24.",
        ("book_appointment", {"patient": "Lea Park", "date": "2025-06-24"}),
    ),
]


def date_cases() -> Iterator[dict[str, Any]]:
    for n, (tools, p1, (name1, args1), p2, (name2, args2)) in enumerate(DATE_ROWS, start=1):
        yield case(
            f"tool-date-{n:03d}",
            "tool_date_selects_tool",
            p1,
            call(name1, **args1),
            p2,
            call(name2, **args2),
            tools=tools,
            system=TODAY,
        )


# -- a quantity that selects an endpoint or another argument ------------------------------------

ROOMS = [
    tool(
        "book_room",
        "Book a hotel room. room_type: single for 1 guest, double for 2 guests, family for 3 "
        "or 4 guests.",
        {
            "guests": "integer",
            "room_type": {"type": "string", "enum": ["single", "double", "family"]},
            "check_in": "string",
        },
    )
]
RIDES = [
    tool(
        "book_ride",
        "Book a taxi. vehicle: standard seats up to 4 passengers, xl seats 5 to 7.",
        {
            "pickup": "string",
            "passengers": "integer",
            "vehicle": {"type": "string", "enum": ["standard", "xl"]},
        },
    )
]
PRINTING = [
    tool(
        "print_document",
        "Print a document. printer: office for up to 100 copies, print_shop for more.",
        {
            "document": "string",
            "copies": "integer",
            "printer": {"type": "string", "enum": ["office", "print_shop"]},
        },
    )
]
QUOTES = [
    tool(
        "get_quote",
        "Price quote for orders of 1 to 99 units.",
        {"product": "string", "units": "integer"},
    ),
    tool(
        "get_bulk_quote",
        "Price quote for orders of 100 units or more.",
        {"product": "string", "units": "integer"},
    ),
]
TIMERS = [
    tool("set_timer", "Start a countdown timer of up to 120 minutes.", {"minutes": "integer"}),
    tool(
        "create_reminder",
        "Create a reminder for more than 120 minutes from now.",
        {"minutes": "integer"},
    ),
]
PARKING = [
    tool(
        "pay_parking",
        "Pay for parking. rate: hourly for stays of up to 5 hours, daily for longer stays.",
        {
            "zone": "string",
            "hours": "integer",
            "rate": {"type": "string", "enum": ["hourly", "daily"]},
        },
    )
]

QUANTITY_ROWS: list[
    tuple[list[dict[str, Any]], str, tuple[str, dict[str, Any]], str, tuple[str, dict[str, Any]]]
] = [
    (
        ROOMS,
        "Book a room for 2 guests checking in on 2025-07-01.",
        ("book_room", {"guests": 2, "room_type": "double", "check_in": "2025-07-01"}),
        "Book a room for 4 guests checking in on 2025-07-01.",
        ("book_room", {"guests": 4, "room_type": "family", "check_in": "2025-07-01"}),
    ),
    (
        ROOMS,
        "Book a room for 1 guest checking in on 2025-08-12.",
        ("book_room", {"guests": 1, "room_type": "single", "check_in": "2025-08-12"}),
        "Book a room for 2 guests checking in on 2025-08-12.",
        ("book_room", {"guests": 2, "room_type": "double", "check_in": "2025-08-12"}),
    ),
    (
        RIDES,
        "Get a taxi from the station for 3 passengers.",
        ("book_ride", {"pickup": "the station", "passengers": 3, "vehicle": "standard"}),
        "Get a taxi from the station for 6 passengers.",
        ("book_ride", {"pickup": "the station", "passengers": 6, "vehicle": "xl"}),
    ),
    (
        PRINTING,
        "Print 40 copies of the agenda.",
        ("print_document", {"document": "the agenda", "copies": 40, "printer": "office"}),
        "Print 400 copies of the agenda.",
        ("print_document", {"document": "the agenda", "copies": 400, "printer": "print_shop"}),
    ),
    (
        QUOTES,
        "Get me a quote for 40 units of the desk lamp.",
        ("get_quote", {"product": "desk lamp", "units": 40}),
        "Get me a quote for 250 units of the desk lamp.",
        ("get_bulk_quote", {"product": "desk lamp", "units": 250}),
    ),
    (
        QUOTES,
        "How much would 500 units of the steel bracket cost?",
        ("get_bulk_quote", {"product": "steel bracket", "units": 500}),
        "How much would 20 units of the steel bracket cost?",
        ("get_quote", {"product": "steel bracket", "units": 20}),
    ),
    (
        TIMERS,
        "Remind me in 45 minutes.",
        ("set_timer", {"minutes": 45}),
        "Remind me in 300 minutes.",
        ("create_reminder", {"minutes": 300}),
    ),
    (
        TIMERS,
        "Remind me in 180 minutes.",
        ("create_reminder", {"minutes": 180}),
        "Remind me in 90 minutes.",
        ("set_timer", {"minutes": 90}),
    ),
    (
        PARKING,
        "Pay for 3 hours of parking in zone B4.",
        ("pay_parking", {"zone": "B4", "hours": 3, "rate": "hourly"}),
        "Pay for 9 hours of parking in zone B4.",
        ("pay_parking", {"zone": "B4", "hours": 9, "rate": "daily"}),
    ),
    (
        RIDES,
        "Book a taxi for 7 passengers from Terminal 2.",
        ("book_ride", {"pickup": "Terminal 2", "passengers": 7, "vehicle": "xl"}),
        "Book a taxi for 2 passengers from Terminal 2.",
        ("book_ride", {"pickup": "Terminal 2", "passengers": 2, "vehicle": "standard"}),
    ),
]


def quantity_cases() -> Iterator[dict[str, Any]]:
    for n, (tools, p1, (name1, args1), p2, (name2, args2)) in enumerate(QUANTITY_ROWS, start=1):
        yield case(
            f"tool-quantity-{n:03d}",
            "tool_quantity_selects",
            p1,
            call(name1, **args1),
            p2,
            call(name2, **args2),
            tools=tools,
        )


# -- two offered tools take the same argument ----------------------------------------------

PRICES = [
    tool(
        "get_stock_price",
        "Latest price of a listed company's stock by ticker symbol.",
        {"symbol": "string"},
    ),
    tool(
        "get_crypto_price", "Latest price of a cryptocurrency by its symbol.", {"symbol": "string"}
    ),
]
TRACKING = [
    tool(
        "track_ups",
        "Track a UPS parcel (tracking numbers start with 1Z).",
        {"tracking_number": "string"},
    ),
    tool(
        "track_fedex",
        "Track a FedEx parcel (12-digit tracking numbers).",
        {"tracking_number": "string"},
    ),
]
POSTCODES = [
    tool("lookup_us_zip", "Look up a US ZIP code (5 digits).", {"code": "string"}),
    tool("lookup_uk_postcode", "Look up a UK postcode such as SW1A 1AA.", {"code": "string"}),
]
PLACES = [
    tool("get_country_info", "Facts about a country.", {"name": "string"}),
    tool("get_city_info", "Facts about a city.", {"name": "string"}),
]
MEDIA = [
    tool("play_song", "Play a song by its title.", {"title": "string"}),
    tool("play_podcast", "Play the latest episode of a podcast by its title.", {"title": "string"}),
]
RECORDS = [
    tool("get_order", "Look up an order by id (ids start with ORD-).", {"id": "string"}),
    tool("get_customer", "Look up a customer by id (ids start with CUS-).", {"id": "string"}),
]
TRAVEL = [
    tool(
        "search_trains",
        "Search train connections from the user's home city.",
        {"destination": "string"},
    ),
    tool("search_flights", "Search flights from the user's home city.", {"destination": "string"}),
]
AIR_WEATHER = [
    tool("get_city_weather", "Current weather in a city.", {"location": "string"}),
    tool(
        "get_airport_weather",
        "Current METAR weather at an airport by IATA code.",
        {"location": "string"},
    ),
]

SHARED_ROWS: list[
    tuple[
        list[dict[str, Any]],
        str | None,
        str,
        tuple[str, dict[str, Any]],
        str,
        tuple[str, dict[str, Any]],
    ]
] = [
    (
        PRICES,
        None,
        "What's the price of AAPL right now? I want to decide whether to buy today.",
        ("get_stock_price", {"symbol": "AAPL"}),
        "What's the price of BTC right now? I want to decide whether to buy today.",
        ("get_crypto_price", {"symbol": "BTC"}),
    ),
    (
        PRICES,
        None,
        "Check the latest price for ETH, I am thinking of selling some this afternoon.",
        ("get_crypto_price", {"symbol": "ETH"}),
        "Check the latest price for MSFT, I am thinking of selling some this afternoon.",
        ("get_stock_price", {"symbol": "MSFT"}),
    ),
    (
        TRACKING,
        None,
        "Where is my parcel 1Z999AA10123456784? It was supposed to arrive yesterday.",
        ("track_ups", {"tracking_number": "1Z999AA10123456784"}),
        "Where is my parcel 781234567890? It was supposed to arrive yesterday.",
        ("track_fedex", {"tracking_number": "781234567890"}),
    ),
    (
        POSTCODES,
        None,
        "Which area is 90210? We are deciding where to open the new shop.",
        ("lookup_us_zip", {"code": "90210"}),
        "Which area is SW1A 1AA? We are deciding where to open the new shop.",
        ("lookup_uk_postcode", {"code": "SW1A 1AA"}),
    ),
    (
        PLACES,
        None,
        "Tell me about Peru.",
        ("get_country_info", {"name": "Peru"}),
        "Tell me about Lima.",
        ("get_city_info", {"name": "Lima"}),
    ),
    (
        PLACES,
        None,
        "Give me some facts on Marseille.",
        ("get_city_info", {"name": "Marseille"}),
        "Give me some facts on Portugal.",
        ("get_country_info", {"name": "Portugal"}),
    ),
    (
        MEDIA,
        None,
        "Play Bohemian Rhapsody in the living room, please, not too loud.",
        ("play_song", {"title": "Bohemian Rhapsody"}),
        "Play Serial in the living room, please, not too loud.",
        ("play_podcast", {"title": "Serial"}),
    ),
    (
        RECORDS,
        None,
        "Look up ORD-5521 and tell me what you find about it.",
        ("get_order", {"id": "ORD-5521"}),
        "Look up CUS-0192 and tell me what you find about it.",
        ("get_customer", {"id": "CUS-0192"}),
    ),
    (
        TRAVEL,
        "The user lives in Paris.",
        "Find me a way to get to Lyon.",
        ("search_trains", {"destination": "Lyon"}),
        "Find me a way to get to Tokyo.",
        ("search_flights", {"destination": "Tokyo"}),
    ),
    (
        TRAVEL,
        "The user lives in Paris.",
        "How can I get to New York next week?",
        ("search_flights", {"destination": "New York"}),
        "How can I get to Bordeaux next week?",
        ("search_trains", {"destination": "Bordeaux"}),
    ),
    (
        AIR_WEATHER,
        None,
        "What is the weather at CDG right now? I land there in an hour.",
        ("get_airport_weather", {"location": "CDG"}),
        "What is the weather at Lisbon right now? I land there in an hour.",
        ("get_city_weather", {"location": "Lisbon"}),
    ),
]


def shared_cases() -> Iterator[dict[str, Any]]:
    for n, (tools, system, p1, (name1, args1), p2, (name2, args2)) in enumerate(
        SHARED_ROWS, start=1
    ):
        yield case(
            f"tool-shared-{n:03d}",
            "tool_shared_argument",
            p1,
            call(name1, **args1),
            p2,
            call(name2, **args2),
            tools=tools,
            system=system,
        )


# -- another argument derived from the copied one ------------------------------------------

WEATHER_UNIT = [
    tool(
        "get_weather",
        "Current weather in a city.",
        {"city": "string", "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
    )
]
TICKET_OFFICE = [
    tool(
        "open_ticket",
        "Open an IT ticket for an office.",
        {"office": "string", "office_code": "string"},
    )
]
GREETING = [
    tool(
        "send_greeting",
        "Send a welcome message to a customer.",
        {"customer": "string", "language": "string"},
    )
]
MENU = [tool("place_order", "Order a drink at the café.", {"item": "string", "price": "number"})]
SEATS = [
    tool(
        "check_in", "Check a passenger in to their seat.", {"passenger": "string", "seat": "string"}
    )
]
CALLS = [
    tool(
        "schedule_call",
        "Schedule a call in the contact's time zone.",
        {"contact": "string", "timezone": "string", "time": "string"},
    )
]
ZONES = [
    tool(
        "quote_shipping",
        "Quote shipping to a country in a shipping zone.",
        {"country": "string", "zone": "integer"},
    )
]

DERIVED_ROWS: list[
    tuple[
        list[dict[str, Any]],
        str | None,
        str,
        tuple[str, dict[str, Any]],
        str,
        tuple[str, dict[str, Any]],
    ]
] = [
    (
        WEATHER_UNIT,
        "Use fahrenheit for cities in the United States and celsius everywhere else.",
        "What's the weather in Paris?",
        ("get_weather", {"city": "Paris", "unit": "celsius"}),
        "What's the weather in Chicago?",
        ("get_weather", {"city": "Chicago", "unit": "fahrenheit"}),
    ),
    (
        WEATHER_UNIT,
        "Use fahrenheit for cities in the United States and celsius everywhere else.",
        "Weather in Denver today?",
        ("get_weather", {"city": "Denver", "unit": "fahrenheit"}),
        "Weather in Rome today?",
        ("get_weather", {"city": "Rome", "unit": "celsius"}),
    ),
    (
        TICKET_OFFICE,
        "Offices: Paris (code PAR1), Berlin (code BER2), Madrid (code MAD3).",
        "Open a ticket for the Paris office: the printer is jammed.",
        ("open_ticket", {"office": "Paris", "office_code": "PAR1"}),
        "Open a ticket for the Berlin office: the printer is jammed.",
        ("open_ticket", {"office": "Berlin", "office_code": "BER2"}),
    ),
    (
        TICKET_OFFICE,
        "Offices: Paris (code PAR1), Berlin (code BER2), Madrid (code MAD3).",
        "The Madrid office has no internet, open a ticket.",
        ("open_ticket", {"office": "Madrid", "office_code": "MAD3"}),
        "The Paris office has no internet, open a ticket.",
        ("open_ticket", {"office": "Paris", "office_code": "PAR1"}),
    ),
    (
        GREETING,
        "Greet customers in their country's language: Spain Spanish, France French, "
        "Germany German, Italy Italian.",
        "Send a welcome message to Ana from Spain.",
        ("send_greeting", {"customer": "Ana", "language": "Spanish"}),
        "Send a welcome message to Ana from Germany.",
        ("send_greeting", {"customer": "Ana", "language": "German"}),
    ),
    (
        MENU,
        "Menu: latte $4, mocha $5, flat white $4.50, tea $3.",
        "Order a mocha for me.",
        ("place_order", {"item": "mocha", "price": 5}),
        "Order a tea for me.",
        ("place_order", {"item": "tea", "price": 3}),
    ),
    (
        MENU,
        "Menu: latte $4, mocha $5, flat white $4.50, tea $3.",
        "I'd like a latte.",
        ("place_order", {"item": "latte", "price": 4}),
        "I'd like a mocha.",
        ("place_order", {"item": "mocha", "price": 5}),
    ),
    (
        SEATS,
        "Seat map: Ana Silva 12A, Ben Ito 14C, Carla Diaz 3F.",
        "Check in Ana Silva.",
        ("check_in", {"passenger": "Ana Silva", "seat": "12A"}),
        "Check in Ben Ito.",
        ("check_in", {"passenger": "Ben Ito", "seat": "14C"}),
    ),
    (
        CALLS,
        "Contacts: Priya is in Asia/Kolkata, Sam is in America/New_York, Lena is in Europe/Berlin.",
        "Schedule a call with Priya at 15:00.",
        ("schedule_call", {"contact": "Priya", "timezone": "Asia/Kolkata", "time": "15:00"}),
        "Schedule a call with Sam at 15:00.",
        ("schedule_call", {"contact": "Sam", "timezone": "America/New_York", "time": "15:00"}),
    ),
    (
        ZONES,
        "Shipping zones: Germany is zone 1, Canada is zone 2, Japan is zone 3.",
        "Quote shipping to Germany.",
        ("quote_shipping", {"country": "Germany", "zone": 1}),
        "Quote shipping to Japan.",
        ("quote_shipping", {"country": "Japan", "zone": 3}),
    ),
]


def derived_cases() -> Iterator[dict[str, Any]]:
    for n, (tools, system, p1, (name1, args1), p2, (name2, args2)) in enumerate(
        DERIVED_ROWS, start=1
    ):
        yield case(
            f"tool-derived-{n:03d}",
            "tool_derived_argument",
            p1,
            call(name1, **args1),
            p2,
            call(name2, **args2),
            tools=tools,
            system=system,
            paths=ALL,
        )


def all_cases() -> Iterator[dict[str, Any]]:
    yield from threshold_cases()
    yield from date_cases()
    yield from quantity_cases()
    yield from shared_cases()
    yield from derived_cases()
