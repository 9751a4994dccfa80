// One process's membership of a ring: dskit's Lifecycler (register, auto-join, heartbeat,
// readiness, leave), over any Kv.

import { goDurationString } from '@logsvc/gocompat';
import type { Kv } from './kv';
import { instanceNotReady, ringNotReady } from './readiness';
import { allTokens, withInstance, withoutInstance } from './ring-edit';
import { SILENT_RING_LOGGER, type RingLogger } from './ring-logger';
import { generateTokens, loadTokensFile, saveTokensFile, type RandomUint32 } from './tokens';
import {
  EMPTY_RING,
  decodeRing,
  encodeRing,
  type InstanceDesc,
  type InstanceState,
  type RingDesc,
} from './types';

export interface LifecyclerOptions {
  readonly kv: Kv;
  /** The ring's KV key (Loki: `collectors/ring` for ingesters). */
  readonly key: string;
  readonly id: string;
  /** `host:port` other components reach this instance at. */
  readonly addr: string;
  readonly zone?: string;
  readonly numTokens: number;
  /** Where tokens are kept across restarts; none when unset. */
  readonly tokensFilePath?: string;
  /** 0 disables heartbeats. */
  readonly heartbeatPeriodMs: number;
  /** Readiness: members with an older heartbeat make the ring not ready; 0 = never expires. */
  readonly heartbeatTimeoutMs: number;
  /** How long a new instance stays PENDING before it takes tokens and goes ACTIVE. */
  readonly joinAfterMs: number;
  /** How long readiness must hold before `checkReady` reports ready. */
  readonly minReadyDurationMs: number;
  /** Pause between leaving work done and removing the ring entry. */
  readonly finalSleepMs: number;
  /** Remove the entry on `stop` (default true); if not, it stays LEAVING until a restart. */
  readonly unregisterOnShutdown?: boolean;
  /** Take tokens and go ACTIVE after `joinAfterMs` on its own (default true). */
  readonly autoJoin?: boolean;
  /**
   * Readiness requires every member of the ring ACTIVE and heartbeating (default true, as
   * Loki's `readiness_check_ring_health`), which keeps rollouts to one instance at a time;
   * false checks only this instance.
   */
  readonly readinessCheckRingHealth?: boolean;
  /**
   * Each heartbeat removes other members whose last heartbeat is older than this (dskit's
   * AutoForgetDelegate: Loki's compactor ring forgets after 10 heartbeat timeouts, so a
   * member killed without leaving stops owning its tokens). Unset or 0: never.
   */
  readonly autoForgetUnhealthyAfterMs?: number;
  readonly now?: () => number;
  readonly random?: RandomUint32;
  readonly logger?: RingLogger;
}

export interface StopOptions {
  /** Work to finish while LEAVING and still heartbeating (the ingester flushes its chunks). */
  readonly beforeLeave?: () => Promise<void>;
}

/** The transitions `changeState` accepts (dskit's Lifecycler.changeState). */
const ALLOWED_TRANSITIONS: ReadonlySet<string> = new Set([
  'PENDING>JOINING',
  'JOINING>PENDING',
  'JOINING>ACTIVE',
  'PENDING>ACTIVE',
  'ACTIVE>LEAVING',
]);

/** What a CAS round decided for this instance, applied once the CAS has stored it. */
interface Entry {
  readonly state: InstanceState;
  readonly tokens: readonly number[];
  readonly registeredMs: number;
}

/**
 * Registers this process in the ring under one key and keeps its entry current. Every change
 * is a read-modify-write of the whole ring that touches only this instance's entry, and all of
 * them run one at a time.
 */
export class Lifecycler {
  private currentState: InstanceState = 'PENDING';
  private currentTokens: readonly number[] = [];
  private registeredMs = 0;
  /** The ring as of this instance's last CAS: what readiness is judged on. */
  private lastDesc: RingDesc = EMPTY_RING;
  private queue: Promise<void> = Promise.resolve();
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private joinTimer: NodeJS.Timeout | undefined;
  private heartbeatInFlight = false;
  private ready = false;
  private readySinceMs: number | undefined;
  private stopping: Promise<void> | undefined;
  private unregisterOnShutdown: boolean;
  private readonly now: () => number;
  private readonly logger: RingLogger;

