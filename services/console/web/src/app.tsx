/** The shell: query cache, router (each page's code loads on demand), header and sign-out. */
import { QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/preact-query';
import { ErrorBoundary, lazy, LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { consoleServer } from './api';
import { useMe } from './session';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

const account = () => import('./pages/account');
const SignIn = lazy(() => account().then((m) => m.SignIn));
const SignUp = lazy(() => account().then((m) => m.SignUp));
const VerifyEmail = lazy(() => account().then((m) => m.VerifyEmail));
const ForgotPassword = lazy(() => account().then((m) => m.ForgotPassword));
const ResetPassword = lazy(() => account().then((m) => m.ResetPassword));
const AcceptInvitation = lazy(() => import('./pages/accept-invitation').then((m) => m.AcceptInvitation));
const DevInbox = lazy(() => import('./pages/dev-inbox').then((m) => m.DevInbox));
const Organisations = lazy(() => import('./pages/organisations').then((m) => m.Organisations));
const Organisation = lazy(() => import('./pages/organisation').then((m) => m.Organisation));
const Project = lazy(() => import('./pages/project').then((m) => m.Project));
const Users = lazy(() => import('./pages/users').then((m) => m.Users));
const Notifications = lazy(() => import('./pages/notifications').then((m) => m.Notifications));
const Billing = lazy(() => import('./pages/billing').then((m) => m.Billing));
const Mailer = lazy(() => import('./pages/mailer/mailer').then((m) => m.Mailer));
const Cms = lazy(() => import('./pages/cms/cms').then((m) => m.Cms));
const LlmSettings = lazy(() => import('./pages/llm/llm-settings').then((m) => m.LlmSettings));
const LlmUsage = lazy(() => import('./pages/llm/llm-usage').then((m) => m.LlmUsage));
const LlmLogs = lazy(() => import('./pages/llm/llm-logs').then((m) => m.LlmLogs));

function Header() {
  const me = useMe();
  const { route } = useLocation();
  const cache = useQueryClient();
  return (
    <header class="top">
      <a class="brand" href="/">
        Console
      </a>
      <nav aria-label="Main">
        <a href="/dev-inbox">Dev inbox</a>
        {me.data ? (
          <>
            <span class="who">{me.data.email}</span>
            <button
              type="button"
              onClick={async () => {
                await consoleServer('/api/session/sign-out', { method: 'POST' });
                cache.clear();
                route('/sign-in');
              }}
            >
              Sign out
            </button>
          </>
        ) : (
          <>
            <a href="/sign-in">Sign in</a>
            <a href="/sign-up">Sign up</a>
          </>
        )}
      </nav>
    </header>
  );
}

function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        <a href="/">Back to your organisations</a>
      </p>
    </section>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <LocationProvider>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <Header />
        <main id="main" tabIndex={-1}>
          <ErrorBoundary>
            <Router>
              <Route path="/" component={Organisations} />
              <Route path="/sign-in" component={SignIn} />
              <Route path="/sign-up" component={SignUp} />
              <Route path="/verify-email" component={VerifyEmail} />
              <Route path="/forgot-password" component={ForgotPassword} />
              <Route path="/reset-password" component={ResetPassword} />
              <Route path="/accept-invitation" component={AcceptInvitation} />
              <Route path="/dev-inbox" component={DevInbox} />
              <Route path="/orgs/:orgId" component={Organisation} />
              <Route path="/orgs/:orgId/projects/:projectId" component={Project} />
              <Route path="/orgs/:orgId/projects/:projectId/notifications" component={Notifications} />
              <Route path="/orgs/:orgId/projects/:projectId/users" component={Users} />
              <Route path="/orgs/:orgId/projects/:projectId/billing" component={Billing} />
              <Route path="/orgs/:orgId/projects/:projectId/mailer/:section?/:item?" component={Mailer} />
              <Route path="/orgs/:orgId/projects/:projectId/cms" component={Cms} />
              <Route path="/orgs/:orgId/projects/:projectId/cms/*" component={Cms} />
              <Route path="/orgs/:orgId/projects/:projectId/llm" component={LlmSettings} />
              <Route path="/orgs/:orgId/projects/:projectId/llm/usage" component={LlmUsage} />
              <Route path="/orgs/:orgId/projects/:projectId/llm/logs" component={LlmLogs} />
              <Route default component={NotFound} />
            </Router>
          </ErrorBoundary>
        </main>
      </LocationProvider>
    </QueryClientProvider>
  );
}
