/** What the other features do with an email's login failures (they never reach into the repository). */
export { clearLoginFailures, findLock, recordLoginFailure } from './login-failures.repository';
