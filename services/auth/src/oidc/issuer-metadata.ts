import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { TtlCache } from '@platform/limits';
import { callIssuer, IssuerCallError, type IssuerCallLimits } from './issuer-http';

/** The parts of an issuer's discovery document the sign-in uses. */
export interface IssuerMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint?: string;
  id_token_signing_alg_values_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
}

const METADATA_TTL_MS = 10 * 60_000;
const JWKS_TTL_MS = 10 * 60_000;

const isUrl = (value: unknown): value is string => typeof value === 'string' && URL.canParse(value);

/**
 * Discovery documents and key sets of the issuers projects use, each fetched through the guarded
 * client and kept for minutes. A key set is fetched again when a token names a key it lacks
 * (the issuer rotated its keys), at most once per token.
 */
export class IssuerDirectory {
  private readonly metadata = new TtlCache<IssuerMetadata>(1_000);
  private readonly keySets = new TtlCache<JWTVerifyGetKey>(1_000);

  constructor(readonly limits: IssuerCallLimits) {}

  async discover(issuer: string): Promise<IssuerMetadata> {
    const cached = this.metadata.get(issuer);
    if (cached) return cached;
    const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const { status, body } = await callIssuer(url, { method: 'GET' }, this.limits);
    const doc = body as Partial<IssuerMetadata> | null;
    if (status !== 200 || !doc) throw new IssuerCallError(`discovery answered ${status}`);
    // OpenID Connect Discovery 1.0 §4.3: the document must name exactly the issuer it was fetched for.
    if (doc.issuer !== issuer) throw new IssuerCallError('discovery names another issuer');
    if (!isUrl(doc.authorization_endpoint) || !isUrl(doc.token_endpoint) || !isUrl(doc.jwks_uri)) {
      throw new IssuerCallError('discovery lacks an endpoint');
    }
    const metadata = doc as IssuerMetadata;
    this.metadata.set(issuer, metadata, METADATA_TTL_MS);
    return metadata;
  }

  /** The issuer's keys; `fresh` fetches them again (a token named a key the cached set lacks). */
  async keys(metadata: IssuerMetadata, fresh = false): Promise<JWTVerifyGetKey> {
    const cached = fresh ? undefined : this.keySets.get(metadata.jwks_uri);
    if (cached) return cached;
    const { status, body } = await callIssuer(metadata.jwks_uri, { method: 'GET' }, this.limits);
    const set = body as JSONWebKeySet | null;
    if (status !== 200 || !set || !Array.isArray(set.keys)) throw new IssuerCallError(`JWKS answered ${status}`);
    const keys = createLocalJWKSet(set);
    this.keySets.set(metadata.jwks_uri, keys, JWKS_TTL_MS);
    return keys;
  }
}
