from shopkit.utils.text import normalize, slugify  # noqa: F401
