/**
 * Budgets for one template execution (one line of `line_format`, one label of `label_format`).
 * Go's text/template has none: in Loki one careless template (`repeat 100000000 "ab"`,
 * `printf "%099999999d"`, `range 1000000000`) can take the heap or a core for minutes. Here
 * such a template fails the query with a 400 naming the budget, before it allocates.
 */
import { LogsvcError } from '@logsvc/errors';

/** Characters one execution may produce, and the largest string any function may return. */
export const TEMPLATE_MAX_OUTPUT_CHARS = 1 << 20;
/** Function calls plus `range` iterations one execution may run. */
export const TEMPLATE_MAX_STEPS = 100_000;
/** Nested `( )`, `if`, `range`, `with` a template may have (Go allows 10,000 parentheses). */
export const TEMPLATE_MAX_NESTING = 1_000;
/** `{{template}}` calls one execution may nest (Go allows 100,000). */
export const TEMPLATE_MAX_CALL_DEPTH = 1_000;

export function outputBudgetExceeded(): LogsvcError {
  return new LogsvcError(
    'bad_request',
    `template output exceeds the budget of ${TEMPLATE_MAX_OUTPUT_CHARS} characters per execution`,
  );
}

export function stepBudgetExceeded(): LogsvcError {
  return new LogsvcError(
    'bad_request',
    `template execution exceeds the budget of ${TEMPLATE_MAX_STEPS} steps (function calls and range iterations) per execution`,
  );
}

export function jsonNestingExceeded(): LogsvcError {
  return new LogsvcError(
    'bad_request',
    `fromJson input nests arrays and objects deeper than the budget of ${TEMPLATE_MAX_NESTING} levels`,
  );
}

/** Throws before a string of `length` characters is built if it would break the budget. */
export function checkOutputSize(length: number): void {
  if (length > TEMPLATE_MAX_OUTPUT_CHARS) throw outputBudgetExceeded();
}

/**
 * What an execution that overflowed V8 (a call stack too deep for nested data such as a deep
 * `fromJson` array, or a string over V8's maximum length) is reported as: a 400, never a 500.
 */
export function fromEngineLimit(err: RangeError): LogsvcError {
  return new LogsvcError(
    'bad_request',
    `template execution exceeds the engine's limits (${err.message}); simplify the template or its input`,
  );
}
