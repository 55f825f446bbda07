"""The ``towerpress`` command line: thin commands that parse, call one function, report.

Each command lives in a module of this package named for what it does; this one makes
the group, names the commands in :data:`COMMANDS`, and turns every error into one line and
an exit code.  A command's module is imported only when that command runs: the products'
modules import WeasyPrint and Jinja, which ``simulate`` has no use for (about half a second
of start-up).
"""

from __future__ import annotations

import atexit
import errno
import importlib
import os
import signal
import sys
from typing import Any, NamedTuple, NoReturn

import click

from generator import __version__
from generator.errors import ContentError, TowerpressError, printable

REPORT_URL = "the TowerPress issue tracker"


class CommandEntry(NamedTuple):  # not a dataclass: making one takes about a millisecond
    """Where a command is, and its help's first sentence for ``towerpress --help`` (which
    lists every command without importing one; tests/test_startup.py checks that each
    sentence is the command's own)."""

    module: str
    name: str
    help: str


COMMANDS: dict[str, CommandEntry] = {
    "booklet": CommandEntry(
        "generator.cli.booklet", "booklet",
        "Pre-roll a solo dungeon as a gamebook: numbered sections, tapes instead of dice, "
        "and its odds; written as DIR/RULESET-SEED.pdf (A5 pages) and .json beside it."),
    "build": CommandEntry(
        "generator.cli.build", "build",
        "Validate the content and render every product whose inputs changed."),
    "cards": CommandEntry(
        "generator.cli.cards", "cards",
        "Print card decks with crop marks and backs that line up (or `cards calibrate`)."),
    "check": CommandEntry(
        "generator.cli.booklet", "check",
        "Prove a booklet follows the rules: its schema, every derived value from its raw "
        "dice, every way on, its tapes, its regeneration from the seed, and, on its PDF, "
        "that no section shares a spread with one it leads to."),
    "list": CommandEntry(
        "generator.cli.content", "list_command",
        "List the rulesets with their titles, profiles, card decks and sheets."),
    "log": CommandEntry(
        "generator.cli.sheets", "log",
        "Print a log (Dungeon Log, map sheet, trial log), with form fields to fill on "
        "screen."),
    "odds": CommandEntry(
        "generator.cli.engine", "odds",
        "Exact odds, as fractions: `towerpress odds RULESET` lists the queries."),
    "play": CommandEntry(
        "generator.cli.play", "play",
        "Play one game with the reference player and print every die and decision: the "
        "first game of `simulate --runs 1` with the same seed."),
    "rulebook": CommandEntry(
        "generator.cli.rulebook", "rulebook",
        "Print a rulebook: cover, contents, chapters, tables, rulings, quick reference."),
    "serve": CommandEntry(
        "generator.web.serve", "serve",
        "Serve every product as a web page: pick its options, see its first pages, download "
        "it (Ctrl-C stops the server)."),
    "sheet": CommandEntry(
        "generator.cli.sheets", "sheet",
        "Print a character sheet, with form fields to fill on screen."),
    "simulate": CommandEntry(
        "generator.cli.engine", "simulate",
        "Play many games with the reference player and report survival and deaths."),
    "tune": CommandEntry(
        "generator.cli.tune", "tune",
        "For a profile and for each ruling read the other way, the share of games that "
        "reach each floor (level, room) and that win: why a profile is what it is."),
    "validate": CommandEntry(
        "generator.cli.content", "validate",
        "Check the content: types, keys, dice coverage, references, profiles, prose."),
}


