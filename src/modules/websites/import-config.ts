// Website imports: how the platform reaches a site to import. README.md "Configuration" explains each setting.
import { z } from 'zod';
import { defineConfigSlice, envBool } from '../../app/config.ts';

const settings = z.object({
  // tests only: a website may be imported from loopback addresses (private, link-local and reserved stay refused)
  WEBSITE_IMPORT_ALLOW_LOOPBACK: envBool.default(false),
});

declare module '../../app/config.ts' {
  interface Env extends z.infer<typeof settings> {}
}

export const websiteImportConfig = defineConfigSlice({ settings });
