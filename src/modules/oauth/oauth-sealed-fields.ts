// Values inside payloads that would let a reader act as someone else: a registered client's
// secret; what an Interaction remembers of other bearer values (the session cookie it was started
// from, the device code and pushed request it continues, its own id in the URL it resumes at); and
// the id of the objects oidc-provider finds by something else than their id (a Session by its uid,
// a DeviceCode by its user code), which it must get back to save them again under the same id.
// They are sealed with the instance's secret box rather than hashed because oidc-provider reads
// them back: it compares the client secret, and finds the device code and pushed request by them.
import type { SecretBox } from '../../app/secret-box.ts';

type Json = Record<string, unknown>;

/** Paths (from the payload's root) of the strings sealed per model. */
const SEALED: Record<string, readonly (readonly string[])[]> = {
  Client: [['client_secret']],
  Interaction: [['session', 'cookie'], ['deviceCode'], ['parJti'], ['params', 'request_uri'], ['returnTo']],
  Session: [['jti']],
  DeviceCode: [['jti']],
};

/** Whether the model's stored payload keeps its id (sealed); the others drop it, find() has it. */
export const keepsSealedId = (model: string): boolean => (SEALED[model] ?? []).some((path) => path.length === 1 && path[0] === 'jti');

/**
 * A sealed string is stored as `{ sealed: base64url }` where the payload had the string: an object
 * where a string belongs, so it cannot be mistaken for a value oidc-provider wrote.
 */
interface Sealed {
  sealed: string;
}

const isSealed = (value: unknown): value is Sealed =>
  typeof value === 'object' && value !== null && typeof (value as Sealed).sealed === 'string';

/** Binds each box to its row and place: a box copied to another row or field does not open. */
const sealContext = (model: string, key: string, path: readonly string[]) => `oauth:${model}:${key}:${path.join('.')}`;

export function sealFields(box: SecretBox, model: string, key: string, payload: Json): Json {
  return mapFields(model, payload, (value, path) =>
    typeof value === 'string' ? { sealed: box.seal(value, sealContext(model, key, path)).toString('base64url') } : value,
  );
}

export function openFields(box: SecretBox, model: string, key: string, payload: Json): Json {
  return mapFields(model, payload, (value, path) =>
    isSealed(value) ? box.open(Buffer.from(value.sealed, 'base64url'), sealContext(model, key, path)) : value,
  );
}

/** A copy of `payload` with each sealed path of the model replaced; the payload itself is not changed. */
function mapFields(model: string, payload: Json, map: (value: unknown, path: readonly string[]) => unknown): Json {
  let result = payload;
  for (const path of SEALED[model] ?? []) result = mapAt(result, path, path, map);
  return result;
}

function mapAt(node: Json, rest: readonly string[], path: readonly string[], map: (value: unknown, path: readonly string[]) => unknown): Json {
  const [head, ...tail] = rest;
  if (head === undefined || !Object.hasOwn(node, head)) return node;
  const value = node[head];
  if (tail.length === 0) return { ...node, [head]: map(value, path) };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return node;
  return { ...node, [head]: mapAt(value as Json, tail, path, map) };
}
