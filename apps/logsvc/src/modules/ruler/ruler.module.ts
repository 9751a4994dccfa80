import { Module } from '@nestjs/common';
import { RulerService } from './ruler.service';

/** Loaded when `-target` includes ruler. Add this component's controllers here. */
@Module({ providers: [RulerService] })
export class RulerModule {}
