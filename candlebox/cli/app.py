"""The ``candlebox`` command line: the same commands for every game, built on the engine contract."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

import candlebox
from candlebox import scaffold, server, sim, testing
from candlebox.cli import check as check_module
from candlebox.cli import coach, config, listing, saving
from candlebox.cli import evaluate as evaluate_module
from candlebox.cli import play as play_module
from candlebox.cli import replay as replay_module
from candlebox.cli import simulate as simulate_module
from candlebox.cli.errors import CliError, user_errors
from candlebox.cli.moderation import moderation_app
from candlebox.engine import State
from candlebox.engine.howto import how_to_play

DEFAULT_BOTS = "medium"  # the level of ``play``'s rivals unless --bots (or --learn's easy bot) says

app = typer.Typer(
    name="candlebox",
    help="Play, simulate and replay the Candlebox games (Candle Quest and friends) at the terminal.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
    rich_markup_mode="rich",
)


def stdout() -> Console:
    # Rich's number highlighting would colour every seat and price; the renderers style what matters.
    # Lines are left for the terminal to wrap, so paths and commands stay whole for copy and paste.
    return Console(highlight=False, soft_wrap=True)


@contextmanager
def reported() -> Iterator[None]:
    """Print a CliError as one red line on stderr and exit with its code (2 for bad input)."""
    try:
        yield
    except CliError as exc:
        Console(stderr=True, highlight=False, soft_wrap=True).print(
            f"[bold red]error:[/] {escape(str(exc))}"
        )
        raise typer.Exit(exc.code) from None


# ----------------------------------------------------------------------------- shared options
Game = Annotated[
    str,
    typer.Argument(metavar="GAME", help="The game's id, e.g. candle-quest (see: candlebox games)."),
]
VariantOpt = Annotated[
    str | None,
    typer.Option(
        "--variant", help="The variant, e.g. basic or advanced; default: the game's choice."
    ),
]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        metavar="KEY=VALUE",
        help="A game option, repeatable, e.g. -o max_turns=50 (see: candlebox games).",
    ),
]


DesignOpt = Annotated[
    bool,
    typer.Option(
        "--design",
        help="Play the content pack (-o content=DIR) in design mode: its printed values (a "
        "power's amount...) may differ from the rulebook's; structural checks stay.",
    ),
]


def version_callback(value: bool) -> None:
    if value:
        typer.echo(f"candlebox {candlebox.__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=version_callback, is_eager=True, help="Show the version."
        ),
    ] = False,
) -> None:
    """Play, simulate and replay the Candlebox games at the terminal."""


# ----------------------------------------------------------------------------- play
def new_session_state(
    game: str, players: int | None, variant: str | None, seed: int | None, option: list[str]
) -> State:
    count = 2 if players is None else players
    options = config.parse_options(game, count, variant, option)
    return config.start_game(game, count, variant, seed, options)


def resumed_state(path: Path, game: str, changed: list[str]) -> State:
    if changed:
        raise CliError(f"--resume continues the saved game as it was; drop {', '.join(changed)}")
    data = saving.read(path)
    with user_errors(f"{path}: "):
        state = candlebox.load(data)
    if state.game_id != game:
        raise CliError(f"{path} holds a {state.game_id} game, not {game}")
    return state


def learn_settings(
    game: str, players: int | None, variant: str | None, bots: str
) -> tuple[int, str, str]:
    """``--learn``: the game's first-game setup (content/learn.json), refusing a player count or
    variant that is not it; the easy bot unless --bots names another than the default."""
    setup = how_to_play(game).learn
    if players not in (None, setup.players):
        raise CliError(f"--learn is a {setup.players}-player game; drop --players {players}")
    if variant not in (None, setup.variant):
        raise CliError(f"--learn plays the {setup.variant!r} variant; drop --variant {variant}")
    return setup.players, setup.variant, setup.bot if bots == DEFAULT_BOTS else bots


def greet(session: play_module.Session, specs: dict[int, config.BotSpec]) -> None:
    state, console = session.state, session.console
    title = candlebox.game_info(state.game_id).title
    rivals = ", ".join(f"seat {seat}: {escape(spec.label)}" for seat, spec in sorted(specs.items()))
    console.print(
        f"[bold]{escape(title)}[/] ({state.variant}), {state.num_players} players, "
        f"seed [bold]{state.seed}[/]. You are [bold]seat {session.human}[/]; {rivals}."
    )
    console.print(
        f"[dim]Every move is saved to {escape(str(session.path))}. Type help for commands.[/]"
    )
    if session.learn:
        why = how_to_play(state.game_id).learn.why
        console.print(
            f"[bold]Learn mode.[/] {escape(why)} Each option below says what it does and the "
            "rule behind it (type [bold]rules[/] for the game's summary); each bot move says why."
        )


@app.command()
def play(
    game: Game,
    variant: VariantOpt = None,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Number of players.", show_default="2")
    ] = None,
    seat: Annotated[int, typer.Option("--seat", "-s", help="Your seat (0 is the first).")] = 0,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            metavar="NAME[,NAME...]",
            help="The bots in the other seats, in seat order; one name for all of them: a level "
            "(beginner, easy, medium, hard: the game's own, measured) or a bot with its "
            "parameters after the name: heuristic:key=value.",
        ),
    ] = DEFAULT_BOTS,
    seed: Annotated[
        int | None,
        typer.Option(help="Seed of the game (bots' seeds follow from it); default: a fresh one."),
    ] = None,
    option: OptionOpt = None,
    save: Annotated[
        Path | None,
        typer.Option(
            help="Where to save the game after every move.",
            show_default="candlebox-GAME-SEED.json",
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(help="Carry on with a game saved earlier (the game's settings come from it)."),
    ] = None,
    learn: Annotated[
        bool,
        typer.Option(
            "--learn",
            help="A first game to learn from: 2 players, the variant to start with, an easy bot "
            "(unless --bots names another); every option says what it does and its rule, and "
            "every bot move why.",
        ),
    ] = False,
    hint_seconds: Annotated[
        float, typer.Option(min=0.01, max=60, help="How long the hint command searches.")
    ] = 1.0,
    design: DesignOpt = False,
) -> None:
    """Play GAME yourself against bots. Type an action's number or its text; help lists commands."""
    console = stdout()
    with reported():
        config.check_game(game)
        if learn:
            players, variant, bots = learn_settings(game, players, variant, bots)
        if resume is not None:
            given = {"--players": players, "--variant": variant, "--seed": seed, "--option": option}
            changed = [name for name, value in given.items() if value not in (None, [])]
            changed += ["--design"] if design else []
            state = resumed_state(resume, game, changed)
        else:
            designed = [config.design_option(game)] if design else []
            state = new_session_state(game, players, variant, seed, [*(option or []), *designed])
        if not 0 <= seat < state.num_players:
            raise CliError(f"--seat {seat}: this game has seats 0–{state.num_players - 1}")
        others = [s for s in range(state.num_players) if s != seat]
        specs = config.parse_bots(bots, others, game)
        config.check_table(specs, state)
        robots = config.make_bots(specs, state.seed)
        path = save or resume or saving.default_path(game, state.seed)
        saving.save(state, path)  # an unwritable path fails now, before the first move
        session = play_module.Session(
            state, seat, robots, path, console, console.input, learn=learn
        )
        session.hint_seconds = hint_seconds
        session.bot_names = config.bot_names(specs, game)
        greet(session, specs)
        if resume is not None:
            play_module.skip_old_news(session)
        play_module.play(session)


