"""The compiled half of txverify; use the functions of the package instead."""

from typing import Optional, Tuple

__version__: str

Reported = Tuple[str, str, int]

def check_table(
    text: Optional[str] = ...,
    path: Optional[str] = ...,
    max_order: int = ...,
    simulate: bool = ...,
    max_simulation_steps: int = ...,
) -> Reported: ...
def check_msccl(
    text: Optional[str] = ..., path: Optional[str] = ..., network: Optional[str] = ...
) -> Reported: ...
def bounds(network: str, ports: int = ...) -> Reported: ...
def search(
    network: str,
    time_limit: Optional[float] = ...,
    deadline: Optional[float] = ...,
    heuristic: bool = ...,
    slack: int = ...,
    any_length: bool = ...,
    time: Optional[int] = ...,
    max_time: Optional[int] = ...,
    max_variables: int = ...,
    certificate: Optional[str] = ...,
    ascending: bool = ...,
    solver: str = ...,
) -> Tuple[str, str, int, Optional[str]]: ...
def simulate(
    text: Optional[str] = ...,
    path: Optional[str] = ...,
    network: Optional[str] = ...,
    ports: Optional[str] = ...,
    all: bool = ...,
) -> Reported: ...
def schedule_msccl_xml(schedule: str, name: str) -> str: ...
def schedule_text(schedule: str) -> str: ...
def panic_for_test() -> None: ...
