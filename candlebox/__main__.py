"""``python -m candlebox``: the ``candlebox`` command, for a shell where the console script is not on
the PATH (a new player typed it and got "No module named candlebox.__main__")."""

from candlebox.cli import main

if __name__ == "__main__":
    main()
