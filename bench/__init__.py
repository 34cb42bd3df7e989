"""The benchmarks (``make bench``): the engines' perft speed, the server's concurrent
games, floods and lockout, the web view's cost.  Tools of the checkout, not of the
package: the wheel holds spec/ and impl/ only (tests/test_wheel_contents.py)."""
