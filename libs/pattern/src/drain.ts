import { DEFAULT_DRAIN_CONFIG, MAX_TOKENS, MIN_TOKENS, type DrainConfig } from './drain-config';
import { EvictionLimiter } from './eviction-limiter';
import { LogCluster } from './log-cluster';
import type { LogFormat } from './log-format';
import { LruMap } from './lru';
import { JsonTokenizer } from './tokenizers/json';
import { LINE_TOO_LONG, PARAM, type LineTokenizer } from './tokenizers/line-tokenizer';
import { LogfmtTokenizer } from './tokenizers/logfmt';
import { deduplicatePlaceholders } from './tokenizers/placeholders';
import { PunctuationTokenizer } from './tokenizers/punctuation';

interface TreeNode {
  readonly children: Map<string, TreeNode>;
  clusterIds: number[];
}

const newNode = (): TreeNode => ({ children: new Map(), clusterIds: [] });

const HAS_NUMBER = /\p{N}/u;

export function tokenizerFor(format: LogFormat, maxLineLength: number): LineTokenizer {
  switch (format) {
    case 'json':
      return new JsonTokenizer(maxLineLength);
    case 'logfmt':
      return new LogfmtTokenizer(maxLineLength);
    default:
      return new PunctuationTokenizer(maxLineLength);
  }
}

/** Why Loki's `patterns_dropped_total` says a line was not used for patterns. */
export type SkipReason = typeof LINE_TOO_LONG | 'too_few_tokens' | 'too_many_tokens';

/** What a Drain reports, for Loki's pattern ingester metrics (pkg/pattern/metrics.go). */
export interface DrainCounters {
  /** A new pattern (`patterns_detected_total`). */
  detected(): void;
  /**
   * A pattern was dropped (`patterns_evicted_total`): `pruned` false when the stream had
   * `maxClusters` others more recently used, true when its samples had all expired.
   */
  evicted(pruned: boolean): void;
  /** A line was not used (`patterns_dropped_total`); malformed lines are not counted. */
  skipped(reason: SkipReason): void;
}

export const NO_DRAIN_COUNTERS: DrainCounters = {
  detected: () => {},
  evicted: () => {},
  skipped: () => {},
};

/**
 * Loki's Drain (pkg/pattern/drain): clusters one stream's lines into patterns. A line's tokens
 * lead through a prefix tree (by token count, then its first tokens, with `<_>` children for
 * tokens holding numbers or beyond `maxChildren`) to candidate clusters; it joins the most
 * similar one when at least `simTh` of the tokens are equal, turning the differing tokens into
 * `<_>`, or starts a new cluster. At most `maxClusters` clusters are kept, least recently used
 * evicted first.
 */
export class Drain {
  private readonly root = newNode();
  private readonly clusters: LruMap<number, LogCluster>;
  private readonly limiter: EvictionLimiter;
  private readonly tokenizer: LineTokenizer;
  private readonly maxNodeDepth: number;
  private nextId = 0;
  private pruning = false;
  private readonly stringer = (tokens: readonly string[], spaces: number[] | null) =>
    deduplicatePlaceholders(this.tokenizer.join(tokens, spaces));

  constructor(
    format: LogFormat,
    private readonly config: DrainConfig = DEFAULT_DRAIN_CONFIG,
    private readonly counters: DrainCounters = NO_DRAIN_COUNTERS,
    now: () => number = Date.now,
  ) {
    if (config.logClusterDepth < 3) throw new Error('depth argument must be at least 3');
    this.maxNodeDepth = config.logClusterDepth - 2;
    this.tokenizer = tokenizerFor(format, config.maxAllowedLineLength);
    this.limiter = new EvictionLimiter(config.maxEvictionRatio, now);
    this.clusters = new LruMap(config.maxClusters === 0 ? Infinity : config.maxClusters, () => {
      this.counters.evicted(this.pruning);
      if (!this.pruning) this.limiter.evict();
    });
  }

  /** The clusters, least recently used first. */
  allClusters(): LogCluster[] {
    return this.clusters.values();
  }

  get clusterCount(): number {
    return this.clusters.size;
  }

  /** Counts `line` (at `tsMs`) in its cluster; returns it, or undefined when not used. */
  train(line: Buffer, tsMs: number): LogCluster | undefined {
    if (!this.limiter.allow()) return undefined;
    const tokenized = this.tokenizer.tokenize(line);
    if (tokenized === LINE_TOO_LONG) {
      this.counters.skipped(LINE_TOO_LONG);
      return undefined;
    }
    if (tokenized === null) return undefined;
    const { tokens, spacesAfter } = tokenized;
    if (tokens.length < MIN_TOKENS) {
      this.counters.skipped('too_few_tokens');
      return undefined;
    }
    if (tokens.length > MAX_TOKENS) {
      this.counters.skipped('too_many_tokens');
      return undefined;
    }
    let cluster = this.treeSearch(tokens);
    if (cluster === undefined) {
      cluster = new LogCluster(++this.nextId, tokens, spacesAfter, this.stringer);
      cluster.count(tsMs);
      this.clusters.set(cluster.id, cluster);
      this.addToTree(cluster);
      this.counters.detected();
    } else {
      mergeTemplate(cluster.tokens, tokens);
      cluster.count(tsMs);
      this.clusters.get(cluster.id);
    }
    return cluster;
  }

