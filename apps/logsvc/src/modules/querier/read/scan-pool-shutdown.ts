import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { closeSharedScanPool } from './scan-pool';

/** Ends the shared chunk scan pool's worker threads when the querier module shuts down. */
@Injectable()
export class ScanPoolShutdown implements OnModuleDestroy {
  onModuleDestroy(): Promise<void> {
    return closeSharedScanPool();
  }
}
