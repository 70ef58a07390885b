// Bodies of the publishing routes (docs/api/websites.md "Publishing and review", "Versions",
// "Backups"), checked by the REST table and again by the services: 400 VALIDATION_ERROR naming the field.
import { z } from 'zod';

export const publishInput = z.strictObject({ summary: z.string().trim().max(500, 'at most 500 characters').optional() });
export const requestChangesInput = z.strictObject({ message: z.string().trim().min(1, 'must not be blank').max(2000, 'at most 2000 characters').optional() });

const label = z.string({ message: 'must be a string' }).trim().min(1, 'must not be blank').max(200, 'at most 200 characters');
const note = z.string({ message: 'must be a string' }).trim().max(2000, 'at most 2000 characters');
export const checkpointInput = z.strictObject({ label: label.optional(), note: note.optional() });
export const versionMetadataInput = z
  .strictObject({ label: label.nullable().optional(), note: note.nullable().optional() })
  .refine((v) => v.label !== undefined || v.note !== undefined, { message: 'send label or note' });

export const createBackupInput = z.strictObject({ summary: z.string({ message: 'must be a string' }).trim().max(500, 'at most 500 characters').optional() });

