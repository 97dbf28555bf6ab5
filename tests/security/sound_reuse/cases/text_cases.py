"""Requests that differ only where the answer copies or reads the difference: letter case the
answer copies (in text, in a tool argument, in a tool result), capitalised words whose case
changes the meaning, contractions with more than one reading, and the inner model's endpoint.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tests.security.sound_reuse.cases.common import ALL, call, case, tool

# -- letter case the answer copies ----------------------------------------------------------

COPIED_TEXT: list[tuple[str, str, str, str]] = [
    (
        "Set my Wi-Fi password to {x} and read it back to me.",
        "Done. Your new Wi-Fi password is {x}.",
        "Blue-Falcon-42",
        "blue-falcon-42",
    ),
    (
        "Give me the command to create a folder called {x} in my home directory.",
        "mkdir ~/{x}",
        "Reports",
        "reports",
    ),
    (
        "Write the git command to create and switch to a branch named {x}.",
        "git checkout -b {x}",
        "Feature-Login",
        "feature-login",
    ),
    (
        "What's the shell command to rename notes.txt to {x}?",
        "mv notes.txt {x}",
        "Meeting-Notes.txt",
        "meeting-notes.txt",
    ),
    (
        "My username on example.com is {x}. What is my profile URL?",
        "Your profile URL is https://example.com/users/{x}",
        "JohnSmith",
        "johnsmith",
    ),
    (
        "Write a Python line that sets a variable named {x} to 0.",
        "{x} = 0",
        "totalCount",
        "totalcount",
    ),
    (
        "Write a CSS rule that hides elements with the class {x}.",
        ".{x} { display: none; }",
        "HeaderBar",
        "headerbar",
    ),
    ("Make a hashtag for our event {x}.", "#{y}", "Summer Jam", "summer jam"),
    (
        "Set my display name to {x} and confirm.",
        "Your display name is now {x}.",
        "McKenzie",
        "Mckenzie",
    ),
    (
        "Tell the customer their voucher code is {x} and that it expires on Friday.",
        "Your voucher code is {x}. It expires on Friday.",
        "Xk9Lp",
        "xk9Lp",
    ),
    (
        "Write the command to go to the folder /home/{x}/Docs in a terminal.",
        "cd /home/{x}/Docs",
        "Ana",
        "ana",
    ),
    (
        "Create a Java class named {x} with an empty constructor.",
        "public class {x} {{\n    public {x}() {{\n    }}\n}}",
        "OrderService",
        "Orderservice",
    ),
    (
        "Create a Docker volume named {x} and show me the command.",
        "docker volume create {x}",
        "PgData",
        "pgdata",
    ),
    (
        "Reply to Anna that her locker password is {x}.",
        "Hi Anna, your locker password is {x}.",
        "TangoEcho",
        "tangoecho",
    ),
    ("Write a one-line Bash script that prints the name {x}.", 'echo "{x}"', "MacLeod", "Macleod"),
    (
        "Give me the command to create a folder called {x} inside my projects folder.",
        "mkdir ~/projects/{x}",
        "Invoices",
        "invoices",
    ),
    (
        "Set my Wi-Fi password to {x} and read it back to me.",
        "Done. Your new Wi-Fi password is {x}.",
        "Sunflower",
        "sunflower",
    ),
    (
        "Write the git command to create a tag called {x} on the current commit.",
        "git tag {x}",
        "Release",
        "release",
    ),
    (
        "Write the SQL to create a database user called {x} with no password yet.",
        "CREATE USER {x};",
        "Admin",
        "admin",
    ),
    (
        "Tell the guest that the door code is {x} and that it changes on Monday.",
        "Hi! The door code is {x}. It changes on Monday.",
        "Tiger",
        "tiger",
    ),
    (
        "Write a Python class called {x} with an empty body.",
        "class {x}:\n    pass",
        "Invoice",
        "invoice",
    ),
    (
        "Write the shell command to list the files in the folder {x} in my home directory.",
        "ls ~/{x}",
        "Photos",
        "photos",
    ),
]


COPIED_JSON: list[tuple[str, str, str, str]] = [
    (
        "Return a JSON object with the keys username and active where username is {x} and "
        "active is true.",
        '{{"username": "{x}", "active": true}}',
        "JSmith",
        "jsmith",
    ),
    (
        "Create a JSON object with the keys folder and shared where folder is {x} and shared "
        "is false.",
        '{{"folder": "{x}", "shared": false}}',
        "Reports",
        "reports",
    ),
    (
        "Return a JSON object with the keys branch and protected where branch is {x} and "
        "protected is true.",
        '{{"branch": "{x}", "protected": true}}',
        "Release",
        "release",
    ),
]


def copied_text_cases() -> Iterator[dict[str, Any]]:
    for n, (prompt, answer, a, b) in enumerate(COPIED_JSON, start=len(COPIED_TEXT) + 1):
        yield case(
            f"case-copied-{n:03d}",
            "case_copied_by_answer",
            prompt.format(x=a),
            answer.format(x=a),
            prompt.format(x=b),
            answer.format(x=b),
            judge="json",
        )
    for n, (prompt, answer, a, b) in enumerate(COPIED_TEXT, start=1):

        def fill(template: str, x: str) -> str:
            y = x.title().replace(" ", "") if x[0].isupper() else x.replace(" ", "")
            return (
                template.replace("{x}", x).replace("{y}", y).replace("{{", "{").replace("}}", "}")
            )

        yield case(
            f"case-copied-{n:03d}",
            "case_copied_by_answer",
            fill(prompt, a),
            fill(answer, a),
            fill(prompt, b),
            fill(answer, b),
        )


COPIED_TOOLS: list[tuple[dict[str, Any], str, str, str, str]] = [
    (
        tool("create_folder", "Create a folder on the shared drive.", {"name": "string"}),
        "Create a folder called {x} on the shared drive.",
        "name",
        "Reports",
        "reports",
    ),
    (
        tool("set_wifi_password", "Change the Wi-Fi password.", {"password": "string"}),
        "Change the Wi-Fi password to {x}.",
        "password",
        "Blue-Falcon-42",
        "blue-falcon-42",
    ),
    (
        tool("create_branch", "Create a git branch.", {"name": "string"}),
        "Create a branch called {x} from main.",
        "name",
        "Feature-Login",
        "feature-login",
    ),
    (
        tool("set_display_name", "Change the user's display name.", {"name": "string"}),
        "Change my display name to {x}.",
        "name",
        "McKenzie",
        "Mckenzie",
    ),
    (
        tool(
            "lookup_user",
            "Look up an account by its username (case-sensitive).",
            {"username": "string"},
        ),
        "Look up the account {x}.",
        "username",
        "JSmith",
        "jsmith",
    ),
    (
        tool("redeem_voucher", "Redeem a voucher code.", {"code": "string"}),
        "Redeem the voucher {x} on my account.",
        "code",
        "Xk9Lp",
        "xk9Lp",
    ),
    (
        tool("Contact", "Save a contact.", {"name": "string", "email": "string"}),
        "Save this contact: {x}, dana@example.com",
        "name",
        "Dana McLeod",
        "Dana Mcleod",
    ),
    (
        tool("create_folder", "Create a folder on the shared drive.", {"name": "string"}),
        "Create a folder called {x} on the shared drive for this year's receipts.",
        "name",
        "Invoices",
        "invoices",
    ),
    (
        tool("set_wifi_password", "Change the Wi-Fi password.", {"password": "string"}),
        "Change the Wi-Fi password of the guest network to {x}.",
        "password",
        "Sunflower",
        "sunflower",
    ),
    (
        tool("create_tag", "Create a git tag on the current commit.", {"name": "string"}),
        "Create a git tag called {x} on the current commit.",
        "name",
        "Release",
        "release",
    ),
    (
        tool("add_label", "Add a label to the open email.", {"label": "string"}),
        "Add the label {x} to the email I have open.",
        "label",
        "Urgent",
        "urgent",
    ),
    (
        tool("create_user", "Create a database user.", {"username": "string"}),
        "Create a database user called {x} for the reporting job.",
        "username",
        "Admin",
        "admin",
    ),
    (
        tool(
            "rename_file",
            "Rename a file in the current folder.",
            {"old_name": "string", "new_name": "string"},
        ),
        "Rename notes.txt to {x}.",
        "new_name",
        "Meeting-Notes.txt",
        "meeting-notes.txt",
    ),
]


def copied_tool_cases() -> Iterator[dict[str, Any]]:
    for n, (spec, prompt, key, a, b) in enumerate(COPIED_TOOLS, start=1):
        name = spec["function"]["name"]
        extra: dict[str, Any] = {}
        if name == "Contact":
            extra = {"email": "dana@example.com"}
        if name == "rename_file":
            extra = {"old_name": "notes.txt"}
        yield case(
            f"case-tool-{n:03d}",
            "case_copied_by_tool_call",
            prompt.format(x=a),
            call(name, **{key: a, **extra}),
            prompt.format(x=b),
            call(name, **{key: b, **extra}),
            tools=[spec],
            tool_choice=name if name == "Contact" else None,
        )


TOOL_RESULTS: list[tuple[dict[str, Any], str, dict[str, Any], str, str, str, str]] = [
    (
        tool("get_door_code", "The current door code of a room.", {"room": "string"}),
        "What's the door code for the storage room?",
        {"room": "storage room"},
        "The code is Xk9",
        "The code is xk9",
        "The door code for the storage room is {c}.",
        "",
    ),
    (
        tool("get_wifi_password", "The guest Wi-Fi password of an office.", {"office": "string"}),
        "What is the guest Wi-Fi password in the Leeds office?",
        {"office": "Leeds"},
        "Tr0ub4dor",
        "tr0ub4dor",
        "The guest Wi-Fi password in the Leeds office is {c}.",
        "",
    ),
    (
        tool("get_coupon", "The customer's current coupon code.", {"customer": "string"}),
        "Which coupon code does Maria have?",
        {"customer": "Maria"},
        "SAVE-Ab12",
        "SAVE-ab12",
        "Maria's coupon code is {c}.",
        "",
    ),
    (
        tool(
            "latest_report", "The file name of the latest report in a folder.", {"folder": "string"}
        ),
        "What is the latest report in the finance folder called?",
        {"folder": "finance"},
        "Report_Final.PDF",
        "report_final.pdf",
        "The latest report in the finance folder is {c}.",
        "",
    ),
    (
        tool("get_username", "The username of an employee.", {"employee": "string"}),
        "What is John Smith's username?",
        {"employee": "John Smith"},
        "JSmith",
        "jsmith",
        "John Smith's username is {c}.",
        "",
    ),
]


def conversation(question: str, name: str, args: dict[str, Any], result: str) -> dict[str, Any]:
    """The user's question, the model's tool call and the tool's result."""
    return {
        "messages": [
            {"role": "user", "content": question},
            {"role": "assistant", "content": "", "tool_calls": [{"name": name, "args": args}]},
            {"role": "tool", "content": result},
        ]
    }


