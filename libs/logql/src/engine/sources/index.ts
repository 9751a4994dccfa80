/** Log sources the engine reads from: combinators and an in-memory source. */
export { combineSources } from './combine';
export { DedupingMergeCursor } from './merge-cursor';
export {
  MemorySource,
  type MemoryEntry,
  type MemorySourceOptions,
  type MemoryStream,
} from './memory-source';
export {
  multiTenantSource,
  selectTenants,
  ORIGINAL_TENANT_ID_LABEL,
  TENANT_ID_LABEL,
} from './multi-tenant';
