import { bool, int, section, str, stringList, flag } from '../fields';
import { lokiRingSection } from './ring';
import { awsSection, azureSection } from './storage';

/** `common`: settings shared by every component; a component's own setting wins over these. */
export const commonSection = section({
  // Loki has no default here; logsvc keeps its data under ./data unless told otherwise.
  path_prefix: flag('common.path-prefix', str('./data')),
  storage: section({
    // Fill storage_config.filesystem.directory and ruler.storage.local.directory when those
    // are not written (apply-common.ts).
    filesystem: section({
      chunks_directory: flag('common.storage.filesystem.chunk-directory', str('')),
      rules_directory: flag('common.storage.filesystem.rules-directory', str('')),
    }),
    // Copied into storage_config.aws / storage_config.azure where those are not written.
    s3: awsSection('common.storage.'),
    azure: azureSection('common.storage.'),
  }),
  // Stores each ring's tokens under path_prefix (`ingester.tokens`, ...).
  persist_tokens: bool(false),
  // 0: not set; the effective default is 1 for -target=all and 3 for any other target.
  replication_factor: int(0),
  ring: lokiRingSection('common.storage.'),
  instance_interface_names: stringList([]),
  instance_addr: str(''),
  compactor_address: flag('common.compactor-address', str('')),
  compactor_grpc_address: flag('common.compactor-grpc-address', str('')),
});

export type { KvStoreConfig } from './ring';
