// oidc-provider 9 ships no type declarations (and @types/oidc-provider stops at 8). These cover
// what the platform uses of it, checked against lib/adapters/memory_adapter.js and lib/models.
declare module 'oidc-provider' {
  /** What a model asks its adapter to keep: its claims, plus `jti` (its id) for all but Client. */
  export interface AdapterPayload {
    jti?: string;
    kind?: string;
    iat?: number;
    exp?: number;
    /** epoch seconds; set by the adapter's consume() */
    consumed?: number;
    grantId?: string;
    uid?: string;
    userCode?: string;
    client_id?: string;
    client_secret?: string;
    [claim: string]: unknown;
  }

  /** One adapter instance per model: `new Adapter('AccessToken')`. */
  export interface Adapter {
    /** `expiresIn` in seconds; absent for objects without expiry (a registered Client) */
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    /** Session only */
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    /** DeviceCode only */
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export type AdapterConstructor = new (model: string) => Adapter;

  export interface ClientMetadata {
    client_id: string;
    client_secret?: string;
    redirect_uris?: string[];
    grant_types?: string[];
    response_types?: string[];
    token_endpoint_auth_method?: string;
    [property: string]: unknown;
  }

  export interface Configuration {
    adapter?: AdapterConstructor | ((model: string) => Adapter);
    clients?: ClientMetadata[];
    cookies?: { keys?: (string | Uint8Array)[] };
    jwks?: { keys: object[] };
    [option: string]: unknown;
  }

  export interface Client {
    readonly clientId: string;
    readonly clientSecret?: string;
    readonly clientName?: string;
    readonly redirectUris: string[];
    readonly tokenEndpointAuthMethod: string;
    /** the operator marks (oauth-clients): snake_case, as registered */
    readonly first_party?: boolean;
    readonly allowances?: string[];
    redirectUriAllowed(uri: string): boolean;
    responseTypeAllowed(type: string): boolean;
  }

  export interface AccessToken {
    readonly jti: string;
    readonly accountId?: string;
    readonly clientId?: string;
    readonly grantId?: string;
    readonly scope?: string;
    readonly isValid: boolean;
    save(): Promise<string>;
    destroy(): Promise<void>;
  }

  export interface Grant {
    readonly jti: string;
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  /** The client as oidc-provider's callbacks see it. */
  export interface ClientView {
    readonly clientId: string;
    grantTypeAllowed(grantType: string): boolean;
  }

  /** A request's context in oidc-provider's callbacks: its route (e.g. 'registration'), when known. */
  export interface CallbackContext {
    oidc?: { route?: string };
  }

  /** The errors oidc-provider answers with their OAuth error code (`errors` export). */
  type OAuthErrorClass = new (description?: string) => Error;
  export const errors: {
    InvalidTarget: OAuthErrorClass;
    InvalidClientMetadata: OAuthErrorClass;
    InvalidRequest: OAuthErrorClass;
    InvalidGrant: OAuthErrorClass;
    AccessDenied: OAuthErrorClass;
  };

  export interface InteractionResult {
    /** remember: false keeps the browser's sign-in for this request only */
    login?: { accountId: string; remember?: boolean };
    consent?: { grantId?: string };
    error?: string;
    error_description?: string;
  }

  export interface AuthorizationCode {
    save(): Promise<string>;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    /** koa's: trust X-Forwarded-Proto and X-Forwarded-Host */
    proxy: boolean;
    /** the Node request handler of every endpoint */
    callback(): (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void;
    interactionDetails(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): Promise<{ uid: string; params: Record<string, unknown>; prompt: { name: string } }>;
    /** records the result and answers where the browser goes next (back into the authorization endpoint) */
    interactionResult(
      req: import('node:http').IncomingMessage,
      res: import('node:http').ServerResponse,
      result: InteractionResult,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    interactionFinished(
      req: import('node:http').IncomingMessage,
      res: import('node:http').ServerResponse,
      result: InteractionResult,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): this;
    readonly Client: { find(id: string): Promise<Client | undefined> };
    readonly AccessToken: {
      prototype: object;
      new (input: { accountId: string; client: Client; grantId: string; scope?: string }): AccessToken;
      find(value: string): Promise<AccessToken | undefined>;
      revokeByGrantId(grantId: string): Promise<void>;
    };
    readonly RefreshToken: { prototype: object };
    readonly AuthorizationCode: {
      new (input: {
        accountId: string;
        client: Client;
        grantId: string;
        scope: string;
        redirectUri: string;
        codeChallenge: string;
        codeChallengeMethod: 'S256';
        resource?: string;
      }): AuthorizationCode;
    };
    readonly Grant: {
      new (input: { accountId: string; clientId: string }): Grant;
      find(id: string): Promise<Grant | undefined>;
    };
  }
}
