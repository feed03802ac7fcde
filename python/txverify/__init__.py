"""txverify: verify, bound, search and replay communication schedules.

Every function calls the txverify library directly (no subprocess) and
returns a report that holds the same JSON object as the command line's
``--format json`` (the schemas of docs/json.md: the same field names and the
same ``schema`` versions), readable as a mapping (``r["verdict"]``) or by
attribute (``r.verdict``); ``str(r)`` is the command line's text report.
The work runs with the GIL released; Ctrl-C stops a search and interrupts every call.
"""

import hashlib as _hashlib
import json as _json
import math as _math
import os as _os
import tempfile as _tempfile
from collections.abc import Mapping as _Mapping
from typing import Any, Dict, Iterator, Optional, Union

from . import _txverify
from ._errors import Error, InputError, InternalError, LimitError

__version__: str = _txverify.__version__

__all__ = [
    "BoundsReport",
    "CheckReport",
    "Error",
    "InputError",
    "InternalError",
    "LimitError",
    "LpCertificate",
    "MscclReport",
    "Network",
    "Report",
    "Schedule",
    "SimulationReport",
    "bounds",
    "check_msccl",
    "check_table",
    "render",
    "search",
    "simulate",
    "verify_bound",
]

Source = Union[str, bytes, "_os.PathLike[str]"]


def _wrap(value: Any) -> Any:
    if isinstance(value, dict):
        return Report(value)
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value


