import json


class NotFound(Exception):
    status = 404


class Forbidden(Exception):
    status = 403


def handle_error(exc):
    body = json.dumps({"error": str(exc)})
    return getattr(exc, "status", 500), body


def handle_forbidden(exc):
    raise Forbidden(str(exc)) from exc


ERROR_HANDLERS = {NotFound: handle_error, Forbidden: handle_forbidden}
