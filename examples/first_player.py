"""A first player for both games: it plays the move that leaves it the best count
(stores in Awari, stones in Gothello) one move ahead, simulated on the referee's own
engine.  Usage: python examples/first_player.py GAME PORT [SIDE [HOST]]
"""

import sys

from impl.client import Client


def lead_after(client: Client, move: str) -> int:
    """Our count minus the opponent's once ``move`` is played: the engine simulates
    it on the position, a value (the game itself is unchanged)."""
    engine, me = client.engine, client.side
    assert me is not None
    _, after = engine.apply(client.state, engine.parse_move(move))
    counts = engine.counts(after)
    return counts[me] - counts[me.other]


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
                client.move(max(client.legal_moves(), key=lambda m: lead_after(client, m)))
            client.wait()
        return client.describe_result()


if __name__ == "__main__":
    print(play(sys.argv[1], int(sys.argv[2]), *sys.argv[3:5]))