class Network:
    """A network given by its links: node labels (any hashable values, e.g.
    ``"gpu3"``) and undirected links between them. The library reads it as
    an edge list (``edges FILE``, docs/networks.md): node ``i`` is the
    ``i``-th label, in the order the labels were given (a graph's node
    order, or the order of first appearance in an edge list); a node's ports
    are its links in the order they are listed.

    Wherever a network is accepted (``bounds``, ``search``, ``simulate``,
    ``check_msccl``, ``verify_bound``), a ``Network``, a networkx
    ``Graph``/``DiGraph`` or a list of ``(u, v)`` pairs may be given; the
    result then carries ``labels`` (node number → label).
    """

    __slots__ = ("_labels", "_links", "_fabric")

    def __init__(self, labels: list, links: list, fabric: Optional[list] = None) -> None:
        self._labels = list(labels)
        self._links = [(int(u), int(v)) for u, v in links]
        # Per link: (capacity, alpha, beta); None for a network of plain links.
        self._fabric = None if fabric is None else [_link_fabric(f) for f in fabric]
        if self._fabric is not None and len(self._fabric) != len(self._links):
            raise InputError("a network's fabric gives one (capacity, alpha, beta) per link")

    @classmethod
    def from_edges(cls, edges: Any, labels: Optional[Any] = None) -> "Network":
        """A network from ``(u, v)`` pairs of node labels, each one
        undirected link. ``labels`` gives the node order (else the order in
        which the edges first name them); every node must be in a link."""
        try:
            pairs = [tuple(e) for e in edges]
        except TypeError:
            raise InputError("a network's edges must be a list of (u, v) pairs") from None
        index: Dict[Any, int] = {}
        order: list = []

        def number(label: Any) -> int:
            try:
                found = index.get(label)
            except TypeError:
                raise InputError(f"node label {label!r} is not hashable: a label must be hashable") from None
            if found is None:
                found = index[label] = len(order)
                order.append(label)
            return found

        if labels is not None:
            for label in labels:
                if _hashable(label) and label in index:
                    raise InputError(f"node label {label!r} is given twice")
                number(label)
        links = []
        for pair in pairs:
            if len(pair) != 2:
                raise InputError(f"a link is two nodes, not {pair!r}")
            links.append((number(pair[0]), number(pair[1])))
        used = {n for link in links for n in link}
        for i, label in enumerate(order):
            if i not in used and len(order) > 1:
                raise InputError(
                    f"node {label!r} is in no link: the network is not connected"
                )
        return cls(order, links)

    @classmethod
    def from_networkx(cls, graph: Any) -> "Network":
        """A network from a networkx ``Graph`` (each edge one link) or
        ``DiGraph`` (each arc must have its reverse: links are undirected,
        and an arc pair is one link). The edge attributes ``capacity`` (the
        chunks a link carries a step, a whole number from 1, default 1),
        ``alpha`` and ``beta`` (the link's times in the timed replay) are read
        and make the network a fabric (docs/networks.md, "Fabrics"); a
        DiGraph's two arcs of a link must agree on them."""
        try:
            nodes = list(graph.nodes)
            directed = bool(graph.is_directed())
            arcs = list(graph.edges(data=True))
        except (AttributeError, TypeError):
            raise InputError(
                f"expected a networkx Graph or DiGraph, not {type(graph).__name__}"
            ) from None
        of = {}
        for u, v, data in arcs:
            of[(u, v)] = _attributes(u, v, data if isinstance(data, dict) else {})
        pairs = [(u, v) for u, v, _ in arcs]
        if directed:
            present = set(pairs)
            kept = []
            for u, v in pairs:
                if (v, u) not in present:
                    raise InputError(
                        f"the arc ({u!r}, {v!r}) has no reverse: a DiGraph must be symmetric "
                        "(links are undirected; directed links are not modelled yet)"
                    )
                if of[(u, v)] != of[(v, u)]:
                    raise InputError(
                        f"the arcs ({u!r}, {v!r}) and ({v!r}, {u!r}) differ in capacity or "
                        "times: a link is read as one, the same both ways"
                    )
                if u == v or (v, u) not in set(kept):
                    kept.append((u, v))
            pairs = kept
        network = cls.from_edges(pairs, labels=nodes)
        fabric = [of[pair] for pair in pairs]
        if any(f != _PLAIN_LINK for f in fabric):
            network._fabric = fabric
        return network

    def to_networkx(self) -> Any:
        """The network as a networkx ``Graph`` (nodes in order, with their labels)."""
        try:
            import networkx
        except ImportError:
            raise InputError("to_networkx needs the networkx package") from None
        graph = networkx.Graph()
        graph.add_nodes_from(self._labels)
        if self._fabric is None:
            graph.add_edges_from(self.edges)
            return graph
        for (u, v), (capacity, alpha, beta) in zip(self.edges, self._fabric):
            times = {k: t for k, t in (("alpha", alpha), ("beta", beta)) if t is not None}
            graph.add_edge(u, v, capacity=capacity, **times)
        return graph

    @property
    def labels(self) -> list:
        """The label of each node number."""
        return list(self._labels)

    @property
    def edges(self) -> list:
        """The links as ``(u, v)`` pairs of labels, in order."""
        return [(self._labels[u], self._labels[v]) for u, v in self._links]

    @property
    def capacities(self) -> Optional[list]:
        """Each link's capacity, in the order of ``edges``; None for a
        network of plain links (capacity 1, no times)."""
        return None if self._fabric is None else [f[0] for f in self._fabric]

    def edges_text(self) -> str:
        """The edge list the library reads (docs/networks.md): one ``u v``
        line of node numbers per link, then its capacity and times when the
        network is a fabric (``u v [capacity] [alpha=A] [beta=B]``)."""
        if self._fabric is None:
            return "".join(f"{u} {v}\n" for u, v in self._links)
        lines = []
        for (u, v), (capacity, alpha, beta) in zip(self._links, self._fabric):
            words = [str(u), str(v)] + ([str(capacity)] if capacity != 1 else [])
            words += [f"{k}={t!r}" for k, t in (("alpha", alpha), ("beta", beta)) if t is not None]
            lines.append(" ".join(words) + "\n")
        return "".join(lines)

    def save(self, path: Union[str, "_os.PathLike[str]"]) -> None:
        """Writes the edge list to ``path``."""
        _need_path(path)
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(self.edges_text())
        except (OSError, TypeError, ValueError) as e:
            raise InputError(f"cannot write the edge list: {e}", str(path)) from None

    @property
    def name(self) -> str:
        """The network's name as the library reads it: ``edges FILE``, FILE
        an edge list in the temporary directory named by its content (so one
        network has one name, and a schedule that names it replays later)."""
        return _named_file(self.edges_text(), "edges")

    def __len__(self) -> int:
        return len(self._labels)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Network):
            return (self._labels, self._links, self._fabric) == (
                other._labels, other._links, other._fabric)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Network nodes={len(self._labels)} links={len(self._links)}>"


def _need_path(path: Any) -> None:
    """A path to write: a str or path object (an int would be taken by
    ``open`` as a file descriptor, and closed)."""
    if not isinstance(path, (str, _os.PathLike)):
        raise InputError(f"expected a path, not {type(path).__name__}")


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


_PLAIN_LINK = (1, None, None)


