import { Module } from '@nestjs/common';
import { QueryFrontendService } from './query-frontend.service';

/** Loaded when `-target` includes query-frontend. Add this component's controllers here. */
@Module({ providers: [QueryFrontendService] })
export class QueryFrontendModule {}