# ----------------------------------------------------------------------------- simulate
@app.command()
def simulate(
    game: Game,
    games: Annotated[int, typer.Option("-n", "--games", min=1, help="How many games.")] = 100,
    variant: VariantOpt = None,
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players.")] = 2,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            metavar="NAME[,NAME...]",
            help="One bot for every seat, or one per seat in seat order: a level (beginner, "
            "easy, medium, hard) or a bot (name:key=value for parameters).",
        ),
    ] = "random",
    seed: Annotated[
        int, typer.Option(help="Game i uses seed SEED+i; the bots' seeds follow from it.")
    ] = 0,
    option: OptionOpt = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print only the summary, as JSON, on stdout.")
    ] = False,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            help="Local processes to play on (results do not depend on it); with --ray: the "
            "CPUs of a new local Ray cluster, and the most tasks running at once.",
            show_default="1, or all of Ray's CPUs",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="FILE",
            help="Write the results table, one row per game, to FILE: .csv, or .parquet "
            "(needs pyarrow). Read it with: candlebox report FILE.",
        ),
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="ADDRESS",
            help="Play on a Ray cluster at ADDRESS, or 'auto': a running local one, else a new one "
            "on this machine (needs the ray extra). Same results as without it.",
        ),
    ] = None,
    rotate: Annotated[
        bool,
        typer.Option(
            "--rotate", help="Game i moves the line-up i seats on, so every bot sits everywhere."
        ),
    ] = False,
    vary: Annotated[
        list[str] | None,
        typer.Option(
            "--vary",
            metavar="KEY=A,B[,C]",
            help="An experiment: play every value of KEY (an option, content, or bots; bots "
            "line-ups are separated by |) on the same seeds; repeat for a grid. Each arm is "
            "compared with the first.",
        ),
    ] = None,
    until_ci: Annotated[
        float | None,
        typer.Option(
            "--until-ci",
            metavar="X",
            min=0.001,
            max=0.5,
            help="With --vary: play on in rounds until every paired win-rate difference's 95% "
            "interval is within ±X (0.05: ±5 points), or --max-games.",
        ),
    ] = None,
    max_games: Annotated[
        int,
        typer.Option("--max-games", min=1, help="With --until-ci: the most games per arm."),
    ] = 5000,
    design: DesignOpt = False,
) -> None:
    """Play N seeded games between bots and summarise wins, scores and lengths."""
    with reported():
        config.check_game(game)
        designed = [config.design_option(game)] if design else []
        options = config.parse_options(game, players, variant, [*(option or []), *designed])
        variations = simulate_module.parse_variations(vary or [], options)
        specs = config.parse_bots(bots, list(range(players)), game)
        if not simulate_module.varies_options(variations):
            # Fail before the bar. A varied option (a content pack --design needs) completes the
            # configuration only in its arms, each checked the same way before any game.
            state = config.start_game(game, players, variant, seed, options)
            config.check_table(specs, state)
        simulate_module.check_until(variations, until_ci, max_games, games)
        simulate_module.check_out(out)
        if ray:
            simulate_module.check_ray()
    plan = simulate_module.Plan(game, players, variant, options, specs, games, seed, rotate)
    if variations:
        with reported():
            arms = simulate_module.arms_of(plan, variations)  # every arm checked before any game
            until = sim.experiment.UntilNarrow(until_ci, max_games) if until_ci else None
            done = simulate_module.run_experiment(plan, arms, until, as_json, jobs, ray)
            if out is not None:
                simulate_module.save_rows(done.rows, out)
        found = simulate_module.experiment_summary(plan, arms, done)
        if as_json:
            typer.echo(json.dumps(found, indent=2))
        else:
            simulate_module.print_experiment(found, stdout())
        return
    with reported():
        results = simulate_module.run(plan, quiet=as_json, jobs=jobs, ray=ray)
        if out is not None:
            simulate_module.save_rows(results, out)
    summary = simulate_module.summarize(plan, results)
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
    else:
        simulate_module.print_summary(summary, stdout())


