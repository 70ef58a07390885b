// The tokens that tie what comes back from the outside to one outgoing mail: the return path
// (`bounces+<token>@<domain>`, where bounces and complaint reports arrive) and the one-click
// unsubscribe URL. A token names the team and the mail without showing either: the team's
// internal id and the mail's simplyId are one AES block (a keyed permutation: deterministic,
// opaque), followed by an HMAC over the purpose and that block, so a token is only ever minted
// here, and a return-path token is no unsubscribe token. Hex keeps it case-insensitive (some
// servers fold the local part) and 52 characters long, well within a local part's 64.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { loadOrCreateSecretsKey } from '../../app/secrets-key.ts';
import { mailId } from './mail.ids.ts';

export type MailTokenPurpose = 'return-path' | 'unsubscribe';

/** What a token names: the mail `simplyId` of team `teamId`. */
export interface MailRef {
  teamId: bigint;
  simplyId: string;
}

const BLOCK_BYTES = 16;
/** 80 bits: a forgery is a guess at the SMTP or HTTP door, one request per guess */
const MAC_BYTES = 10;
export const MAIL_TOKEN_LENGTH = (BLOCK_BYTES + MAC_BYTES) * 2;
const TOKEN_PATTERN = new RegExp(`^[0-9a-f]{${MAIL_TOKEN_LENGTH}}$`);

// the alphabet of simplyIds (src/app/ids.ts): 12 symbols of 31 fit in 64 bits
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const BASE = BigInt(ALPHABET.length);
const PREFIX = `${mailId.prefix}-`;

function simplyIdToNumber(simplyId: string): bigint {
  let n = 0n;
  for (const symbol of simplyId.slice(PREFIX.length).replaceAll('-', '')) n = n * BASE + BigInt(ALPHABET.indexOf(symbol));
  return n;
}

function numberToSimplyId(n: bigint): string | null {
  let symbols = '';
  for (let i = 0; i < 12; i++) {
    symbols = ALPHABET[Number(n % BASE)]! + symbols;
    n /= BASE;
  }
  if (n !== 0n) return null;
  return `${PREFIX}${symbols.slice(0, 4)}-${symbols.slice(4, 8)}-${symbols.slice(8)}`;
}

export class MailTokens {
  private readonly encryptionKey: Buffer;
  private readonly macKey: Buffer;

  constructor(secretsKey: Buffer) {
    // the secrets key itself never encrypts or signs: each use has a key of its own
    this.encryptionKey = Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), 'svc mail tokens v1 block', 32));
    this.macKey = Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), 'svc mail tokens v1 mac', 32));
  }

  mint(purpose: MailTokenPurpose, key: MailRef): string {
    if (!mailId.is(key.simplyId)) throw new Error(`not a mail simplyId: ${key.simplyId}`);
    const plain = Buffer.alloc(BLOCK_BYTES);
    plain.writeBigUInt64BE(key.teamId, 0);
    plain.writeBigUInt64BE(simplyIdToNumber(key.simplyId), 8);
    // one block, no padding: ECB of a single block is the block cipher itself
    const cipher = createCipheriv('aes-256-ecb', this.encryptionKey, null).setAutoPadding(false);
    const block = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([block, this.mac(purpose, block)]).toString('hex');
  }

  /** The mail a token names, or null for anything this instance's key did not mint for `purpose`. */
  read(purpose: MailTokenPurpose, token: string): MailRef | null {
    const text = token.toLowerCase();
    if (!TOKEN_PATTERN.test(text)) return null;
    const bytes = Buffer.from(text, 'hex');
    const block = bytes.subarray(0, BLOCK_BYTES);
    if (!timingSafeEqual(bytes.subarray(BLOCK_BYTES), this.mac(purpose, block))) return null;
    const decipher = createDecipheriv('aes-256-ecb', this.encryptionKey, null).setAutoPadding(false);
    const plain = Buffer.concat([decipher.update(block), decipher.final()]);
    const simplyId = numberToSimplyId(plain.readBigUInt64BE(8));
    const teamId = plain.readBigUInt64BE(0);
    return simplyId && teamId > 0n ? { teamId, simplyId } : null;
  }

  private mac(purpose: MailTokenPurpose, block: Buffer): Buffer {
    return createHmac('sha256', this.macKey).update(`${purpose}\n`).update(block).digest().subarray(0, MAC_BYTES);
  }
}

const byKeyFile = new Map<string, MailTokens>();

/** One instance per key file: every instance sharing SECRETS_KEY_FILE reads the others' tokens. */
export function mailTokensFor(secretsKeyFile: string): MailTokens {
  let tokens = byKeyFile.get(secretsKeyFile);
  if (!tokens) {
    tokens = new MailTokens(loadOrCreateSecretsKey(secretsKeyFile));
    byKeyFile.set(secretsKeyFile, tokens);
  }
  return tokens;
}

export const RETURN_PATH_LOCAL_PREFIX = 'bounces+';

/** `bounces+<token>@<domain>`: the SMTP MAIL FROM of one mail. */
export function returnPathFor(tokens: MailTokens, key: MailRef, domain: string): string {
  return `${RETURN_PATH_LOCAL_PREFIX}${tokens.mint('return-path', key)}@${domain}`;
}

/** The mail a return-path address names (any domain: the token alone is the proof), or null. */
export function readReturnPath(tokens: MailTokens, address: string): MailRef | null {
  const at = address.lastIndexOf('@');
  const local = at < 0 ? '' : address.slice(0, at);
  if (local.slice(0, RETURN_PATH_LOCAL_PREFIX.length).toLowerCase() !== RETURN_PATH_LOCAL_PREFIX) return null;
  return tokens.read('return-path', local.slice(RETURN_PATH_LOCAL_PREFIX.length));
}
