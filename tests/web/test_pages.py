"""The pages are one layout (static/layout.html) around each page's body, rendered at
import: every page has the same head, the script where it needs one, and a title."""

from __future__ import annotations

import re

import pytest

from impl.web import pages


def test_every_page_is_the_layout_around_its_body() -> None:
    for name, html in pages.PAGES.items():
        assert html.startswith('<!doctype html>\n<html lang="en">\n<head>\n'), name
        assert re.search(r"<title>zreferee — [^<$]+</title>", html), name
        assert html.count(pages.SCRIPT) == 1 and html.endswith("</body>\n</html>\n"), name
        assert "$" not in html.split("<body", 1)[0], name  # every placeholder filled


def test_the_missing_page_has_the_layout_and_no_script() -> None:
    html = pages.missing_page("no such game", "No game '<x>' here.")
    assert html.startswith("<!doctype html>") and pages.SCRIPT not in html
    assert "&lt;x&gt;" in html and "<x>" not in html


def test_a_page_without_its_title_line_is_refused() -> None:
    with pytest.raises(ValueError, match="the first line must be"):
        pages._page("layout.html")  # its first line is the doctype, not a title