def tool_result_cases() -> Iterator[dict[str, Any]]:
    for n, (spec, question, args, r1, r2, answer, _) in enumerate(TOOL_RESULTS, start=1):
        name = spec["function"]["name"]

        code1 = r1.removeprefix("The code is ")
        code2 = r2.removeprefix("The code is ")
        yield case(
            f"case-result-{n:03d}",
            "case_copied_from_tool_result",
            conversation(question, name, args, r1),
            answer.format(c=code1),
            conversation(question, name, args, r2),
            answer.format(c=code2),
            tools=[spec],
            judge="text",
        )


# -- capitalised words whose case is meaning ------------------------------------------------------

MEANING_CASE: list[tuple[str, str, str, str, str]] = [
    (
        "What is a {w}?",
        "Jaguar",
        "jaguar",
        "Jaguar is a British maker of luxury cars and SUVs, owned by Tata Motors.",
        "A jaguar is a large wild cat of Central and South America, the biggest cat in the "
        "Americas.",
    ),
    (
        "Tell me about {w}.",
        "Mercury",
        "mercury",
        "Mercury is the smallest planet in the Solar System and the closest to the Sun.",
        "Mercury is a heavy, silvery metal that is liquid at room temperature (symbol Hg).",
    ),
    (
        "What does {w} do?",
        "Shell",
        "shell",
        "Shell is a British multinational energy company that produces and sells oil and gas.",
        "A shell is the program that reads your commands in a terminal and runs them.",
    ),
    (
        "What is {w}?",
        "Java",
        "java",
        "Java is an object-oriented programming language that runs on the Java Virtual Machine.",
        "Java is an informal word for coffee.",
    ),
    (
        "What is {w}?",
        "Corona",
        "corona",
        "Corona is a Mexican pale lager, usually served with a slice of lime.",
        "The corona is the outermost layer of the Sun's atmosphere, visible during an eclipse.",
    ),
    (
        "What is a {w}?",
        "Mustang",
        "mustang",
        "The Mustang is a sports car made by Ford since 1964.",
        "A mustang is a free-roaming horse of the American West.",
    ),
    (
        "What is a {w}?",
        "Beetle",
        "beetle",
        "The Beetle is a small car made by Volkswagen from 1938 to 2019.",
        "A beetle is an insect with hard wing cases; beetles form the order Coleoptera.",
    ),
    (
        "What is {w}?",
        "Tide",
        "tide",
        "Tide is a laundry detergent brand made by Procter & Gamble.",
        "The tide is the regular rise and fall of the sea caused by the Moon and the Sun.",
    ),
    (
        "What is {w}?",
        "Dove",
        "dove",
        "Dove is a personal care brand owned by Unilever, known for its soap bars.",
        "Dove is a past tense of dive, used mainly in American English.",
    ),
    (
        "What is {w}?",
        "Swift",
        "swift",
        "Swift is Apple's programming language for iOS and macOS apps.",
        "A swift is a small, fast bird that spends most of its life flying.",
    ),
    (
        "What is {w}?",
        "Ruby",
        "ruby",
        "Ruby is a dynamic programming language, known for the Rails web framework.",
        "A ruby is a red gemstone, a variety of the mineral corundum.",
    ),
    (
        "What is {w}?",
        "Oracle",
        "oracle",
        "Oracle is an American software company best known for its database.",
        "An oracle is a person or shrine believed to give advice from the gods.",
    ),
    (
        "What does {w} sell?",
        "Target",
        "target",
        "Target is a US retailer that sells clothing, groceries, electronics and home goods.",
        "A target does not sell anything: it is something you aim at.",
    ),
    (
        "Tell me about {w}.",
        "China",
        "china",
        "China is a country in East Asia with the world's second-largest population.",
        "China is fine porcelain tableware, first made in China.",
    ),
    (
        "Tell me about {w}.",
        "Turkey",
        "turkey",
        "Turkey is a country that spans southeastern Europe and western Asia; its capital is "
        "Ankara.",
        "The turkey is a large bird native to North America, often eaten at Thanksgiving.",
    ),
    (
        "What is {w}?",
        "Polish",
        "polish",
        "Polish is the official language of Poland, a West Slavic language.",
        "Polish is a substance you rub on a surface to make it shine.",
    ),
    (
        "What is {w}?",
        "Rust",
        "rust",
        "Rust is a systems programming language focused on memory safety.",
        "Rust is iron oxide, the red-brown coating that forms on iron in air and water.",
    ),
    (
        "What is a {w}?",
        "Golf",
        "golf",
        "The Golf is a compact hatchback made by Volkswagen since 1974.",
        "Golf is a sport in which players hit a small ball into a series of holes.",
    ),
    (
        "What is a {w}?",
        "Polo",
        "polo",
        "The Polo is a small car made by Volkswagen.",
        "Polo is a sport played on horseback with long mallets.",
    ),
    (
        "What is a {w}?",
        "Civic",
        "civic",
        "The Civic is a compact car made by Honda.",
        "Civic is an adjective meaning relating to a city or to citizens.",
    ),
    (
        "What is a {w}?",
        "Kindle",
        "kindle",
        "The Kindle is Amazon's e-reader.",
        "Kindle is a verb: to light a fire or to arouse a feeling.",
    ),
    (
        "How do I use {w}?",
        "Outlook",
        "outlook",
        "Open Outlook, sign in with your work account, then use the Mail and Calendar tabs.",
        "An outlook is a point of view; you use it by framing a situation in a certain way.",
    ),
    (
        "What is {w} used for?",
        "Zoom",
        "zoom",
        "Zoom is used for video meetings and webinars.",
        "Zoom is used on a camera or screen to enlarge part of the picture.",
    ),
    (
        "What is {w} used for?",
        "Slack",
        "slack",
        "Slack is a messaging app used for team chat.",
        "Slack in a rope or schedule is spare length or time that absorbs changes.",
    ),
    (
        "What is {w}?",
        "Signal",
        "signal",
        "Signal is an end-to-end encrypted messaging app.",
        "A signal is a sign or gesture that conveys information, or an electrical quantity "
        "that carries it.",
    ),
    (
        "What is a {w}?",
        "Pixel",
        "pixel",
        "The Pixel is Google's line of Android phones.",
        "A pixel is the smallest element of a digital image.",
    ),
    (
        "What is an {w}?",
        "Echo",
        "echo",
        "The Echo is Amazon's smart speaker with the Alexa assistant.",
        "An echo is a sound reflected back from a surface.",
    ),
    (
        "How do I get started with {w}?",
        "Go",
        "go",
        "Install Go from go.dev, then run go mod init and write your first main.go.",
        "To get started, just begin: pick one small step and do it today.",
    ),
]


