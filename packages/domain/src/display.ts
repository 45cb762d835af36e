/** Small display rules shared by every screen (seed 000 section 4, seed 002 sections 3 and 9). */

/** A user's name as shown: displayName, then name, then the part of the email before the @, then 'User'. */
export function displayName(user: { displayName?: string | null; name?: string | null; email?: string | null }): string {
  const candidates = [user.displayName, user.name, user.email?.split('@')[0]];
  return candidates.map((c) => c?.trim() ?? '').find((c) => c !== '') ?? 'User';
}

export type GreetingKey = 'morning' | 'afternoon' | 'evening';

/** The greeting by the hour (0-23): before 12 morning, before 17 afternoon, otherwise evening. */
export function greetingKey(hour: number): GreetingKey {
  if (hour < 12) return 'morning';
  if (hour < 17) return 'afternoon';
  return 'evening';
}

/** The auto-logout countdown as m:ss (seed 000 section 4); never negative, partial seconds dropped. */
export function formatCountdown(seconds: number): string {
  const total = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const minutes = Math.floor(total / 60);
  return `${minutes}:${String(total % 60).padStart(2, '0')}`;
}
