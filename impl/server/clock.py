"""Chess clocks for the time controls of Table 3 (101) and Table 9 (313/314,
317/318, 361/362): one per side, at most one running, times in seconds of a
monotonic clock passed in by the caller (so the arithmetic is testable alone)."""

from __future__ import annotations


class Clocks:
    """Remaining time per side; the clock of the side the server waits for runs."""

    def __init__(self, seconds: tuple[float, float]) -> None:
        self.initial = seconds
        self._remaining = list(seconds)
        self.running: int | None = None
        self._since = 0.0

    def start(self, side: int, now: float) -> None:
        """Start ``side``'s clock (no other may be running)."""
        assert self.running is None, "two clocks running"
        self.running, self._since = side, now

    def stop(self, now: float) -> float:
        """Stop the running clock; the time left to its side."""
        side = self.running
        assert side is not None, "no clock running"
        self._remaining[side] -= now - self._since
        self.running = None
        return self._remaining[side]

    def deadline(self) -> float | None:
        """When the running clock's flag falls, None if no clock runs."""
        if self.running is None:
            return None
        return self._since + self._remaining[self.running]

    def left(self, side: int, now: float) -> float:
        """``side``'s time left at ``now``, counting a running clock."""
        running = now - self._since if self.running == side else 0.0
        return self._remaining[side] - running
