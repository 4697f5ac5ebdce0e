# Übersetzungen — translations
GREETINGS = {
    "de": "Grüß Gott",
    "ja": "こんにちは",
    "ru": "Здравствуйте",
    "emoji": "👋",
}


def grüße(name):
    return f"{GREETINGS['de']}, {name}"


ｆｕｌｌｗｉｄｔｈ = 1  # the parser NFKC-normalises this name
