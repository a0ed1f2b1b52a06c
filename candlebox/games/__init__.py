"""One package per game. Each is found through the ``candlebox.games`` entry points that
pyproject.toml declares (engine/discovery.py), as a game installed from outside is: nothing here
imports them."""
