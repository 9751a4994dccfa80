import { LogsvcError } from '@logsvc/errors';
import type { RunQueryResult } from '@logsvc/logql';
import {
  JSON_CONTENT_TYPE,
  type QueryJob,
  type QueryJobAnswer,
  errorAnswer,
  jobParamReader,
  jobParamValues,
  queryResponseJson,
} from '@logsvc/query-codec';
import type { QueryRequest } from '../query-executor';
import type { ReadApi } from './read-api';

export interface QueryJobRunnerOptions {
  /** Runs a whole query on this querier (in its query worker threads when it can). */
  readonly runQuery: (request: QueryRequest) => Promise<RunQueryResult>;
  readonly read: ReadApi;
  /** Told of an unexpected failure (answered 500 `internal server error`). */
  readonly onError?: (err: unknown, job: QueryJob) => void;
}

/** Runs a frontend's job on this querier and answers it. */
export type QueryJobRunner = (
  tenant: string,
  job: QueryJob,
  signal: AbortSignal,
) => Promise<QueryJobAnswer>;

/**
 * A querier worker's jobs, run on the querier library directly: a sub-query as the frontend
 * made it, a read request parsed by the query codec as the HTTP route parses it. The answer is
 * what the querier's route would write: the codec's JSON, or the error's status and text
 * (Loki's: no newline after query-path errors, one after the others').
 */
export function queryJobRunner(options: QueryJobRunnerOptions): QueryJobRunner {
  return async (_tenant, job, signal) => {
    try {
      if (job.kind === 'sub_query') {
        const sub = job.query;
        const categorize = sub.categorizeLabels ?? false;
        const { result, stats } = await options.runQuery({
          ...sub,
          categorizeLabels: categorize,
          clientSignal: signal,
        });
        return {
          status: 200,
          contentType: JSON_CONTENT_TYPE,
          body: Buffer.from(queryResponseJson(result, stats, categorize)),
        };
      }
      const answer = await options.read.answer({
        kind: job.kind,
        tenants: job.tenants,
        read: jobParamReader(job.params),
        values: (name) => jobParamValues(job.params, name),
        name: job.name,
        legacy: job.legacy,
        signal,
      });
      return { status: 200, contentType: answer.contentType, body: Buffer.from(answer.body) };
    } catch (err) {
      if (err instanceof LogsvcError) {
        const newline = job.kind === 'patterns' ? '\n' : '';
        return errorAnswer(err.httpStatus, `${err.message}${newline}`);
      }
      options.onError?.(err, job);
      return errorAnswer(500, 'internal server error\n');
    }
  };
}