  /** Removes a cluster whose samples have all expired (counted as pruned, not evicted). */
  delete(cluster: LogCluster): void {
    this.pruning = true;
    this.clusters.remove(cluster.id);
    this.pruning = false;
  }

  /** Drops tree branches that lead to no cluster any more. */
  pruneTree(): void {
    this.pruneNode(this.root);
  }

  private pruneNode(node: TreeNode): number {
    for (const [key, child] of node.children) {
      if (this.pruneNode(child) === 0) node.children.delete(key);
    }
    node.clusterIds = node.clusterIds.filter((id) => this.clusters.get(id) !== undefined);
    return node.children.size + node.clusterIds.length;
  }

  private treeSearch(tokens: readonly string[]): LogCluster | undefined {
    const count = tokens.length;
    let node = this.root.children.get(String(count));
    if (node === undefined) return undefined;
    let depth = 1;
    for (const token of tokens) {
      if (depth >= this.maxNodeDepth || depth === count) break;
      const next: TreeNode | undefined = node.children.get(token) ?? node.children.get(PARAM);
      if (next === undefined) return undefined;
      node = next;
      depth++;
    }
    return this.fastMatch(node.clusterIds, tokens);
  }

  private fastMatch(ids: readonly number[], tokens: readonly string[]): LogCluster | undefined {
    let best: LogCluster | undefined;
    let maxSim = -1;
    let maxParams = -1;
    for (const id of ids) {
      const cluster = this.clusters.get(id);
      if (cluster === undefined) continue;
      const [sim, params] = seqDistance(cluster.tokens, tokens);
      if (params < 0) continue;
      if (sim > maxSim || (sim === maxSim && params > maxParams)) {
        maxSim = sim;
        maxParams = params;
        best = cluster;
      }
    }
    return maxSim >= this.config.simTh ? best : undefined;
  }

  private addToTree(cluster: LogCluster): void {
    const count = cluster.tokens.length;
    const key = String(count);
    let node = this.root.children.get(key);
    if (node === undefined) {
      node = newNode();
      this.root.children.set(key, node);
    }
    let depth = 1;
    for (const token of cluster.tokens) {
      if (depth >= this.maxNodeDepth || depth >= count) {
        // Drop the ids of evicted clusters before adding this one.
        node.clusterIds = node.clusterIds.filter((id) => this.clusters.get(id) !== undefined);
        node.clusterIds.push(cluster.id);
        break;
      }
      node = this.childFor(node, token);
      depth++;
    }
  }

  /** The child a new cluster's token goes to, created when there is room (Loki's rules). */
  private childFor(node: TreeNode, token: string): TreeNode {
    const existing = node.children.get(token);
    if (existing !== undefined) return existing;
    const param = node.children.get(PARAM);
    const max = this.config.maxChildren;
    if (HAS_NUMBER.test(token)) return param ?? this.addChild(node, PARAM);
    if (param !== undefined) {
      return node.children.size < max ? this.addChild(node, token) : param;
    }
    if (node.children.size + 1 < max) return this.addChild(node, token);
    if (node.children.size + 1 === max) return this.addChild(node, PARAM);
    return node.children.get(PARAM) ?? this.addChild(node, PARAM);
  }

  private addChild(node: TreeNode, key: string): TreeNode {
    const child = newNode();
    node.children.set(key, child);
    return child;
  }
}

/** Share of equal tokens (params not counted), and the template's params; -1 for no match. */
function seqDistance(template: readonly string[], tokens: readonly string[]): [number, number] {
  let equal = 0;
  let params = 0;
  for (let i = 0; i < template.length; i++) {
    const t = template[i];
    // Tokens marked with a leading NUL must match exactly.
    if (t.length > 0 && t.charCodeAt(0) === 0 && t !== tokens[i]) return [0, -1];
    if (t === PARAM) params++;
    else if (t === tokens[i]) equal++;
  }
  return [equal / template.length, params];
}

/** Turns the template's tokens that differ from the line's into `<_>`. */
function mergeTemplate(template: string[], tokens: readonly string[]): void {
  for (let i = 0; i < tokens.length; i++) if (tokens[i] !== template[i]) template[i] = PARAM;
}
