/**
 * Keeps the shape (V8 hidden class) of Node's process.nextTick objects alive for the life of the process.
 *
 * Why: process.nextTick builds each of its queue entries with an object literal whose first keys are computed
 * (`{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback, args }`). V8 optimises such a literal only while
 * the inline caches of its keys name the maps (hidden classes) they saw, and it holds those maps weakly. A full
 * garbage collection at a moment when no tick object is alive frees the maps, and the caches then read "cleared". The
 * next tick built outside optimised code finds its map differs from the cleared one and turns the caches megamorphic,
 * for good: from then on every tick object (Node's HTTP and stream code makes about seven per request) is built by a
 * call into the runtime (Runtime_DefineKeyedOwnPropertyInLiteral).
 *
 * Whether that happens depended on when start-up's full collections fell (loading the gazetteer, the search index and
 * the geometry makes several), so one process of the same build was fast and the next slow: measured with `perf` on
 * GET /v1/districts/12 under load (bench/PERFORMANCE.md), the slow processes spent 5.9-9.3% of their CPU in that
 * runtime call (about 1.7 µs a request) and the same-bytes reference, whose heap is small, never did.
 *
 * Holding one real tick object keeps its map, and through each map's link to its parent the whole chain, alive: the
 * caches never clear. The object is caught with an async hook enabled for one nextTick call and disabled at once (no
 * hook runs afterwards).
 */
import { createHook } from 'node:async_hooks';

let pinned: object | undefined;

/** Pins the tick object shape (idempotent); returns the tick object held, undefined if none could be caught. */
export function pinTickShape(): object | undefined {
  if (pinned) return pinned;
  let caught: object | undefined;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') caught ??= resource as object;
    },
  });
  hook.enable();
  try {
    process.nextTick(noop);
  } finally {
    hook.disable();
  }
  pinned = caught;
  return pinned;
}

function noop(): void {}
