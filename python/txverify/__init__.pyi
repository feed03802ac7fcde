"""Type stubs of txverify: verify, bound, search and replay communication schedules.

Every report is a read-only mapping over the command line's JSON object
(docs/json.md: same field names, same ``schema`` versions) with attribute
access to its fields; ``str(report)`` is the command line's text report.
"""

import os
from collections.abc import Iterator, Mapping
from typing import Any, Dict, List, Optional, Tuple, Union

from ._errors import Error as Error
from ._errors import InputError as InputError
from ._errors import InternalError as InternalError
from ._errors import LimitError as LimitError

__version__: str

Source = Union[str, bytes, os.PathLike[str]]
"""A file (a path object, or a one-line string that is not JSON or XML) or the text itself."""

NetworkLike = Union[str, os.PathLike[str], "Network", Any]
"""A network: a name (``"torus 4 4"``, ``"edges FILE"``), a file, a
``Network``, a networkx ``Graph``/``DiGraph`` or a list of ``(u, v)`` pairs."""

class Network:
    """Node labels and undirected links, read by the library as an edge list
    (node ``i`` is the ``i``-th label)."""

    def __init__(
        self,
        labels: List[Any],
        links: List[Tuple[int, int]],
        fabric: Optional[List[Tuple[int, Optional[float], Optional[float]]]] = ...,
    ) -> None: ...
    @classmethod
    def from_edges(cls, edges: Any, labels: Optional[Any] = ...) -> Network:
        """From ``(u, v)`` pairs of labels; nodes in ``labels`` order, else first appearance."""
    @classmethod
    def from_networkx(cls, graph: Any) -> Network:
        """From a networkx Graph, or a symmetric DiGraph; the edge attributes
        ``capacity``, ``alpha`` and ``beta`` make it a fabric."""
    def to_networkx(self) -> Any:
        """A networkx ``Graph`` with the labels as nodes."""
    @property
    def labels(self) -> List[Any]: ...
    @property
    def edges(self) -> List[Tuple[Any, Any]]: ...
    @property
    def capacities(self) -> Optional[List[int]]:
        """Each link's capacity; None for plain links."""
    def edges_text(self) -> str:
        """The edge list (``u v`` node numbers per line, docs/networks.md)."""
    def save(self, path: Union[str, os.PathLike[str]]) -> None: ...
    @property
    def name(self) -> str:
        """``edges FILE``, FILE the edge list in the temporary directory, named by its content."""
    def __len__(self) -> int: ...

class Report(Mapping[str, Any]):
    """A JSON report as a read-only mapping; nested objects are reports too."""

    def __init__(self, data: Dict[str, Any], text: Optional[str] = ...) -> None: ...
    def __getitem__(self, key: str) -> Any: ...
    def __getattr__(self, name: str) -> Any: ...
    def __iter__(self) -> Iterator[str]: ...
    def __len__(self) -> int: ...
    @property
    def labels(self) -> Optional[List[Any]]:
        """Node number -> label when the network was given as an object, else None."""
    def to_dict(self) -> Dict[str, Any]:
        """The JSON object as plain dicts and lists (a copy)."""
    def to_json(self, indent: Optional[int] = ...) -> str:
        """The JSON object as text."""
    @property
    def text(self) -> str:
        """The command line's text report."""

class CheckReport(Report):
    """A table's check (schema ``txverify-check/1``): ``verdict``, ``time``,
    ``bound``, ``violations``, ``simulation``, ``exit_code``, …"""

    @property
    def valid(self) -> bool:
        """Whether the table is valid (optimal or not)."""
    @property
    def optimal(self) -> bool:
        """Whether the table is valid and proved optimal."""
    def plot(self, by: str = ..., utilisation: bool = ..., max_columns: int = ...) -> str:
        """The table's SVG picture, as ``txverify render FILE [--by link] [--utilisation]``."""
    def _repr_svg_(self) -> str: ...

class MscclReport(Report):
    """An MSCCL program's check (schema ``txverify-msccl/2``): ``valid``,
    ``collective``, ``reason``, ``problems`` (line, column), link loads and
    bounds on a network, ``exit``."""

class LpCertificate:
    """The LP bound's certificate (schema ``txverify-lp-bound/1``)."""

    def __init__(self, data: Dict[str, Any]) -> None: ...
    @property
    def weights(self) -> List[Tuple[int, int, int]]:
        """``(u, v, w)``: weight w on the directed link u → v."""
    @property
    def bound(self) -> Optional[int]: ...
    @property
    def network(self) -> Optional[str]: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def to_json(self) -> str: ...
    def save(self, path: Union[str, os.PathLike[str]]) -> None:
        """Writes the file ``verify-bound`` reads."""

class BoundsReport(Report):
    """A network's lower bounds (schema ``txverify-bounds/4``)."""

    @property
    def certificate(self) -> Optional[LpCertificate]:
        """The LP bound's certificate, with ``bounds(..., lp=True)``."""
    def plot(self) -> str:
        """The SVG picture of the proving cut on the network (up to 512 nodes)."""
    def _repr_svg_(self) -> Optional[str]: ...

    @property
    def lower_bounds(self) -> List[Report]:
        """Every named bound, all-port then K-port: ``value``, ``name``, ``model``."""

class SimulationReport(Report):
    """A replay (schema ``txverify-schedule-report/1`` or ``txverify-simulate/1``)."""