def meaning_case_cases() -> Iterator[dict[str, Any]]:
    for n, (template, a, b, answer_a, answer_b) in enumerate(MEANING_CASE, start=1):
        yield case(
            f"case-meaning-{n:03d}",
            "case_changes_meaning",
            template.format(w=a),
            answer_a,
            template.format(w=b),
            answer_b,
        )


# -- contractions with more than one reading ----------------------------------------------

CONTRACTIONS: list[tuple[str, str, str, str]] = [
    (
        "How'd the dinosaurs die out?",
        "Most died out about 66 million years ago after an asteroid struck what is now Mexico.",
        "How would the dinosaurs die out?",
        "If it happened again, a large asteroid impact or massive volcanism could wipe them out.",
    ),
    (
        "What'd Einstein say about quantum mechanics?",
        "He famously objected that God does not play dice, doubting that quantum mechanics was "
        "complete.",
        "What would Einstein say about quantum mechanics?",
        "He would probably still question whether quantum mechanics is complete, but admire its "
        "predictions.",
    ),
    (
        "Where'd the money go?",
        "It went on rent, groceries and the car repair last month.",
        "Where would the money go?",
        "It would go into the emergency fund first, then into the index fund.",
    ),
    (
        "When'd the Berlin Wall fall?",
        "The Berlin Wall fell on 9 November 1989.",
        "When would the Berlin Wall fall?",
        "Looking ahead from 1985, few expected it to fall within the decade.",
    ),
    (
        "Why'd Rome fall?",
        "The Western Roman Empire fell in 476 after invasions, civil wars and economic decline.",
        "Why would Rome fall?",
        "An empire like Rome would fall if it overstretched its army and its tax base.",
    ),
    (
        "How'd they build the pyramids?",
        "Workers quarried limestone blocks and moved them on sledges up ramps, around 2500 BC.",
        "How would they build the pyramids?",
        "Today they would use cranes, concrete and laser surveying.",
    ),
    (
        "What'd Shakespeare write about love?",
        "He wrote that the course of true love never did run smooth (A Midsummer Night's Dream).",
        "What would Shakespeare write about love?",
        "He would likely write a sonnet about love that outlasts time.",
    ),
    (
        "Who'd they pick as captain?",
        "They picked Sara as captain last week.",
        "Who would they pick as captain?",
        "They would probably pick Sara: she has the most caps.",
    ),
    (
        "Where would you park?",
        "I would park in the garage on Elm Street: it is cheaper than the street.",
        "Where'd you park?",
        "I parked in the garage on Elm Street.",
    ),
    (
        "How would you fix a leaking tap?",
        "Turn off the water, take the handle off and replace the worn washer.",
        "How'd you fix a leaking tap?",
        "I replaced the washer after turning off the water.",
    ),
    (
        "Why would the server crash?",
        "It could crash if it runs out of memory or hits an unhandled exception.",
        "Why'd the server crash?",
        "It crashed because it ran out of memory during the nightly import.",
    ),
    (
        "What would the team decide?",
        "The team would probably decide to delay the launch by a week.",
        "What'd the team decide?",
        "The team decided to delay the launch by a week.",
    ),
    (
        "When would the package arrive?",
        "It would arrive in three to five working days.",
        "When'd the package arrive?",
        "It arrived on Tuesday morning.",
    ),
    (
        "Who would win the election?",
        "Polls suggest the incumbent would win narrowly.",
        "Who'd win the election?",
        "The incumbent won narrowly.",
    ),
    (
        "She'd left before the meeting started. What did she miss?",
        "Because she had already left, she missed the budget discussion at the start.",
        "She would leave before the meeting started. What did she miss?",
        "Since she usually left early, she would miss the budget discussion each time.",
    ),
    (
        "I'd taken two painkillers by noon. Can I take another one now?",
        "You had already taken two; check the label's daily limit before taking a third.",
        "I would take two painkillers by noon. Can I take another one now?",
        "If you plan to take two by noon, check the label before planning a third.",
    ),
]


