import { FixedWindowCounter } from '@platform/limits';

/** Failed key checks per client address (keys.ts): an address over the limit gets 429 without a lookup. */
export class FailedKeyChecks extends FixedWindowCounter {}
