import type { GroupDeps } from '../group';
import { NO_METRICS } from '../metrics';

/**
 * What a test Group runs with: queries answer nothing, alerts and samples go nowhere, the
 * clock stands at 0, no external labels or URL; `overrides` replace any of it.
 */
export function testGroupDeps(overrides: Partial<GroupDeps> = {}): GroupDeps {
  return {
    query: async () => [],
    notify: () => undefined,
    append: async () => undefined,
    metrics: NO_METRICS,
    now: () => 0,
    resendDelayMs: 60_000,
    alertContext: { externalLabels: {}, externalURL: '' },
    ...overrides,
  };
}
