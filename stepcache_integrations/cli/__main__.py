"""``python -m stepcache_integrations.cli``: the same as the ``stepcache`` script."""

from stepcache_integrations.cli.app import main

if __name__ == "__main__":
    raise SystemExit(main())