# ----------------------------------------------------------------------------- report
@app.command()
def report(
    results: Annotated[
        list[Path],
        typer.Argument(
            metavar="RESULTS",
            help="Results tables written by candlebox simulate --out (CSV or Parquet).",
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="DIR",
            help="Folder for index.html and its PNG plots.",
            show_default="RESULTS-report beside the first table",
        ),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print the report's figures as JSON on stdout (arms, differences, findings) "
            "instead of writing the HTML report.",
        ),
    ] = False,
    as_arms: Annotated[
        bool,
        typer.Option(
            "--arms",
            help="Each table is an arm named by its file (base.csv nerf.csv: arms base and "
            "nerf), compared with the first, paired by seed; without it the tables are pooled.",
        ),
    ] = False,
) -> None:
    """Write a balance report (HTML with PNG plots): win rates by seat, bot and turn order with 95%
    intervals, lengths, scores, actions chosen, ratings of the bots, and an experiment's arms side by
    side with their paired differences."""
    if as_json:
        with reported():
            found = simulate_module.report_figures(results, as_arms)
        typer.echo(json.dumps(found, indent=2))
        return
    with reported():
        page = simulate_module.write_report(results, out, as_arms)
    stdout().print(f"report written to {escape(str(page))}")


# ----------------------------------------------------------------------------- replay
@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game saved by candlebox play.")],
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat", "-s", help="Show the log as this seat saw it; default: a spectator."
        ),
    ] = None,
    step: Annotated[
        bool, typer.Option("--step/--no-step", help="Pause for Enter after every move.")
    ] = False,
    verify: Annotated[
        bool,
        typer.Option(
            "--verify",
            help="Only check that a game downloaded from a server was dealt from the seed it "
            "committed to at the start (the commitment, then a replay from that seed).",
        ),
    ] = False,
) -> None:
    """Rebuild a saved game from its seed and moves, show every move, and check it matches the file.

    Exit code 1 when the file does not replay (or, with --verify, was not dealt from its committed
    seed), 2 when it is not a readable saved game.
    """
    console = stdout()
    with reported():
        if verify:
            replay_module.verify(file, console)
        else:
            replay_module.replay(file, seat, step, console, console.input)


