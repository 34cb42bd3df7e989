"""``python -m spec awari|gothello``: the spec animator.

The animator itself is impl/apps/animate.py: spec/ holds the specification and nothing
else, and an interactive shell is an application of it.  This entry point only
delegates, so that the spec can be consulted from its own package."""

if __name__ == "__main__":
    from impl.apps.animate import main

    raise SystemExit(main())
