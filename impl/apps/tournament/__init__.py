"""``referee tournament PLAYER PLAYER … --game G``: a round robin (or a gauntlet:
the first player against each other) of G games per pairing, sides alternating,
run as independent tasks, with progress, standings, a crosstable, ratings,
endings and failures, and every game's record.

The players are ``referee match``'s (impl/apps/match.py): ours by name with options, or
any command line with ``{game} {host} {port} {side}``.  Each game is one task:
it starts its own server on a free port of the worker it runs on, runs the two
player programs there, and returns the game's record (impl/pgn.py), which this
process writes as ``DIR/game-NNNN.pgn``.  Run again with the same ``--records
DIR``, the games whose record exists are not played again.

By default the games run in ``--jobs`` threads of this process (impl/tasks.py),
as ``referee match``'s do: Dask is not needed.  Dask runs them with ``--workers
N`` (an embedded cluster of N worker processes on loopback) or ``--scheduler
ADDRESS`` (a real one whose workers have zreferee and the players installed).  At
most ``--jobs`` games are in flight at once, wherever they run (``execute``).

The report names the games that repeat an earlier one move for move; ``--sprt``
(impl/apps/sprt.py) stops starting games once the test decides; ``--pgnout`` writes
every record into one file.

The package, by role: ``config`` (what makes a tournament), ``schedule`` (its games),
``play`` (on the task runner), ``summary`` (standings, tables, notes), ``outputs``
(``--json``, ``--csv``, ``--pgnout``), ``live`` (the live view's state, the progress),
``resume`` (the records directory across runs), ``command`` (the command line, the run).
Here are the names its callers use (``add_command`` and ``run`` for impl/cli.py).
"""

from __future__ import annotations

from impl.apps.tournament.command import add_command, add_game_arguments, add_records_arguments, add_web_arguments, run
from impl.apps.tournament.config import (
    CONFIG,
    GAUNTLET,
    ROUND_ROBIN,
    RecordFailed,
    TournamentConfig,
    add_time_for_argument,
    settings,
    split_label,
    time_for_of,
)
from impl.apps.tournament.live import Snapshot, both_finished, live_view, state_json, watched
from impl.apps.tournament.outputs import (
    add_result_options,
    anchor_of,
    as_csv,
    as_json,
    check_outputs,
    finite,
    hypotheses_of,
    write_outputs,
)
from impl.apps.tournament.play import Where, execute, run_task
from impl.apps.tournament.resume import (
    extension,
    from_record,
    load_records,
    open_records,
    records_directory,
    run_identity,
)
from impl.apps.tournament.runs import Run, prepare
from impl.apps.tournament.schedule import GameResult, Task, schedule
from impl.apps.tournament.summary import first_pairs, first_scores, notes, sprt_status, summarise, tables

__all__ = [
    "CONFIG",
    "GAUNTLET",
    "ROUND_ROBIN",
    "GameResult",
    "RecordFailed",
    "Run",
    "Snapshot",
    "Task",
    "TournamentConfig",
    "Where",
    "add_command",
    "add_game_arguments",
    "add_records_arguments",
    "add_result_options",
    "add_time_for_argument",
    "add_web_arguments",
    "anchor_of",
    "as_csv",
    "as_json",
    "both_finished",
    "check_outputs",
    "execute",
    "extension",
    "finite",
    "first_pairs",
    "first_scores",
    "from_record",
    "hypotheses_of",
    "live_view",
    "load_records",
    "notes",
    "open_records",
    "prepare",
    "records_directory",
    "run",
    "run_identity",
    "run_task",
    "schedule",
    "settings",
    "split_label",
    "sprt_status",
    "state_json",
    "summarise",
    "tables",
    "time_for_of",
    "watched",
    "write_outputs",
]
