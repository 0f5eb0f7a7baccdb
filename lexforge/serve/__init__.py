"""``lexforge serve``: a web page and a JSON API over built lexicons (the ``serve`` extra).

See lexforge.serve.app for the routes and limits, lexforge.serve.params for the parameters and
the OpenAPI document, and ``static/`` for the page (plain HTML, CSS and JavaScript).
"""
