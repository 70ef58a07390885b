// The clients of the authorization server, registered by an operator (`svc oauth-clients`). A
// client is the metadata oidc-provider reads from its adapter's Client model, so it is written
// through the same adapter (oauth-storage.ts): what is stored here is exactly what the provider
// finds, its secret sealed like any other. `first_party` and `allowances` are the two metadata
// properties the authorization server declares (extraClientMetadata) when it is mounted.
import { randomBytes } from 'node:crypto';
import type { ForgetDeps } from './oauth-credentials.ts';
import { hashToken } from '../../app/auth/tokens.ts';
import type { Services } from '../../app/context.ts';
import { ValidationError } from '../../app/errors.ts';
import { live } from './oauth-db.ts';
import { type OAuthStorageDeps, oauthStorage, oauthStorageDeps } from './oauth-storage.ts';

export const OAUTH_CLIENT_ALLOWANCES = ['team-assistant', 'svc-spaces'] as const;
export type OAuthClientAllowance = (typeof OAUTH_CLIENT_ALLOWANCES)[number];

const MAX_NAME_LENGTH = 100;
const MAX_REDIRECT_URIS = 10;
// oidc-provider's own list (lib/consts/client_attributes.js): where a native client may use http
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

export interface RegisterClientInput {
  name: string;
  redirectUris: readonly string[];
  firstParty?: boolean;
  allowances?: readonly string[];
  /** a confidential client authenticates with a secret; a public one (an app, a SPA) cannot keep one */
  confidential?: boolean;
}

export interface RegisteredClient {
  clientId: string;
  /** confidential clients only: shown this once, stored sealed */
  clientSecret?: string;
}

/** What may be shown of a client: never its secret. */
export interface OAuthClientView {
  clientId: string;
  name: string;
  redirectUris: string[];
  firstParty: boolean;
  allowances: string[];
  confidential: boolean;
  createdAt: Date;
}

/** A Client row's payload, as far as the list reads it. */
interface StoredClientMetadata {
  client_id: string;
  client_name?: string;
  /** sealed in the row: only whether there is one is read */
  client_secret?: unknown;
  redirect_uris?: string[];
  token_endpoint_auth_method?: string;
  first_party?: boolean;
  allowances?: string[];
}

export function oauthClients(deps: OAuthStorageDeps) {
  const clients = new (oauthStorage(deps))('Client');
  const { oAuthState } = deps.prisma;

  async function registerClient(input: RegisterClientInput): Promise<RegisteredClient> {
    const { name, redirectUris, allowances, applicationType } = checkedInput(input);
    const clientId = `oc_${randomBytes(24).toString('base64url')}`;
    const clientSecret = input.confidential ? randomBytes(32).toString('base64url') : undefined;
    await clients.upsert(clientId, {
      client_id: clientId,
      client_name: name,
      application_type: applicationType,
      redirect_uris: redirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: clientSecret ? 'client_secret_basic' : 'none',
      ...(clientSecret ? { client_secret: clientSecret } : {}),
      first_party: input.firstParty === true,
      allowances,
    });
    return clientSecret ? { clientId, clientSecret } : { clientId };
  }

  /** Every registered client, oldest first. Read from the rows as stored: the sealed secret is never opened. */
  async function listClients(): Promise<OAuthClientView[]> {
    const rows = await oAuthState.findMany({ where: { model: 'Client', ...live() }, orderBy: [{ createdAt: 'asc' }, { key: 'asc' }] });
    return rows.map(clientView);
  }

  /** One client, as listClients shows it; null when there is none. */
  async function getClient(clientId: string): Promise<OAuthClientView | null> {
    const row = await oAuthState.findFirst({ where: { model: 'Client', key: hashToken(clientId), ...live() } });
    return row ? clientView(row) : null;
  }

  /**
   * Deletes the client, then everything issued to it: tokens, codes and grants (their payload's
   * `clientId`, base_token.js) and the sign-ins under way for it (an Interaction's request
   * parameters). The client goes first so that nothing new is issued to it meanwhile. A user's
   * Session keeps its entry for the client: it holds no credential, and names a grant now gone.
   * Answers whether the client existed.
   */
  async function revokeClient(clientId: string): Promise<boolean> {
    const { count } = await oAuthState.deleteMany({ where: { model: 'Client', key: hashToken(clientId) } });
    const tokens = await oAuthState.findMany({ where: { model: 'AccessToken', payload: { path: ['clientId'], equals: clientId } }, select: { payload: true } });
    await oAuthState.deleteMany({
      where: {
        OR: [
          { model: { not: 'Client' }, payload: { path: ['clientId'], equals: clientId } },
          { model: 'Interaction', payload: { path: ['params', 'client_id'], equals: clientId } },
        ],
      },
    });
    const accounts = new Set(tokens.map((t) => (t.payload as { accountId?: unknown }).accountId).filter((a): a is string => typeof a === 'string'));
    if (accounts.size) await deps.accessRevoked?.([...accounts]);
    return count > 0;
  }

  return { registerClient, listClients, getClient, revokeClient };
}

