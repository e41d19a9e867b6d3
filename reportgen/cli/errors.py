"""What the command line prints when something goes wrong: one line, one exit code.

Every error a user can fix is ``where: problem. Fix: what to do.`` and exit 2; Click's
own errors (a bad option value, an unknown option, a missing argument) are rewritten
into that form, and a config file's bad value names the file and line. A failed
gate exits 1, Ctrl-C 130, and anything else is a bug: one line naming it, exit 3,
the traceback only with ``--debug`` or ``REPORTGEN_DEBUG=1``.
"""

from __future__ import annotations

import contextlib
import os
import select
import shlex
import sys
import traceback
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

import click
from click.core import ParameterSource

from reportgen.cli.echo import say
from reportgen.errors import (
    EXIT_DONE,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    GateFailed,
    ParameterError,
    ReportgenError,
    closest,
    one_line,
    printable,
)
from reportgen.load.inputs.config import Config
from reportgen.version import __version__

DEBUG_ENV = "REPORTGEN_DEBUG"
CONFIG_META = "reportgen.config"
"""Where the --config callback leaves the file it read, for messages about its values."""
SHOWN_VALUE_LIMIT = 200


class OneLineError(click.UsageError):
    """A usage error printed as one line in the house form, without Click's usage block."""

    def show(self, file: IO[Any] | None = None) -> None:
        say(f"Error: {self.format_message()}", err=True, file=file)


class ToolError(click.ClickException):
    """A ReportgenError on its way out: message on stderr, the error's exit code."""

    def __init__(self, error: ReportgenError, ctx: click.Context | None = None) -> None:
        super().__init__(_tool_message(error, ctx))
        self.exit_code = error.exit_code  # type: ignore[misc]  # click reads it per instance
        self.lines = isinstance(error, GateFailed)
        """A gate failure is one line per rule (``errors.rules_failed``); any other
        message is one line, whatever it quotes."""

    def show(self, file: IO[Any] | None = None) -> None:
        message = f"Error: {self.format_message()}"
        for line in message.split("\n") if self.lines else [message]:
            say(line, err=True, file=file)


class InternalError(click.ClickException):
    """An exception no check foresaw: one line naming it, the traceback on request."""

    exit_code = EXIT_INTERNAL

    def __init__(self, error: BaseException, debug: bool) -> None:
        text = " ".join(str(error).split()) or "(no message)"
        if len(text) > 500:
            text = text[:500] + "..."
        super().__init__(
            f"internal error in reportgen {__version__}: {type(error).__name__}: {text}; "
            "rerun with --debug and report it"
        )
        self.error = error
        self.debug = debug

    def show(self, file: IO[Any] | None = None) -> None:
        if self.debug:  # the exception's message may quote input: each line escaped too
            for chunk in traceback.format_exception(self.error):
                for line in chunk.rstrip("\n").split("\n"):
                    say(line, err=True, file=file)
        say(self.format_message(), err=True, file=file)


class Interrupted(click.ClickException):
    """Ctrl-C: one line, exit 130 as a shell reports it, no traceback."""

    exit_code = EXIT_INTERRUPTED

    def __init__(self) -> None:
        super().__init__("interrupted (Ctrl-C or SIGINT)")

    def show(self, file: IO[Any] | None = None) -> None:
        say(f"Error: {self.format_message()}", err=True, file=file)


def debugging(typed: Sequence[str] = ()) -> bool:
    """--debug before the command, or REPORTGEN_DEBUG set to anything but 0 or empty."""
    return os.environ.get(DEBUG_ENV, "") not in ("", "0") or "--debug" in typed


def one_line_parse(
    parse: Callable[[click.Context, list[str]], list[str]], ctx: click.Context, args: list[str]
) -> list[str]:
    """Click's parse, its usage errors rewritten as one line in the house form."""
    typed = list(args)  # Click's parser consumes the list it is given
    try:
        return parse(ctx, args)
    except (OneLineError, click.exceptions.NoArgsIsHelpError):
        raise
    except click.UsageError as error:
        raise OneLineError(house_message(ctx, error, typed), ctx) from None


