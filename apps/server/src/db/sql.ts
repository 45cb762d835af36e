/** Escapes LIKE wildcards of user text (for `LIKE $n` with the default backslash escape). */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}
