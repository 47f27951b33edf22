"""Players for every game: bots that see only what a seat at the table sees.

- :mod:`cardtable.bots.klondike`: Klondike's strategies (``priority``,
  ``turns``, ``greedy``, ``random``, ``expert``) and :func:`make_player`;
- :mod:`cardtable.bots.kings_corner`: Kings Corner's bots (``random``,
  ``greedy``, ``strategic``, ``expert``) and :func:`make_bot`.

Each game's players are imported from its own package, so a Kings Corner
match never loads the Klondike solver that Klondike's expert needs. Both
experts guess what their seat cannot see the same way: the view says which
cards are hidden and where (``hidden_cards()``), and
:class:`cardtable.game.HiddenCards` deals them from the bot's seeded generator.
"""
