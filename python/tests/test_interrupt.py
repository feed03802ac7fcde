"""Ctrl-C stops a search and interrupts every other long call; long calls
release the GIL."""

import os
import signal
import threading
import time

import txverify

# Proving that the 4 × 4 torus needs more than 8 steps (or finding 8) runs
# for minutes: long enough to be interrupted.
LONG = dict(network="torus 4 4", max_time=8)


def test_ctrl_c_stops_a_search():
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    started = time.monotonic()
    timer.start()
    try:
        txverify.search(**LONG)
    except KeyboardInterrupt:
        elapsed = time.monotonic() - started
    else:
        raise AssertionError("the search was not interrupted")
    finally:
        timer.cancel()
    assert elapsed < 10, f"the search stopped {elapsed:.1f} s after it started"
    # The interpreter and the package go on working.
    assert txverify.bounds("torus 4 4").all_port_bound == 8


def test_other_threads_run_while_a_search_does():
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.01)

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        try:
            txverify.search(time_limit=1.0, **LONG)
        except txverify.LimitError:
            pass
    finally:
        done.set()
        ticker.join()
    # About a hundred ticks in the second the solver ran; with the GIL held, one or two.
    assert len(ticks) > 30, f"{len(ticks)} ticks"


def test_ctrl_c_interrupts_a_call_without_a_stop_flag():
    # The LP bound of the 8 × 8 × 8 torus takes several seconds (15 on a
    # loaded 2-core machine): Ctrl-C must not wait for it.
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    started = time.monotonic()
    timer.start()
    try:
        txverify.bounds("torus 8 8 8", lp=True)
    except KeyboardInterrupt:
        elapsed = time.monotonic() - started
    else:
        raise AssertionError("the bounds call was not interrupted")
    finally:
        timer.cancel()
    assert elapsed < 2, f"Ctrl-C was raised {elapsed:.1f} s after the call started"
    assert txverify.bounds("ring 6").all_port_bound > 0
