import {
  BEARER,
  buildOpenApiDocument,
  errorResponses,
  jsonBody,
  jsonResponse,
  type JsonSchema,
} from '@platform/contract';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const str: JsonSchema = { type: 'string' };
const nullableStr: JsonSchema = { type: ['string', 'null'] };
const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
const nullableDateTime: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
const role: JsonSchema = { type: 'string', enum: ['owner', 'admin', 'developer', 'viewer'] };
const object = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  required,
  properties,
});
const listOf = (field: string, item: string): JsonSchema => object({ [field]: { type: 'array', items: ref(item) } });
const path = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const query = (name: string, schema: JsonSchema = str, required = false) => ({ name, in: 'query', required, schema });

const ORG = [path('orgId')];
const PROJECT = [path('orgId'), path('projectId')];
const KEY = [path('orgId'), path('projectId'), path('keyId')];

/** An operation of a signed-in member. */
const op = (
  operationId: string,
  responses: Record<string, unknown>,
  extra: { parameters?: unknown[]; requestBody?: unknown; errors?: number[] } = {},
) => ({
  operationId,
  security: BEARER,
  ...(extra.parameters ? { parameters: extra.parameters } : {}),
  ...(extra.requestBody ? { requestBody: extra.requestBody } : {}),
  responses: { ...responses, ...errorResponses(...(extra.errors ?? [400, 401, 403, 404])) },
});

const noContent = { '204': { description: 'Done' } };
const nameBody = jsonBody(object({ name: { type: 'string', minLength: 1, maxLength: 100 } }));
const authPassThrough = (operationId: string, description: string) => ({
  post: {
    operationId,
    description: `${description} Forwarded to the Authentication service in the console's reserved project; the answer (status and body) is Authentication's.`,
    requestBody: jsonBody({ type: 'object', additionalProperties: true }),
    responses: {
      '200': jsonResponse("Authentication's answer", { type: 'object', additionalProperties: true }),
      '201': jsonResponse("Authentication's answer", { type: 'object', additionalProperties: true }),
      '204': { description: "Authentication's answer" },
      ...errorResponses(400, 401, 403, 409, 410, 423, 429, 502),
    },
  },
});

const organisation = object(
  {
    id: str,
    name: str,
    createdAt: dateTime,
    suspended: { type: 'boolean' },
    suspendedAt: nullableDateTime,
    suspensionReason: nullableStr,
    role,
    members: { type: 'integer' },
  },
  ['id', 'name', 'createdAt', 'suspended', 'suspendedAt', 'suspensionReason'],
);
const member = object({ userId: str, email: str, role, joinedAt: dateTime });
const invitation = object({
  id: str,
  organisationId: str,
  email: str,
  role,
  invitedBy: str,
  status: { type: 'string', enum: ['pending', 'accepted', 'revoked', 'expired'] },
  expiresAt: dateTime,
  createdAt: dateTime,
});
const keyProperties = {
  id: str,
  name: str,
  publicKey: str,
  createdBy: nullableStr,
  createdAt: dateTime,
  lastUsedAt: nullableDateTime,
  expiresAt: nullableDateTime,
  revokedAt: nullableDateTime,
  status: { type: 'string', enum: ['active', 'expired', 'revoked'] },
};
const key: JsonSchema = { ...object(keyProperties), additionalProperties: false };
const issuedKey = object({ ...keyProperties, secretKey: { type: 'string', description: 'Shown once, here only' } });
const settings = { type: 'object', additionalProperties: true };
const erasure = object({
  requestedAt: dateTime,
  complete: { type: 'boolean' },
  services: { type: 'object', additionalProperties: nullableDateTime },
});
const projectProperties = {
  id: str,
  organisationId: str,
  name: str,
  settings,
  createdAt: dateTime,
  status: { type: 'string', enum: ['active', 'deleting', 'deleted'] },
  deletedAt: nullableDateTime,
  erasure: { oneOf: [erasure, { type: 'null' }] },
};
const project = object(projectProperties);
const createdProject = object({ ...projectProperties, key: ref('IssuedKey') });
const auditEntry = object({
  id: str,
  at: dateTime,
  organisationId: nullableStr,
  projectId: nullableStr,
  actor: object({ id: nullableStr, email: nullableStr }),
  action: str,
  target: nullableStr,
  outcome: { type: 'string', enum: ['success', 'denied', 'failure'] },
  clientAddress: nullableStr,
  userAgent: nullableStr,
  source: { type: 'string', enum: ['console', 'cli', 'service', 'mcp'] },
  details: { type: 'object', additionalProperties: true },
});

