export { createTestDatabase } from './test-database';
export {
  createTestService,
  createTestProject,
  keyHeaders,
  testJwtKeys,
  type TestService,
  type TestProject,
  type TestServiceOptions,
} from './test-service';
export { assertMatchesOpenApi } from './openapi-check';
export { assertRequestMatchesOpenApi, type SentRequest } from './openapi-request-check';
export {
  apiClient,
  type ApiCall,
  type ApiCallOptions,
  type ApiClient,
  type ApiClientOptions,
  type HttpMethod,
} from './api-client';
export {
  assertOperationCoverage,
  coverageReports,
  documentedEntries,
  type CoverageExemption,
  type CoverageOptions,
  type CoverageReport,
} from './operation-coverage';
export { startHttpStub, sendJson, type HttpStub, type RecordedRequest, type StubHandler } from './http-stub';
export { waitFor } from './wait-for';
export { freePortBlock } from './free-ports';
export { requestFrom, type FromAddressRequest, type FromAddressResponse } from './from-address';
export { logLines, startWithLogLines } from './log-lines';
export { startTcpProxy, type TcpProxy } from './tcp-proxy';
export { browserAvailable, launchBrowser } from './browser';
export { webhookReceiver } from './webhook-receiver';
export { median, percentile } from './stats';
export { statementsDuring } from './statements';
export {
  erasureConsole,
  projectOutboxRows,
  projectRows,
  tableOwnership,
  type ErasureConsole,
  type TableOwnership,
} from './project-erasure';
export { describeProjectErasure, type ProjectErasureSuiteOptions } from './project-erasure.suite';
export { personalColumns } from './personal-columns';
export { describeUserErasure, type UserErasureSuiteOptions } from './user-erasure.suite';
export { memberToken, type MemberTokenOptions } from './member-token';
export { describeMemberTokens, type MemberRequest, type MemberTokenSuiteOptions } from './member-tokens.suite';
