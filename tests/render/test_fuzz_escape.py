"""Property tests for the one escaping place: whatever the input, the output is inert text.

`escape.text` must leave no character Markdown or HTML could act on, and lose nothing
(unescaping gives the input back); `rich_text` may add MathML, and nothing else. The
Markdown checks run Python-Markdown with the site's extensions, as MkDocs would.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import markdown
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.render import escape
from generator.render.math import rich_text

SPECIALS = "&<>\"'`\\*_{}[]()#+!|~^=$"
# Text biased towards what breaks escaping: specials, math, entities, payload words.
ATOMS = st.sampled_from([
    "<", ">", "&", "[", "]", "(", ")", "$", "\\(", "\\)", "{", "}", "{{", "}}", "{%", "%}", "--8<--",
    "{:", "<!--", "-->", "#", "---", "&lt;", "&#60;", "&amp;", "javascript:", "<script>", "</script>",
    "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))", "$x$", "$\\text{<b>}$", "$a<b$",
    "\\(x^2\\)", "$\\frac{1}{2}$", "*", "_", "`", "|", " ", "\n", "\t", "\x00", "\u2028", "a", "Z", "é",
])
TEXT = st.lists(ATOMS | st.text(max_size=5), max_size=30).map("".join) | st.text()
MD = markdown.Markdown(extensions=["toc", "attr_list", "pymdownx.highlight", "pymdownx.superfences"])
ENTITY = re.compile(r"&#\d+;")
# The MathML a page may hold: presentation elements and their layout attributes, nothing that
# links, loads or runs (no href, src, xlink:*, on*, style). The test's own list, not the module's.
MATHML_TAGS = frozenset(
    "math mrow mi mn mo ms mtext mspace msqrt mroot mfrac msub msup msubsup munder mover "
    "munderover mtable mtr mtd mstyle mpadded mphantom menclose semantics annotation".split())
MATHML_ATTRS = frozenset(
    "display mathvariant stretchy fence separator lspace rspace accent accentunder "
    "linethickness columnalign rowspacing columnspacing width height depth form "
    "largeop movablelimits minsize maxsize symmetric scriptlevel displaystyle notation xmlns".split())
# What has no place in page text and becomes a space: C0 and C1 controls (tab and newline are
# white space anyway), line and paragraph separators, lone surrogates and the two noncharacters.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.comments: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))

    def handle_comment(self, data: str) -> None:
        self.comments.append(data)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(markup: str) -> Tags:
    parser = Tags()
    parser.feed(markup)
    parser.close()
    return parser


def md(source: str) -> str:
    MD.reset()
    return MD.convert(source)


@settings(max_examples=600, deadline=None)
@given(TEXT)
def test_text_leaves_no_special_character_and_loses_nothing(value: str) -> None:
    out = escape.text(value)
    assert not set(ENTITY.sub("", out)) & set(SPECIALS)
    assert "\n" not in out
    assert html.unescape(out) == escape.fold(value)


@settings(max_examples=600, deadline=None)
@given(TEXT)
def test_rich_text_adds_only_mathml(value: str) -> None:
    out = rich_text(value)
    outside = re.sub(r"<math\b.*?</math>", "", out, flags=re.S)
    assert not set(ENTITY.sub("", outside)) & set(SPECIALS)
    tags = parse(out)
    assert not tags.comments
    for tag, attrs in tags.tags:
        assert tag in MATHML_TAGS
        assert all(name in MATHML_ATTRS for name, _ in attrs)


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_escaped_text_in_markdown_makes_only_our_elements(value: str) -> None:
    heading = parse(md(f"# {escape.text(value)}"))
    assert [t for t, _ in heading.tags] in ([], ["h1"])
    line = parse(md(escape.text(value)))  # alone on a line: a paragraph, never a list or rule
    assert [t for t, _ in line.tags] in ([], ["p"])
    item = parse(md(f"- [{escape.text(value) or 'x'}](page.md) — {escape.text(value)}"))
    assert [t for t, _ in item.tags] == ["ul", "li", "a"]
    assert item.tags[2][1] == [("href", "page.md")]
    table = parse(md(f"| a | b |\n| --- | --- |\n| {escape.text(value)} | x |"))
    assert not table.comments
    abstract = parse(md(f'<div class="rl-abstract">\n<p>{rich_text(value)}</p>\n</div>'))
    assert {t for t, _ in abstract.tags} <= {"div", "p"} | MATHML_TAGS
    assert not abstract.comments
    # MathML inside a Markdown paragraph (not an HTML block) gets no emphasis or links either.
    paragraph = parse(md(f"Abstract: {rich_text(value)}"))
    assert {t for t, _ in paragraph.tags} <= {"p"} | MATHML_TAGS


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_front_matter_value_is_plain_html_text(value: str) -> None:
    import json

    import yaml

    assert yaml.safe_load(f"title: {escape.yaml_string(value)}")["title"] == json.loads(escape.yaml_string(value))
    out = json.loads(escape.yaml_string(value))
    assert not set(out) & set("<>\"'")
    assert html.unescape(out) == escape.fold(value)


def _fold_reference(value: str) -> str:
    """`escape.fold` as it was before its fast path for printable text."""
    out = " ".join(value.split())
    return out if out.isprintable() else " ".join(CONTROL.sub(" ", value).split())


@given(TEXT | st.lists(st.sampled_from([" ", "  ", "\u00a0", "\u2003", "\x1f", "\n", "a", "é", "\u3000"]),
                       max_size=12).map("".join))
def test_fold_gives_one_line_of_single_spaces(value: str) -> None:
    assert escape.fold(value) == _fold_reference(value)


@settings(max_examples=600, deadline=None)
@given(TEXT)
def test_chars_is_one_entity_per_special_character(value: str) -> None:
    # The definition: every special, wherever it is, as its numeric reference; controls as spaces.
    expected = re.sub("[" + re.escape(SPECIALS) + "]", lambda m: f"&#{ord(m.group())};",
                      CONTROL.sub(" ", value))
    assert escape.chars(value) == expected


@given(TEXT)
def test_markup_and_front_matter_values_are_what_html_escape_writes(value: str) -> None:
    """Text with nothing for `html.escape` to replace skips it: the same text either way."""
    import json

    assert escape.markup(value) == html.escape(value)
    assert escape.markup(value, quote=False) == html.escape(value, quote=False)
    assert json.loads(escape.yaml_string(value)) == html.escape(escape.fold(value))
    pairs = [("citation_title", value), ("citation_author", "Ann O'Neil & co")]
    assert json.loads(escape.meta_tags(pairs)) == (
        f'<meta name="citation_title" content="{html.escape(escape.fold(value))}">'
        '<meta name="citation_author" content="Ann O&#x27;Neil &amp; co">')


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | TEXT,
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
                           max_leaves=8)


@given(JSON_VALUES)
def test_json_in_html_is_the_same_json_without_angle_brackets(value: object) -> None:
    """papers.json and the CSL-JSON files: the value reads back the same, and no `</script>` in
    a title could end a script that inlines the file."""
    import json

    text = escape.json_in_html(json.dumps(value, ensure_ascii=False))
    assert "<" not in text and ">" not in text
    assert json.loads(text) == value


@given(TEXT)
def test_fence_chars_leave_no_fence_marker_and_lose_nothing(value: str) -> None:
    out = escape.fence_chars(value)
    assert "`" not in out and "~" not in out
    assert html.unescape(out) == html.unescape(value)


def test_fence_chars_keep_a_note_body_in_its_raw_html_block() -> None:
    """A note body's HTML (render/notebody.py) sits in a raw HTML block of the page: a line of
    ``` or ~~~ in it would still start a code block for pymdownx.superfences, unless escaped."""
    # A note's code block that shows a fenced block, after a blank line.
    body = "<p>Before</p>\n<pre><code>x = 1\n\n```\ny = 2\n```\n\n~~~\nz\n~~~\n</code></pre>\n<p>After</p>"
    block = '<div class="rl-note-body">\n{}\n</div>'
    MD.reset()
    assert 'class="highlight"' in MD.convert(block.format(body))  # a fence taken for a code block
    MD.reset()
    converted = MD.convert(block.format(escape.fence_chars(body)))
    assert 'class="highlight"' not in converted
    assert html.unescape(converted) == html.unescape(block.format(body))
