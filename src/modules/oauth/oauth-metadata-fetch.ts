// How the authorization server fetches a client's metadata document (a client whose client_id is
// an https URL): through the platform's guard for user-supplied targets, so that a client_id can
// never make the server call a private, loopback, link-local or reserved address. The host is
// resolved and checked, and the connection goes only to an address that passed (no DNS rebinding
// between the check and the connection); redirects are not followed.
import tls from 'node:tls';
import { undici } from '../../app/on-first-use.ts';
import { parseTargetUrl, pinnedLookup, resolveTarget } from '../webhooks/index.ts';

const MAX_DOCUMENT_BYTES = 64 * 1024;

async function boundedBody(response: { body: AsyncIterable<Uint8Array> | null }): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!response.body) return Buffer.alloc(0);
  for await (const chunk of response.body) {
    size += chunk.length;
    if (size > MAX_DOCUMENT_BYTES) throw new Error(`the client metadata document is larger than ${MAX_DOCUMENT_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export interface MetadataFetchSettings {
  /** tests only: loopback hosts pass */
  allowLoopback: boolean;
  /** PEM trusted besides the system roots (tests' self-signed servers) */
  ca?: string;
}

export function guardedMetadataFetch(settings: MetadataFetchSettings) {
  return async (url: string | URL, options: RequestInit & { dispatcher?: unknown }): Promise<Response> => {
    const target = parseTargetUrl(String(url));
    const addresses = await resolveTarget(target, { allowLoopback: settings.allowLoopback });
    const agent = new (undici().Agent)({
      connect: { lookup: pinnedLookup(addresses) as never, ...(settings.ca ? { ca: [...tls.rootCertificates, settings.ca] } : {}) },
    });
    try {
      const { dispatcher: _theirs, ...rest } = options;
      const response = await undici().fetch(target, { ...(rest as object), dispatcher: agent, redirect: 'manual' });
      // read here (at most MAX_DOCUMENT_BYTES), so the connection can close
      return new Response(new Uint8Array(await boundedBody(response as { body: AsyncIterable<Uint8Array> | null })), { status: response.status, headers: response.headers as unknown as Headers });
    } finally {
      await agent.close();
    }
  };
}