def guarded_invoke(invoke: Callable[[click.Context], Any], ctx: click.Context) -> Any:
    """Run a command; its errors become their exit codes, never a traceback."""
    try:
        return invoke(ctx)
    except (click.ClickException, click.exceptions.Exit, click.Abort):
        raise
    except ReportgenError as error:
        raise ToolError(error, ctx) from None
    except KeyboardInterrupt:
        raise Interrupted() from None
    except BrokenPipeError as error:
        if not stdout_gone():
            raise InternalError(error, debugging(_root_args(ctx))) from error
        # stdout's reader left (`| head`) after the work was done: drop the rest quietly
        silence_stdout()
        raise click.exceptions.Exit(EXIT_DONE) from None
    except Exception as error:
        raise InternalError(error, debugging(_root_args(ctx))) from error


def _root_args(ctx: click.Context) -> list[str]:
    return ["--debug"] if ctx.find_root().params.get("debug") else []


def run_standalone(main: Callable[..., Any], args: Sequence[str] | None, **extra: Any) -> None:
    """Click's main without its own standalone handling: ours says more, in one line."""
    typed = sys.argv[1:] if args is None else list(args)
    try:
        code = main(args, standalone_mode=False, **extra)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except click.Abort:  # Ctrl-C (or end of input) before the command ran
        Interrupted().show()
        sys.exit(EXIT_INTERRUPTED)
    except Exception as error:
        InternalError(error, debugging(typed)).show()
        sys.exit(EXIT_INTERNAL)
    sys.exit(code if isinstance(code, int) else EXIT_DONE)


@contextlib.contextmanager
def reader_may_leave() -> Iterator[None]:
    """Printing that may stop early: when stdout's reader leaves, the command goes on.

    `reportgen report ... | head -1` then still exits with the gate's code.
    """
    try:
        yield
    except BrokenPipeError:
        if not stdout_gone():
            raise
        silence_stdout()