  constructor(private readonly options: LifecyclerOptions) {
    this.now = options.now ?? Date.now;
    this.logger = options.logger ?? SILENT_RING_LOGGER;
    this.unregisterOnShutdown = options.unregisterOnShutdown !== false;
  }

  /**
   * Whether `stop()` removes the entry; `/ingester/prepare_shutdown` sets it, as Loki's
   * SetUnregisterOnShutdown.
   */
  setUnregisterOnShutdown(value: boolean): void {
    this.unregisterOnShutdown = value;
  }

  get id(): string {
    return this.options.id;
  }

  get state(): InstanceState {
    return this.currentState;
  }

  get tokens(): readonly number[] {
    return this.currentTokens;
  }

  /**
   * Registers the instance. A restart finds its entry and keeps its tokens (an entry left
   * LEAVING becomes ACTIVE again); a new instance takes the tokens file's tokens and is ACTIVE at
   * once, or else waits PENDING for `joinAfterMs` and then generates tokens. Heartbeats start.
   */
  async start(): Promise<void> {
    const fromFile = await this.loadTokens();
    await this.serial(() => this.register(fromFile));
    const period = this.options.heartbeatPeriodMs;
    if (period > 0) {
      this.heartbeatTimer = setInterval(() => this.heartbeatTick(), period);
      this.heartbeatTimer.unref?.();
    }
    if (this.options.autoJoin !== false && this.currentState === 'PENDING') {
      this.joinTimer = setTimeout(() => {
        this.joinTimer = undefined;
        this.serial(async () => {
          if (this.currentState !== 'PENDING' || this.stopping) return;
          // JOINING with its tokens first, then ACTIVE: members watching see both steps.
          await this.join('JOINING');
          this.currentState = 'ACTIVE';
          await this.heartbeat();
        }).catch((err: unknown) =>
          this.logger.warn({ err, ring: this.options.key }, 'failed to join the ring'),
        );
      }, this.options.joinAfterMs);
      this.joinTimer.unref?.();
    }
  }

  /**
   * Moves to `state` and writes it to the ring. Leaving PENDING takes the tokens this instance
   * still lacks. Only dskit's transitions are allowed; others throw.
   */
  changeState(state: InstanceState): Promise<void> {
    return this.serial(async () => {
      const from = this.currentState;
      if (!ALLOWED_TRANSITIONS.has(`${from}>${state}`)) {
        throw new Error(`Changing instance state from ${from} -> ${state} is disallowed`);
      }
      this.logger.info(
        { old_state: from, new_state: state, ring: this.options.key },
        'changing instance state',
      );
      if (from === 'PENDING' && this.currentTokens.length < this.options.numTokens) {
        await this.join(state);
      } else {
        this.currentState = state;
        await this.heartbeat();
      }
    });
  }

  /**
   * Null when ready for traffic, else why not (Loki answers /ready with 503 and this text).
   * Ready means: this instance owns tokens, and every ring member (or only this one, see
   * `readinessCheckRingHealth`) is ACTIVE with a live heartbeat, continuously for
   * `minReadyDurationMs`. Judged on the ring as of this instance's last heartbeat, so it lags
   * the KV store by up to one heartbeat period. Once ready it stays ready.
   */
  checkReady(): string | null {
    if (this.ready) return null;
    const problem = this.readinessProblem();
    if (problem !== null) {
      this.readySinceMs = undefined;
      return problem;
    }
    const now = this.now();
    this.readySinceMs ??= now;
    const minReady = this.options.minReadyDurationMs;
    if (now - this.readySinceMs < minReady) {
      return `waiting for ${goDurationString(BigInt(minReady) * 1_000_000n)} after being ready`;
    }
    this.ready = true;
    return null;
  }

  /**
   * Leaves the ring: LEAVING (no more writes come), `beforeLeave` while still heartbeating,
   * `finalSleepMs`, then the entry is removed (unless `unregisterOnShutdown` is false) and
   * heartbeats stop. The entry is handled even when `beforeLeave` throws; its error is then
   * rethrown. Calling it again returns the same promise.
   */
  stop(options: StopOptions = {}): Promise<void> {
    this.stopping ??= this.leave(options);
    return this.stopping;
  }

