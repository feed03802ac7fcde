"""``python -m txverify``: the command line's main commands, through the API.

    python -m txverify check FILE [--network NET] [--format json]
    python -m txverify bounds NET [--ports K] [--format json]
    python -m txverify search NET [--time-limit S] [--heuristic] [-o OUT] [--format json]
    python -m txverify simulate FILE [--network NET] [--ports K] [--format json]

Each prints the report the ``txverify`` binary prints (text, or its JSON
object) and exits with the same status: 0 ok, 1 invalid or rejected, 2 bad
input, 3 internal, 4 limit. It calls the library through this package, so
it needs no binary.
"""

import argparse
import sys
from pathlib import Path
from typing import List, Optional

from . import (
    Error,
    Schedule,
    _txverify,
    bounds,
    check_msccl,
    check_table,
    search,
    simulate,
)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m txverify",
        description="Verify, bound, search and replay communication schedules.",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    def command(name: str, help: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help)
        sub.add_argument("--format", choices=["text", "json"], default="text")
        return sub

    check = command("check", "check a table (.tbl) or an MSCCL program (XML)")
    check.add_argument("file")
    check.add_argument("--network", help="the network an MSCCL program runs on")
    check.add_argument("--no-simulate", action="store_true")
    net = command("bounds", "every lower bound of a total exchange on a network")
    net.add_argument("network", help="a network name (`torus 4 4`) or an edge list")
    net.add_argument("--ports", type=int, default=1)
    found = command("search", "a total-exchange schedule on a network")
    found.add_argument("network")
    found.add_argument("--time-limit", type=float, help="seconds per number of steps")
    found.add_argument("--heuristic", action="store_true")
    found.add_argument("--time", type=int)
    found.add_argument("--max-time", type=int)
    found.add_argument("-o", "--output", help="write the schedule (JSON for .json, else text)")
    replay = command("simulate", "replay a schedule, or play a table out")
    replay.add_argument("file")
    replay.add_argument("--network")
    replay.add_argument("--ports")
    return parser


def _run(args: argparse.Namespace) -> int:
    if args.command == "check":
        # An MSCCL program is told from its text; --network is for programs only.
        if args.network is not None:
            report = check_msccl(Path(args.file), network=args.network)
        else:
            report = check_table(Path(args.file), simulate=not args.no_simulate)
    elif args.command == "bounds":
        report = bounds(args.network, ports=args.ports)
    elif args.command == "search":
        report = search(
            args.network,
            time_limit=args.time_limit,
            heuristic=args.heuristic,
            time=args.time,
            max_time=args.max_time,
        )
        if args.output and report.found:
            report.save(args.output)
    else:
        report = simulate(Path(args.file), network=args.network, ports=args.ports)
    if args.format == "json":
        print(report.report_json() if isinstance(report, Schedule) else report.to_json())
    else:
        print(report.text, end="" if report.text.endswith("\n") else "\n")
    data = report.to_dict()
    # Every report but the bounds' carries its exit status (an MSCCL report as `exit`).
    return int(data.get("exit_code", data.get("exit", 0)) or 0)


def main(argv: Optional[List[str]] = None) -> int:
    args = _parser().parse_args(argv)
    # The library's exit-status table, by exception class.
    statuses = _txverify.EXIT_STATUS
    try:
        return _run(args)
    except Error as e:
        print(f"error: {e}", file=sys.stderr)
        kind = next(c.__name__ for c in type(e).__mro__ if c.__name__ in statuses)
        return statuses[kind]
    except OSError as e:
        # A file the wrapper itself could not read or write: bad input.
        print(f"error: {e}", file=sys.stderr)
        return statuses["InputError"]


if __name__ == "__main__":
    sys.exit(main())