def stdout_gone() -> bool:
    """Whether stdout is a pipe whose reader has closed it."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    if not hasattr(select, "poll"):
        return True  # no poll (Windows): a broken pipe on stdout is the likely cause
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    return any(event & (select.POLLERR | select.POLLHUP) for _, event in poller.poll(0))


def silence_stdout() -> None:
    """Point stdout at /dev/null, so the output still buffered cannot fail again at exit."""
    with contextlib.suppress(AttributeError, OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def shown(value: object) -> str:
    """A value as one could type it back into a shell, on one line."""
    text = one_line(printable(value if isinstance(value, str) else str(value)))
    if len(text) > SHOWN_VALUE_LIMIT:
        text = text[:SHOWN_VALUE_LIMIT] + "..."
    return shlex.quote(text)


def config_key(param: click.Parameter) -> str:
    """The config key of an option: its first long name without the dashes."""
    long = [opt for opt in param.opts if opt.startswith("--")]
    return (long or param.opts)[0].lstrip("-")


def _tool_message(error: ReportgenError, ctx: click.Context | None) -> str:
    if not isinstance(error, ParameterError):
        return str(error)
    param = None
    if ctx is not None:
        param = next((p for p in ctx.command.params if error.option in p.opts), None)
    if ctx is not None and param is not None and param.name is not None:
        config = ctx.meta.get(CONFIG_META)
        from_file = ctx.get_parameter_source(param.name) is ParameterSource.DEFAULT_MAP
        if from_file and isinstance(config, Config):
            return _config_message(config, param, error.problem, error.fix)
    return error.for_option(shown(error.value))


def _config_message(config: Config, param: click.Parameter, problem: str, fix: str) -> str:
    key = config_key(param)
    line = config.line_of(key)
    where = f"{config.path}:{line}" if line is not None else str(config.path)
    value = _toml_value(config.options.get(key))
    return f"{where}: {config.spelled.get(key, key)} = {value}: {problem}. Fix: {fix}."


def _toml_value(value: object) -> str:
    import json

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value[:SHOWN_VALUE_LIMIT], ensure_ascii=False)
    return str(value)[:SHOWN_VALUE_LIMIT]


def house_message(ctx: click.Context, error: click.UsageError, typed: Sequence[str]) -> str:
    """Click's usage error as ``where: problem. Fix: what to do.``"""
    command = ctx.command_path
    help_hint = f"{command} --help"
    if isinstance(error, click.NoSuchOption):
        name = error.option_name
        if name == "--debug" and ctx.parent is not None:
            root = ctx.find_root().info_name
            fix = f"put --debug before the command: {root} --debug {ctx.info_name} ARGS"
        elif error.possibilities:
            best = error.possibilities[0]  # Click orders them by likeness
            fix = f"did you mean {best}? ({help_hint} lists the options)"
        else:
            fix = f"see {help_hint} for the options"
        return f"{name}: no such option of {command}. Fix: {fix}."
    if isinstance(error, click.BadOptionUsage):
        name = error.option_name
        option = next((p for p in ctx.command.params if name in p.opts), None)
        if isinstance(option, click.Option) and option.is_flag:
            return f"{name}: takes no value. Fix: write {name} alone."
        example = _example(option) if option is not None else None
        fix = f"pass one, e.g. {name} {example}" if example else f"pass one (see {help_hint})"
        return f"{name}: needs a value. Fix: {fix}."
    if isinstance(error, click.MissingParameter) and error.param is not None:
        param = error.param
        what = (
            f"missing argument {param.human_readable_name}"
            if isinstance(param, click.Argument)
            else f"missing option {param.opts[0]}"
        )
        usage = " ".join(ctx.command.collect_usage_pieces(ctx))
        return f"{command}: {what}. Fix: the usage is {command} {usage}; see {help_hint}."
    if isinstance(error, click.BadParameter) and error.param is not None:
        return _bad_value(ctx, error, error.param, typed)
    problem = error.format_message().rstrip(".")
    problem = problem[:1].lower() + problem[1:]
    return f"{command}: {problem}. Fix: see {help_hint}."


class OptionValueError(click.BadParameter):
    """A callback's refusal of one typed value: what is wrong, how to fix it."""

    def __init__(self, value: str, problem: str, fix: str) -> None:
        super().__init__(f"{problem}. Fix: {fix}")
        self.value = value
        self.problem = problem.rstrip(".")
        self.fix = fix.rstrip(".")


def _bad_value(
    ctx: click.Context, error: click.BadParameter, param: click.Parameter, typed: Sequence[str]
) -> str:
    from_file = (
        param.name is not None
        and ctx.get_parameter_source(param.name) is ParameterSource.DEFAULT_MAP
    )
    config = ctx.meta.get(CONFIG_META)
    if from_file and ctx.default_map is not None and param.name is not None:
        raw = ctx.default_map.get(param.name)
    else:
        raw = _typed_value(ctx, param, typed)
    if isinstance(error, OptionValueError):
        raw, problem, fix = error.value, error.problem, error.fix
    else:
        problem, fix = _explain(param, raw, error, ctx)
    if from_file and isinstance(config, Config):
        if isinstance(param.type, click.Path):
            fix = f"check the path (relative to the folder of {config.path})"
        return _config_message(config, param, problem, fix)
    name = param.opts[0] if isinstance(param, click.Option) else param.human_readable_name
    where = name if raw is None else f"{name} {shown(raw)}"
    return f"{where}: {problem}. Fix: {fix}."


def _typed_value(ctx: click.Context, param: click.Parameter, typed: Sequence[str]) -> object:
    """The value as typed, found by Click's own parser over the same arguments."""
    try:
        opts, _, _ = ctx.command.make_parser(ctx).parse_args(args=list(typed))
    except click.UsageError:
        return None
    value = opts.get(param.name or "")
    if isinstance(value, list | tuple):
        return value[-1] if value else None
    return value


