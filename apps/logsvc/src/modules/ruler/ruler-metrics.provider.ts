import type { Provider } from '@nestjs/common';
import { HttpMetrics } from '../../http/http-metrics';
import { createRulerMetrics } from './ruler-metrics';

export const RULER_METRICS = Symbol('logsvc.rulerMetrics');

export const rulerMetricsProvider: Provider = {
  provide: RULER_METRICS,
  useFactory: (http: HttpMetrics) => createRulerMetrics(http.registry),
  inject: [HttpMetrics],
};
