// The one request `npm run bench` makes itself before loading a scenario: it checks the answer
// (status and body) and, over HTTPS, the server's certificate, which autocannon does not check
// (it passes rejectUnauthorized: false to tls.connect whatever tlsOptions say, lib/httpClient.js).
import http from 'node:http';
import https from 'node:https';

export function checkRequest(
  url: string,
  options: { ca: string | null; method: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const onResponse = (res: http.IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
      res.on('error', reject);
    };
    const common = { method: options.method, headers: options.headers, agent: false as const };
    let req: http.ClientRequest;
    if (url.startsWith('https:')) {
      if (!options.ca) return reject(new Error(`no certificate to check ${url} against`));
      req = https.request(url, { ...common, ca: options.ca }, onResponse);
    } else {
      req = http.request(url, common, onResponse);
    }
    req.on('error', reject);
    req.end(options.body);
  });
}