# ----------------------------------------------------------------------------- review
@app.command()
def review(
    file: Annotated[
        Path,
        typer.Argument(
            help="A game saved by candlebox play, or downloaded from a finished game's page."
        ),
    ],
    seat: Annotated[
        int,
        typer.Option(
            "--seat",
            "-s",
            help="The seat whose decisions to review (0 is the first, as in candlebox play).",
        ),
    ],
    seconds: Annotated[
        float, typer.Option(min=0.01, max=60, help="Search time per decision.")
    ] = 1.0,
    iterations: Annotated[
        int | None,
        typer.Option(min=1, help="Searches per decision instead of a time (reproducible)."),
    ] = None,
) -> None:
    """Review a saved game like a chess site's analysis: for each of the seat's decisions, the
    search's preferred action and the chance of winning before and after, mistakes marked."""
    console = stdout()
    with reported():
        coach.review(file, seat, None if iterations else seconds, iterations, console)


# ----------------------------------------------------------------------------- listings
@app.command("games")
def list_games() -> None:
    """List the games with their variants, player counts and options."""
    listing.print_games(stdout())


@app.command("bots")
def list_bots() -> None:
    """List the bots that can fill a seat."""
    listing.print_bots(stdout())


# ----------------------------------------------------------------------------- new games
@app.command("new-game")
def new_game(
    name: Annotated[
        str, typer.Argument(metavar="NAME", help="The new game's id, e.g. lantern-duel.")
    ],
    directory: Annotated[
        Path,
        typer.Option("--dir", help="The folder to write the game's package into (new or empty)."),
    ],
    title: Annotated[
        str | None, typer.Option(help="The game's title; default: NAME's words capitalised.")
    ] = None,
) -> None:
    """Write a new game as an installable package: a small working game (hidden hands, a secret bid
    all at once) with its words, how-to page, heuristic, encoder, renderer and tests, to change into
    your own. Install it with pip and every candlebox command plays it (docs/architecture.md)."""
    with reported():
        try:
            written = scaffold.write_game(name, directory, title)
        except ValueError as exc:
            raise CliError(str(exc)) from None
    console = stdout()
    console.print(f"Wrote {len(written)} files into {escape(str(directory))}. Next:")
    console.print(f"  pip install -e {escape(str(directory))}")
    console.print(f"  candlebox games; candlebox play {name}")
    console.print(f"  python -m pytest {escape(str(directory))}")


