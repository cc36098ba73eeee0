"""``python -m urimine`` runs the command-line tool."""

from urimine.cli import main

raise SystemExit(main())