def _example(param: click.Parameter | None) -> str | None:
    """A value to show after "e.g.": the option's default, else one of its type."""
    if param is None:
        return None
    default = param.default
    if isinstance(default, str | int | float | Path) and not isinstance(default, bool):
        return shown(default)
    kind = param.type
    if isinstance(kind, click.Choice):
        return str(kind.choices[0])
    if isinstance(kind, click.DateTime):
        return "2026-11-30"
    if isinstance(kind, click.types.FloatParamType):
        return "0.7"
    if isinstance(kind, click.types.IntParamType):
        return "1"
    if isinstance(kind, click.Path):
        return "PATH"
    return None


def _range_phrase(kind: click.IntRange | click.FloatRange, number: float) -> tuple[str, str]:
    """What the range requires of this number, and the whole range for the fix."""
    low, high = kind.min, kind.max
    below = low is not None and (number <= low if kind.min_open else number < low)
    low_word = "more than" if kind.min_open else "at least"
    high_word = "less than" if kind.max_open else "at most"
    if low is not None and high is not None:
        bound = f"from {low:,} to {high:,}"
    elif low is not None:
        bound = f"of {low_word} {low:,}"
    else:
        bound = f"of {high_word} {high:,}"
    if below or high is None:  # high is None: asked only for the bound (no number read)
        return f"must be {low_word} {low:,}", bound
    return f"must be {high_word} {high:,}", bound


def _number(raw: object, whole: bool) -> float | int | None:
    try:
        return int(str(raw)) if whole else float(str(raw))
    except ValueError:
        return None


def _explain(
    param: click.Parameter, raw: object, error: click.BadParameter, ctx: click.Context
) -> tuple[str, str]:
    """The problem and the fix for a value Click's type refused."""
    kind = param.type
    example = _example(param)
    eg = f", e.g. {example}" if example else ""
    if isinstance(kind, click.IntRange | click.FloatRange):
        whole = isinstance(kind, click.IntRange)
        noun = "a whole number" if whole else "a number"
        number = _number(raw, whole)
        if number is None:
            return f"not {noun}", f"pass {noun} {_range_phrase(kind, 0)[1]}{eg}"
        requirement, bound = _range_phrase(kind, number)
        return requirement, f"pass {noun} {bound}{eg}"
    if isinstance(kind, click.types.IntParamType):
        return "not a whole number", f"pass a whole number{eg}"
    if isinstance(kind, click.types.FloatParamType):
        return "not a number", f"pass a number{eg}"
    if isinstance(kind, click.Choice):
        choices = [str(choice) for choice in kind.choices]
        guess = closest(str(raw), choices)
        listed = ", ".join(choices)
        fix = f"did you mean {guess}? The choices: {listed}" if guess else f"choose one of {listed}"
        return "not one of the choices", fix
    if isinstance(kind, click.DateTime):
        return "not a date written YYYY-MM-DD", "write it as e.g. 2026-11-30"
    if isinstance(kind, click.Path) and raw is not None:
        return _path_problem(kind, Path(str(raw)), error)
    message = error.format_message().rstrip(".")
    return message, f"see {ctx.command_path} --help"


def _path_problem(kind: click.Path, path: Path, error: click.BadParameter) -> tuple[str, str]:
    if not os.path.lexists(path):
        noun = "folder" if not kind.file_okay else "file" if not kind.dir_okay else "file or folder"
        return f"no such {noun}", f"check the path (from the current folder, {Path.cwd()})"
    if not kind.file_okay and not path.is_dir():
        return "is a file, not a folder", "name a folder (it is created when missing)"
    if not kind.dir_okay and path.is_dir():
        return "is a folder, not a file", "name a file"
    if kind.readable and not os.access(path, os.R_OK):
        return "cannot be read (permission denied)", "check its permissions"
    if kind.writable and not os.access(path, os.W_OK):
        return "cannot be written (permission denied)", "check its permissions"
    return error.format_message().rstrip("."), "check the path"
