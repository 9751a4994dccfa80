import { LogsvcError } from '@logsvc/errors';
import type { MetricExpr } from '@logsvc/logql';

/** Over `max_concurrent_tail_requests` (Loki's `checkTailRequestLimit`). */
export class TailLimitError extends LogsvcError {
  constructor(count: number, limit: number) {
    super(
      'bad_request',
      `max concurrent tail requests limit exceeded, count > limit (${count} > ${limit})`,
    );
  }
}

/** The tail ran for `querier.tail_max_duration`. */
export class TailMaxDurationError extends LogsvcError {
  constructor() {
    super('bad_request', 'reached tail max duration limit');
  }
}

const GO_TYPE: Record<MetricExpr['kind'], string> = {
  RangeAggregation: 'RangeAggregationExpr',
  VectorAggregation: 'VectorAggregationExpr',
  BinaryExpr: 'BinOpExpr',
  NumberLiteral: 'LiteralExpr',
  VectorExpr: 'VectorExpr',
  LabelReplaceExpr: 'LabelReplaceExpr',
};

/** A metric query given to tail: Loki's ingester refuses it with this text. */
export class TailMetricQueryError extends LogsvcError {
  constructor(kind: MetricExpr['kind']) {
    super(
      'bad_request',
      `unsupported query expression: want (LogSelectorExpr), got (*syntax.${GO_TYPE[kind]})`,
    );
  }
}