def _link_fabric(given: Any) -> "tuple[int, Optional[float], Optional[float]]":
    """A link's (capacity, alpha, beta), checked as the library will read them."""
    try:
        capacity, alpha, beta = given
    except (TypeError, ValueError):
        raise InputError(f"a link's fabric is (capacity, alpha, beta), not {given!r}") from None
    return _attributes("u", "v", {"capacity": capacity, "alpha": alpha, "beta": beta})


def _attributes(u: Any, v: Any, data: Dict[str, Any]) -> "tuple[int, Optional[float], Optional[float]]":
    """The capacity and times of the link (u, v) from its edge attributes."""
    capacity = data.get("capacity", 1)
    if isinstance(capacity, bool) or not isinstance(capacity, int) or not 1 <= capacity <= 65536:
        raise InputError(
            f"link ({u!r}, {v!r}) has capacity {capacity!r}: a capacity is a whole number of "
            "chunks a step from 1 to 65536"
        )
    times = []
    for key in ("alpha", "beta"):
        t = data.get(key)
        if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float))
                              or not _math.isfinite(t) or t < 0):
            raise InputError(f"link ({u!r}, {v!r}) has {key} {t!r}: a time is a finite number >= 0")
        times.append(None if t is None else float(t))
    return (capacity, times[0], times[1])


def _topology_name(topology: Any) -> str:
    """An msccl-tools ``Topology`` object (``name``, ``links[dst][src]``,
    ``switches``) as the library's name: ``edges FILE``, FILE its topology
    JSON in the temporary directory, named by its content."""
    try:
        links = [[int(b) for b in row] for row in topology.links]
        switches = [[list(map(int, srcs)), list(map(int, dsts)), int(bw), str(name)]
                    for srcs, dsts, bw, name in getattr(topology, "switches", None) or []]
    except (TypeError, ValueError) as e:
        raise InputError(f"an msccl-tools topology's links and switches cannot be read: {e}") from None
    # One row and one switch a line: the edge-list reader's lines are bounded.
    rows = ",\n".join("    " + _json.dumps(row) for row in links)
    limits = ",\n".join("    " + _json.dumps(switch) for switch in switches)
    text = ('{"msccl_type": "topology", "name": ' + _json.dumps(str(getattr(topology, "name", "")))
            + ',\n "links": [\n' + rows + '\n ],\n "switches": [\n' + limits + "\n ]}\n")
    return _named_file(text, "json")


def _named_file(text: str, extension: str) -> str:
    """``edges FILE``, FILE holding ``text`` in the temporary directory and
    named by its content (so one network has one name)."""
    digest = _hashlib.sha256(text.encode()).hexdigest()[:32]
    folder = _os.path.join(_tempfile.gettempdir(), "txverify-networks")
    path = _os.path.join(folder, f"{digest}.{extension}")
    if not _os.path.exists(path):
        try:
            _os.makedirs(folder, exist_ok=True)
            partial = f"{path}.{_os.getpid()}.part"
            with open(partial, "w", encoding="utf-8") as f:
                f.write(text)
            _os.replace(partial, path)
        except OSError as e:
            raise InputError(f"cannot write the network's edge list: {e}", path) from None
    return f"edges {path}"


def _network(network: Any) -> "tuple[Any, Optional[list]]":
    """A network argument as the library's name, and its labels when it was
    given as an object (a ``Network``, a networkx graph, a list of edges; an
    msccl-tools ``Topology`` keeps its node numbers)."""
    if network is None or isinstance(network, (str, bytes, bytearray)):
        return network, None
    if isinstance(network, _os.PathLike):
        return _os.fspath(network), None
    if not isinstance(network, Network) and hasattr(network, "links") and not hasattr(network, "nodes"):
        return _topology_name(network), None
    if not isinstance(network, Network):
        if hasattr(network, "is_directed") and hasattr(network, "nodes"):
            network = Network.from_networkx(network)
        elif isinstance(network, (list, tuple)):
            network = Network.from_edges(network)
        else:
            raise InputError(
                "a network is a name, a file, a txverify.Network, a networkx graph, an "
                f"msccl-tools Topology or a list of edges, not {type(network).__name__}"
            )
    return network.name, network.labels


def _labelled(report: Any, labels: Optional[list]) -> Any:
    report._labels = labels
    return report


