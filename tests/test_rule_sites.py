"""Every rule field is known to every site that must handle it."""

from __future__ import annotations

from dataclasses import fields

from cardtable.klondike.variant import RULE_FIELDS, Scoring, Variant


def test_rule_fields_are_exactly_the_known_ones() -> None:
    # A new field fails here: follow the list in cardtable/klondike/variant.py
    # ("Every place a rule change must touch"), then add it to RULE_FIELDS.
    assert tuple(f.name for f in fields(Variant)) == RULE_FIELDS["Variant"]
    assert tuple(f.name for f in fields(Scoring)) == RULE_FIELDS["Scoring"]


def test_rules_key_covers_every_field_but_the_name() -> None:
    base = Variant.preset("seed-002")
    assert base.replace(name="renamed").rules_key() == base.rules_key()
    for field in fields(Variant):
        if field.name in ("name", "scoring"):
            continue
        value = getattr(base, field.name)
        other = {"draw": 3, "passes": None, "empty": "any", "foundation_return": True}[field.name]
        assert other != value
        assert base.replace(**{field.name: other}).rules_key() != base.rules_key(), field.name
    for field in fields(Scoring):
        value = getattr(base.scoring, field.name)
        changed = "standard" if field.name == "kind" else value + 1
        scoring = Scoring(**{**{f.name: getattr(base.scoring, f.name) for f in fields(Scoring)}, field.name: changed})
        assert base.replace(scoring=scoring).rules_key() != base.rules_key(), field.name


def test_a_variant_owns_its_identity() -> None:
    base = Variant.preset("thoughtful3")
    # The winnability key: the rules that decide a deal, not the name nor the scoring.
    assert base.replace(name="renamed").winnability_key == base.winnability_key
    assert base.replace(scoring="vegas").winnability_key == base.winnability_key
    for name, other in {"draw": 1, "passes": 3, "empty": "any", "foundation_return": False}.items():
        assert base.replace(**{name: other}).winnability_key != base.winnability_key, name
    # The kernel key: every rule and the scoring, never the name.
    assert base.replace(name="renamed").kernel_key == base.kernel_key
    assert base.replace(scoring="vegas").kernel_key != base.kernel_key
    # The label: a preset's own name only when it is that preset exactly.
    assert base.label == "thoughtful3"
    assert base.replace(passes=3).label == f"custom: {base.replace(passes=3).describe()}"
    assert Variant(name="thoughtful3", draw=1).label.startswith("custom: draw 1")
