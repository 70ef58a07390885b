// Whether anything still listens on a local port: the shutdown and drain tests watch it close.
import net from 'node:net';

/** 'refused' when nothing listens on the port any more, 'accepted' otherwise. */
export function tcpProbe(port: number): Promise<'refused' | 'accepted'> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED' ? 'refused' : 'accepted'));
  });
}