  private async leave({ beforeLeave }: StopOptions): Promise<void> {
    clearTimeout(this.joinTimer);
    await this.serial(async () => {
      if (this.currentState !== 'ACTIVE') {
        this.logger.warn(
          { state: this.currentState, ring: this.options.key },
          'not ACTIVE when leaving, state kept',
        );
        return;
      }
      this.currentState = 'LEAVING';
      await this.heartbeat().catch((err: unknown) =>
        this.logger.warn({ err, ring: this.options.key }, 'failed to set state to LEAVING'),
      );
    });
    try {
      await beforeLeave?.();
    } finally {
      if (this.options.finalSleepMs > 0) {
        this.logger.info(
          { final_sleep_ms: this.options.finalSleepMs },
          'lifecycler entering final sleep before shutdown',
        );
        await new Promise((resolve) => setTimeout(resolve, this.options.finalSleepMs));
      }
      clearInterval(this.heartbeatTimer);
      if (this.unregisterOnShutdown) {
        await this.serial(() => this.unregister());
        this.logger.info({ ring: this.options.key }, 'instance removed from the KV store');
      }
    }
  }

  private async loadTokens(): Promise<number[] | null> {
    const path = this.options.tokensFilePath;
    if (path === undefined || path === '') return null;
    try {
      return await loadTokensFile(path);
    } catch (err) {
      this.logger.warn({ err, path }, 'error loading tokens from file');
      return null;
    }
  }

  private async saveTokens(): Promise<void> {
    const path = this.options.tokensFilePath;
    if (path === undefined || path === '' || this.currentTokens.length === 0) return;
    try {
      await saveTokensFile(path, this.currentTokens);
    } catch (err) {
      this.logger.warn({ err, path }, 'error storing tokens to disk');
    }
  }

  /** dskit's initRing. */
  private async register(fromFile: readonly number[] | null): Promise<void> {
    const { numTokens } = this.options;
    await this.update((desc, now) => {
      const existing = desc.instances[this.options.id];
      if (!existing) {
        if (fromFile !== null && fromFile.length > 0) {
          this.logger.info({ num_tokens: fromFile.length }, 'adding tokens from file');
          const state = fromFile.length >= numTokens ? 'ACTIVE' : 'PENDING';
          return { state, tokens: fromFile, registeredMs: now };
        }
        this.logger.info(
          { ring: this.options.key },
          'instance not found in ring, adding with no tokens',
        );
        return { state: 'PENDING', tokens: [], registeredMs: now };
      }
      this.logger.info(
        { state: existing.state, tokens: existing.tokens.length, ring: this.options.key },
        'existing instance found in ring',
      );
      const registeredMs = existing.registeredMs;
      // It crashed while joining: start the join over.
      if (existing.state === 'JOINING')
        return { state: 'PENDING', tokens: existing.tokens, registeredMs };
      // It left without unregistering (or died leaving): it is back.
      if (existing.state === 'LEAVING') {
        const tokens = this.resizeTokens(existing.tokens, allTokens(desc));
        return { state: 'ACTIVE', tokens, registeredMs };
      }
      return { state: existing.state, tokens: existing.tokens, registeredMs };
    });
    await this.saveTokens();
  }

  /** Takes the missing tokens (none of the ring's) and moves to `state` (dskit's autoJoin). */
  private async join(state: InstanceState): Promise<void> {
    await this.update((desc) => {
      const mine = desc.instances[this.options.id]?.tokens ?? this.currentTokens;
      const missing = Math.max(this.options.numTokens - mine.length, 0);
      const added = generateTokens(missing, allTokens(desc), this.options.random);
      const tokens = [...mine, ...added].sort((a, b) => a - b);
      return { state, tokens, registeredMs: this.registeredMs };
    });
    this.logger.info(
      { state, num_tokens: this.currentTokens.length, ring: this.options.key },
      'joined the ring',
    );
    await this.saveTokens();
  }

