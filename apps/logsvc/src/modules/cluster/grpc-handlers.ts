import type { GrpcService, RpcLogger } from '@logsvc/rpc';
import { DiscoveryService } from '@nestjs/core';

/**
 * What a component serves on this process's gRPC server. Each component module provides one
 * class marked `@GrpcHandlers()` with this method; GrpcServerService collects them all, so the
 * target's modules decide what the process serves. `[]`: nothing here (e.g. no shared ring).
 */
export interface GrpcHandlerSource {
  grpcServices(logger: RpcLogger): readonly GrpcService[];
}

/** Marks a provider as a GrpcHandlerSource (Nest's discoverable decorator: a multi-provider). */
export const GrpcHandlers = DiscoveryService.createDecorator<void>();
