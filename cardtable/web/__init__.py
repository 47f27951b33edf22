"""The browser table: one asyncio server (:mod:`cardtable.web.server`) that
holds each player's game as an engine object and speaks JSON to a static page
(``static/``: HTML, CSS and JavaScript modules, no build step).

The protocol is documented in :mod:`cardtable.web.protocol`; Klondike is the
first game it serves (:mod:`cardtable.web.klondike`).
"""
