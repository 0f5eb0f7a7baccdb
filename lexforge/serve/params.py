"""The HTTP API's parameters as data: read from a query string or a JSON body, checked against
their bounds, and described in the OpenAPI document from the same definitions.

Each endpoint takes the same parameters by ``GET`` (query string: ``?letters=CHAT*&sort=score``,
a list as the parameter repeated) or by ``POST`` (a JSON object: ``{"letters": "CHAT*"}``). A
parameter that is unknown, missing, of the wrong type or out of bounds is a ``BadRequest``
(HTTP 400) naming it; the query's own checks (an unknown letter, a ragged grid) come later
from the solver as UserError (HTTP 422).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

KINDS = {"string": str, "integer": int, "boolean": bool, "strings": list}
WHOLE_NUMBER = re.compile(r"-?[0-9]{1,20}")
SURROGATE = re.compile("[\ud800-\udfff]")


class BadRequest(Exception):
    """A request the API refuses before any query runs: its HTTP status and one line."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Param:
    """One parameter: its JSON kind (``string``, ``integer``, ``boolean``, ``strings``) and
    bounds (characters of a string or of each listed string, items of a list, integer range)."""

    name: str
    kind: str
    description: str
    default: Any = None
    required: bool = False
    minimum: int | None = None
    maximum: int | None = None
    max_length: int | None = None
    max_items: int | None = None
    choices: tuple[Any, ...] | None = None
    nullable: bool = False

    def check(self, value: Any) -> Any:
        """``value`` if it fits; BadRequest naming the parameter otherwise."""
        if value is None and self.nullable:
            return None
        wanted = KINDS[self.kind]
        # bool is an int in Python: refuse it where a number is wanted, and the reverse.
        if not isinstance(value, wanted) or (wanted is int and isinstance(value, bool)):
            raise BadRequest(400, f"parameter '{self.name}': expected {self._kind_text()}")
        if self.kind == "strings":
            if not value or (self.max_items is not None and len(value) > self.max_items):
                raise BadRequest(
                    400, f"parameter '{self.name}': expected 1 to {self.max_items} strings"
                )
            for item in value:
                if not isinstance(item, str):
                    raise BadRequest(400, f"parameter '{self.name}': expected strings only")
                self._check_length(item)
        if self.kind == "string":
            self._check_length(value)
        if self.kind == "integer" and not (
            (self.minimum is None or value >= self.minimum)
            and (self.maximum is None or value <= self.maximum)
        ):
            raise BadRequest(
                400, f"parameter '{self.name}': {value} is out of range ({self._range_text()})"
            )
        if self.choices is not None and value not in self.choices:
            known = ", ".join(map(str, self.choices))
            raise BadRequest(400, f"parameter '{self.name}': expected one of {known}")
        return value

    def parse_text(self, texts: list[str]) -> Any:
        """The value of a query-string parameter (given ``texts``, once each time it appears)."""
        if self.kind == "strings":
            return texts
        if len(texts) > 1:
            raise BadRequest(400, f"parameter '{self.name}': given {len(texts)} times")
        text = texts[0]
        if self.kind == "integer":
            # ASCII digits only: int() also takes '3_0', '٣' and spaces around
            if not WHOLE_NUMBER.fullmatch(text):
                raise BadRequest(
                    400, f"parameter '{self.name}': expected a whole number, not '{text[:20]}'"
                )
            return int(text)
        if self.kind == "boolean":
            if text.lower() not in ("true", "false", "1", "0"):
                raise BadRequest(400, f"parameter '{self.name}': expected true or false")
            return text.lower() in ("true", "1")
        return text

    def _check_length(self, text: str) -> None:
        if SURROGATE.search(text):  # a JSON body's lone \ud800: no character, no UTF-8
            raise BadRequest(400, f"parameter '{self.name}': a lone surrogate is no character")
        if self.max_length is not None and len(text) > self.max_length:
            raise BadRequest(
                400,
                f"parameter '{self.name}': {len(text)} characters, at most {self.max_length}",
            )

    def _kind_text(self) -> str:
        text = {"string": "a string", "integer": "a whole number", "boolean": "true or false"}
        return text.get(self.kind, "a list of strings") + (" or null" if self.nullable else "")

    def _range_text(self) -> str:
        if self.maximum is None:
            return f"at least {self.minimum}"
        return f"from {self.minimum} to {self.maximum}"

    def schema(self) -> dict[str, Any]:
        """The parameter's JSON Schema (OpenAPI 3.1)."""
        if self.kind == "strings":
            schema: dict[str, Any] = {
                "type": "array",
                "items": {"type": "string", "maxLength": self.max_length},
                "minItems": 1,
                "maxItems": self.max_items,
            }
        else:
            schema = {"type": [self.kind, "null"] if self.nullable else self.kind}
        bounds = {
            "minimum": self.minimum,
            "maximum": self.maximum,
            "maxLength": self.max_length if self.kind == "string" else None,
            "enum": list(self.choices) if self.choices is not None else None,
            "default": self.default,
        }
        schema.update({key: value for key, value in bounds.items() if value is not None})
        return schema