@app.command("check")
def check_game(
    game: Game,
    part: Annotated[
        list[str] | None,
        typer.Option(
            "--part",
            metavar="PART",
            help=f"Only this part, repeatable: {', '.join(testing.PARTS)}.",
        ),
    ] = None,
    quick: Annotated[
        bool, typer.Option("--quick", help="Fewer seeds and configurations: a first look.")
    ] = False,
) -> None:
    """Run the conformance kit on a game: the engine contract, secrecy, saving, words, views,
    encoders and perft. Exits 1 when a check fails."""
    with reported():
        check_module.run(game, part, quick, stdout())


# ----------------------------------------------------------------------------- serve
@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="Database: a SQLite file or URL, or postgresql://user@host/name.",
            show_default="candlebox.sqlite3 in your data directory",
        ),
    ] = None,
    bot_delay: Annotated[
        float | None, typer.Option(help="Seconds a bot waits before moving.", show_default="0.8")
    ] = None,
    workers: Annotated[
        int,
        typer.Option(help="Web processes sharing the port (above 1: needs PostgreSQL)."),
    ] = 1,
    bot_workers: Annotated[
        int | None,
        typer.Option(
            help="Bot worker processes to start (0: run `candlebox bots-worker` yourself); "
            "bots then think outside the web processes (needs PostgreSQL).",
            show_default="1 with --workers above 1, else bots think in the web process",
        ),
    ] = None,
    json_logs: Annotated[bool, typer.Option(help="Log one JSON object per line.")] = False,
    smtp: Annotated[
        str | None,
        typer.Option(
            help="Send e-mail (address checks, password resets) through this SMTP server: "
            "smtp://user:password@host:port, smtps:// for TLS. Needs --public-url.",
            show_default="CANDLEBOX_SMTP_URL, else no mail",
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The address players reach the site at (https://candlebox.example.org): the "
            "links in mail, and the site passkeys belong to.",
            show_default="CANDLEBOX_PUBLIC_URL, else the address each request names",
        ),
    ] = None,
) -> None:
    """Play in the browser: the web app (lobby, game pages, live updates) at http://HOST:PORT/."""
    with reported():
        missing = server.missing_packages()  # the server's packages are an optional extra
        if missing:
            raise CliError(f"{', '.join(missing)} not installed: pip install -e '.[server]'")
        try:
            server.serve(
                host=host,
                port=port,
                db=db,
                bot_delay=bot_delay,
                workers=workers,
                bot_workers=bot_workers,
                json_logs=json_logs or None,
                smtp=smtp,
                public_url=public_url,
            )
        except ValueError as exc:
            raise CliError(str(exc)) from None


@app.command("bots-worker")
def bots_worker(
    db: Annotated[
        str | None,
        typer.Option(
            help="The database the web processes use: postgresql://user@host/name.",
            show_default="CANDLEBOX_DB, else candlebox.sqlite3 in your data directory",
        ),
    ] = None,
    json_logs: Annotated[bool, typer.Option(help="Log one JSON object per line.")] = False,
) -> None:
    """Play the turns bots owe in a database shared by `candlebox serve` processes (docs/deploy.md)."""
    with reported():
        missing = server.missing_packages()
        if missing:
            raise CliError(f"{', '.join(missing)} not installed: pip install -e '.[server]'")
        server.bots_worker(db=db, json_logs=json_logs or None)


# ----------------------------------------------------------------------------- content packs
content_app = typer.Typer(
    help="A game's data as content packs a designer edits (docs/simulation.md)."
)
app.add_typer(content_app, name="content")


