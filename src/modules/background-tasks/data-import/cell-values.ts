// A CSV cell (always text) as the wire value the record value layer takes for the field's data
// type. Only the spelling a spreadsheet cannot give is translated here (booleans, lists, an
// address); every rule about what a value may be stays in the value layer, which validates and
// normalizes what this answers exactly as for a REST or GraphQL write.
import type { FieldDef } from '../../../kernel/index.ts';

const TRUE_WORDS = new Set(['true', 'yes', 'y', '1']);
const FALSE_WORDS = new Set(['false', 'no', 'n', '0']);
const LIST_TYPES = new Set(['MULTI_DATA_RECORD', 'MULTI_FILE', 'MULTI_IMAGE']);

/** A list cell: a JSON array, or ids separated by commas, semicolons or line breaks. */
function listOf(cell: string): unknown {
  const text = cell.trim();
  if (text.startsWith('[')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text; // the value layer refuses it with its own message
    }
  }
  return text.split(/[,;\n]/).map((part) => part.trim()).filter((part) => part !== '');
}

/**
 * `undefined`: leave the field alone (a blank cell under blankCells IGNORE); null: clear it;
 * anything else goes to the value layer.
 */
export function cellValue(field: FieldDef, cell: string, blankCells: 'IGNORE' | 'CLEAR'): unknown {
  if (cell.trim() === '') return blankCells === 'CLEAR' ? null : undefined;
  if (field.dataType === 'BOOLEAN') {
    const word = cell.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
    return cell;
  }
  if (LIST_TYPES.has(field.dataType)) return listOf(cell);
  if (field.dataType === 'PHYSICAL_ADDRESS') {
    try {
      return JSON.parse(cell) as unknown;
    } catch {
      return cell;
    }
  }
  return cell;
}
