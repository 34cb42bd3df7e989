"""A first player for both games: it looks three moves ahead on the referee's own
engine (its move, the opponent's best answer, its best answer to that) and plays
the move that leaves it the best count (stores in Awari, stones in Gothello), with
room to move: a Gothello player left without a legal placement can only pass.
Usage: python examples/first_player.py GAME PORT [SIDE [HOST]]
"""

import sys

from impl.client import Client, MoveRefused


def value(client: Client, state: object, depth: int, mine: bool) -> int:
    """Our count minus the opponent's once both play their best for ``depth`` more
    moves (``mine``: ours is next); a finished game's margin outweighs the rest."""
    engine, me = client.engine, client.side
    assert me is not None
    counts = engine.counts(state)
    margin = counts[me] - counts[me.other]
    if engine.is_over(state):
        return 1000 * margin
    moves = engine.legal_moves(state)
    if depth == 0:  # the count, and the moves of the side to play (ours count for us)
        return 2 * margin + (len(moves) if mine else -len(moves))
    values = [value(client, engine.apply(state, m)[1], depth - 1, not mine) for m in moves]
    return max(values) if mine else min(values)


def play(game: str, port: int, side: str = "?", host: str = "127.0.0.1") -> str:
    with Client.connect(game, host=host, port=port) as client:
        client.seat(side, name="first-player")
        client.wait()  # until our turn, a draw offer to answer, or the end
        while not client.over:
            me = client.side
            assert me is not None
            if client.must_answer_draw:  # Awari: take the draw only when behind
                client.answer_draw(client.counts()[me] < client.counts()[me.other])
            else:  # client.time_left(me) is our clock in seconds (None: untimed)
                engine = client.engine  # simulating moves changes nothing in the game
                after = {m: engine.apply(client.state, engine.parse_move(m))[1] for m in client.legal_moves()}
                for m in sorted(after, key=lambda m: -value(client, after[m], 2, False)):  # best first
                    try:
                        client.move(m)
                        break
                    except MoveRefused:  # 291: refused, the position unchanged: the next best
                        continue
            client.wait()
        played = "no side" if client.side is None else client.sides[client.side]
        return f"{client.describe_result()} (we played {played})"


if __name__ == "__main__":
    print(play(sys.argv[1], int(sys.argv[2]), *sys.argv[3:5]))
