// CSV import limits of background tasks. README.md "Configuration" explains each setting.
import { z } from 'zod';
import { defineConfigSlice } from '../../app/config.ts';

const settings = z.object({
  // background-task CSV import (BULK_DATA_IMPORT): the largest file and the most data rows one task takes
  IMPORT_MAX_BYTES: z.coerce.number().int().min(1).default(5 * 1024 * 1024),
  IMPORT_MAX_ROWS: z.coerce.number().int().min(1).default(5000),
});

declare module '../../app/config.ts' {
  interface Env extends z.infer<typeof settings> {}
}

export const backgroundTasksConfig = defineConfigSlice({
  settings,
});
