import { LogsvcError } from '@logsvc/errors';

// Loki's texts (pkg/ruler/base/api.go, pkg/ruler/rulestore/store.go).
export const ERR_BAD_RULE_GROUP = 'unable to decoded rule group';
export const ERR_NO_RULE_GROUPS = 'no rule groups found';
export const ERR_GROUP_NOT_FOUND = 'group does not exist';
export const ERR_NAMESPACE_NOT_FOUND = 'group namespace does not exist';

/** A rule group body that does not decode, or decodes to an invalid group: 400. */
export class RuleGroupError extends LogsvcError {
  constructor(message: string) {
    super('bad_request', message);
    this.name = 'RuleGroupError';
  }
}

/** The group or namespace asked for is not stored: 404. */
export class RuleNotFoundError extends LogsvcError {
  constructor(message: string) {
    super('not_found', message);
    this.name = 'RuleNotFoundError';
  }
}
