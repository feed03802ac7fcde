"""The compiled half of txverify; use the functions of the package instead.

Every argument is read by name: a value of the wrong type or out of range
raises ``txverify.InputError``, never ``TypeError``, ``OverflowError`` or
``UnicodeError``."""

from typing import Dict, Optional, Tuple, Union
import os

__version__: str
EXIT_STATUS: Dict[str, int]  # exit status by exception class name, the library's table

Reported = Tuple[str, str, int]
Text = Union[str, bytes]
Path = Union[str, "os.PathLike[str]"]

def check_table(
    text: Optional[Text] = ...,
    path: Optional[Path] = ...,
    max_order: Optional[int] = ...,
    simulate: Optional[bool] = ...,
    max_simulation_steps: Optional[int] = ...,
) -> Tuple[Reported, Optional[str]]: ...
def check_msccl(
    text: Optional[Text] = ...,
    path: Optional[Path] = ...,
    network: Optional[str] = ...,
    alpha: Optional[float] = ...,
    beta: Optional[float] = ...,
    link_table: Optional[Path] = ...,
) -> Reported: ...
def bounds(
    network: str, ports: Optional[int] = ..., lp: Optional[bool] = ...
) -> Tuple[str, str, int, Optional[str]]: ...
def verify_bound(network: str, text: Optional[Text] = ..., path: Optional[Path] = ...) -> Reported: ...
def search(
    network: str,
    collective: Optional[str] = ...,
    chunks: Optional[int] = ...,
    root: Optional[int] = ...,
    ports: Optional[Union[str, int]] = ...,
    time_limit: Optional[float] = ...,
    deadline: Optional[float] = ...,
    heuristic: Optional[bool] = ...,
    slack: Optional[int] = ...,
    any_length: Optional[bool] = ...,
    time: Optional[int] = ...,
    max_time: Optional[int] = ...,
    max_variables: Optional[int] = ...,
    certificate: Optional[Path] = ...,
    ascending: Optional[bool] = ...,
    solver: Optional[str] = ...,
) -> Tuple[str, str, int, Optional[str]]: ...
def simulate(
    text: Optional[Text] = ...,
    path: Optional[Path] = ...,
    network: Optional[str] = ...,
    ports: Optional[Union[str, int]] = ...,
    all: Optional[bool] = ...,
    alpha: Optional[float] = ...,
    beta: Optional[float] = ...,
    link_table: Optional[Path] = ...,
) -> Reported: ...
def schedule_msccl_xml(schedule: str, name: str) -> str: ...
def schedule_text(schedule: str) -> str: ...
def schedule_save(schedule: str, path: Path) -> None: ...
def render(
    text: Optional[Text] = ...,
    path: Optional[Path] = ...,
    by: Optional[str] = ...,
    utilisation: Optional[bool] = ...,
    max_columns: Optional[int] = ...,
    max_order: Optional[int] = ...,
) -> Tuple[str, int]: ...
def panic_for_test(on_caller_thread: Optional[bool] = ...) -> None: ...