class Report(_Mapping):
    """A JSON report (docs/json.md) as a read-only mapping with attribute access.

    Nested objects are reports too; ``to_dict()`` gives the plain JSON value,
    ``to_json()`` its text, ``str()`` the command line's text report.
    """

    __slots__ = ("_data", "_text", "_labels")

    def __init__(self, data: Dict[str, Any], text: Optional[str] = None) -> None:
        self._data = data
        self._text = text
        self._labels: Optional[list] = None

    @property
    def labels(self) -> Optional[list]:
        """The label of each node number when the network was given as an
        object (``Network``, networkx graph, list of edges); else None."""
        return None if self._labels is None else list(self._labels)

    def __getitem__(self, key: str) -> Any:
        return _wrap(self._field(key))

    def _field(self, key: str) -> Any:
        return self._data[key]

    def _whole(self) -> Dict[str, Any]:
        """The whole JSON object (a subclass may hold part of it unparsed)."""
        return self._data

    def __getattr__(self, name: str) -> Any:
        # No field starts with `_`: such names (and `_data` before it is set,
        # as in copy and pickle) are not looked up, which would recurse.
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError:
            raise AttributeError(
                f"{type(self).__name__} has no field {name!r}"
            ) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Report):
            return self._whole() == other._whole()
        if isinstance(other, dict):
            return self._whole() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> Dict[str, Any]:
        """The JSON object, as plain dicts and lists (a copy)."""
        return _json.loads(_json.dumps(self._whole()))

    def to_json(self, indent: Optional[int] = None) -> str:
        """The JSON object as text."""
        return _json.dumps(self._whole(), indent=indent, sort_keys=True)

    @property
    def text(self) -> str:
        """The command line's text report (the JSON, indented, when there is none)."""
        return self._text if self._text is not None else self.to_json(indent=2)

    def __str__(self) -> str:
        return self.text.rstrip("\n")

    def __repr__(self) -> str:
        schema = self._data.get("schema")
        keys = ("file", "network", "verdict", "valid", "time", "exit_code")
        shown = ", ".join(f"{k}={self._data[k]!r}" for k in keys if k in self._data)
        head = f"schema={schema!r}, " if schema else ""
        return f"<{type(self).__name__} {head}{shown}>"


class CheckReport(Report):
    """A table's check (schema ``txverify-check/1``)."""

    __slots__ = ("_given", "_max_order", "_violations")

    def _field(self, key: str) -> Any:
        if key == "violations":
            self._whole()
        return self._data[key]

    def _whole(self) -> Dict[str, Any]:
        # The violations arrive as JSON text, parsed when first asked for:
        # an invalid table can name millions, and the verdict needs none.
        pending = getattr(self, "_violations", None)
        if pending is not None:
            self._data["violations"] = _json.loads(pending)
            self._violations = None
        return self._data

    @property
    def valid(self) -> bool:
        """Whether the table is valid (optimal or not)."""
        return self._data["verdict"] in ("valid", "optimal")

    @property
    def optimal(self) -> bool:
        """Whether the table is valid and proved optimal."""
        return self._data["verdict"] == "optimal"

    def plot(self, by: str = "length", utilisation: bool = False, max_columns: int = 1024) -> str:
        """The table's picture as SVG text, as ``txverify render FILE [--by
        link] [--utilisation]`` draws it (docs/render.md): the table as the
        paper prints it, coloured by word ``length`` or by ``link``, an
        invalid table's violations marked; or with ``utilisation`` the link
        use per step of its simulation. The table is read again from the
        text or file ``check_table`` was given."""
        given = getattr(self, "_given", None)
        if given is None:
            raise Error("this report does not hold its table")
        return _txverify.render(**given, by=by, utilisation=utilisation,
                                max_columns=max_columns, max_order=self._max_order)[0]

    def _repr_svg_(self) -> str:
        return self.plot()


class MscclReport(Report):
    """An MSCCL program's check (schema ``txverify-msccl/2``)."""

    __slots__ = ()


