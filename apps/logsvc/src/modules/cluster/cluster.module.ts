import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { GrpcServerService } from './grpc-server.service';
import { InstanceDirectory } from './instance-directory';
import { RingPagesController } from './ring-pages.controller';
import { RingsService } from './rings.service';

/**
 * What lets components find each other, loaded for every target: the rings (KV store and
 * watchers) and their status pages, the gRPC server shell that serves what the component
 * modules hand it (`@GrpcHandlers()`), and this process's report for the admin UI.
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  controllers: [RingPagesController],
  providers: [RingsService, InstanceDirectory, GrpcServerService],
  exports: [RingsService, InstanceDirectory, GrpcServerService],
})
export class ClusterModule {}