@content_app.command("export")
def content_export(
    game: Game,
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="A new folder for the pack.")],
) -> None:
    """Write GAME's data (cards, values, costs, houses, maps...) into DIR as a content pack: the
    files, their JSON schemas and a README saying what each file and field is."""
    with reported():
        packs = config.content_packs(game)
        with user_errors():
            written = packs.export(str(folder))
    console = stdout()
    console.print(
        f"wrote {len(written)} files to {escape(str(folder))}: {escape(', '.join(written))}"
    )
    if packs.option is not None:
        console.print(
            f"play it: candlebox simulate {game} -o {packs.option}={escape(str(folder))}"
            + (" (add --design once you change printed values)" if packs.design_option else "")
        )


@content_app.command("check")
def content_check(
    game: Game,
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="The pack's folder.")],
    design: Annotated[
        bool,
        typer.Option("--design", help="Check it as a design pack: printed values may change."),
    ] = False,
) -> None:
    """Check a content pack of GAME: every file decoded and checked (an error names the file and
    the field)."""
    with reported():
        packs = config.content_packs(game)
        if not folder.is_dir():
            raise CliError(f"{folder}: no such folder")
        with user_errors(f"{folder}: "):
            packs.check(str(folder), design)
    kind = "design pack" if design else "pack keeping the printed game"
    stdout().print(f"{escape(str(folder))}: a valid {game} {kind}")


# ----------------------------------------------------------------------------- accounts
accounts_app = typer.Typer(help="Players' accounts on a server's database (docs/server.md).")
app.add_typer(accounts_app, name="accounts")


@accounts_app.command("reset")
def accounts_reset(
    name: Annotated[str, typer.Argument(help="The account's name (any case).")],
    url: Annotated[
        str, typer.Option(help="The site's address, as players reach it.")
    ] = "http://127.0.0.1:8000",
    db: Annotated[
        str | None,
        typer.Option(
            help="The server's database: a SQLite file or URL, or postgresql://user@host/name.",
            show_default="CANDLEBOX_DB, else candlebox.sqlite3 in your data directory",
        ),
    ] = None,
) -> None:
    """Print a one-time link that sets a new password for NAME (give it to its player only)."""
    with reported():
        missing = server.missing_packages()
        if missing:
            raise CliError(f"{', '.join(missing)} not installed: pip install -e '.[server]'")
        try:
            link, expires = server.reset_link(name, url, db)
        except LookupError as exc:
            raise CliError(str(exc)) from None
        minutes = max(1, round((expires - time.time()) / 60))
        stdout().print(f"{escape(link)}\n(works once, for {minutes} minutes)")


# ----------------------------------------------------------------------------- moderation
app.add_typer(moderation_app, name="moderation")  # the table chat's reports and bans (issue 35)


# ----------------------------------------------------------------------------- evaluate
@app.command()
def evaluate(
    game: Game,
    agent: Annotated[
        str,
        typer.Option(
            "--agent",
            metavar="MODULE:FACTORY",
            help="Your agent: FACTORY() in MODULE (importable from here) makes an object with "
            "choose(state, seat), as the bots.",
        ),
    ],
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players.")] = 2,
    games: Annotated[
        int, typer.Option("-n", "--games", min=1, help="Games against each level.")
    ] = 20,
    levels: Annotated[
        str | None,
        typer.Option(
            "--levels",
            metavar="NAME[,NAME...]",
            help="The levels to play, e.g. beginner,medium.",
            show_default="all of the game's levels",
        ),
    ] = None,
    variant: VariantOpt = None,
    seed: Annotated[int, typer.Option(help="Game i uses seed SEED+i.")] = 0,
    option: OptionOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
) -> None:
    """Play your agent against the game's levels, seats rotated; win rates with 95% intervals."""
    # As `python -m` does: an agent module in the current directory imports.
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    with reported(), user_errors():
        config.check_game(game)
        options = config.parse_options(game, players, variant, option or [])
        names = [name.strip() for name in levels.split(",")] if levels else None
        found = sim.evaluate.evaluate(game, agent, players, games, names, variant, seed, options)
    if as_json:
        typer.echo(json.dumps(found.to_json(), indent=2))
    else:
        evaluate_module.print_evaluation(found, stdout())


def main(args: Any = None) -> None:
    """The ``candlebox`` console script."""
    app(args=args)