def contraction_cases() -> Iterator[dict[str, Any]]:
    for n, (p1, a1, p2, a2) in enumerate(CONTRACTIONS, start=1):
        yield case(f"contraction-{n:03d}", "contraction_ambiguous", p1, a1, p2, a2)


# -- the inner model's endpoint ------------------------------------------------------------

KEY = "sk-test-not-a-real-key"


def chat_openai(**kwargs: Any) -> dict[str, Any]:
    return {"class": "ChatOpenAI", "kwargs": {"api_key": KEY, **kwargs}}


def azure(**kwargs: Any) -> dict[str, Any]:
    return {
        "class": "AzureChatOpenAI",
        "kwargs": {"api_key": KEY, "api_version": "2024-06-01", **kwargs},
    }


def openai_like(**kwargs: Any) -> dict[str, Any]:
    return {"class": "OpenAILike", "kwargs": {"api_key": KEY, **kwargs}}


ENDPOINTS: list[tuple[str, str, str, dict[str, Any], dict[str, Any]]] = [
    (
        "Summarise our refund policy in one sentence.",
        "Refunds are given within 30 days with the receipt.",
        "Store credit only, within 14 days of purchase.",
        {
            "cached": chat_openai(
                model="llama-3.1-8b-instruct", base_url="http://10.0.0.5:8000/v1"
            ),
            "new": chat_openai(model="llama-3.1-8b-instruct", base_url="http://10.0.0.6:8000/v1"),
        },
        {
            "cached": openai_like(
                model="llama-3.1-8b-instruct", api_base="http://10.0.0.5:8000/v1"
            ),
            "new": openai_like(model="llama-3.1-8b-instruct", api_base="http://10.0.0.6:8000/v1"),
        },
    ),
    (
        "Write a haiku about autumn leaves.",
        "Red leaves drift and fall / the maple lets go softly / a path of embers",
        "Amber, gold and rust / the wind keeps its own ledger / of what trees let go",
        {
            "cached": chat_openai(
                model="meta-llama/llama-3.1-8b-instruct", base_url="https://openrouter.ai/api/v1"
            ),
            "new": chat_openai(
                model="meta-llama/llama-3.1-8b-instruct", base_url="https://api.together.xyz/v1"
            ),
        },
        {
            "cached": openai_like(
                model="meta-llama/llama-3.1-8b-instruct", api_base="https://openrouter.ai/api/v1"
            ),
            "new": openai_like(
                model="meta-llama/llama-3.1-8b-instruct", api_base="https://api.together.xyz/v1"
            ),
        },
    ),
    (
        "Which plan do you recommend for a team of five?",
        "The Team plan: it covers up to ten seats at 29 EUR a month.",
        "Business Pro, because it includes priority legal support.",
        {
            "cached": chat_openai(model="company-assistant", base_url="http://localhost:11434/v1"),
            "new": chat_openai(model="company-assistant", base_url="http://localhost:8000/v1"),
        },
        {
            "cached": openai_like(model="company-assistant", api_base="http://localhost:11434/v1"),
            "new": openai_like(model="company-assistant", api_base="http://localhost:8000/v1"),
        },
    ),
    (
        "Can I break my lease early?",
        "Usually yes with two months' notice; check clause 12 of your contract.",
        "Contact support: lease questions are handled by the legal team.",
        {
            "cached": chat_openai(
                model="assistant",
                base_url="https://gateway.example.com/v1",
                organization="org-legal",
            ),
            "new": chat_openai(
                model="assistant",
                base_url="https://gateway.example.com/v1",
                organization="org-support",
            ),
        },
        {
            "cached": openai_like(
                model="assistant",
                api_base="https://gateway.example.com/v1",
                default_headers={"OpenAI-Organization": "org-legal"},
            ),
            "new": openai_like(
                model="assistant",
                api_base="https://gateway.example.com/v1",
                default_headers={"OpenAI-Organization": "org-support"},
            ),
        },
    ),
    (
        "Explain what a statute of limitations is.",
        "It is the deadline for bringing a legal claim; after it, the claim is barred.",
        "It's a time limit for legal action. Want me to open a ticket for a lawyer?",
        {
            "cached": chat_openai(
                model="assistant",
                base_url="https://gateway.example.com/v1",
                default_headers={"X-Model-Variant": "legal-v2"},
            ),
            "new": chat_openai(
                model="assistant",
                base_url="https://gateway.example.com/v1",
                default_headers={"X-Model-Variant": "support-v1"},
            ),
        },
        {
            "cached": openai_like(
                model="assistant",
                api_base="https://gateway.example.com/v1",
                default_headers={"X-Model-Variant": "legal-v2"},
            ),
            "new": openai_like(
                model="assistant",
                api_base="https://gateway.example.com/v1",
                default_headers={"X-Model-Variant": "support-v1"},
            ),
        },
    ),
    (
        "Where is my data stored?",
        "Your data is stored in our Frankfurt data centre.",
        "Your data is stored in our Virginia data centre.",
        {
            "cached": chat_openai(
                model="assistant",
                base_url="https://gateway.example.com/v1",
                default_query={"region": "eu"},
            ),
            "new": chat_openai(
                model="assistant",
                base_url="https://gateway.example.com/v1",
                default_query={"region": "us"},
            ),
        },
        {
            "cached": openai_like(model="assistant", api_base="https://eu.gateway.example.com/v1"),
            "new": openai_like(model="assistant", api_base="https://us.gateway.example.com/v1"),
        },
    ),
    (
        "What dose of ibuprofen is usual for an adult?",
        "200 to 400 mg every 4 to 6 hours, at most 1200 mg a day without a doctor's advice.",
        "I can only help with contract questions; please ask a pharmacist.",
        {
            "cached": chat_openai(
                model="llama-3.1-8b-instruct",
                base_url="http://10.0.0.5:8000/v1",
                extra_body={"lora_adapter": "medical"},
            ),
            "new": chat_openai(
                model="llama-3.1-8b-instruct",
                base_url="http://10.0.0.5:8000/v1",
                extra_body={"lora_adapter": "legal"},
            ),
        },
        {
            "cached": openai_like(
                model="llama-3.1-8b-instruct",
                api_base="http://10.0.0.5:8000/v1",
                additional_kwargs={"extra_body": {"lora_adapter": "medical"}},
            ),
            "new": openai_like(
                model="llama-3.1-8b-instruct",
                api_base="http://10.0.0.5:8000/v1",
                additional_kwargs={"extra_body": {"lora_adapter": "legal"}},
            ),
        },
    ),
    (
        "Draft a reply to a customer whose order is late.",
        "Dear customer, we are sorry your order is late. It will arrive within two days.",
        "Hi! So sorry about the delay - your order ships tomorrow, and here is 10% off.",
        {
            "cached": azure(
                model="gpt-4o",
                azure_endpoint="https://acme.openai.azure.com",
                azure_deployment="gpt4o-prod",
            ),
            "new": azure(
                model="gpt-4o",
                azure_endpoint="https://acme.openai.azure.com",
                azure_deployment="gpt4o-support-ft",
            ),
        },
        {
            "cached": openai_like(
                model="gpt-4o",
                api_version="2024-06-01",
                api_base="https://acme.openai.azure.com/openai/deployments/gpt4o-prod",
            ),
            "new": openai_like(
                model="gpt-4o",
                api_version="2024-06-01",
                api_base="https://acme.openai.azure.com/openai/deployments/gpt4o-support-ft",
            ),
        },
    ),
    (
        "Classify this ticket: 'The app logs me out every five minutes.'",
        "Category: authentication bug. Priority: high.",
        "Category: session timeout. Priority: medium.",
        {
            "cached": azure(
                model="gpt-4o",
                azure_endpoint="https://acme-eastus.openai.azure.com",
                azure_deployment="classifier",
            ),
            "new": azure(
                model="gpt-4o",
                azure_endpoint="https://acme-westeurope.openai.azure.com",
                azure_deployment="classifier",
            ),
        },
        {
            "cached": openai_like(
                model="gpt-4o",
                api_base="https://acme-eastus.openai.azure.com/openai/deployments/classifier",
            ),
            "new": openai_like(
                model="gpt-4o",
                api_base="https://acme-westeurope.openai.azure.com/openai/deployments/classifier",
            ),
        },
    ),
    (
        "Translate 'good morning' into the customer's language.",
        "Bonjour",
        "Guten Morgen",
        {
            "cached": chat_openai(
                model="translator", base_url="https://fr.translate.example.com/v1"
            ),
            "new": chat_openai(model="translator", base_url="https://de.translate.example.com/v1"),
        },
        {
            "cached": openai_like(
                model="translator", api_base="https://fr.translate.example.com/v1"
            ),
            "new": openai_like(model="translator", api_base="https://de.translate.example.com/v1"),
        },
    ),
    (
        "Suggest a name for our new product.",
        "LumaDesk",
        "Desk Pro 2",
        {
            "cached": chat_openai(
                model="assistant",
                base_url="https://gateway.example.com/v1",
                default_headers={"x-litellm-tags": "creative"},
            ),
            "new": chat_openai(
                model="assistant",
                base_url="https://gateway.example.com/v1",
                default_headers={"x-litellm-tags": "plain"},
            ),
        },
        {
            "cached": openai_like(
                model="assistant",
                api_base="https://gateway.example.com/v1",
                default_headers={"x-litellm-tags": "creative"},
            ),
            "new": openai_like(
                model="assistant",
                api_base="https://gateway.example.com/v1",
                default_headers={"x-litellm-tags": "plain"},
            ),
        },
    ),
    (
        "What is the capital of Australia?",
        "Canberra.",
        "The capital of Australia is Canberra, not Sydney, as many people think.",
        {
            "cached": azure(
                model="gpt-4o-mini",
                azure_endpoint="https://acme.openai.azure.com",
                azure_deployment="mini-terse",
            ),
            "new": azure(
                model="gpt-4o-mini",
                azure_endpoint="https://acme.openai.azure.com",
                azure_deployment="mini-verbose",
            ),
        },
        {
            "cached": openai_like(
                model="gpt-4o-mini",
                api_base="https://acme.openai.azure.com/openai/deployments/mini-terse",
            ),
            "new": openai_like(
                model="gpt-4o-mini",
                api_base="https://acme.openai.azure.com/openai/deployments/mini-verbose",
            ),
        },
    ),
]