export const openapi = buildOpenApiDocument({
  title: 'Console service',
  description:
    "The control plane: organisations (the platform's tenants), members and invitations, projects, keys, settings, member tokens and the audit log. Members sign in through the Authentication service in the console's reserved project; every other route takes that project's access token as the bearer. All paths start with /v1.",
  paths: {
    '/account/sign-up': authPassThrough(
      'signUp',
      'Registers a member (with CONSOLE_SIGNUP=invite: an invited address only, else 403).',
    ),
    '/account/sign-in': authPassThrough('signIn', 'Signs a member in: access and refresh tokens.'),
    '/account/refresh': authPassThrough('refreshSession', 'Rotates the refresh token.'),
    '/account/sign-out': authPassThrough('signOut', 'Ends the session.'),
    '/account/forgot-password': authPassThrough('forgotPassword', 'Sends a reset e-mail through the Mailer.'),
    '/account/reset-password': authPassThrough('resetPassword', 'Sets a new password with the e-mailed token.'),
    '/account/verify-email': authPassThrough('verifyEmail', 'Verifies the address with the e-mailed token.'),
    '/account/resend-verification': authPassThrough('resendVerification', 'Sends the verification e-mail again.'),
    '/me': {
      get: op(
        'getMe',
        {
          '200': jsonResponse(
            'The signed-in member',
            object({
              userId: str,
              email: str,
              operator: { type: 'boolean' },
              signup: { type: 'string', enum: ['open', 'invite'] },
              organisations: { type: 'array', items: ref('Organisation') },
            }),
          ),
        },
        { errors: [401] },
      ),
    },
    '/organisations': {
      post: op(
        'createOrganisation',
        { '201': jsonResponse('The organisation; its creator is its owner', ref('Organisation')) },
        { requestBody: nameBody, errors: [400, 401] },
      ),
      get: op(
        'listOrganisations',
        { '200': jsonResponse('My organisations', listOf('organisations', 'Organisation')) },
        { errors: [401] },
      ),
    },
    '/organisations/{orgId}': {
      get: op('getOrganisation', { '200': jsonResponse('The organisation', ref('Organisation')) }, { parameters: ORG }),
      patch: op(
        'renameOrganisation',
        { '200': jsonResponse('The organisation', ref('Organisation')) },
        { parameters: ORG, requestBody: nameBody },
      ),
      delete: op('deleteOrganisation', noContent, { parameters: ORG, errors: [401, 403, 404] }),
    },
    '/organisations/{orgId}/members': {
      get: op('listMembers', { '200': jsonResponse('Members', listOf('members', 'Member')) }, { parameters: ORG }),
    },
    '/organisations/{orgId}/members/{userId}': {
      patch: op(
        'changeMemberRole',
        { '200': jsonResponse('The member', ref('Member')) },
        {
          parameters: [...ORG, path('userId')],
          requestBody: jsonBody(object({ role })),
          errors: [400, 401, 403, 404, 409],
        },
      ),
      delete: op('removeMember', noContent, { parameters: [...ORG, path('userId')], errors: [401, 403, 404, 409] }),
    },
    '/organisations/{orgId}/invitations': {
      post: op(
        'inviteMember',
        { '201': jsonResponse('The invitation (its link goes by e-mail only)', ref('Invitation')) },
        {
          parameters: ORG,
          requestBody: jsonBody(object({ email: { type: 'string', format: 'email' }, role })),
          errors: [400, 401, 403, 404, 429],
        },
      ),
      get: op(
        'listInvitations',
        { '200': jsonResponse('Invitations', listOf('invitations', 'Invitation')) },
        { parameters: ORG },
      ),
    },
    '/organisations/{orgId}/invitations/{invitationId}': {
      delete: op('revokeInvitation', noContent, {
        parameters: [...ORG, path('invitationId')],
        errors: [401, 403, 404],
      }),
    },
    '/invitations/accept': {
      post: op(
        'acceptInvitation',
        { '200': jsonResponse('Membership', object({ organisationId: str, member: ref('Member') })) },
        { requestBody: jsonBody(object({ token: str })), errors: [400, 401, 403, 410, 429] },
      ),
    },
    '/organisations/{orgId}/projects': {
      post: op(
        'createProject',
        { '201': jsonResponse('The project with its first key pair (the secret shown once)', ref('CreatedProject')) },
        { parameters: ORG, requestBody: nameBody, errors: [400, 401, 403, 404, 409] },
      ),
      get: op(
        'listProjects',
        { '200': jsonResponse('Live projects', listOf('projects', 'Project')) },
        { parameters: ORG },
      ),
    },
    '/organisations/{orgId}/projects/{projectId}': {
      get: op(
        'getProject',
        { '200': jsonResponse("The project; a deleted one with its erasure's progress per service", ref('Project')) },
        { parameters: PROJECT },
      ),
      patch: op(
        'renameProject',
        { '200': jsonResponse('The project', ref('Project')) },
        { parameters: PROJECT, requestBody: nameBody, errors: [400, 401, 403, 404, 409] },
      ),
      delete: op(
        'deleteProject',
        { '202': jsonResponse('Keys revoked; the erasure is under way', ref('Project')) },
        { parameters: PROJECT, errors: [401, 403, 404] },
      ),
    },
    '/organisations/{orgId}/projects/{projectId}/keys': {
      get: op(
        'listKeys',
        { '200': jsonResponse('Public keys and metadata', listOf('keys', 'Key')) },
        { parameters: PROJECT },
      ),
      post: op(
        'createKey',
        { '201': jsonResponse('The new pair (the secret shown once)', ref('IssuedKey')) },
        { parameters: PROJECT, requestBody: nameBody },
      ),
    },
    '/organisations/{orgId}/projects/{projectId}/keys/{keyId}/rotate': {
      post: op(
        'rotateKey',
        {
          '201': jsonResponse('The new pair and the old one', object({ key: ref('IssuedKey'), previous: ref('Key') })),
        },
        {
          parameters: KEY,
          requestBody: jsonBody(object({ oldKeyExpiresInSeconds: { type: 'integer', minimum: 0 } }, []), false),
        },
      ),
    },
    '/organisations/{orgId}/projects/{projectId}/keys/{keyId}': {
      delete: op(
        'revokeKey',
        {
          '200': jsonResponse(
            'Revoked; every service refuses it within effectiveWithinSeconds (its key cache TTL)',
            object({ key: ref('Key'), effectiveWithinSeconds: { type: 'integer' } }),
          ),
        },
        { parameters: KEY, errors: [401, 403, 404] },
      ),
    },
    '/organisations/{orgId}/projects/{projectId}/settings': {
      get: op('getSettings', { '200': jsonResponse('Settings', ref('Settings')) }, { parameters: PROJECT }),
      patch: op(
        'updateSettings',
        { '200': jsonResponse('Settings', ref('Settings')) },
        { parameters: PROJECT, requestBody: jsonBody(settings) },
      ),
    },
    '/organisations/{orgId}/projects/{projectId}/member-token': {
      post: op(
        'issueMemberToken',
        {
          '201': jsonResponse(
            'A short-lived member token for the six services (docs/control-plane-contract.md)',
            object({ token: str, expiresAt: dateTime, role, organisationId: str, projectId: str }),
          ),
        },
        { parameters: PROJECT, errors: [401, 403, 404, 503] },
      ),
    },
    '/organisations/{orgId}/audit': {
      get: op(
        'listAuditEntries',
        {
          '200': jsonResponse(
            'Newest first',
            object({ entries: { type: 'array', items: ref('AuditEntry') }, nextCursor: nullableStr }),
          ),
        },
        {
          parameters: [
            ...ORG,
            query('projectId'),
            query('actor'),
            query('action'),
            query('from', dateTime),
            query('to', dateTime),
            query('limit', { type: 'integer', minimum: 1, maximum: 200 }),
            query('cursor'),
          ],
        },
      ),
    },
    '/organisations/{orgId}/audit/export': {
      get: {
        ...op(
          'exportAuditEntries',
          {},
          {
            parameters: [
              ...ORG,
              query('from', dateTime, true),
              query('to', dateTime, true),
              query('projectId'),
              query('actor'),
              query('action'),
            ],
          },
        ),
        responses: {
          '200': {
            description: 'NDJSON: one AuditEntry a line, oldest first',
            content: { 'application/x-ndjson': { schema: { type: 'string' } } },
          },
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    '/operator/organisations': {
      get: op(
        'listAllOrganisations',
        { '200': jsonResponse('Every organisation (operators only)', listOf('organisations', 'Organisation')) },
        {
          parameters: [query('limit', { type: 'integer' }), query('offset', { type: 'integer' })],
          errors: [400, 401, 403],
        },
      ),
    },
    '/operator/organisations/{orgId}/suspension': {
      post: op(
        'suspendOrganisation',
        { '200': jsonResponse('Suspended: its keys stop working on every service', ref('Organisation')) },
        { parameters: ORG, requestBody: jsonBody(object({ reason: str })) },
      ),
      delete: op(
        'liftSuspension',
        { '200': jsonResponse('The suspension lifted', ref('Organisation')) },
        { parameters: ORG, errors: [401, 403, 404] },
      ),
    },
  },
  schemas: {
    Organisation: organisation,
    Member: member,
    Invitation: invitation,
    Key: key,
    IssuedKey: issuedKey,
    Project: project,
    CreatedProject: createdProject,
    Settings: object({ settings, known: { type: 'array', items: str } }),
    AuditEntry: auditEntry,
  },
});
