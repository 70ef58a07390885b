// The one validated configuration: the core settings (src/app/config.ts) and every area's slice
// named by its manifest. Everything that starts the platform reads its settings here.
import { type Config, type Env, parseConfig } from '../app/config.ts';
import { modules } from './modules.ts';

export { ConfigError, type Config, type Env } from '../app/config.ts';

const slices = modules.flatMap((m) => (m.config ? [m.config] : []));

export function loadConfig(source: NodeJS.ProcessEnv = process.env, overrides: Partial<Env> = {}): Config {
  return parseConfig(slices, source, overrides);
}
