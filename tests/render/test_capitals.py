"""Long words in capitals are kept whole, in rulebook prose and on cards."""

from __future__ import annotations

from markupsafe import Markup

from generator.render.capitals import is_label, is_name, keep_capitals, mark_capitals


def test_long_words_in_capitals_are_wrapped_and_the_rest_escaped() -> None:
    text = keep_capitals("DRAW 2, TARGET 1 & <ARCANE> or INDEFATIGABLE's")
    assert text == Markup('DRAW 2, <span class="caps">TARGET</span> 1 &amp; '
                          '&lt;<span class="caps">ARCANE</span>&gt; or '
                          '<span class="caps">INDEFATIGABLE</span>&#39;s')


def test_ruling_marks_words_in_words_and_markup_are_left_alone() -> None:
    mark = "\u2063RULING:TC-16\u2063"
    assert mark_capitals(mark) == mark
    assert mark_capitals("xTARGET TARGETx TARGET2") == "xTARGET TARGETx TARGET2"
    html = Markup('<img alt="ARCANE">')
    assert keep_capitals(html) is html


def test_names_and_labels() -> None:
    assert is_name("Tome of Enlightenment") and not is_name("Read it to regain 1 point")
    # A label stays on one line in a rulebook's table; a longer name may wrap.
    assert all(map(is_label, ["Dice Check", "single use", "Crushing trap", "Merchant", 5]))
    assert not any(map(is_label, ["Tome of Enlightenment", "Fountain of Longevity",
                                  "Elemental Weapons"]))


def test_a_ruling_mark_is_no_word_of_a_name() -> None:
    # "Special: Map Frag-ment (DD-15)" was hyphenated once its mark joined the cell.
    assert is_name("Special: Map Fragment\u00a0(DD-15)")
    assert is_name("Read it (DD-18).") and not is_name("Read it to regain (DD-18).")
