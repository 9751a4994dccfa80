/** The text of a refused key's problem: why, and what to do instead. */
export function refusal(reason = 'logsvc does not have this setting', instead = 'leave it out') {
  return `not supported by logsvc: ${reason}; instead: ${instead}`;
}
