// A TCP proxy in front of the test PostgreSQL, so a test can take "the database" away from one
// server (every connection dropped, new ones refused, as during a restart or an outage) without
// touching the cluster the other test files share.
import net from 'node:net';

export interface PostgresProxy {
  /** `databaseUrl` with host and port replaced by the proxy's */
  url: string;
  /** drops every open connection and refuses new ones (ECONNREFUSED) until `restore` */
  cut(): Promise<void>;
  /** accepts connections again, on the same port */
  restore(): Promise<void>;
  /** connections currently relayed */
  openConnections(): number;
  close(): Promise<void>;
}

export async function startPostgresProxy(databaseUrl: string): Promise<PostgresProxy> {
  const target = new URL(databaseUrl);
  const targetPort = Number(target.port || 5432);
  const targetHost = target.hostname;
  const sockets = new Set<net.Socket>();

  const relay = (client: net.Socket) => {
    const upstream = net.connect(targetPort, targetHost);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  };

  let server = net.createServer(relay);
  await listen(server, 0);
  const port = (server.address() as net.AddressInfo).port;
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);

  return {
    url: url.toString(),
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    async restore() {
      if (server.listening) return;
      server = net.createServer(relay);
      await listen(server, port);
    },
    openConnections: () => sockets.size / 2,
    async close() {
      for (const socket of sockets) socket.destroy();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function listen(server: net.Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}
