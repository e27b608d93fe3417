"""Every refusal is one line, `{"error": "<field>: <why>"}`, with the status that fits: the
gateway's own (`Problem`), Litestar's (validation, sizes, unknown routes) and the last guard
(a body nested past the decoder's recursion limit), mapped here; and the statuses each route
may answer, for the OpenAPI document."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi.datastructures import ResponseSpec

from services.gateway.limits import MAX_JSON_DEPTH, nested_deeper, retry_seconds
from services.gateway.messages import ErrorBody

WHY = {
    400: "a body, query or path value that does not decode; the error names it",
    401: "a missing, unknown or removed token",
    403: "a token of another table or seat, or not the owner's",
    404: "no such table (or seat)",
    408: "the request did not arrive within the read timeout",
    409: "the table is in the wrong state for this",
    413: "a body over the size limit",
    422: "a request the rules (or the lobby's modules) refuse",
    429: "past a limit: a rate, a quota of streams or tables; see Retry-After",
    503: "Redis or the rules service did not answer",
}
# What Litestar says for a route it does not have, or a method it does not serve there.
PLAIN = {404: "path: no such route", 405: "method: not served on this path"}


class Problem(Exception):
    """One-line error for the client: `{"error": text}` with `status`."""

    def __init__(self, status: int, text: str, retry_after: float = 0.0) -> None:
        super().__init__(text)
        self.status = status
        self.retry_after = retry_after


def responses(*codes: int) -> dict[int, ResponseSpec]:
    """The error statuses a route may answer, as OpenAPI responses."""
    return {code: ResponseSpec(data_container=ErrorBody, description=WHY[code],
                               generate_examples=False) for code in codes}


async def bounded_nesting(request: Request[Any, Any, Any]) -> None:
    """Before any body is decoded: refuse JSON nested deeper than MAX_JSON_DEPTH (a decoder
    recursing through 8,000 brackets fails with RecursionError, a 500)."""
    if request.method in ("POST", "PUT", "PATCH", "DELETE"):
        body = await request.body()  # bounded by the route's size limit; kept for the decoder
        if nested_deeper(body):
            raise Problem(400, f"body: nested deeper than {MAX_JSON_DEPTH}")


def problem_response(_: Request[Any, Any, Any], exc: Problem) -> Response[dict[str, str]]:
    later = exc.retry_after or exc.status == 429  # a 429 always says when to come back
    headers = {"Retry-After": str(retry_seconds(exc.retry_after))} if later else {}
    return Response({"error": one_line(str(exc))}, status_code=exc.status, headers=headers)


def validation_response(_: Request[Any, Any, Any],
                        exc: ValidationException) -> Response[dict[str, str]]:
    """Litestar's validation errors as one line naming the field."""
    extra = exc.extra if isinstance(exc.extra, list) else []
    if extra and isinstance(extra[0], dict):
        first = extra[0]
        key = str(first.get("key") or first.get("source") or "body")
        why = str(first.get("message", exc.detail))
        if key == "data":  # Litestar's name for the body; "'data'" when there is none
            key, why = "body", "a JSON body is needed" if why == "'data'" else why
        text = f"{key}: {why}"
    else:
        text = f"body: {exc.detail}"
    return Response({"error": one_line(text)}, status_code=400)


def http_response(_: Request[Any, Any, Any], exc: HTTPException) -> Response[dict[str, str]]:
    if exc.status_code == 413:
        text = f"body: larger than the limit ({exc.detail})"
    else:
        text = PLAIN.get(exc.status_code) or str(exc.detail)
    return Response({"error": one_line(text)}, status_code=exc.status_code,
                    headers=exc.headers or {})


def recursion_response(_: Request[Any, Any, Any],
                       exc: RecursionError) -> Response[dict[str, str]]:
    """A last guard: only a body nested too deep makes the decoders recurse this far."""
    return Response({"error": f"body: nested deeper than {MAX_JSON_DEPTH}"}, status_code=400)


def one_line(text: str) -> str:
    return " ".join(text.split())[:300]


HANDLERS: dict[Any, Any] = {
    Problem: problem_response, ValidationException: validation_response,
    HTTPException: http_response, RecursionError: recursion_response,
}
