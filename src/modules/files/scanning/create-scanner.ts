// The configured malware scanner: clamd when CLAMD_URL names one, else the built-in scanner.
import type { Config } from '../../../app/config.ts';
import { createBuiltinScanner } from './builtin-scanner.ts';
import { createClamdScanner } from './clamd-scanner.ts';
import type { MalwareScanner } from './malware-scanner.ts';

export function createMalwareScanner(config: Pick<Config, 'CLAMD_URL'>): MalwareScanner {
  return config.CLAMD_URL ? createClamdScanner(config.CLAMD_URL) : createBuiltinScanner();
}
