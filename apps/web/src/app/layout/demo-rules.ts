/** Button texts that mean "change something" (seed 000 section 4, Demo mode). */
export const DEMO_BLOCKED_WORDS = /save|delete|update|create|add|remove|submit/i;

/** Is a click on a button with this text blocked for a demo user? */
export function isDemoBlockedButtonText(text: string): boolean {
  return DEMO_BLOCKED_WORDS.test(text);
}