function clientView({ payload, createdAt }: { payload: unknown; createdAt: Date }): OAuthClientView {
  const client = payload as StoredClientMetadata;
  return {
    clientId: client.client_id,
    name: client.client_name ?? '',
    redirectUris: client.redirect_uris ?? [],
    firstParty: client.first_party === true,
    allowances: client.allowances ?? [],
    // a client registered otherwise (dynamic registration) may name no method: its secret tells
    confidential: (client.token_endpoint_auth_method ?? (client.client_secret ? 'client_secret_basic' : 'none')) !== 'none',
    createdAt,
  };
}

/** The clients of one instance: its database, sealed under its secrets key. */
export function oauthClientsFor(services: Pick<Services, 'prisma' | 'config'> & ForgetDeps) {
  return oauthClients(oauthStorageDeps(services));
}

function checkedInput(input: RegisterClientInput) {
  const name = input.name.trim();
  if (name.length < 1 || name.length > MAX_NAME_LENGTH) throw new ValidationError(`name must be 1 to ${MAX_NAME_LENGTH} characters`, [{ field: 'name', message: 'length' }]);

  const redirectUris = [...input.redirectUris];
  if (redirectUris.length === 0) throw new ValidationError('at least one redirect URI is required', [{ field: 'redirectUris', message: 'required' }]);
  if (redirectUris.length > MAX_REDIRECT_URIS) throw new ValidationError(`at most ${MAX_REDIRECT_URIS} redirect URIs`, [{ field: 'redirectUris', message: 'too many' }]);
  const kinds = redirectUris.map(redirectUriKind);
  // oidc-provider accepts a private-use scheme or http only from a native client, and from a
  // native client no https on a loopback host (RFC 8252 sections 7.1 to 7.3)
  const applicationType = kinds.some((kind) => kind === 'native') ? 'native' : 'web';
  if (applicationType === 'native' && kinds.includes('https-loopback')) {
    throw new ValidationError('a native client (private-use scheme or http loopback redirect URI) cannot also redirect to https on a loopback host', [
      { field: 'redirectUris', message: 'https loopback in a native client' },
    ]);
  }

  const allowances = [...new Set(input.allowances ?? [])];
  const unknown = allowances.filter((a) => !(OAUTH_CLIENT_ALLOWANCES as readonly string[]).includes(a));
  if (unknown.length) {
    throw new ValidationError(`unknown allowance ${unknown.join(', ')} (known: ${OAUTH_CLIENT_ALLOWANCES.join(', ')})`, [{ field: 'allowances', message: 'unknown' }]);
  }
  return { name, redirectUris, allowances: allowances as OAuthClientAllowance[], applicationType };
}

/** What a redirect URI asks of the client's application type; throws when it is no allowed redirect URI. */
function redirectUriKind(uri: string): 'web' | 'https-loopback' | 'native' {
  const refuse = (why: string): never => {
    throw new ValidationError(`redirect URI ${uri}: ${why}`, [{ field: 'redirectUris', message: why }]);
  };
  const parsed = URL.parse(uri);
  if (!parsed) return refuse('not an absolute URI');
  // an empty fragment ("…#") is gone from the parsed hash but still in the text
  if (uri.includes('#')) return refuse('must not have a fragment');
  if (parsed.protocol === 'https:') {
    if (!parsed.hostname) return refuse('https needs a host');
    return LOOPBACK_HOSTS.has(parsed.hostname) ? 'https-loopback' : 'web';
  }
  if (parsed.protocol === 'http:') return LOOPBACK_HOSTS.has(parsed.hostname) ? 'native' : refuse('http only for a loopback host (127.0.0.1, [::1], localhost)');
  // a private-use scheme is a reversed domain name the app owns (RFC 8252 section 7.1): the dot
  // also keeps out javascript:, data:, file: and the like
  if (/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/.test(parsed.protocol)) return 'native';
  return refuse('must be https, http on a loopback host, or a private-use scheme such as com.example.app:/callback');
}