ENDPOINTS += [
    (
        "How many prime numbers are there below 100? Think it through.",
        "There are 25.",
        "Let me list them by decade: 4 below 10, 4 in the teens, ... In total there are 25.",
        {
            "cached": chat_openai(model="o4-mini", reasoning_effort="low"),
            "new": chat_openai(model="o4-mini", reasoning_effort="high"),
        },
        {
            "cached": openai_like(model="o4-mini", additional_kwargs={"reasoning_effort": "low"}),
            "new": openai_like(model="o4-mini", additional_kwargs={"reasoning_effort": "high"}),
        },
    ),
    (
        "Describe the water cycle.",
        "Water evaporates, condenses into clouds, falls as rain or snow, and flows back to the "
        "sea, where the cycle begins again.",
        "Water evaporates, condenses into",
        {
            "cached": chat_openai(model="gpt-4o-mini", max_tokens=500),
            "new": chat_openai(model="gpt-4o-mini", max_tokens=5),
        },
        {
            "cached": openai_like(model="gpt-4o-mini", max_tokens=500),
            "new": openai_like(model="gpt-4o-mini", max_tokens=5),
        },
    ),
]


def endpoint_cases() -> Iterator[dict[str, Any]]:
    for n, (prompt, a1, a2, langchain, llama_index) in enumerate(ENDPOINTS, start=1):
        yield case(
            f"endpoint-{n:03d}",
            "endpoint_not_in_key",
            prompt,
            a1,
            prompt,
            a2,
            paths=ALL,
            models={"langchain": langchain, "llama_index": llama_index},
        )


def all_cases() -> Iterator[dict[str, Any]]:
    yield from copied_text_cases()
    yield from copied_tool_cases()
    yield from tool_result_cases()
    yield from meaning_case_cases()
    yield from contraction_cases()
    yield from endpoint_cases()
