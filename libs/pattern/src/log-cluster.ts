import { SampleChunks } from './samples';

/** One pattern of a stream: its template tokens and its line counts over time. */
export class LogCluster {
  readonly samples = new SampleChunks();
  /** Lines counted in the samples kept. */
  size = 0;

  constructor(
    readonly id: number,
    /** The template: the first line's tokens, with `<_>` where later lines differed. */
    readonly tokens: string[],
    /** The first line's spacing (punctuation tokenizer). */
    readonly spacesAfter: number[] | null,
    private readonly stringer: (tokens: readonly string[], spaces: number[] | null) => string,
  ) {}

  /** The pattern text. */
  pattern(): string {
    return this.stringer(this.tokens, this.spacesAfter);
  }

  count(tsMs: number): void {
    this.size++;
    this.samples.add(tsMs);
  }

  prune(nowMs: number, olderThanMs: number): void {
    this.samples.prune(nowMs, olderThanMs);
    this.size = this.samples.size();
  }
}
