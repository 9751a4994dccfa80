import { Module } from '@nestjs/common';
import { UiService } from './ui.service';

/** Loaded when `-target` includes ui. Add this component's controllers here. */
@Module({ providers: [UiService] })
export class UiModule {}
