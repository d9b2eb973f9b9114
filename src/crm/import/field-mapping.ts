/**
 * Applying a mapping type's `fieldValueMappings` to a file's rows. Pure functions.
 *
 * A field takes its value from, in this order: its mapping's `staticValue`; its mapping's
 * `columnName`; else (when the field can be mapped by name) the column named like the field
 * or one of its aliases. `values` then translate the value: a source value (compared trimmed
 * and without case) becomes its target value; other values pass unchanged. Empty cells count
 * as absent.
 */
import type { ValidationIssue } from '../errors.js';
import type { FieldDef, MappingTypeDef } from './mapping-types.js';

/** One `fieldValueMappings` entry, validated. */
export interface FieldValueMapping {
  readonly fieldName: string;
  readonly columnName: string | null;
  readonly staticValue: string | null;
  readonly values: readonly { readonly sourceValue: string; readonly targetValue: string }[];
}

/** Where a field's value comes from. */
export interface CompiledField {
  readonly name: string;
  /** Column index, or null when static. */
  readonly column: number | null;
  readonly staticValue: string | null;
  /** Source value key (trimmed, lower case) -> target value. */
  readonly values: ReadonlyMap<string, string>;
}

export interface CompiledMapping {
  readonly def: MappingTypeDef;
  readonly fields: readonly CompiledField[];
  /** `CF<id>` columns (types with customFieldColumns). */
  readonly customFields: readonly { readonly customFieldId: number; readonly column: number; readonly columnName: string }[];
}

/** Comparison key of a column or field name: lower case without spaces, `_`, `-` or `.`. */
export function nameKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s_.-]+/g, '');
}

/** Index of the column called `name` (by {@link nameKey}), or -1. */
export function columnIndex(columns: readonly string[], name: string): number {
  const key = nameKey(name);
  return columns.findIndex((c) => nameKey(c) === key);
}

function byNameColumn(columns: readonly string[], f: FieldDef): number {
  for (const candidate of [f.name, ...f.aliases]) {
    const i = columnIndex(columns, candidate);
    if (i !== -1) return i;
  }
  return -1;
}

const CUSTOM_FIELD_COLUMN = /^cf(\d{1,9})$/;

/**
 * Resolves a mapping type's fields against the file's columns. `path` is the request path of
 * the mapping type (`actions[0].mappingTypes[1]`), for the issues: an unknown field or
 * column, a required field mapped to nothing.
 */
export function compileMapping(
  def: MappingTypeDef,
  mappings: readonly FieldValueMapping[],
  columns: readonly string[],
  path: string,
): { ok: true; value: CompiledMapping } | { ok: false; issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  const fields: CompiledField[] = [];
  const seen = new Set<string>();
  mappings.forEach((m, i) => {
    const at = `${path}.fieldValueMappings[${i}]`;
    const f = def.fields.find((x) => x.name.toLowerCase() === m.fieldName.trim().toLowerCase());
    if (f === undefined) {
      issues.push({
        property: `${at}.fieldName`,
        text: `${def.name} has no field "${m.fieldName}".`,
        hint: `Fields: ${def.fields.map((x) => x.name).join(', ')}.`,
      });
      return;
    }
    seen.add(f.name);
    const values = new Map(m.values.map((v) => [v.sourceValue.trim().toLowerCase(), v.targetValue]));
    if (m.staticValue !== null) {
      fields.push({ name: f.name, column: null, staticValue: m.staticValue, values });
      return;
    }
    const name = m.columnName ?? f.name;
    const column = m.columnName !== null ? columnIndex(columns, name) : byNameColumn(columns, f);
    if (column === -1) {
      issues.push({
        property: `${at}.${m.columnName !== null ? 'columnName' : 'fieldName'}`,
        text: `The file has no column "${name}" for ${def.name} field ${f.name}.`,
        hint: `Columns: ${columns.join(', ')}.`,
      });
      return;
    }
    fields.push({ name: f.name, column, staticValue: null, values });
  });
  for (const f of def.fields) {
    if (seen.has(f.name)) continue;
    const column = f.canBeMappedByName ? byNameColumn(columns, f) : -1;
    if (column !== -1) fields.push({ name: f.name, column, staticValue: null, values: new Map() });
  }
  const customFields: { customFieldId: number; column: number; columnName: string }[] = [];
  if (def.customFieldColumns === true) {
    columns.forEach((c, column) => {
      const m = CUSTOM_FIELD_COLUMN.exec(nameKey(c));
      if (m !== null) customFields.push({ customFieldId: Number(m[1]), column, columnName: c });
    });
    if (customFields.length === 0) {
      issues.push({ property: path, text: `${def.name} needs at least one column named CF<customFieldId> (e.g. CF123).` });
    }
  }
  for (const f of def.fields) {
    // VanID may come from a CreateOrUpdateContact of the same row; the caller checks that.
    if (f.isRequired && f.name !== 'VanID' && !fields.some((x) => x.name === f.name)) {
      issues.push({ property: path, text: `${def.name} field ${f.name} is required: map it with fieldValueMappings or name a column "${f.name}".` });
    }
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: { def, fields, customFields } };
}

/** True when the compiled mapping reads the field. */
export function hasField(m: CompiledMapping, name: string): boolean {
  return m.fields.some((f) => f.name === name);
}

/** The value of one compiled field in a row, or null when absent or empty. */
export function fieldValue(f: CompiledField, cells: readonly string[]): string | null {
  const raw = f.staticValue ?? (f.column === null ? null : (cells[f.column] ?? null));
  if (raw === null) return null;
  const trimmed = raw.trim();
  const mapped = f.values.size > 0 ? f.values.get(trimmed.toLowerCase()) : undefined;
  const value = mapped ?? trimmed;
  return value === '' ? null : value;
}

/** Field name -> value of every mapped field present in the row. */
export function readFields(m: CompiledMapping, cells: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of m.fields) {
    const value = fieldValue(f, cells);
    if (value !== null) out.set(f.name, value);
  }
  return out;
}
