/** Prompts for common jobs: the steps an agent takes with this server's tools. */
export interface McpPrompt {
  name: string;
  description: string;
  arguments: { name: string; description: string; required: boolean }[];
  text(args: Record<string, string>): string;
}

export const PROMPTS: McpPrompt[] = [
  {
    name: 'add_email_verification',
    description: 'Add e-mail verification to the sign-up of my app',
    arguments: [{ name: 'appUrl', description: 'Where the app serves its verification page', required: false }],
    text: (args) =>
      [
        'Add e-mail verification to the sign-up of my app, using this platform project.',
        '1. Call describe_project to see the project, its settings and which e-mail providers the Mailer has.',
        '2. If mailer_getProviders lists none, tell me which provider to configure (mailer_postProviders) and stop there: never invent credentials.',
        '3. Read the auth README resources (readme://auth/...) on verification, and the auth OpenAPI document (openapi://auth) for /register, /verify-email and /resend-verification.',
        `4. Change the app's sign-up so that it calls /register and then shows a "check your inbox" page; the link in the e-mail leads to ${args.appUrl ?? "the app's verification page"}, which posts the token to /verify-email.`,
        '5. Check with mailer_getTemplates whether the verification template exists and preview it with mailer_postTemplatesByTemplateIdPreview.',
        '6. To try it, register a test user from the app, then read mailer_getLogs and auth_getUsersByEmail to see the e-mail go out and the address become verified.',
      ].join('\n'),
  },
  {
    name: 'investigate_bounces',
    description: 'Find out why e-mails of my project bounce or are not delivered',
    arguments: [{ name: 'email', description: 'One recipient to look at first', required: false }],
    text: (args) =>
      [
        'Find out why e-mails of this platform project bounce or are not delivered.',
        '1. mailer_getStats and mailer_getStatsDaily: how many e-mails are in each status, and since when.',
        args.email
          ? `2. mailer_getEmailsLogsByRecipientEmail for ${args.email}: each attempt and the provider's answer.`
          : '2. mailer_getLogs: the latest failures and the providers\u2019 answers.',
        '3. mailer_getSuppressions: addresses suppressed after bounces or complaints.',
        '4. mailer_getProviders: which providers are configured, in which order.',
        'Explain the cause in a few sentences and propose a fix; ask before removing a suppression or sending a test e-mail.',
      ].join('\n'),
  },
];
