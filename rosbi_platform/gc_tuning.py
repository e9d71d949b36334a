"""Garbage-collector settings for long-running web workers.

A uvicorn worker holding a thousand sockets keeps a few hundred thousand live objects, and
every request and frame makes short-lived cyclic garbage. With Python's default thresholds a
full (generation 2) collection runs every few seconds and stops the whole process, every
socket and request in it, for 100-400 ms; that, not the database, was the tail of page and
move latency under load (docs/performance.md, "Garbage collector pauses").
"""

from __future__ import annotations

import gc


def tune_garbage_collector(thresholds: tuple[int, int, int] | None) -> None:
    """Apply `thresholds` and move the start-up objects out of the collector's way.

    `gc.freeze()` puts everything alive after start-up (modules, Django's registries,
    templates) in the permanent generation, so no later collection walks it again. `None`
    leaves Python's own thresholds but still freezes.
    """
    if thresholds is not None:
        gc.set_threshold(*thresholds)
    gc.collect()
    gc.freeze()
