"""What the tables need to know of a rule set, in one place that the builder, the
probe, the checks and the adjudicator all import: which rule sets a table can
cover, the grand-slam rule as the kernels number it (the engine's ``slam_kind``,
impl/engines/awari.py), what an entry then means, and how many stones a table
can reach."""

from __future__ import annotations

from impl.engines.awari import slam_kind
from spec import awari_rules as AR

MAX_STONES = 24
"""From stores of 0/0 no store reaches 25 on a board of at most 24 stones."""


class UnsupportedRules(ValueError):
    """A rule set whose result is not a function of the stones: the table's margin
    cannot give it (docs/tablebases.md, "Rule sets")."""


def slam_rule(rules: AR.AwariRules) -> int:
    """The grand-slam rule's index (kernel.GS_A … GS_E), after refusing a rule set
    the tables do not cover: a repetition scored as a draw, or a player who cannot
    move losing whatever the stores say."""
    if rules.repetition == AR.RepetitionRule.DRAW or rules.cannot_move != AR.CannotMoveRule.OPPONENT_TAKES:
        why = [
            *(["a repetition is a draw"] if rules.repetition == AR.RepetitionRule.DRAW else []),
            *(["a player who cannot move loses"] if rules.cannot_move != AR.CannotMoveRule.OPPONENT_TAKES else []),
        ]
        raise UnsupportedRules(
            f"rules {AR.canonical_name(rules)}: {' and '.join(why)}, so the result is not a matter of the stones "
            "and no entry can be exact; tables cover repetition=own-row|uncounted with cannot-move=opponent-takes"
        )
    return slam_kind(rules)


def meaning(rules: AR.AwariRules) -> str:
    """What an entry of a rule set's table is (docs/tablebases.md, "Repetition")."""
    if rules.repetition == AR.RepetitionRule.UNCOUNTED:
        return (
            "an entry is the referee's exact value wherever no earlier position can come again (probe.trusted): "
            "it adjudicates and advises there"
        )
    return (
        "an entry is the value of the table's game (a line that never ends scores 0), not the referee's: "
        "a repetition gives each side its own row; the bounds built with it (.hi, .lo) give the referee's value "
        "where they agree and no earlier position can come again: it adjudicates there"
    )
