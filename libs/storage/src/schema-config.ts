import { SchemaConfigError } from './errors';

const DAY_MS = 24 * 60 * 60 * 1000;

/** One entry of Loki's `schema_config.configs`, with the fields this library reads. */
export interface PeriodConfig {
  /** First day (UTC) the entry applies to, `YYYY-MM-DD`. */
  readonly from: string;
  /** Name of the object store holding this period's chunks and index (e.g. `filesystem`, `s3`). */
  readonly object_store: string;
  /** Schema version label (e.g. `v13`); recorded, the key layout does not depend on it. */
  readonly schema: string;
  /**
   * The chunk format this period's flushes write (`blocks`, the default, or `columnar`). The
   * store keeps chunk bytes as given: the writer encodes them (see `ChunkStore.chunkFormatAt`).
   */
  readonly chunk_format?: string;
  readonly index: {
    /** Table name prefix, e.g. `index_`. */
    readonly prefix: string;
    /** Table period in milliseconds (Loki requires 24h). */
    readonly period: number;
  };
}

export interface SchemaConfig {
  readonly configs: readonly PeriodConfig[];
}

/** One index table: a period of one schema entry. */
export interface IndexTableRef {
  /** `<prefix><number>`, e.g. `index_19800`. */
  readonly name: string;
  /** floor(time / period). For 24h periods: days since the Unix epoch. */
  readonly number: number;
  readonly objectStore: string;
  readonly periodMs: number;
}

interface Period {
  readonly config: PeriodConfig;
  readonly fromMs: number;
}

const PREFIX_CHARS = /^[A-Za-z0-9_.-]*$/;

function parseDay(from: string, i: number): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(from ?? '');
  const ms = m ? Date.UTC(+m[1], +m[2] - 1, +m[3]) : NaN;
  if (!m || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== from) {
    throw new SchemaConfigError(
      `schema_config.configs[${i}].from: ${JSON.stringify(from)} is not a date (YYYY-MM-DD)`,
    );
  }
  return ms;
}

/** Chooses the schema entry and index table for a time. */
export class SchemaPeriods {
  private readonly periods: readonly Period[];

  constructor(config: SchemaConfig) {
    const configs = config?.configs ?? [];
    if (configs.length === 0)
      throw new SchemaConfigError('schema_config.configs: at least one entry is required');
    this.periods = configs.map((c, i) => validatePeriod(c, i));
    for (let i = 1; i < this.periods.length; i++) {
      if (this.periods[i].fromMs <= this.periods[i - 1].fromMs) {
        throw new SchemaConfigError(
          `schema_config.configs[${i}].from: ${this.periods[i].config.from} must be after ${this.periods[i - 1].config.from}`,
        );
      }
    }
  }

  /** The entry in force at `timeMs`; times before the first entry use the first. */
  periodAt(timeMs: number): PeriodConfig {
    return this.periods[this.periodIndexAt(timeMs)].config;
  }

  tableAt(timeMs: number): IndexTableRef {
    return tableRef(this.periods[this.periodIndexAt(timeMs)].config, timeMs);
  }

  /** Every table holding data of [fromMs, throughMs] (both inclusive), in time order. */
  tablesInRange(fromMs: number, throughMs: number): IndexTableRef[] {
    if (throughMs < fromMs) return [];
    const out: IndexTableRef[] = [];
    const seen = new Set<string>();
    const first = this.periodIndexAt(fromMs);
    const last = this.periodIndexAt(throughMs);
    for (let p = first; p <= last; p++) {
      const { config } = this.periods[p];
      const start = p === first ? fromMs : this.periods[p].fromMs;
      const end = p === last ? throughMs : this.periods[p + 1].fromMs - 1;
      const period = config.index.period;
      for (let n = Math.floor(start / period); n <= Math.floor(end / period); n++) {
        const ref = tableRef(config, n * period);
        if (!seen.has(ref.name)) {
          seen.add(ref.name);
          out.push(ref);
        }
      }
    }
    return out;
  }

  /** Whether `name` is a table name some entry could produce. */
  isTableName(name: string): boolean {
    return this.periods.some(({ config }) => {
      const { prefix } = config.index;
      return name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length));
    });
  }

  /** The entry whose prefix produced `name`, for its object store. */
  tableByName(name: string): IndexTableRef | undefined {
    for (let p = this.periods.length - 1; p >= 0; p--) {
      const { config } = this.periods[p];
      const rest = name.slice(config.index.prefix.length);
      if (name.startsWith(config.index.prefix) && /^\d+$/.test(rest)) {
        return tableRef(config, Number(rest) * config.index.period);
      }
    }
    return undefined;
  }

  objectStores(): string[] {
    return [...new Set(this.periods.map((p) => p.config.object_store))];
  }

  private periodIndexAt(timeMs: number): number {
    let i = 0;
    while (i + 1 < this.periods.length && this.periods[i + 1].fromMs <= timeMs) i++;
    return i;
  }
}

function tableRef(config: PeriodConfig, timeMs: number): IndexTableRef {
  const number = Math.floor(timeMs / config.index.period);
  return {
    name: `${config.index.prefix}${number}`,
    number,
    objectStore: config.object_store,
    periodMs: config.index.period,
  };
}

function validatePeriod(c: PeriodConfig, i: number): Period {
  const where = `schema_config.configs[${i}]`;
  const fromMs = parseDay(c.from, i);
  if (!c.object_store) throw new SchemaConfigError(`${where}.object_store is required`);
  if (!c.schema) throw new SchemaConfigError(`${where}.schema is required`);
  const prefix = c.index?.prefix ?? '';
  const period = c.index?.period;
  if (!PREFIX_CHARS.test(prefix) || prefix === '.' || prefix === '..') {
    throw new SchemaConfigError(
      `${where}.index.prefix: ${JSON.stringify(prefix)} may only use A-Z a-z 0-9 _ . -`,
    );
  }
  if (!Number.isSafeInteger(period) || period <= 0 || DAY_MS % period !== 0) {
    throw new SchemaConfigError(
      `${where}.index.period: must be a whole fraction of 24h in milliseconds (24h = ${DAY_MS})`,
    );
  }
  return { config: c, fromMs };
}
