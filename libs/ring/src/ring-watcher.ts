// A component's view of a ring it does not belong to (the distributor's of the ingesters, the
// querier's): the latest ring under one key, kept current through a KV watch.

import type { Kv } from './kv';
import { Ring, type RingOptions } from './ring';
import { SILENT_RING_LOGGER, type RingLogger } from './ring-logger';
import { EMPTY_RING, decodeRing, type RingDesc } from './types';

export interface RingWatcherOptions extends RingOptions {
  readonly kv: Kv;
  readonly key: string;
  readonly logger?: RingLogger;
}

export type RingChangeListener = (desc: RingDesc) => void;

export class RingWatcher {
  private current: RingDesc = EMPTY_RING;
  private lastValue: Buffer | null | undefined;
  private cachedRing: Ring | undefined;
  private readonly listeners = new Set<RingChangeListener>();
  private unwatch: (() => void) | undefined;
  private starting: Promise<void> | undefined;
  private readonly logger: RingLogger;

  constructor(private readonly options: RingWatcherOptions) {
    this.logger = options.logger ?? SILENT_RING_LOGGER;
  }

  /** Starts watching; resolves once the first value has arrived. */
  start(): Promise<void> {
    this.starting ??= new Promise<void>((resolve) => {
      this.unwatch = this.options.kv.watch(this.options.key, (value) => {
        this.receive(value);
        resolve();
      });
    });
    return this.starting;
  }

  /** The latest ring (empty before the first value). */
  desc(): RingDesc {
    return this.current;
  }

  /** The latest ring as a `Ring`, built once per change. */
  ring(): Ring {
    this.cachedRing ??= new Ring(this.current, this.options);
    return this.cachedRing;
  }

  /** Calls `listener` after every change; returns the function that unsubscribes it. */
  onChange(listener: RingChangeListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  stop(): void {
    this.unwatch?.();
    this.unwatch = undefined;
  }

  private receive(value: Buffer | null): void {
    if (this.lastValue !== undefined && sameBytes(this.lastValue, value)) return;
    let desc: RingDesc;
    try {
      desc = decodeRing(value);
    } catch (err) {
      // Keep serving the last good ring rather than none.
      this.logger.warn({ err, key: this.options.key }, 'ignoring an undecodable ring value');
      return;
    }
    this.lastValue = value;
    this.current = desc;
    this.cachedRing = undefined;
    for (const listener of this.listeners) {
      try {
        listener(desc);
      } catch (err) {
        this.logger.warn({ err, key: this.options.key }, 'ring change listener failed');
      }
    }
  }
}

function sameBytes(a: Buffer | null, b: Buffer | null): boolean {
  return a === null || b === null ? a === b : a.equals(b);
}
