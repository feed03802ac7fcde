"""Build an all-to-all with msccl-tools' Python API and verify its XML.

msccl-tools (`msccl.language`) is installed from its repository, not from
the package registry; without it this example says so and exits 0.

    python examples/msccl_tools_alltoall.py [RANKS]
"""

import contextlib
import io
import sys

import txverify


def alltoall_xml(ranks: int) -> str:
    """One-step all-to-all on a fully connected topology, as msccl-tools
    writes it (its `XML()` prints the program)."""
    from msccl.language import XML, Buffer, MSCCLProgram, chunk
    from msccl.language.collectives import AllToAll
    from msccl.topologies import fully_connected

    topology = fully_connected(ranks)
    collective = AllToAll(ranks, 1, inplace=False)
    printed = io.StringIO()
    with MSCCLProgram("alltoall_allpairs", topology, collective, instances=1):
        for r in range(ranks):
            for index in range(ranks):
                chunk(r, Buffer.input, index).copy(index, Buffer.output, r)
        with contextlib.redirect_stdout(printed):
            XML()
    return printed.getvalue()


def main(ranks: int = 4) -> int:
    try:
        import msccl.language  # noqa: F401
    except ImportError as e:
        print(f"skipped: msccl-tools is not importable ({e})")
        return 0
    report = txverify.check_msccl(alltoall_xml(ranks), network=f"complete {ranks}")
    # The report says whether the executor's reader accepts the program and,
    # either way, whether its data would arrive where the collective wants.
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 4))
