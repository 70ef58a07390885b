// A real clamd for the scanner tests: Debian's clamav-daemon binary (scripts/ensure-clamav.sh
// installs it) started as a child process on a loopback port with a generated clamd.conf. ClamAV's
// signature databases cannot be downloaded here, so its database is one signature of our own:
// the EICAR test file (clamd reports it as Eicar-Test-Signature.UNOFFICIAL, unsigned databases'
// names getting that suffix).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/db/free-port.ts';
import { pingClamd } from '../../src/modules/files/scanning/clamd-scanner.ts';
import { eicar } from './file-samples.ts';
import { untilWith } from './until.ts';

export const CLAMD_BINARY = process.env.CLAMD_PATH ?? '/usr/sbin/clamd';

/** Why the clamd tests cannot run on this machine, or null when they can. */
export function clamdMissing(): string | null {
  return existsSync(CLAMD_BINARY) ? null : `no clamd at ${CLAMD_BINARY}: run scripts/ensure-clamav.sh (Debian's clamav-daemon) or set CLAMD_PATH`;
}

export interface ClamdServer {
  /** tcp://127.0.0.1:<port> */
  url: string;
  /** unix:///<temp dir>/clamd.sock: the same daemon on a local socket */
  socketUrl: string;
  close(): Promise<void>;
}

export interface ClamdOptions {
  /** clamd's StreamMaxLength (and its scan size limits), e.g. '100M' */
  streamMaxLength?: string;
}

const waitUntilUp = untilWith({ timeoutMs: 60_000, everyMs: 100 });

export async function startClamd(options: ClamdOptions = {}): Promise<ClamdServer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clamd-'));
  const databases = path.join(dir, 'db');
  const temporary = path.join(dir, 'tmp');
  mkdirSync(databases);
  mkdirSync(temporary);
  // an extended signature (.ndb): name, any target type, any offset, the bytes in hex
  writeFileSync(path.join(databases, 'test.ndb'), `Eicar-Test-Signature:0:*:${eicar().toString('hex')}\n`);
  const port = await freePort();
  const limit = options.streamMaxLength ?? '100M';
  const logFile = path.join(dir, 'clamd.log');
  const conf = path.join(dir, 'clamd.conf');
  const socket = path.join(dir, 'clamd.sock');
  // No `User`: clamd keeps the identity it was started with (root in CI) and needs no clamav
  // account. It listens on loopback TCP and on a socket in its own temporary folder.
  writeFileSync(
    conf,
    [
      'Foreground yes',
      `TCPSocket ${port}`,
      'TCPAddr 127.0.0.1',
      `LocalSocket ${socket}`,
      `DatabaseDirectory ${databases}`,
      `TemporaryDirectory ${temporary}`,
      `LogFile ${logFile}`,
      `StreamMaxLength ${limit}`,
      `MaxScanSize ${limit}`,
      `MaxFileSize ${limit}`,
      'ScanArchive yes',
      'MaxThreads 4',
      'SelfCheck 0',
      '',
    ].join('\n'),
  );
  const child = spawn(CLAMD_BINARY, ['-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let ended = false;
  void exited.then(() => (ended = true));
  // a test run that dies must not leave a daemon behind
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const close = async () => {
    process.off('exit', killOnExit);
    if (!ended) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const url = `tcp://127.0.0.1:${port}`;
  try {
    await waitUntilUp('clamd to answer PING', async () => {
      if (ended) throw new Error('clamd exited');
      return pingClamd(url, 1000);
    });
  } catch (error) {
    const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-2000) : '';
    await close();
    throw new Error(`clamd did not start (${(error as Error).message}):\n${output}\n${log}`);
  }
  return { url, socketUrl: `unix://${socket}`, close };
}