@dataclass(frozen=True)
class Endpoint:
    """A query over one lexicon: ``/api/lexicons/{lexicon}/{command}``."""

    command: str
    summary: str
    params: tuple[Param, ...]
    run: Callable[..., Any]  # (lexicon, **parameters) -> lexforge.output.Answer

    def read(self, source: Mapping[str, Any], *, from_text: bool) -> dict[str, Any]:
        """Every parameter's value from a query string (``from_text``: name → list of texts)
        or a JSON object, with defaults; BadRequest on any unknown, missing or bad one."""
        known = {param.name: param for param in self.params}
        unknown = sorted(set(source) - set(known))
        if unknown:
            raise BadRequest(
                400,
                f"unknown parameter '{unknown[0][:40]}' for {self.command} "
                f"(known: {', '.join(known)})",
            )
        values = {}
        for name, param in known.items():
            if name not in source:
                if param.required:
                    raise BadRequest(400, f"parameter '{name}' is required for {self.command}")
                values[name] = param.default
                continue
            value = param.parse_text(source[name]) if from_text else source[name]
            values[name] = param.check(value)
        return values


def error_response_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["schema", "error", "status"],
        "properties": {
            "schema": {"const": "lexforge/1"},
            "error": {"type": "string", "description": "one line, as the command line says it"},
            "status": {"type": "integer"},
        },
    }


def answer_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "description": "The lexforge/1 answer envelope: the same object as the command line's "
        "--json answer to the same query",
        "required": ["schema", "command", "lexicon", "query", "results"],
        "properties": {
            "schema": {"const": "lexforge/1"},
            "command": {"type": "string"},
            "lexicon": {"type": ["string", "null"]},
            "query": {"type": "object"},
            "results": {"type": "array", "items": {"type": "object"}},
        },
        "additionalProperties": True,
    }


def openapi_document(endpoints: list[Endpoint], limits: dict[str, Any], version: str) -> dict:
    """The OpenAPI 3.1 description of every route of the app."""
    answer = {"$ref": "#/components/schemas/Answer"}
    error = {"$ref": "#/components/schemas/Error"}

    def responses(*statuses: int) -> dict[str, Any]:
        text = {
            200: "the answer",
            400: "a parameter unknown, missing, of the wrong type or out of bounds; bad JSON",
            404: "no such lexicon among those served",
            408: "the request body did not arrive in time",
            413: f"request body over {limits['body_bytes']} bytes",
            415: "a POST body not sent as Content-Type: application/json",
            422: "the query's input is wrong (the command line's message)",
            429: f"{limits['client_queries']} queries of this client address under way already",
            503: f"the query ran over its time budget of {limits['time_budget']} s (stopped)",
        }
        return {
            str(status): {
                "description": text[status],
                "content": {"application/json": {"schema": answer if status == 200 else error}},
            }
            for status in statuses
        }

    lexicon = {
        "name": "lexicon",
        "in": "path",
        "required": True,
        "description": "a lexicon served (see /api/lexicons)",
        "schema": {"type": "string"},
    }
    paths: dict[str, Any] = {
        "/api/lexicons": {
            "get": {
                "operationId": "lexicons",
                "summary": "the lexicons served, with their manifest's summary",
                "responses": responses(200),
            }
        },
        "/api/layout": {
            "get": {
                "operationId": "layout",
                "summary": "the standard Scrabble board's premium squares (row, col, square: "
                "l/L double/triple letter, w/W double/triple word, * start)",
                "responses": responses(200),
            }
        },
        "/openapi.json": {
            "get": {
                "operationId": "openapi",
                "summary": "this document",
                "responses": {"200": {"description": "OpenAPI 3.1"}},
            }
        },
        "/": {
            "get": {
                "operationId": "page",
                "summary": "the web page",
                "responses": {"200": {"description": "HTML"}},
            }
        },
    }
    for endpoint in endpoints:
        query = [
            {
                "name": param.name,
                "in": "query",
                "required": param.required,
                "description": param.description,
                "schema": param.schema(),
                **({"explode": True} if param.kind == "strings" else {}),
            }
            for param in endpoint.params
        ]
        body = {
            "type": "object",
            "additionalProperties": False,
            "required": [param.name for param in endpoint.params if param.required],
            "properties": {
                param.name: {**param.schema(), "description": param.description}
                for param in endpoint.params
            },
        }
        codes = responses(200, 400, 404, 408, 413, 415, 422, 429, 503)
        paths[f"/api/lexicons/{{lexicon}}/{endpoint.command}"] = {
            "get": {
                "operationId": f"{endpoint.command}_get",
                "summary": endpoint.summary,
                "parameters": [lexicon, *query],
                "responses": codes,
            },
            "post": {
                "operationId": f"{endpoint.command}_post",
                "summary": f"{endpoint.summary} (parameters as a JSON object)",
                "parameters": [lexicon],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": body}},
                },
                "responses": codes,
            },
        }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "lexforge",
            "version": version,
            "description": "Word-game queries over built lexicons. Every answer is the "
            "lexforge/1 envelope of the command line's --json; every error one line of JSON.",
        },
        "paths": paths,
        "components": {"schemas": {"Answer": answer_schema(), "Error": error_response_schema()}},
    }