class LazyGroup(click.Group):
    """A group whose commands are imported when first asked for (click's documented
    pattern for lazily loaded subcommands: list_commands, get_command)."""

    def __init__(self, *args: Any, table: dict[str, CommandEntry], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table = table

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.table, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = self.table.get(cmd_name)
        if cmd_name not in self.commands and entry is not None:
            command = getattr(importlib.import_module(entry.module), entry.name)
            self.add_command(command, cmd_name)
        return self.commands.get(cmd_name)

    def resolve_command(self, ctx: click.Context, args: list[str]
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        if args and args[0] not in self.table:
            # A name none of ours: click's error suggests the closest of the commands the
            # group holds ("Did you mean 'simulate'?"), so it is handed every one.
            for name in self.table:
                self.get_command(ctx, name)
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            # click would print a blank line, then abort: the one line main prints is enough.
            raise Interrupted from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their short help, as click writes them, from the table."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = [(name, self._summary(name).get_short_help_str(limit)) for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def _summary(self, name: str) -> click.Command:
        """The command if it is loaded, else a stand-in holding its table's help."""
        entry = self.table.get(name)
        if name in self.commands or entry is None:
            return self.commands[name]
        return click.Command(name, help=entry.help)


@click.group(cls=LazyGroup, table=COMMANDS,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="towerpress", message="%(prog)s %(version)s")
def cli() -> None:
    """Print rulebooks, card decks, character sheets and play logs; check the rules with
    exact odds and simulated games."""


class Interrupted(BaseException):
    """Ctrl-C during a command, past click (which takes KeyboardInterrupt for its own)."""


class Terminated(BaseException):
    """SIGTERM (``kill``, ``timeout``): stop as Ctrl-C does, so that temporary files go.
    Not an Exception, so that no handler of errors takes it for one."""


def _terminate(_signum: int, _frame: object) -> None:
    raise Terminated


def _quiet_after_stop(unraisable: Any) -> None:
    """At exit, concurrent.futures wakes each pool's manager through a pipe; a pool stopped
    at once (worker_pool) may have closed it already, and the write fails with EBADF after
    the one line that says why the command stopped.  That is the only failure let go."""
    exc = unraisable.exc_value
    if isinstance(exc, OSError) and exc.errno == errno.EBADF:
        return
    sys.__unraisablehook__(unraisable)


def leave(code: int) -> NoReturn:
    """Exit with ``code`` after the exit handlers (temporary files, copies of the fonts),
    without waiting for this process's threads: a pool stopped at once (workers._stop)
    may have left its manager thread waiting for ever on a lock that the stop's exception
    kept from being given back.  Looked up as ``_broken_pool`` does."""
    workers = sys.modules.get("generator.workers")
    if workers is None or not workers.stopped_a_pool:
        sys.exit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(code)


def _broken_pool(exc: Exception) -> bool:
    """Whether ``exc`` says a worker process of a pool was ended from outside (SIGKILL,
    the kernel's out-of-memory killer). Looked up only if a pool was ever made: importing
    the module costs every start-up time."""
    process = sys.modules.get("concurrent.futures.process")
    return process is not None and isinstance(exc, process.BrokenProcessPool)


def usage_line(exc: click.UsageError) -> str:
    """A usage error in one line, like every other user error: what is wrong and where to
    look (``towerpress serve`` shows the same line on its pages)."""
    command = exc.ctx.command_path if exc.ctx is not None else "towerpress"
    return f"towerpress: error: {printable(exc.format_message())} (see '{command} --help')"


def internal_line(exc: BaseException, what: str) -> str:
    """An internal failure in one line: a bug, and how to report it with ``what`` ran."""
    return (f"towerpress: internal error: {type(exc).__name__}: {printable(str(exc))}. "
            f"This is a bug; please report it to {REPORT_URL} with {what} "
            "(set TOWERPRESS_DEBUG=1 for the traceback).")


def main(argv: list[str] | None = None) -> None:
    """Entry point: user errors exit 2 with one line per problem; bugs say how to report."""
    signal.signal(signal.SIGTERM, _terminate)
    # Any stop of a pool (an error in a worker, SIGTERM, a worker killed) may meet it.
    sys.unraisablehook = _quiet_after_stop
    try:
        cli.main(args=argv, prog_name="towerpress", standalone_mode=False)
    except ContentError as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except TowerpressError as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except (click.exceptions.Abort, Interrupted, KeyboardInterrupt):
        click.echo("towerpress: aborted", err=True)
        leave(130)
    except click.UsageError as exc:
        click.echo(usage_line(exc), err=True)
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except Terminated:
        click.echo("towerpress: terminated", err=True)
        leave(143)
    except Exception as exc:  # an internal failure: say so, and how to report it
        if _broken_pool(exc):
            click.echo("towerpress: error: a worker process ended before its work was done "
                       "(it was killed, or the system ran out of memory)", err=True)
            sys.exit(2)
        if os.environ.get("TOWERPRESS_DEBUG"):
            import traceback  # here: the one use, and 3 ms of every start-up

            traceback.print_exc()
        click.echo(internal_line(exc, "the command you ran"), err=True)
        sys.exit(1)
    sys.exit(0)
