export { createLogger, redact, type Logger } from './logger';
export { requestId } from './request-context';
export { createHttpMetrics, scrapedMetric, type HttpMetrics, type HttpMetricsOptions } from './metrics';
export { createHttpApp, type HttpAppOptions, type Readiness, type DependencyStatus } from './http-app';
export { createHttpServer, listenHttp } from './http-server';
export { securityHeaders } from './security-headers';
export { tricksWith, type PerformanceTricks } from './performance';
