export { createLogger, redact, type Logger } from './logger';
export { requestId } from './request-context';
export { createHttpMetrics, scrapedMetric, type HttpMetrics, type HttpMetricsOptions } from './metrics';
export { createHttpApp, type HttpAppOptions, type Readiness, type DependencyStatus, type TrustProxy } from './http-app';
export { createHttpServer, listenHttp } from './http-server';
export { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './connection-limits';
export { securityHeaders } from './security-headers';
export { boundedJsonBody, boundedRawBody } from './body-readers';
export { tricksWith, type PerformanceTricks } from './performance';