class Schedule(Report):
    """What ``search`` found: the search report (schema
    ``txverify-schedule-search/3``, total exchange and collectives alike) and the schedule itself."""

    def __init__(self, data: Dict[str, Any], text: str, schedule: Optional[str]) -> None: ...
    @property
    def found(self) -> bool:
        """Whether a schedule was found."""
    @property
    def verdict(self) -> Optional[str]:
        """``"optimal"``, ``"valid"`` (optimality not proved), or None."""
    @property
    def schedule(self) -> Optional[Report]:
        """The schedule (schema ``txverify-schedule/1``), or None."""
    def to_json(self, indent: Optional[int] = ...) -> str:
        """The schedule as JSON (schema ``txverify-schedule/1``)."""
    def report_json(self) -> str:
        """The search report as JSON (schema
        ``txverify-schedule-search/3``)."""
    def sends(self, labels: bool = ...) -> List[Dict[str, Any]]:
        """The sends; with ``labels`` from/to/source/destination/root as the network's labels."""
    def plot(self, max_columns: int = ...) -> str:
        """The schedule's SVG picture (link use per step), as ``txverify render``."""
    def _repr_svg_(self) -> Optional[str]: ...
    def to_text(self) -> str:
        """The schedule in the text format (docs/schedule.md)."""
    def to_msccl_xml(self, name: Optional[str] = ...) -> str:
        """The schedule as an MSCCL program (docs/export.md): an all-to-all for a
        total exchange, else the collective of that name."""
    def simulate(
        self,
        network: Optional[NetworkLike] = ...,
        ports: Optional[Union[str, int]] = ...,
        *,
        alpha: Optional[float] = ...,
        beta: Optional[float] = ...,
        link_table: Optional[Union[str, os.PathLike[str]]] = ...,
    ) -> SimulationReport:
        """Replays the schedule, timed with ``alpha``, ``beta`` or ``link_table``."""
    def save(self, path: Union[str, os.PathLike[str]]) -> None:
        """Writes the schedule: JSON for a ``.json`` name, else the text format."""

def check_table(
    text_or_path: Source,
    *,
    max_order: int = ...,
    simulate: bool = ...,
    max_simulation_steps: Optional[int] = ...,
) -> Union[CheckReport, MscclReport]:
    """Checks a total-exchange table, as ``txverify check FILE``.

    Raises ``InputError`` (``file``, ``line``, ``column``) when it cannot be read or loaded.
    """

def check_msccl(
    xml: Union[Source, Any],
    network: Optional[NetworkLike] = ...,
    *,
    alpha: Optional[float] = ...,
    beta: Optional[float] = ...,
    link_table: Optional[Union[str, os.PathLike[str]]] = ...,
) -> MscclReport:
    """Checks an MSCCL XML program, as ``txverify check PROGRAM [--network NET]``.

    Raises ``InputError`` (``line``, ``column``) for XML that cannot be read.
    """

def bounds(network: NetworkLike, ports: int = ..., *, lp: bool = ...) -> BoundsReport:
    """Every lower bound of a total exchange on ``network``, with its name and model;
    with ``lp`` the LP bound's certificate (``.certificate``)."""

def verify_bound(certificate: Union[LpCertificate, Source], network: NetworkLike) -> Report:
    """The LP bound a certificate proves, as ``txverify verify-bound`` (schema
    ``txverify-verify-bound/1``)."""

def search(
    network: NetworkLike,
    time_limit: Optional[float] = ...,
    *,
    collective: Optional[str] = ...,
    chunks: Optional[int] = ...,
    root: Optional[int] = ...,
    ports: Optional[Union[str, int]] = ...,
    deadline: Optional[float] = ...,
    heuristic: bool = ...,
    slack: int = ...,
    any_length: bool = ...,
    time: Optional[int] = ...,
    max_time: Optional[int] = ...,
    max_variables: Optional[int] = ...,
    certificate: Optional[Union[str, os.PathLike[str]]] = ...,
    ascending: bool = ...,
    solver: str = ...,
) -> Schedule:
    """A total-exchange schedule on ``network``, as ``txverify search --network NET``:
    the heuristic's first, then by SAT ever fewer steps (``ascending``: from the
    bound up), ``time_limit`` seconds per ``T``, ``deadline`` for the whole run.

    With ``collective`` (allgather, reduce-scatter, allreduce, broadcast,
    reduce; ``root``, ``chunks``, ``ports``): that collective's schedule, as
    ``txverify search --network NET --collective X`` (report schema
    ``txverify-schedule-search/3``).

    Raises ``LimitError`` (with ``report``) when a limit ran out before any
    schedule; Ctrl-C stops the search with ``KeyboardInterrupt``.
    """

def simulate(
    schedule_json_or_path: Union[Source, Schedule, Any],
    network: Optional[NetworkLike] = ...,
    ports: Optional[Union[str, int]] = ...,
    *,
    all: bool = ...,
    alpha: Optional[float] = ...,
    beta: Optional[float] = ...,
    link_table: Optional[Union[str, os.PathLike[str]]] = ...,
) -> Union[SimulationReport, MscclReport]:
    """Replays a schedule (or plays a table out), as ``txverify simulate``;
    ``alpha``, ``beta``, ``link_table`` add the timed replay. An MSCCL
    program is checked and timed as ``check_msccl`` does."""

def render(
    text_or_path: Source,
    *,
    by: str = ...,
    utilisation: bool = ...,
    max_columns: int = ...,
    max_order: int = ...,
) -> str:
    """The SVG picture ``txverify render FILE`` writes: a table, its link
    utilisation, or a schedule (replayed first)."""
