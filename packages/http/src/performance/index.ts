/**
 * The measured performance tricks of the HTTP layer, one file each. Each can be switched off
 * (`PerformanceTricks`) so that `pnpm bench tricks` measures it on against off in one run;
 * the figures are in docs/performance.md. A trick that stops showing its worth goes.
 */
export { serverWithAppPrototypes } from './app-prototypes';
export { recordedHeaders } from './recorded-headers';

/** Which tricks are on; all are unless a benchmark turns one off. */
export interface PerformanceTricks {
  /** Requests and responses built on the app's prototypes (`serverWithAppPrototypes`). */
  appPrototypes: boolean;
  /** helmet's headers worked out once (`recordedHeaders`). */
  recordedSecurityHeaders: boolean;
}

export const ALL_TRICKS: Readonly<PerformanceTricks> = Object.freeze({
  appPrototypes: true,
  recordedSecurityHeaders: true,
});

/** The tricks with some switched off (a benchmark's "off" side). */
export const tricksWith = (changes: Partial<PerformanceTricks> = {}): PerformanceTricks => ({
  ...ALL_TRICKS,
  ...changes,
});
