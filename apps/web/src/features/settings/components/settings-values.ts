import type { FieldErrors, Resolver } from 'react-hook-form';
import { SETTINGS_SECTIONS, settingsSaveSchema, type Settings, type SettingsField } from '@pharmapoint/domain/settings';

/** What the form holds per field: text for text, numbers and lists (one item per line), booleans as they are. */
export type FormValue = string | boolean;
export type FormValues = Record<string, FormValue>;

export const ALL_FIELDS: readonly SettingsField[] = SETTINGS_SECTIONS.flatMap((section) => section.fields);

function readPath(source: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), source);
}

function writePath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (!next || typeof next !== 'object') node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const last = keys[keys.length - 1];
  if (last !== undefined) node[last] = value;
}

/** The form's values for a settings document. */
export function toFormValues(settings: Settings): FormValues {
  const values: FormValues = {};
  for (const field of ALL_FIELDS) {
    const value = readPath(settings, field.key);
    if (field.kind === 'boolean') values[field.key] = value === true;
    else if (field.kind === 'list') values[field.key] = Array.isArray(value) ? value.join('\n') : '';
    else values[field.key] = value === undefined || value === null ? '' : String(value);
  }
  return values;
}

/** A list typed one item per line: trimmed, blanks dropped. */
export function parseList(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** The settings document the form describes, on top of the loaded one (so nothing the form lacks is lost). */
export function toDocument(base: Settings, values: FormValues): unknown {
  const document = structuredClone(base) as unknown as Record<string, unknown>;
  for (const field of ALL_FIELDS) {
    const value = values[field.key];
    if (value === undefined) continue;
    if (field.kind === 'boolean') writePath(document, field.key, value === true);
    else if (field.kind === 'list') writePath(document, field.key, parseList(String(value)));
    else if (field.kind === 'number' || field.kind === 'percent') {
      const text = String(value).trim();
      // An empty number is not zero: leave it NaN so the schema reports it.
      writePath(document, field.key, text === '' ? Number.NaN : Number(text));
    } else writePath(document, field.key, String(value));
  }
  return document;
}

export type ValidationResult = { ok: true; settings: Settings } | { ok: false; errors: Record<string, string> };

/** Validates with the same schema the server's save uses (settingsSaveSchema); errors keyed by field path. */
export function validateSettings(document: unknown): ValidationResult {
  const parsed = settingsSaveSchema.safeParse(document);
  if (parsed.success) return { ok: true, settings: parsed.data as Settings };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    // A list item's error belongs to the list field.
    const path = issue.path.filter((part) => typeof part === 'string').join('.');
    errors[path] ??= issue.message;
  }
  return { ok: false, errors };
}

/** The id of the section a field belongs to. */
export function sectionOf(fieldKey: string): string | undefined {
  return SETTINGS_SECTIONS.find((section) => section.fields.some((field) => field.key === fieldKey))?.id;
}

/** The form's values as react-hook-form holds them: nested like the document (a dotted key is a path). */
export type NestedFormValues = Record<string, unknown>;

export function nestValues(values: FormValues): NestedFormValues {
  const nested: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) writePath(nested, key, value);
  return nested;
}

export function flattenValues(nested: NestedFormValues): FormValues {
  const values: FormValues = {};
  for (const field of ALL_FIELDS) {
    const value = readPath(nested, field.key);
    if (typeof value === 'string' || typeof value === 'boolean') values[field.key] = value;
  }
  return values;
}

/**
 * react-hook-form's resolver for the settings screen: the form's text on top of the loaded document, read and
 * validated by the domain's settingsSaveSchema; each error at its field's path (a list item's at its list).
 */
export function settingsResolver(base: Settings): Resolver<NestedFormValues, unknown, Settings> {
  return (values) => {
    const result = validateSettings(toDocument(base, flattenValues(values)));
    if (result.ok) return { values: result.settings, errors: {} };
    const errors: Record<string, unknown> = {};
    for (const [key, message] of Object.entries(result.errors)) writePath(errors, key, { type: 'validate', message });
    return { values: {}, errors: errors as FieldErrors<NestedFormValues> };
  };
}
