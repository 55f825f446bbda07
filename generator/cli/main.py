"""The ``towerpress`` command line: thin commands that parse, call one function, report.

Each command lives in a module of this package named for what it does; this one makes
the group, adds them to it, and turns every error into one line and an exit code.
"""

from __future__ import annotations

import errno
import os
import signal
import sys
import traceback
from typing import Any

import click

from generator import __version__
from generator.cli.booklet import booklet, check
from generator.cli.build import build
from generator.cli.cards import cards
from generator.cli.content import list_command, validate
from generator.cli.engine import odds, simulate
from generator.cli.play import play
from generator.cli.rulebook import rulebook
from generator.cli.sheets import log, sheet
from generator.cli.tune import tune
from generator.errors import ContentError, TowerpressError, printable

REPORT_URL = "the TowerPress issue tracker"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="towerpress", message="%(prog)s %(version)s")
def cli() -> None:
    """Print rulebooks, card decks, character sheets and play logs; check the rules with
    exact odds and simulated games."""


for _command in (list_command, validate, rulebook, simulate, play, tune, odds, build, cards,
                 sheet, log, booklet, check):
    cli.add_command(_command)


class Terminated(BaseException):
    """SIGTERM (``kill``, ``timeout``): stop as Ctrl-C does, so that temporary files go.
    Not an Exception, so that no handler of errors takes it for one."""


def _terminate(_signum: int, _frame: object) -> None:
    raise Terminated


def _quiet_after_stop(unraisable: Any) -> None:
    """At exit, concurrent.futures wakes each pool's manager through a pipe; a pool stopped
    at once (worker_pool) may have closed it already, and the write fails with EBADF after
    the one line that says the build was terminated.  That is the only failure let go."""
    exc = unraisable.exc_value
    if isinstance(exc, OSError) and exc.errno == errno.EBADF:
        return
    sys.__unraisablehook__(unraisable)


def main(argv: list[str] | None = None) -> None:
    """Entry point: user errors exit 2 with one line per problem; bugs say how to report."""
    signal.signal(signal.SIGTERM, _terminate)
    try:
        cli.main(args=argv, prog_name="towerpress", standalone_mode=False)
    except ContentError as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except TowerpressError as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("towerpress: aborted", err=True)
        sys.exit(130)
    except click.UsageError as exc:
        # One line, like every other user error: what is wrong and where to look.
        command = exc.ctx.command_path if exc.ctx is not None else "towerpress"
        message = printable(exc.format_message())
        click.echo(f"towerpress: error: {message} (see '{command} --help')", err=True)
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        sys.exit(130)
    except Terminated:
        click.echo("towerpress: terminated", err=True)
        sys.unraisablehook = _quiet_after_stop
        sys.exit(143)
    except Exception as exc:  # an internal failure: say so, and how to report it
        if os.environ.get("TOWERPRESS_DEBUG"):
            traceback.print_exc()
        click.echo(
            f"towerpress: internal error: {type(exc).__name__}: {printable(str(exc))}. "
            "This is a bug; please "
            f"report it to {REPORT_URL} with the command you ran "
            "(set TOWERPRESS_DEBUG=1 for the traceback).",
            err=True,
        )
        sys.exit(1)
    sys.exit(0)