class LpCertificate:
    """The LP bound's certificate (schema ``txverify-lp-bound/1``, docs/json.md),
    as ``bounds --lp-certificate FILE`` writes it: ``weights``, a list of
    ``(u, v, w)`` (weight w on the directed link u → v), the ``bound`` they
    prove and the ``network`` they are for; ``save(path)`` writes the file
    ``verify-bound`` reads, ``to_json()`` its text."""

    __slots__ = ("_data",)

    def __init__(self, data: Dict[str, Any]) -> None:
        self._data = data

    @property
    def weights(self) -> list:
        """``(u, v, w)`` for every directed link u → v of positive weight w."""
        return [tuple(w) for w in self._data["weights"]]

    @property
    def bound(self) -> Optional[int]:
        """The bound the weights prove (as the writer stated it)."""
        return self._data.get("bound")

    @property
    def network(self) -> Optional[str]:
        """The network the weights are for, as named."""
        return self._data.get("network")

    def to_dict(self) -> Dict[str, Any]:
        """The certificate's JSON object (a copy)."""
        return _json.loads(_json.dumps(self._data))

    def to_json(self) -> str:
        """The certificate's text, as ``bounds --lp-certificate`` writes it."""
        return _json.dumps(self._data, separators=(",", ":"))

    def save(self, path: Union[str, "_os.PathLike[str]"]) -> None:
        """Writes the certificate to ``path``. Raises ``InputError`` when it
        cannot be written."""
        _need_path(path)
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(self.to_json() + "\n")
        except (OSError, TypeError, ValueError) as e:
            raise InputError(f"cannot write the certificate: {e}", str(path)) from None

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LpCertificate):
            return self._data == other._data
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<LpCertificate network={self.network!r} bound={self.bound!r} links={len(self._data['weights'])}>"


class BoundsReport(Report):
    """A network's lower bounds (schema ``txverify-bounds/4``); with
    ``bounds(..., lp=True)`` also the LP bound's ``certificate``."""

    __slots__ = ("_certificate",)

    def __init__(self, data: Dict[str, Any], text: Optional[str] = None, certificate: Optional[str] = None) -> None:
        super().__init__(data, text)
        self._certificate = certificate

    @property
    def certificate(self) -> Optional[LpCertificate]:
        """The LP bound's certificate (``bounds(..., lp=True)``), or None."""
        if self._certificate is None:
            return None
        return LpCertificate(_json.loads(self._certificate))

    def plot(self) -> str:
        """The SVG picture of the proving cut on the network: the nodes on a
        circle, the side A filled, the links that cross the cut in red (up
        to 512 nodes; ``InputError`` past them, or without a cut)."""
        cut = self._data.get("cut_bound") or {}
        side = cut.get("side")
        if side is None:
            raise InputError("the report has no cut bound to draw (one node, or no cut found)")
        title = f"{self._data.get('network', '')}: cut bound {cut.get('value')}"
        return _txverify.cut_svg(self._data["network"], list(side), title)

    def _repr_svg_(self) -> Optional[str]:
        try:
            return self.plot()
        except Error:
            return None

    @property
    def lower_bounds(self) -> list:
        """Every named bound, all-port then K-port: ``value``, ``name``, ``model``."""
        found = []
        for family in ("all_port", "ports_bounds"):
            group = self._data.get(family) or {}
            found.extend(_wrap(group.get("bounds", [])))
        return found


class SimulationReport(Report):
    """A replay (schema ``txverify-schedule-report/1`` or ``txverify-simulate/1``)."""

    __slots__ = ()


