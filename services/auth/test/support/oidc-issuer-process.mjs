// A real OpenID Connect provider (node-oidc-provider) for the tests, in a process of its own
// (the package is an ES module only). Configuration comes as JSON in OIDC_ISSUER_CONFIG:
//   { clients: [{ client_id, client_secret, redirect_uris }], accounts: { <sub>: { email, email_verified } },
//     privateJwk }
// It prints `{"issuer": "http://127.0.0.1:<port>"}` on its first line once it listens.
// POST /__tamper {claims} makes the next token answer carry an ID token with these claims
// changed, re-signed with the provider's own key (what a tampering or misconfigured issuer sends).
import { createServer } from 'node:http';
import Provider from 'oidc-provider';
import { importJWK, SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';

const config = JSON.parse(process.env.OIDC_ISSUER_CONFIG ?? '{}');
const accounts = config.accounts ?? {};
let tamper = null;

const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: config.clients,
  jwks: { keys: [config.privateJwk] },
  cookies: { keys: ['test-cookie-key'] },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  findAccount: async (_ctx, id) => ({
    accountId: id,
    claims: async () => ({ sub: id, ...(accounts[id] ?? {}) }),
  }),
  features: { devInteractions: { enabled: true } },
  pkce: { required: () => true },
  ttl: { AuthorizationCode: 60, IdToken: 300, AccessToken: 300, Session: 600, Interaction: 600, Grant: 600 },
});
provider.proxy = false;

provider.use(async (ctx, next) => {
  await next();
  if (ctx.path === '/token' && tamper && ctx.body && ctx.body.id_token) {
    const header = decodeProtectedHeader(ctx.body.id_token);
    const claims = { ...decodeJwt(ctx.body.id_token), ...tamper };
    const key = await importJWK(config.privateJwk, header.alg);
    ctx.body = {
      ...ctx.body,
      id_token: await new SignJWT(claims).setProtectedHeader({ alg: header.alg, kid: header.kid }).sign(key),
    };
    tamper = null;
  }
});

const callback = provider.callback();
server.on('request', (req, res) => {
  if (req.method === 'POST' && req.url === '/__tamper') {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      tamper = JSON.parse(body).claims;
      res.writeHead(204).end();
    });
    return;
  }
  callback(req, res);
});

process.stdout.write(`${JSON.stringify({ issuer })}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
