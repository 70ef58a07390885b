// The one configuration is the core settings plus every area's slice: one validation lists the
// mistakes of all of them, a slice's derived values and cross-setting checks apply, and two slices
// can never claim the same variable.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, defineConfigSlice, parseConfig } from '../../src/app/config.ts';
import { loadConfig } from '../../src/main/config.ts';
import { modules } from '../../src/main/modules.ts';

describe('configuration slices', () => {
  it('an area slice gives its defaults and derived values next to the core settings', () => {
    const config = loadConfig({ DATA_DIR: '/srv/svc' });
    expect(config.PORT).toBe(8443);
    expect(config.MESSAGE_SEND_RATE).toBe(200);
    expect(config.fileStorageDir).toBe('/srv/svc/files');
    expect(config.vapidKeyFile).toBe('/srv/svc/vapid-keys.json');
  });

  it('one message lists the mistakes of the core and of every slice', () => {
    expect(() => loadConfig({ PORT: 'eighty', MESSAGE_SEND_RATE: '0', IMPORT_MAX_ROWS: '-1' })).toThrow(
      /PORT: .*\n\s+MESSAGE_SEND_RATE: .*\n\s+IMPORT_MAX_ROWS: /,
    );
  });

  it("a slice's check across its settings refuses a combination that cannot work", () => {
    expect(() => loadConfig({ FILE_STORAGE_DRIVER: 's3' })).toThrow('FILE_STORAGE_DRIVER=s3 needs S3_BUCKET');
  });

  it('no variable is defined by two slices, or by a slice and the core', () => {
    const twice = defineConfigSlice({ settings: z.object({ PORT: z.string() }) });
    expect(() => parseConfig([twice], {})).toThrow(ConfigError);
    const keys = modules.flatMap((m) => Object.keys(m.config?.settings.shape ?? {}));
    expect(new Set(keys).size).toBe(keys.length);
  });
});
