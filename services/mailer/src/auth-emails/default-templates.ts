import type { TemplateSource } from '../templates/template-engine';

export const AUTH_TEMPLATE_KEYS = {
  verifyEmail: 'auth.verify-email',
  resetPassword: 'auth.reset-password',
  /** A sign-in link and six-digit code (data also has `code`). */
  signIn: 'auth.sign-in',
  /** The console's invitation to an organisation, sent under the console's reserved project. */
  invitation: 'console.invitation',
} as const;

export type AuthTemplateKey = (typeof AUTH_TEMPLATE_KEYS)[keyof typeof AUTH_TEMPLATE_KEYS];

/** Used when a project has no template of its own under that templateKey. Data: {email, link, expiresAt} (and code for auth.sign-in). */
export const DEFAULT_AUTH_TEMPLATES: Record<AuthTemplateKey, TemplateSource> = {
  'auth.verify-email': {
    subject: 'Verify your email address',
    html:
      '<p>Hello,</p>' +
      '<p>Please confirm that {{email}} is your email address by opening this link:</p>' +
      '<p><a href="{{link}}">Verify my email address</a></p>' +
      '<p>The link works until {{expiresAt}}. If you did not sign up, you can ignore this email.</p>',
    text:
      'Hello,\n\nPlease confirm that {{email}} is your email address by opening this link:\n\n{{link}}\n\n' +
      'The link works until {{expiresAt}}. If you did not sign up, you can ignore this email.\n',
  },
  'auth.reset-password': {
    subject: 'Reset your password',
    html:
      '<p>Hello,</p>' +
      '<p>Someone asked to reset the password of {{email}}. To choose a new password, open this link:</p>' +
      '<p><a href="{{link}}">Reset my password</a></p>' +
      '<p>The link works until {{expiresAt}}. If you did not ask for this, you can ignore this email.</p>',
    text:
      'Hello,\n\nSomeone asked to reset the password of {{email}}. To choose a new password, open this link:\n\n{{link}}\n\n' +
      'The link works until {{expiresAt}}. If you did not ask for this, you can ignore this email.\n',
  },
  'auth.sign-in': {
    subject: 'Your sign-in code: {{code}}',
    html:
      '<p>Hello,</p>' +
      '<p>To sign in as {{email}}, open this link:</p>' +
      '<p><a href="{{link}}">Sign in</a></p>' +
      '<p>or enter this code: <strong>{{code}}</strong></p>' +
      '<p>The link and the code work once, until {{expiresAt}}. If you did not ask to sign in, you can ignore this email.</p>',
    text:
      'Hello,\n\nTo sign in as {{email}}, open this link:\n\n{{link}}\n\nor enter this code: {{code}}\n\n' +
      'The link and the code work once, until {{expiresAt}}. If you did not ask to sign in, you can ignore this email.\n',
  },
  'console.invitation': {
    subject: 'You are invited to an organisation',
    html:
      '<p>Hello,</p>' +
      '<p>You ({{email}}) are invited to join an organisation on the platform console. To accept, open this link:</p>' +
      '<p><a href="{{link}}">Accept the invitation</a></p>' +
      '<p>The link works once, until {{expiresAt}}. If you did not expect it, you can ignore this email.</p>',
    text:
      'Hello,\n\nYou ({{email}}) are invited to join an organisation on the platform console. To accept, open this link:\n\n{{link}}\n\n' +
      'The link works once, until {{expiresAt}}. If you did not expect it, you can ignore this email.\n',
  },
};