  /** Writes this instance's entry with a fresh heartbeat (dskit's updateConsul). */
  private heartbeat(): Promise<void> {
    return this.update((desc, now) => {
      const existing = desc.instances[this.options.id];
      if (!existing) {
        // The KV store lost it (reset, or forgotten while alive): register again, as new.
        this.logger.info(
          { ring: this.options.key },
          'instance is missing in the ring, registering it again',
        );
        return { state: this.currentState, tokens: this.currentTokens, registeredMs: now };
      }
      return { state: this.currentState, tokens: existing.tokens, registeredMs: this.registeredMs };
    }, true);
  }

  /** `desc` without the other members unhealthy for longer than `autoForgetUnhealthyAfterMs`. */
  private forgetUnhealthy(desc: RingDesc, now: number): RingDesc {
    const after = this.options.autoForgetUnhealthyAfterMs ?? 0;
    if (after <= 0) return desc;
    let out = desc;
    for (const [id, instance] of Object.entries(desc.instances)) {
      if (id === this.options.id || now - instance.heartbeatMs <= after) continue;
      this.logger.warn(
        { ring: this.options.key, instance: id, last_heartbeat: instance.heartbeatMs },
        'auto-forgetting instance from the ring because it is unhealthy for a long time',
      );
      out = withoutInstance(out, id);
    }
    return out;
  }

  private heartbeatTick(): void {
    if (this.heartbeatInFlight) return;
    this.heartbeatInFlight = true;
    this.serial(() => this.heartbeat())
      .catch((err: unknown) =>
        this.logger.warn(
          { err, ring: this.options.key },
          'failed to write to the KV store, will retry',
        ),
      )
      .finally(() => {
        this.heartbeatInFlight = false;
      });
  }

  private async unregister(): Promise<void> {
    await this.options.kv.cas(this.options.key, (current) => {
      const desc = decodeRing(current);
      this.lastDesc = withoutInstance(desc, this.options.id);
      return Object.hasOwn(desc.instances, this.options.id) ? encodeRing(this.lastDesc) : null;
    });
  }

  /**
   * One CAS of this instance's entry: `decide` sees the ring as stored; what the last (stored)
   * round decided becomes this instance's state.
   */
  private async update(
    decide: (desc: RingDesc, nowMs: number) => Entry,
    forgetUnhealthy = false,
  ): Promise<void> {
    let decided: Entry | undefined;
    let written: RingDesc = EMPTY_RING;
    await this.options.kv.cas(this.options.key, (current) => {
      let desc = decodeRing(current);
      const now = this.now();
      decided = decide(desc, now);
      if (forgetUnhealthy) desc = this.forgetUnhealthy(desc, now);
      written = withInstance(desc, this.entry(decided, now));
      return encodeRing(written);
    });
    if (decided === undefined) return;
    this.currentState = decided.state;
    this.currentTokens = decided.tokens;
    this.registeredMs = decided.registeredMs;
    this.lastDesc = written;
  }

  private entry({ state, tokens, registeredMs }: Entry, now: number): InstanceDesc {
    return {
      id: this.options.id,
      addr: this.options.addr,
      zone: this.options.zone ?? '',
      state,
      tokens: [...tokens],
      heartbeatMs: now,
      registeredMs,
    };
  }

  /** `tokens` grown or shrunk to numTokens (a restart with a changed `num_tokens`). */
  private resizeTokens(tokens: readonly number[], taken: ReadonlySet<number>): number[] {
    const { numTokens } = this.options;
    if (tokens.length < numTokens) {
      const added = generateTokens(numTokens - tokens.length, taken, this.options.random);
      return [...tokens, ...added].sort((a, b) => a - b);
    }
    // A random subset, not the smallest tokens, to keep the share of the ring even.
    const shuffled = [...tokens];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
    }
    return shuffled.slice(0, numTokens).sort((a, b) => a - b);
  }

  private readinessProblem(): string | null {
    if (this.currentTokens.length === 0) return 'this instance owns no tokens';
    const now = this.now();
    const timeout = this.options.heartbeatTimeoutMs;
    if (this.options.readinessCheckRingHealth !== false) {
      return ringNotReady(this.lastDesc, now, timeout);
    }
    const mine = this.lastDesc.instances[this.options.id];
    if (!mine) return `instance ${this.options.id} not found in the ring`;
    return instanceNotReady(mine, now, timeout);
  }

  /** Runs `fn` after every change queued before it; a failure does not block later ones. */
  private serial(fn: () => Promise<void>): Promise<void> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
