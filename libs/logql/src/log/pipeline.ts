/**
 * The log pipeline: an ordered list of stages run on each entry of a stream. Built once per
 * query; `forStream` prepares the per-stream state (labels builder, result caches) once per
 * stream, so that processing an entry allocates nothing unless a stage changes something.
 */
import type { Labels } from '@logsvc/api';
import { LabelsBuilder, type LabelsResult } from './labels-builder';

/**
 * One pipeline step. Returns the (possibly new) line, or null to drop the entry. A stage that
 * changes the line returns a new Buffer and never writes into the one it was given.
 */
export interface Stage {
  process(timestampNs: bigint, line: Buffer, lbs: LabelsBuilder): Buffer | null;
  /**
   * `process` on the line `source[start, end)` for a stage that never changes the line: false
   * when it drops the entry. Lets a pipeline of such stages read a block's lines in place,
   * with no view per line.
   */
  processRange?(source: Buffer, start: number, end: number, lbs: LabelsBuilder): boolean;
}

/** What a stream pipeline yields for a kept entry. */
export interface PipelineResult {
  line: Buffer;
  labels: LabelsResult;
}

export class StreamPipeline {
  readonly builder: LabelsBuilder;
  /** Reused for every entry: copy the fields you keep before the next call. */
  private readonly result: PipelineResult;

  constructor(
    labels: Labels,
    private readonly stages: readonly Stage[],
    preserveParserErrors = false,
  ) {
    this.builder = new LabelsBuilder(labels);
    this.builder.preserveParserErrors = preserveParserErrors;
    this.result = { line: Buffer.alloc(0), labels: this.builder.labels() };
  }

  /**
   * Runs the stages on one entry. Returns null when a stage drops it. The returned object is
   * reused by the next call; its `line` and `labels` values themselves are immutable.
   */
  process(timestampNs: bigint, line: Buffer, structuredMetadata?: Labels): PipelineResult | null {
    const out = this.run(timestampNs, line, structuredMetadata);
    if (out === null) return null;
    this.result.line = out;
    this.result.labels = this.builder.labels();
    return this.result;
  }

  /**
   * Runs the stages on one entry and returns the final line (null when a stage drops it),
   * leaving the entry's labels in `builder` without building a label set.
   */
  run(timestampNs: bigint, line: Buffer, structuredMetadata?: Labels): Buffer | null {
    const lbs = this.builder;
    lbs.reset();
    if (structuredMetadata !== undefined && structuredMetadata.length > 0) {
      lbs.addStructuredMetadata(structuredMetadata);
    }
    const stages = this.stages;
    let current: Buffer | null = line;
    for (let i = 0; i < stages.length; i++) {
      current = stages[i].process(timestampNs, current, lbs);
      if (current === null) return null;
    }
    return current;
  }

  /**
   * `run` on the line `source[start, end)`: the stages that read lines in place
   * (`Stage.processRange`) get the range, the first that does not and those after it a view.
   * Returns the final line's length, or -1 when a stage drops the entry.
   */
  runRange(
    timestampNs: bigint,
    source: Buffer,
    start: number,
    end: number,
    structuredMetadata?: Labels,
  ): number {
    const lbs = this.builder;
    lbs.reset();
    if (structuredMetadata !== undefined && structuredMetadata.length > 0) {
      lbs.addStructuredMetadata(structuredMetadata);
    }
    const stages = this.stages;
    let i = 0;
    for (; i < stages.length; i++) {
      const stage = stages[i];
      if (stage.processRange === undefined) break;
      if (!stage.processRange(source, start, end, lbs)) return -1;
    }
    if (i === stages.length) return end - start;
    let current: Buffer | null = source.subarray(start, end);
    for (; i < stages.length; i++) {
      current = stages[i].process(timestampNs, current, lbs);
      if (current === null) return -1;
    }
    return current.length;
  }

  /** Whether the first stage reads lines in place (then `runRange` makes no view for it). */
  readsInPlace(): boolean {
    return this.stages.length > 0 && this.stages[0].processRange !== undefined;
  }

  /** The labels of the stream before any entry changes them. */
  baseLabels(): LabelsResult {
    this.builder.reset();
    return this.builder.labels();
  }
}

export class Pipeline {
  constructor(readonly stages: readonly Stage[]) {}

  /** Whether the pipeline has no stages (entries keep their line and stream labels). */
  isNoop(): boolean {
    return this.stages.length === 0;
  }

  forStream(labels: Labels): StreamPipeline {
    return new StreamPipeline(labels, this.stages);
  }
}
