import type { Config } from '@logsvc/config';
import { LocalRuleStore, ObjectRuleStore, type RuleStore } from '@logsvc/ruler';
import { FilesystemObjectClient, S3ObjectClient } from '@logsvc/storage';

export const RULE_STORE = Symbol('logsvc.ruleStore');

/** `ruler.storage`: Loki's `local` directory (writable here) or the object store layout. */
export function createRuleStore(config: Config): RuleStore {
  const s = config.ruler.storage;
  switch (s.type) {
    case 'local':
      return new LocalRuleStore(new FilesystemObjectClient(s.local.directory));
    case 'filesystem':
      return new ObjectRuleStore(new FilesystemObjectClient(s.filesystem.directory));
    case 's3':
      return new ObjectRuleStore(new S3ObjectClient(s.s3));
  }
}