class Schedule(Report):
    """What ``search`` found: the search report (schema
    ``txverify-schedule-search/3``, total exchange and collectives alike) and the schedule itself, which can be replayed, saved and
    exported.
    """

    __slots__ = ("_schedule",)

    def __init__(self, data: Dict[str, Any], text: str, schedule: Optional[str]) -> None:
        super().__init__(data, text)
        self._schedule = schedule

    def _need(self) -> str:
        if self._schedule is None:
            raise Error("the search found no schedule")
        return self._schedule

    @property
    def found(self) -> bool:
        """Whether a schedule was found."""
        return self._schedule is not None

    @property
    def verdict(self) -> Optional[str]:
        """``"optimal"``, ``"valid"`` (optimality not proved), or None (none found)."""
        if self._schedule is None:
            return None
        return "optimal" if self._data.get("optimal") else "valid"

    @property
    def schedule(self) -> Optional[Report]:
        """The schedule (schema ``txverify-schedule/1``), or None."""
        return None if self._schedule is None else Report(_json.loads(self._schedule))

    def to_json(self, indent: Optional[int] = None) -> str:  # type: ignore[override]
        """The schedule as JSON (schema ``txverify-schedule/1``, docs/schedule.md)."""
        text = self._need()
        if indent is None:
            return text
        return _json.dumps(_json.loads(text), indent=indent)

    def report_json(self) -> str:
        """The search report as JSON (schema
        ``txverify-schedule-search/3``)."""
        return Report.to_json(self)

    def sends(self, labels: bool = False) -> list:
        """The schedule's sends (docs/schedule.md): ``step``, ``from``,
        ``to``, ``source``, ``destination`` (and a collective's fields). With
        ``labels=True`` the node numbers of ``from``, ``to``, ``source``,
        ``destination`` and ``root`` become the labels of the network the
        search was given as an object (``destination`` ``"*"``, every node,
        stays); nothing else is translated. ``InputError`` when the
        network had no labels."""
        found = [dict(send) for send in _json.loads(self._need())["sends"]]
        if not labels:
            return found
        if self._labels is None:
            raise InputError("the network was given by name: its nodes have no labels")
        names = self._labels
        for send in found:
            for key in ("from", "to", "source", "destination", "root"):
                value = send.get(key)
                if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
                    send[key] = names[value]
        return found

    def plot(self, max_columns: int = 1024) -> str:
        """The schedule's picture as SVG text, as ``txverify render`` draws
        a schedule file (one row per directed link used, one column per
        step, each send a mark coloured by its source; docs/render.md), the
        file named ``<string>`` in its title. Node numbers are drawn, not
        labels."""
        return _txverify.render(text=self._need(), max_columns=max_columns)[0]

    def _repr_svg_(self) -> Optional[str]:
        if self._schedule is None:
            return None
        return self.plot()

    def to_text(self) -> str:
        """The schedule in the text format (docs/schedule.md)."""
        return _txverify.schedule_text(self._need())

    def to_msccl_xml(self, name: Optional[str] = None) -> str:
        """The schedule as an MSCCL program (docs/export.md): a total exchange
        as an all-to-all, a collective as the collective of that name, checked
        as ``export --format msccl`` checks it."""
        return _txverify.schedule_msccl_xml(self._need(), name or str(self._data["network"]))

    def simulate(
        self,
        network: Any = None,
        ports: Optional[Union[str, int]] = None,
        *,
        alpha: Optional[float] = None,
        beta: Optional[float] = None,
        link_table: Optional[Union[str, "_os.PathLike[str]"]] = None,
    ) -> "SimulationReport":
        """Replays the schedule (as ``simulate``), timed with ``alpha``,
        ``beta`` or ``link_table``."""
        return simulate(self._need(), network=network, ports=ports,
                        alpha=alpha, beta=beta, link_table=link_table)

    def save(self, path: Union[str, "_os.PathLike[str]"]) -> None:
        """Writes the schedule as ``search -o`` does (the same writer): JSON
        for a ``.json`` name, else the text format, whole or not at all.
        Raises ``InputError`` when it cannot be written."""
        _txverify.schedule_save(self._need(), path)


def _source(source: Source) -> Dict[str, Any]:
    """``text=`` or ``path=``: a path object, or a one-line string that is not
    JSON or XML, names a file; anything else is the text itself (bytes are
    text, read as UTF-8 by the compiled module, which checks every argument)."""
    if isinstance(source, (bytes, bytearray)):
        return {"text": bytes(source)}
    if isinstance(source, _os.PathLike):
        return {"path": source}
    if not isinstance(source, str):
        raise InputError(f"expected text or a path, not {type(source).__name__}")
    if "\n" in source or source.lstrip().startswith(("{", "<")):
        return {"text": source}
    return {"path": source}


def _report(kind: Any, reported: Any, violations: Optional[str] = None) -> Any:
    """The report of `reported` (its JSON text, its text, its status), of
    the class `kind`, or of the class `kind(data)` gives for its data (parsed
    once); a table's `violations`, when given apart as JSON text, are parsed
    when first asked for."""
    data, text, status = reported
    data = _json.loads(data)
    if not isinstance(kind, type):
        kind = kind(data)
    report = kind(data, text)
    if violations is not None and isinstance(report, CheckReport):
        report._violations = violations
    if status == 3:
        error = InternalError(text.strip().splitlines()[-1] if text.strip() else "internal error")
        error.report = report  # type: ignore[attr-defined]
        raise error
    return report


def check_table(
    text_or_path: Source,
    *,
    max_order: int = 2_000_000,
    simulate: bool = True,
    max_simulation_steps: Optional[int] = None,
) -> Union[CheckReport, MscclReport]:
    """Checks a total-exchange table (a ``.tbl`` file or its text), as
    ``txverify check FILE``: its verdict (invalid, valid or optimal), time,
    lower bound, violations and simulation. An MSCCL program, told from its
    text, gets ``check_msccl``'s report. Raises ``InputError`` (with
    ``file``, ``line``, ``column``) when the table cannot be read or loaded.
    """
    reported, violations = _txverify.check_table(
        **_source(text_or_path),
        max_order=max_order,
        simulate=simulate,
        max_simulation_steps=max_simulation_steps,
    )
    report = _report(
        lambda data: MscclReport if data["schema"].startswith("txverify-msccl") else CheckReport,
        reported,
        violations,
    )
    if isinstance(report, CheckReport):
        report._given = _source(text_or_path)
        report._max_order = max_order
    return report


