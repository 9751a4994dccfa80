import { Module } from '@nestjs/common';
import { DeleteProxyController } from './delete-proxy.controller';

/** Loaded when `-target` has no compactor and `common.compactor_address` names one. */
@Module({ controllers: [DeleteProxyController] })
export class DeleteProxyModule {}
