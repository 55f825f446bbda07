"""Straight quotes from the content are printed curled, numbers tied, in text only."""

from __future__ import annotations

from generator.render.typography import tie_runt, tie_title, typeset


def test_apostrophes_and_quotations_in_text() -> None:
    assert typeset("<p>the manual&#39;s HP; players&#39; dice; it's</p>") == (
        "<p>the manual\u2019s HP; players\u2019 dice; it\u2019s</p>")
    assert typeset("<p>never &#39;heal up&#39;. Zachary &#34;za3k&#34; Vance (&quot;x&quot;)"
                       "</p>") == ("<p>never \u2018heal up\u2019. Zachary \u201cza3k\u201d Vance"
                                   " (\u201cx\u201d)</p>")


def test_a_quote_opens_a_cell_or_a_line_and_continues_across_inline_tags() -> None:
    # After a block or cell tag a quote opens, whatever the text before the tag ended with;
    # across an inline tag the text runs on.
    assert typeset('<td>a</td><td>"b"</td>') == "<td>a</td><td>\u201cb\u201d</td>"
    assert typeset("<p><strong>Sell</strong>'s and <em>'x'</em></p>") == (
        "<p><strong>Sell</strong>\u2019s and <em>\u2018x\u2019</em></p>")


def test_tags_attributes_styles_and_code_are_left_alone() -> None:
    html = ('<div data-key="items/Healer&#39;s case" title="it\'s"></div>'
            '<style>html { font-family: "Source Serif Pro"; }</style>'
            "<!-- it's --><code>'x'</code><pre>\"y\"</pre>")
    assert typeset(html) == html


def test_numbers_are_tied_to_the_words_they_count() -> None:
    assert typeset("<p>On a failure: \u22121 HP. +1 Crafting DRAW; 5 gp, 10 XP</p>") == (
        "<p>On a failure: \u22121\u00a0HP. +1\u00a0Crafting DRAW; 5\u00a0gp, 10\u00a0XP</p>")
    # A count that opens a bracket, and a roll's faces before a colon ("Corridor (2" ended a
    # line over "exits)" on a reference card, and "3\u20134:" over "second").
    assert typeset("<td>Corridor (2 exits), Vault (1d3 exits), Hall (1d3+1 exits)</td>") == (
        "<td>Corridor (2\u00a0exits), Vault (1d3\u00a0exits), Hall (1d3+1\u00a0exits)</td>")
    assert typeset("<td>1\u20132: first / 3\u2013\u20604: second / 5-6: third</td>") == (
        "<td>1\u20132:\u00a0first / 3\u2013\u20604:\u00a0second / 5-6:\u00a0third</td>")
    # A number before a longer word, or inside a word or a figure, keeps its space.
    assert typeset("<p>Draft 3 calls; 1d6 x; 1.5 m; DD-10 rolls</p>") == (
        "<p>Draft 3 calls; 1d6 x; 1.5 m; DD-10 rolls</p>")
    assert typeset('<p title="+1 HP">it\'s</p>') == '<p title="+1 HP">it\u2019s</p>'


def test_a_no_break_space_before_an_inline_element_moves_into_it() -> None:
    assert typeset("<p>costs 5\u00a0<em><strong>gp</strong></em>; x&nbsp;<span>TARGET</span>"
                   "</p>") == ("<p>costs 5<em><strong>\u00a0gp</strong></em>; x<span>"
                               "\u00a0TARGET</span></p>")
    # At the end of a block, and in styles, code and comments, it stays.
    html = ("<p>a\u00a0</p><td>b\u00a0</td><style>x\u00a0<em></style><code>y\u00a0<em>"
            "</code><!-- z\u00a0<em> -->")
    assert typeset(html) == html


def test_a_hyphen_typed_as_a_minus_prints_a_minus() -> None:
    assert typeset("<p>hit points reach -5. Take -1 on a roll (+1/-1).</p>") == (
        "<p>hit points reach \u22125. Take \u22121\u00a0on a roll (+1/\u22121).</p>")
    # Ranges, IDs, sums and attributes keep their hyphen.
    assert typeset('<td data-k="a-1">1-3, IT-08, d6-1</td>') == (
        '<td data-k="a-1">1-3, IT-08, d6-1</td>')
    assert typeset("<td>-2</td>") == "<td>\u22122</td>"
    # What comes before an inline tag counts: "**1**-3" is a range.
    assert typeset("<p><b>1</b>-3, 50%-75%</p>") == "<p><b>1</b>-3, 50%-75%</p>"


def test_a_web_address_is_kept_whole_and_a_title_is_left_alone() -> None:
    html = typeset("<title>a.com's</title><p>notes on RodrigoFranco.com, or "
                   "(https://notes.example.org/a_b.html), gm@example.com. E.g. notes.md, "
                   "1.5 or a.community.</p>")
    assert html == (
        "<title>a.com's</title><p>notes on <span class=\"web\">RodrigoFranco.com</span>, or "
        "(<span class=\"web\">https://notes.example.org/a_b.html</span>), "
        "<span class=\"web\">gm@example.com</span>. E.g. notes.md, 1.5 or a.community.</p>"
    )


def test_a_short_last_word_is_tied_to_the_one_before() -> None:
    assert tie_runt("every roll made with Dex. +1.") == "every roll made with Dex.\u00a0+1."
    assert tie_runt("the cost of an extraordinarily long word") == (
        "the cost of an extraordinarily long\u00a0word")
    # A title ties only a pair short enough for its large type on a small card's line.
    assert tie_title("Misc supplies, tier 1") == "Misc supplies, tier\u00a01"
    assert tie_title("Weapon: staff or axe") == "Weapon: staff or\u00a0axe"
    assert tie_title("Unbelievable powers") == "Unbelievable powers"
    assert tie_title("Strength Potion") == "Strength Potion"
