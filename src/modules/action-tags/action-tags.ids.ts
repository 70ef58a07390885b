// Identifiers of the action-tags area.
import { idKind } from '../../app/ids.ts';

/**
 * an action tag (`atag-XXXX-XXXX-XXXX`), the simplyActionTagSimplyId: printed in QR codes and NFC
 * chips, so it is random (about 59 bits), unique across the platform and never reissued
 */
export const actionTagId = idKind('atag', 'action tag');
