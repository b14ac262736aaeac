import type { Knex } from 'knex';
import type { ProjectSlots } from '@platform/limits';
import type { SecretBox } from '@platform/directory';
import type { Issuer } from '../issuer';
import type { IssuerDirectory } from './issuer-metadata';

/** What the provider sign-in works with, built once in the route table. */
export interface OidcContext {
  db: Knex;
  secrets: SecretBox;
  issuer: Issuer;
  issuers: IssuerDirectory;
  /** Calls to issuers a project may have in flight: a slow issuer holds its own project's share only. */
  slots: ProjectSlots;
  /** `<AUTH_PUBLIC_URL>/v1/callback`: the redirect URI registered at every provider. */
  callbackUrl: string;
  /** Whether the flow cookie is marked Secure (the public URL is https). */
  secureCookie: boolean;
}
