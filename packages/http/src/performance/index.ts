/**
 * The measured performance tricks of the HTTP layer, one file each; `pnpm bench tricks` measures
 * each on against off in one run (the figures are in docs/performance.md). A trick that stops
 * showing its worth goes. `createHttpServer` always builds on the app's prototypes (its "off"
 * side is node's stock server, `app.listen`); the middleware tricks switch off through
 * `PerformanceTricks`.
 */
export { serverWithAppPrototypes } from './app-prototypes';
export { recordedHeaders } from './recorded-headers';
export { directJsonBodies } from './direct-json-bodies';

/** Which middleware tricks are on; all are unless a benchmark turns one off. */
export interface PerformanceTricks {
  /** helmet's headers worked out once (`recordedHeaders`). */
  recordedSecurityHeaders: boolean;
  /** Plain JSON bodies read without body-parser's general path (`directJsonBodies`). */
  directJsonBodies: boolean;
}

export const ALL_TRICKS: Readonly<PerformanceTricks> = Object.freeze({
  recordedSecurityHeaders: true,
  directJsonBodies: true,
});

/** The tricks with some switched off (a benchmark's "off" side). */
export const tricksWith = (changes: Partial<PerformanceTricks> = {}): PerformanceTricks => ({
  ...ALL_TRICKS,
  ...changes,
});