def render(
    text_or_path: Source,
    *,
    by: str = "length",
    utilisation: bool = False,
    max_columns: int = 1024,
    max_order: int = 2_000_000,
) -> str:
    """The SVG picture ``txverify render FILE [--by length|link]
    [--utilisation] [--max-columns N] [--max-order N]`` writes (the same
    library call, docs/render.md): a table (an invalid one drawn with its
    violations marked), its link utilisation, or a schedule (replayed and
    judged first: an invalid schedule is not drawn and raises ``Error``).
    Raises ``InputError`` for input that cannot be read."""
    svg, _status = _txverify.render(**_source(text_or_path), by=by, utilisation=utilisation,
                                    max_columns=max_columns, max_order=max_order)
    return svg


def _program(program: Any) -> Any:
    """An MSCCL program object (msccl-tools' ``MSCCLProgram``, or anything
    with a ``generate_xml()`` method returning the XML) as its XML text;
    anything else as given."""
    generate = getattr(program, "generate_xml", None)
    if generate is None or isinstance(program, (str, bytes, bytearray, _os.PathLike)):
        return program
    try:
        xml = generate()
    except Exception as e:  # the program's own failure, e.g. an invalid dependency
        raise InputError(f"the program's generate_xml() failed: {type(e).__name__}: {e}") from None
    if not isinstance(xml, str):
        raise InputError(f"the program's generate_xml() gave {type(xml).__name__}, not the XML text")
    return {"text": xml}


def check_msccl(
    xml: Any,
    network: Any = None,
    *,
    alpha: Optional[float] = None,
    beta: Optional[float] = None,
    link_table: Optional[Union[str, "_os.PathLike[str]"]] = None,
) -> MscclReport:
    """Checks an MSCCL XML program — a file, its text, or a program object
    with a ``generate_xml()`` method (msccl-tools' ``MSCCLProgram``) — as
    ``txverify check PROGRAM [--network NET] [--alpha A] [--beta B]
    [--link-table FILE]``: valid or not, the collective, the reason with its
    line and column, the verdict as if the reader had accepted it, with a
    network each link's load and the collective's lower bounds, and with
    ``alpha``/``beta``/``link_table`` its timed replay (``timed``).
    Raises ``InputError`` (with ``line``, ``column``) for XML that cannot be read.
    """
    source = _program(xml)
    given = source if isinstance(source, dict) else _source(source)
    name, labels = _network(network)
    reported = _txverify.check_msccl(
        **given, network=name, alpha=alpha, beta=beta, link_table=link_table
    )
    return _labelled(_report(MscclReport, reported), labels)


def bounds(network: Any, ports: int = 1, *, lp: bool = False) -> BoundsReport:
    """Every lower bound of a total exchange on ``network`` (``"torus 4 4"``,
    ``"mesh 3 3"``, an edge-list file), with its name and model, as ``txverify
    bounds --network NET [--ports K]``; the report holds the LP bound
    (``lp_bound``). With ``lp=True`` also its certificate (``.certificate``,
    as ``--lp-certificate FILE`` writes it; None on a network without links).
    """
    name, labels = _network(network)
    data, text, status, certificate = _txverify.bounds(name, ports, lp=lp)
    report = _report(BoundsReport, (data, text, status))
    report._certificate = certificate
    return _labelled(report, labels)


def verify_bound(certificate: Any, network: Any) -> Report:
    """The LP bound a certificate proves on ``network``, recomputed from its
    weights alone, as ``txverify verify-bound --network NET FILE`` (schema
    ``txverify-verify-bound/1``): ``bound``, ``accepted`` (False when the
    certificate states more than its weights prove). ``certificate`` is an
    ``LpCertificate``, a file, or its JSON text. Raises ``InputError`` for
    a certificate that cannot be read or does not fit the network.
    """
    if isinstance(certificate, LpCertificate):
        given: Dict[str, Any] = {"text": certificate.to_json()}
    else:
        given = _source(certificate)
    name, labels = _network(network)
    return _labelled(_report(Report, _txverify.verify_bound(name, **given)), labels)


