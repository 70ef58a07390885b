// REST calls to the platform under test as one API key, over HTTPS that checks the server's
// certificate, on keep-alive connections (the writers of the scenarios).
import https from 'node:https';
import { wallClockMs } from './stats.ts';

export interface ApiResponse {
  status: number;
  body: any;
  /** wall-clock ms (stats.ts wallClockMs) when the request was sent and when its response had arrived */
  sentAt: number;
  doneAt: number;
}

export class ApiError extends Error {}

export class ApiClient {
  private readonly agent: https.Agent;
  private readonly baseUrl: string;
  private readonly apiKey: string;

  /** `apiKey`: the bearer credential (an API key or an access token); empty: none (sign-in) */
  constructor(options: { baseUrl: string; ca: string; apiKey: string; sockets?: number }) {
    this.baseUrl = options.baseUrl;
    this.apiKey = options.apiKey;
    this.agent = new https.Agent({ keepAlive: true, ca: options.ca, maxSockets: options.sockets ?? 8 });
  }

  request(method: string, path: string, body?: unknown): Promise<ApiResponse> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const sentAt = wallClockMs();
      const req = https.request(
        `${this.baseUrl}${path}`,
        {
          method,
          agent: this.agent,
          headers: { ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const doneAt = wallClockMs();
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = JSON.parse(text);
            } catch {
              // not JSON: keep the text
            }
            resolve({ status: res.statusCode ?? 0, body: parsed, sentAt, doneAt });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** `request`, expecting `status`; returns the envelope's `data`. */
  async expect(status: number, method: string, path: string, body?: unknown): Promise<any> {
    const response = await this.request(method, path, body);
    if (response.status !== status) throw new ApiError(`${method} ${path}: expected ${status}, got ${response.status} ${JSON.stringify(response.body).slice(0, 1000)}`);
    return response.body?.data;
  }

  close(): void {
    this.agent.destroy();
  }
}
