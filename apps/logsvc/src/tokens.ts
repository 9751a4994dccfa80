// Injection tokens for values that are not classes.

/** The loaded `Config` (from @logsvc/config). */
export const CONFIG = Symbol('logsvc.config');
/** The per-tenant `Overrides` (from @logsvc/config). */
export const OVERRIDES = Symbol('logsvc.overrides');
/** The files this process was started from (`StartupFiles`). */
export const STARTUP_FILES = Symbol('logsvc.startupFiles');
/** The process-wide pino logger. */
export const LOGGER = Symbol('logsvc.logger');
/** The components `-target` selected for this process (`Component[]`). */
export const COMPONENTS = Symbol('logsvc.components');
/** How this process reaches ingesters (`IngesterClient`): in-process, or over the ring. */
export const INGESTER_CLIENT = Symbol('logsvc.ingesterClient');
/**
 * What decodes the store's chunks on the main thread (`ChunkDecoder` from @logsvc/querier), with
 * its block cache of `querier.block_cache_mb`: one for every Querier of the process.
 */
export const CHUNK_DECODER = Symbol('logsvc.chunkDecoder');
/** The delete request records on the object store (`DeleteRequestsStore`). */
export const DELETE_REQUESTS = Symbol('logsvc.deleteRequests');
/** Where this process reads the index (`IndexReader`): the store, or index gateways. */
export const INDEX_READER = Symbol('logsvc.indexReader');

/** The query frontend's queue (`JobQueue` from @logsvc/frontend): jobs to querier workers. */
export const JOB_QUEUE = Symbol('logsvc.jobQueue');

/**
 * This process's pattern ingester, reached in-process (`PatternIngesterClient`): provided by the
 * pattern ingester module where it runs, absent elsewhere.
 */
export const LOCAL_PATTERN_INGESTER = Symbol('logsvc.localPatternIngester');