def search(
    network: Any,
    time_limit: Optional[float] = None,
    *,
    collective: Optional[str] = None,
    chunks: Optional[int] = None,
    root: Optional[int] = None,
    ports: Optional[Union[str, int]] = None,
    deadline: Optional[float] = None,
    heuristic: bool = False,
    slack: int = 0,
    any_length: bool = False,
    time: Optional[int] = None,
    max_time: Optional[int] = None,
    max_variables: Optional[int] = None,
    certificate: Optional[Union[str, "_os.PathLike[str]"]] = None,
    ascending: bool = False,
    solver: str = "cadical",
) -> Schedule:
    """Searches a total-exchange schedule on ``network``, as ``txverify search
    --network NET``: the heuristic's schedule first, then by SAT ever fewer
    steps down to the lower bound (``ascending``: from the bound up), each
    ``T`` given ``time_limit`` seconds and the whole run ``deadline``
    seconds; or the heuristic alone. Every schedule is replayed and judged
    before it is kept; the best is returned. Raises ``LimitError`` (with
    ``report``) when a limit ran out before any schedule; Ctrl-C stops the
    search and raises ``KeyboardInterrupt``.

    With ``collective`` (``"allgather"``, ``"reduce-scatter"``,
    ``"allreduce"``, ``"broadcast"``, ``"reduce"``; the root as ``root=R``
    or in the name, ``"broadcast 0"``), ``chunks`` per block and ``ports``
    (``"all"``, the default, or K), as ``txverify search --network NET
    --collective X``: by SAT from the lower bound up, the construction
    alone (``heuristic``), or both until ``deadline`` (docs/collectives.md).
    With ``deadline`` that search is anytime and goes down from the
    construction (``ascending``: up from the bound). Its report has schema
    ``txverify-schedule-search/3``.
    """
    network, labels = _network(network)
    # Which options go together is the library's rule, checked there.
    data, text, status, schedule = _txverify.search(
        network,
        collective=collective,
        chunks=chunks,
        root=root,
        ports=ports,
        time_limit=time_limit,
        deadline=deadline,
        heuristic=heuristic,
        slack=slack,
        any_length=any_length,
        time=time,
        max_time=max_time,
        max_variables=max_variables,
        certificate=certificate,
        ascending=ascending,
        solver=solver,
    )
    return _labelled(_searched(data, text, status, schedule, network), labels)


def _searched(data: str, text: str, status: int, schedule: Optional[str], network: Any) -> Schedule:
    result = Schedule(_json.loads(data), text, schedule)
    if status == 4:
        error = LimitError("the limit ran out before a schedule was found", network)
        error.report = result
        raise error
    return result


def simulate(
    schedule_json_or_path: Any,
    network: Any = None,
    ports: Optional[Union[str, int]] = None,
    *,
    all: bool = False,
    alpha: Optional[float] = None,
    beta: Optional[float] = None,
    link_table: Optional[Union[str, "_os.PathLike[str]"]] = None,
) -> Union[SimulationReport, MscclReport]:
    """Replays a schedule (JSON or text, a file, or a ``Schedule`` from
    ``search``) on its network, or on ``network`` (with ``ports``: ``"all"``
    or K), as ``txverify simulate``; a ``.tbl`` table is played out on its
    physical network. ``all`` lists every violation of an invalid schedule
    (``--all``). ``alpha``, ``beta`` (one time for every link) and
    ``link_table`` (a file of ``from to alpha beta`` lines) add the timed
    replay (``timed``: the predicted completion beside its α-β lower bound),
    as ``--alpha A --beta B --link-table FILE``. An MSCCL program (its XML,
    or a program object with ``generate_xml()``) is checked and timed on
    ``network`` as ``check_msccl`` does (``txverify check PROGRAM --network
    NET --alpha A …``).
    """
    source = schedule_json_or_path
    network, labels = _network(network)
    if isinstance(source, Schedule):
        if labels is None:
            labels = source._labels
        source = source._need()
    program = _program(source)
    is_xml = isinstance(program, dict) or (isinstance(program, str) and program.lstrip().startswith("<"))
    if is_xml:
        if ports is not None or all:
            raise InputError("ports and all apply to schedules, not to an MSCCL program")
        report = check_msccl(program["text"] if isinstance(program, dict) else program,
                             network, alpha=alpha, beta=beta, link_table=link_table)
        return _labelled(report, labels)
    reported = _txverify.simulate(
        **_source(source), network=network, ports=ports, all=all,
        alpha=alpha, beta=beta, link_table=link_table,
    )
    return _labelled(_report(SimulationReport, reported), labels)
