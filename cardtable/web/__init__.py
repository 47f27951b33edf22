"""The browser table: one asyncio server (:mod:`cardtable.web.server`) that
holds each player's game as an engine object and speaks JSON to a static page
(``static/``: HTML, CSS and JavaScript modules, no build step).

The protocol is documented in :mod:`cardtable.web.protocol`; it serves
Klondike (:mod:`cardtable.web.klondike`) and Kings Corner's shared tables
(:mod:`cardtable.web.kings_corner`).
"""
