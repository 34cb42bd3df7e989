"""A record's replay page graphs the endgame table's values over the game (issue #53,
item 8), as lichess graphs its evaluation: app.js's ``valuePoints`` and
``drawValueGraph`` run under Node (skipped without it) on a stand-in for the DOM."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from typing import Any

import pytest

from impl.web.pages import STATIC

NODE = shutil.which("node")

FAKE_DOM = """
const SVGNS = "http://www.w3.org/2000/svg";
const view = { graphX: null };
class Element {
  constructor(tag) { this.tag = tag; this.attrs = {}; this.children = []; this.dataset = {}; this.textContent = ""; }
  setAttribute(k, v) { this.attrs[k] = String(v); }
  toggleAttribute(k, on) { if (on) this.attrs[k] = ""; else delete this.attrs[k]; }
  replaceChildren(...c) { this.children = c; }
}
const document = { createElementNS: (ns, tag) => new Element(tag) };
const shape = (e) => ({ tag: e.tag, class: e.attrs.class || "", text: e.textContent });
"""


def run(functions: tuple[str, ...], call: str) -> Any:
    """``call``'s value, JSON, after the named functions of app.js."""
    assert NODE is not None
    script = (STATIC / "app.js").read_text()
    found = []
    for name in functions:
        match = re.search(rf"^function {name}\(.*?\) \{{\n.*?^\}}\n", script, re.MULTILINE | re.DOTALL)
        assert match is not None, f"app.js has no {name}"
        found.append(match[0])
    program = "\n".join([FAKE_DOM, *found, f"console.log(JSON.stringify({call}));"])
    done = subprocess.run([NODE, "-e", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def valued(ply: int, side: str, after: int, loss: int = 0) -> dict[str, Any]:
    return {"ply": ply, "side": side, "move": "A", "before": after + loss, "after": after, "loss": loss}


def outside(ply: int, side: str) -> dict[str, Any]:
    return {"ply": ply, "side": side, "move": "A", "why": "outside the table"}


VALUES = [outside(1, "south"), valued(2, "north", 2), valued(3, "south", -2), valued(4, "north", 1, loss=3)]
VALUES += [outside(5, "south"), valued(6, "north", 0)]


@pytest.mark.skipif(NODE is None, reason="no node to run the page's script")
def test_the_values_are_the_first_sides_with_gaps_where_the_table_is_silent() -> None:
    points = run(("valuePoints",), f"valuePoints({json.dumps(VALUES)}, 'south')")
    assert points == [[1, None], [2, -2], [3, -2], [4, -1], [5, None], [6, 0]]


@pytest.mark.skipif(NODE is None, reason="no node to run the page's script")
def test_the_graph_draws_each_covered_stretch_and_marks_the_blunders() -> None:
    functions = ("s", "signed", "valuePoints", "drawValueGraph")
    call = f"(() => {{ const g = new Element('svg'); drawValueGraph(g, {json.dumps(VALUES)}, 'south'); "
    call += "return { hidden: 'hidden' in g.attrs, points: g.dataset.points, shapes: g.children.map(shape) }; })()"
    graph = run(functions, call)
    assert not graph["hidden"] and graph["points"] == 4
    shapes = [(s["tag"], s["class"]) for s in graph["shapes"]]
    assert shapes.count(("polyline", "line")) == 1 and shapes.count(("circle", "point")) == 1  # plies 2-4, ply 6
    assert shapes.count(("circle", "blunder")) == 1 and ("line", "frame") in shapes
    assert "south +2" in [s["text"] for s in graph["shapes"]]


@pytest.mark.skipif(NODE is None, reason="no node to run the page's script")
def test_no_graph_where_the_table_covers_no_ply() -> None:
    functions = ("s", "signed", "valuePoints", "drawValueGraph")
    values = json.dumps([outside(1, "south"), outside(2, "north")])
    call = f"(() => {{ const g = new Element('svg'); drawValueGraph(g, {values}, 'south'); "
    call += "return 'hidden' in g.attrs; })()"
    assert run(functions, call) is True
